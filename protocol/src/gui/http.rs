//! The HTTP side: binds the address, checks every request (method, route, `Host`, body size,
//! query values) and answers it on its own thread. Routes: the page's assets (a fixed table, so
//! no path ever reaches the file system), `POST /api/session`, the long poll `GET /api/state`,
//! `POST /api/cmd`, `GET /api/pgn` and `POST /api/close`; anything else is 404. A client that goes away mid-answer
//! only makes that answer's write fail.

use super::assets;
use super::hub::Hub;
use super::session::{Session, Shared};
use super::settings::Settings;
use super::GuiConfig;
use serde_json::{json, Value};
use std::io::Read;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;
use tiny_http::{Header, Method, Request, Response, Server};
use vorpal_engine::Position;

/// Largest request body accepted (a long PGN fits easily).
const MAX_BODY: usize = 1 << 20;
/// Requests answered at once; more are refused with 503.
const MAX_IN_FLIGHT: usize = 64;
/// Longest wait of one long poll.
const POLL_WAIT: Duration = Duration::from_secs(20);

/// Serves until the process is ended.
pub fn serve(config: GuiConfig) -> Result<(), String> {
    let server = Server::http(config.addr).map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
    let addr = server.server_addr().to_ip().ok_or("the server has no IP address")?;
    let url = format!("http://{addr}/");
    super::say(
        false,
        &format!("vorpal gui: open {url} in a browser (Ctrl-C stops the server)"),
    );
    if config.open {
        if let Err(e) = std::process::Command::new("xdg-open").arg(&url).spawn() {
            super::say(
                true,
                &format!("vorpal gui: cannot open a browser ({e}); open {url} yourself"),
            );
        }
    }
    let hub = Hub::new(config.engines);
    let listen_ip = config.addr.ip();
    let in_flight = Arc::new(AtomicUsize::new(0));
    for request in server.incoming_requests() {
        if in_flight.load(Ordering::SeqCst) >= MAX_IN_FLIGHT {
            respond(request, text(503, "busy: too many requests at once"));
            continue;
        }
        in_flight.fetch_add(1, Ordering::SeqCst);
        let (hub, count) = (hub.clone(), in_flight.clone());
        let spawned = thread::Builder::new().name("gui-http".into()).spawn(move || {
            handle(&hub, request, listen_ip);
            count.fetch_sub(1, Ordering::SeqCst);
        });
        if spawned.is_err() {
            in_flight.fetch_sub(1, Ordering::SeqCst);
        }
    }
    Ok(())
}

type Reply = Response<std::io::Cursor<Vec<u8>>>;

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("valid header")
}

fn with_type(status: u16, body: Vec<u8>, content_type: &str) -> Reply {
    Response::from_data(body)
        .with_status_code(status)
        .with_header(header("Content-Type", content_type))
        .with_header(header("X-Content-Type-Options", "nosniff"))
}

fn text(status: u16, body: &str) -> Reply {
    with_type(status, body.as_bytes().to_vec(), "text/plain; charset=utf-8")
}

fn json_reply(status: u16, v: &Value) -> Reply {
    with_type(status, v.to_string().into_bytes(), "application/json").with_header(header("Cache-Control", "no-store"))
}

/// Sends an answer; a client that has gone away is no error of ours.
fn respond(request: Request, reply: Reply) {
    if let Err(e) = request.respond(reply) {
        log::debug!("client went away: {e}");
    }
}

/// True when the `Host` header names this server (against DNS rebinding from other sites).
fn host_allowed(request: &Request, listen: IpAddr) -> bool {
    let Some(h) = request.headers().iter().find(|h| h.field.equiv("Host")) else {
        return false;
    };
    let host = h.value.as_str();
    let name = match host.rfind(':') {
        Some(i) if !host[i..].contains(']') => &host[..i],
        _ => host,
    };
    let name = name.trim_matches(['[', ']']);
    if listen.is_unspecified() {
        return true;
    }
    name == "localhost" || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback() || ip == listen)
}

/// The value of `key` in the query string (`[A-Za-z0-9]` only, else None).
fn query<'a>(url: &'a str, key: &str) -> Option<&'a str> {
    let q = url.split_once('?')?.1;
    q.split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v)
        .filter(|v| !v.is_empty() && v.len() <= 64 && v.bytes().all(|b| b.is_ascii_alphanumeric()))
}

fn read_body(request: &mut Request) -> Result<String, Reply> {
    if request.body_length().is_some_and(|n| n > MAX_BODY) {
        return Err(text(413, "request body too large"));
    }
    let mut body = Vec::new();
    let read = request.as_reader().take(MAX_BODY as u64 + 1).read_to_end(&mut body);
    if read.is_err() {
        return Err(text(400, "cannot read the request body"));
    }
    if body.len() > MAX_BODY {
        return Err(text(413, "request body too large"));
    }
    String::from_utf8(body).map_err(|_| text(400, "the request body is not UTF-8"))
}

fn handle(hub: &Arc<Hub>, mut request: Request, listen: IpAddr) {
    if !host_allowed(&request, listen) {
        return respond(request, text(403, "forbidden: unexpected Host header"));
    }
    let url = request.url().to_string();
    log::debug!("{} {url} from {:?}", request.method(), request.remote_addr());
    let path = url.split('?').next().unwrap_or("").to_string();
    let method = request.method().clone();
    let reply = match (&method, path.as_str()) {
        (Method::Get, p) if !p.starts_with("/api/") => match assets::find(p) {
            // Not cached: with caching, headless Chromium was seen to leave some piece images
            // loading for good; the assets are small and served from memory anyway.
            Some((body, kind)) => with_type(200, body, kind).with_header(header("Cache-Control", "no-store")),
            None => text(404, "not found"),
        },
        (Method::Post, "/api/session") => match hub.create() {
            Ok((sid, shared)) => json_reply(200, &json!({"sid": sid, "state": shared.lock().view()})),
            Err(e) => json_reply(503, &json!({"error": e})),
        },
        (Method::Post, "/api/close") => match query(&url, "sid") {
            Some(sid) if hub.close(sid) => text(200, "closed"),
            _ => text(410, "no such session"),
        },
        (Method::Get, "/api/state") => {
            let Some(shared) = session_of(hub, &url) else {
                return respond(
                    request,
                    json_reply(410, &json!({"error": "this page's session has ended; reload the page"})),
                );
            };
            let since = query(&url, "since").and_then(|v| v.parse().ok()).unwrap_or(0);
            let view = shared.wait_change(since, POLL_WAIT).view();
            json_reply(200, &view)
        }
        (Method::Get, "/api/pgn") => match session_of(hub, &url) {
            Some(shared) => with_type(
                200,
                pgn_of(&shared.lock()).into_bytes(),
                "application/x-chess-pgn; charset=utf-8",
            )
            .with_header(header("Content-Disposition", "attachment; filename=\"alice.pgn\"")),
            None => text(410, "this page's session has ended; reload the page"),
        },
        (Method::Post, "/api/cmd") => {
            let Some(shared) = session_of(hub, &url) else {
                return respond(
                    request,
                    json_reply(410, &json!({"error": "this page's session has ended; reload the page"})),
                );
            };
            let body = match read_body(&mut request) {
                Ok(b) => b,
                Err(reply) => return respond(request, reply),
            };
            match serde_json::from_str::<Value>(&body) {
                Ok(cmd) => command(&shared, &cmd),
                Err(e) => json_reply(400, &json!({"error": format!("the request is not JSON: {e}")})),
            }
        }
        (_, p)
            if assets::find(p).is_some()
                || p.starts_with("/api/")
                    && matches!(
                        p,
                        "/api/session" | "/api/state" | "/api/cmd" | "/api/pgn" | "/api/close"
                    ) =>
        {
            text(405, "method not allowed")
        }
        _ => text(404, "not found"),
    };
    respond(request, reply);
}

fn session_of(hub: &Hub, url: &str) -> Option<Arc<Shared>> {
    hub.get(query(url, "sid")?)
}

fn pgn_of(s: &Session) -> String {
    s.pgn_text()
}

/// Runs one command of the page; the answer carries the new view (and the error, if any).
fn command(shared: &Arc<Shared>, cmd: &Value) -> Reply {
    let outcome = shared.update(|s, shared| {
        let result = run_command(s, shared, cmd);
        if let Err(e) = &result {
            s.message = Some(e.clone());
            s.version += 1;
        }
        (result, s.view())
    });
    match outcome {
        (Ok(()), view) => json_reply(200, &json!({"ok": true, "state": view})),
        (Err(e), view) => json_reply(400, &json!({"error": e, "state": view})),
    }
}

fn str_field<'a>(cmd: &'a Value, key: &str) -> Result<&'a str, String> {
    cmd.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("missing text field '{key}'"))
}

fn run_command(s: &mut Session, shared: &Arc<Shared>, cmd: &Value) -> Result<(), String> {
    let name = str_field(cmd, "cmd")?;
    if name != "goto" {
        s.message = None;
    }
    match name {
        "undo" => s.take_back(),
        "new" => {
            let rules = s.rules_from(
                str_field(cmd, "variant")?,
                cmd.get("chess960").and_then(Value::as_bool).unwrap_or(false),
                cmd.get("enPassant").and_then(Value::as_str).unwrap_or("off"),
            )?;
            let start = match cmd
                .get("number")
                .and_then(Value::as_u64)
                .filter(|_| rules.is_chess960())
            {
                Some(n) => {
                    let fen = rules
                        .variant
                        .chess960_fen(n as u32)
                        .ok_or_else(|| format!("Chess960 position numbers run from 0 to 959, not {n}"))?;
                    Position::from_fen(&fen, rules).map_err(|e| e.to_string())?
                }
                None => Position::start(rules),
            };
            let players = s.players.clone();
            s.new_game(shared, start, &[], players);
            Ok(())
        }
        "fen" => {
            let text = str_field(cmd, "fen")?.trim();
            if text.len() > 400 {
                return Err("bad FEN: too long".into());
            }
            let pos = Position::from_fen(text, s.rules()).map_err(|e| format!("bad FEN, game unchanged: {e}"))?;
            let players = s.players.clone();
            s.new_game(shared, pos, &[], players);
            Ok(())
        }
        "settings" => {
            let settings = Settings::from_json(cmd, s.engines.len())?;
            s.apply_settings(shared, settings);
            Ok(())
        }
        "stop" => {
            s.stop_engines();
            Ok(())
        }
        "restart" => {
            s.restart_engines(shared);
            Ok(())
        }
        other => s.game_command(shared, other, cmd),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_values_are_checked() {
        assert_eq!(query("/api/state?sid=ab12&since=7", "since"), Some("7"));
        assert_eq!(query("/api/state?sid=ab12&since=7", "sid"), Some("ab12"));
        assert_eq!(query("/api/state?sid=../etc", "sid"), None);
        assert_eq!(query("/api/state", "sid"), None);
    }
}
