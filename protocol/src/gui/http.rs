//! The GUI's routes: every request passes the access checks ([`Access`]: Host, Origin and
//! `Sec-Fetch-Site`, the token for the API, JSON bodies only) before a route sees it. Routes: the
//! page's assets (a fixed table, so no path ever reaches the file system; the page itself only
//! with the token), `POST /api/session` (new, or rejoin a live one), the long poll
//! `GET /api/state` (one pending per session: a newer one answers the older), `POST /api/cmd`,
//! `GET /api/pgn` and `POST /api/close`; anything else is 404. Every number in a request is
//! range-checked (400), or clamped where the docs say so (`goto`).

use super::access::{Access, Grant};
use super::engine_pool::EnginePool;
use super::hub::Hub;
use super::secret::TOKEN_VARIABLE;
use super::server::{self, Handler, Limits, Request, Response};
use super::GuiConfig;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener};
use std::sync::Arc;
use std::time::{Duration, Instant};
use vorpal_page::assets;
use vorpal_page::commands::page_command;
use vorpal_page::requests::{CloseRequest, OpenRequest};
use vorpal_page::session::{PageSession, Shared};
use vorpal_page::view::View;

/// Longest wait of one long poll.
const POLL_WAIT: Duration = Duration::from_secs(20);
/// How often a waiting long poll checks that it is still its session's newest.
const POLL_SLICE: Duration = Duration::from_millis(250);
/// How long the engines get to obey `quit` when the server is stopped.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// Headers of every answer: no framing, no sniffing, no referrer (the token must not leak), no
/// script or connection but this server's, nothing cached.
fn fixed_headers() -> Vec<(String, String)> {
    [
        (
            "Content-Security-Policy",
            "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
             img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; \
             form-action 'none'; frame-ancestors 'none'",
        ),
        ("X-Frame-Options", "DENY"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Cross-Origin-Opener-Policy", "same-origin"),
        ("Cross-Origin-Resource-Policy", "same-origin"),
        ("Cache-Control", "no-store"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect()
}

/// Serves until the process is ended (by a signal: the engines are ended first).
pub fn serve(config: GuiConfig, token: String) -> Result<(), String> {
    let listener = TcpListener::bind(config.addr).map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("the server has no address: {e}"))?;
    let shown = if addr.ip().is_unspecified() {
        SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), addr.port())
    } else {
        addr
    };
    let url = format!("http://{shown}/?token={token}");
    let pool = EnginePool::new(config.max_engines);
    super::signals::end_engines_on_termination(pool.clone(), QUIT_GRACE)?;
    super::say(
        false,
        &format!("vorpal gui: open {url} in a browser (Ctrl-C stops the server)"),
    );
    if !addr.ip().is_loopback() {
        super::say(
            true,
            &format!(
                "vorpal gui: listening on {addr} in plain HTTP: anyone who can reach it and has the \
                 link can play and start engines here"
            ),
        );
    }
    if config.open {
        if let Err(e) = std::process::Command::new("xdg-open").arg(&url).spawn() {
            super::say(
                true,
                &format!("vorpal gui: cannot open a browser ({e}); open the link above yourself"),
            );
        }
    }
    let hub = Hub::new(config.engines, pool, config.session_timeout);
    let access = Access::new(token, config.addr.ip(), addr.port(), config.allowed_hosts);
    let limits = Limits {
        headers: fixed_headers(),
        // A whole PGN file (the page reads up to its limit) as a JSON string, escapes included.
        max_body: vorpal_page::pgn_file::PGN_FILE_LIMIT / 4 * 5 + (64 << 10),
        ..Limits::default()
    };
    log::info!("serving at most {} connections", limits.max_connections);
    server::serve(listener, limits, Arc::new(Routes { hub, access }));
    Ok(())
}

/// The routes of one server.
struct Routes {
    hub: Arc<Hub>,
    access: Access,
}

/// An error answer: `{"error": TEXT}`.
#[derive(Serialize)]
struct ErrorAnswer<'a> {
    error: &'a str,
}

/// The answer of `POST /api/session`.
#[derive(Serialize)]
struct SessionAnswer<'a> {
    /// True when it is the page's own session again.
    rejoined: bool,
    sid: &'a str,
    state: View<'a>,
}

fn json_reply<T: Serialize>(status: u16, body: &T) -> Response {
    match serde_json::to_vec(body) {
        Ok(bytes) => Response::new(status, "application/json", bytes),
        // Never sent: the answers are derived structs of texts, numbers and lists.
        Err(e) => Response::text(500, &format!("cannot write the answer: {e}")),
    }
}

fn error(status: u16, text: &str) -> Response {
    json_reply(status, &ErrorAnswer { error: text })
}

fn session_ended() -> Response {
    error(410, "this page's session has ended; reload the page")
}

/// The page shown without the token.
const NO_TOKEN_PAGE: &str = "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\">\
<title>Vorpal</title><body style=\"font-family:sans-serif;max-width:40em;margin:3em auto\">\
<h1>Vorpal</h1><p>Open the link printed by <code>vorpal gui</code> in its terminal: it carries \
the access key of this server (<code>http://&hellip;/?token=&hellip;</code>).</p></body></html>";

/// A session id or another token from the query: letters and digits, 1 to 64 of them.
fn id_param<'a>(request: &'a Request, key: &str) -> Option<&'a str> {
    request
        .query(key)
        .filter(|v| !v.is_empty() && v.len() <= 64 && v.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// The body as JSON (an empty body is `null`).
fn body_json(request: &Request) -> Result<Value, Response> {
    if request.body.is_empty() {
        return Ok(Value::Null);
    }
    serde_json::from_slice(&request.body).map_err(|e| error(400, &format!("the request is not JSON: {e}")))
}

impl Handler for Routes {
    fn check(&self, request: &Request) -> Option<Response> {
        if let Some(refused) = self.access.refuse_foreign(request) {
            return Some(refused);
        }
        if request.path().starts_with("/api/") && self.access.grant(request) != Grant::Token {
            return Some(error(
                403,
                &format!(
                    "forbidden: the API needs this server's access token (the page's cookie, or \
                     'Authorization: token TOKEN'; see {TOKEN_VARIABLE})"
                ),
            ));
        }
        // Only the API (behind the token) takes a body beyond 1 MiB: a whole PGN file.
        if !request.path().starts_with("/api/") && request.content_length().ok().flatten().is_some_and(|n| n > 1 << 20)
        {
            return Some(error(413, "request body too large: 1024 KiB at most outside the API"));
        }
        Access::refuse_body_type(request)
    }

    fn handle(&self, request: &Request) -> Response {
        log::debug!("{} {} from {}", request.method, request.path(), request.peer);
        let path = request.path();
        match (request.method.as_str(), path) {
            ("GET", "/" | "/index.html") => match self.access.grant(request) {
                Grant::Public => Response::new(403, "text/html; charset=utf-8", NO_TOKEN_PAGE.into()),
                grant => {
                    let (body, kind) = assets::find(path).expect("the page is an asset");
                    let page = Response::new(200, kind, body);
                    if grant == Grant::PageWithCookie {
                        page.with("Set-Cookie", &self.access.set_cookie())
                    } else {
                        page
                    }
                }
            },
            ("GET", p) if !p.starts_with("/api/") => match assets::find(p) {
                Some((body, kind)) => Response::new(200, kind, body),
                None => Response::text(404, "not found"),
            },
            ("POST", "/api/session") => self.open_session(request),
            ("POST", "/api/close") => {
                let body: CloseRequest = serde_json::from_slice(&request.body).unwrap_or_default();
                let sid = id_param(request, "sid").or(body.sid.as_deref());
                match sid {
                    Some(sid) if self.hub.close(sid) => Response::text(200, "closing"),
                    _ => Response::text(410, "no such session"),
                }
            }
            ("GET", "/api/state") => self.long_poll(request),
            ("GET", "/api/pgn") => match id_param(request, "sid").and_then(|sid| self.hub.visit(sid)) {
                Some(shared) => Response::new(
                    200,
                    "application/x-chess-pgn; charset=utf-8",
                    pgn_of(&shared.lock()).into_bytes(),
                )
                .with("Content-Disposition", "attachment; filename=\"alice.pgn\""),
                None => Response::text(410, "this page's session has ended; reload the page"),
            },
            ("POST", "/api/cmd") => {
                let Some(shared) = id_param(request, "sid").and_then(|sid| self.hub.visit(sid)) else {
                    return session_ended();
                };
                match body_json(request) {
                    Ok(cmd) => command(&shared, &cmd),
                    Err(reply) => reply,
                }
            }
            (_, p)
                if assets::find(p).is_some()
                    || matches!(
                        p,
                        "/api/session" | "/api/state" | "/api/cmd" | "/api/pgn" | "/api/close"
                    ) =>
            {
                Response::text(405, "method not allowed")
            }
            _ => Response::text(404, "not found"),
        }
    }
}

impl Routes {
    /// `POST /api/session`: a new session, or the page's own one again (`{"rejoin": ID}`)
    /// while it lives.
    fn open_session(&self, request: &Request) -> Response {
        let body = match body_json(request) {
            Ok(b) => b,
            Err(reply) => return reply,
        };
        // A body without a text `rejoin` asks for a new session.
        let asked = OpenRequest::deserialize(&body).unwrap_or_default();
        if let Some(old) = asked.rejoin.as_deref() {
            if let Some(shared) = self.hub.rejoin(old) {
                let session = shared.lock();
                let answer = SessionAnswer {
                    rejoined: true,
                    sid: old,
                    state: session.view(),
                };
                return json_reply(200, &answer);
            }
        }
        match self.hub.create() {
            Ok((sid, shared)) => {
                let session = shared.lock();
                let answer = SessionAnswer {
                    rejoined: false,
                    sid: &sid,
                    state: session.view(),
                };
                json_reply(200, &answer)
            }
            Err(e) => error(503, &e),
        }
    }

    /// `GET /api/state?sid=ID&since=VERSION`: the state once its version differs from `since`,
    /// or after [`POLL_WAIT`]. A newer poll of the same session ends this one at once with 409
    /// (so two pages sharing a session alternate at the page's retry pace, never in a loop).
    fn long_poll(&self, request: &Request) -> Response {
        let since = match request.query("since") {
            None => 0,
            Some(v) => match v.parse::<u64>() {
                Ok(n) => n,
                Err(_) => return error(400, "'since' must be a version number"),
            },
        };
        let Some((shared, poll)) = id_param(request, "sid").and_then(|sid| self.hub.begin_poll(sid)) else {
            return session_ended();
        };
        let deadline = Instant::now() + POLL_WAIT;
        let superseded = loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let changed = shared.wait_change(since, left.min(POLL_SLICE)).version() != since;
            if !self.hub.poll_is_current(&poll) {
                break true;
            }
            if changed || left.is_zero() {
                break false;
            }
        };
        self.hub.end_poll(&poll);
        if superseded {
            return error(409, "a newer request of this session took over");
        }
        let session = shared.lock();
        json_reply(200, &session.view())
    }
}

fn pgn_of(s: &PageSession) -> String {
    s.pgn_text()
}

/// Runs one command of the page (its JSON body): 200 with the new view, or 400 with the
/// refusal and the view ([`page_command`]).
pub(super) fn command(shared: &Arc<Shared>, body: &Value) -> Response {
    let (done, answer) = page_command(shared, body);
    Response::new(if done { 200 } else { 400 }, "application/json", answer.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_answer_forbids_framing_and_sniffing() {
        let h = fixed_headers();
        let get = |k: &str| h.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str()).unwrap_or("");
        assert!(get("Content-Security-Policy").contains("frame-ancestors 'none'"));
        assert_eq!(get("X-Frame-Options"), "DENY");
        assert_eq!(get("X-Content-Type-Options"), "nosniff");
        assert_eq!(get("Referrer-Policy"), "no-referrer");
    }
}
