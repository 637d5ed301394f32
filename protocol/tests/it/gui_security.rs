//! `vorpal gui` against the attacks of issue 22, on a real server on a free port: the access
//! token, cross-site requests, idle sockets and huge headers, abandoned sessions, engine caps
//! and restarts, shutdown by signal, and engines whose output is hostile. Linux only (the
//! processes are counted in /proc).
#![cfg(target_os = "linux")]

use crate::support::gui_server::{
    children_of, eventually, fake_engines, misbehaving, process_state, read_reply, GuiServer,
};
use std::io::Write;
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// A cheap engine that does the handshake (and plays illegal moves, which these tests never ask for).
fn fake_engine() -> Vec<String> {
    vec![
        "--engine".into(),
        format!("cmd={}", fake_engines().join("illegal.sh").display()),
        "name=Fake".into(),
    ]
}

fn start(extra: &[&str], engine: &[String]) -> GuiServer {
    let mut args: Vec<&str> = extra.to_vec();
    args.extend(engine.iter().map(String::as_str));
    GuiServer::start(&args)
}

const API_ROUTES: [(&str, &str); 6] = [
    ("POST", "/api/session"),
    ("GET", "/api/state?sid=0123abcd&since=0"),
    ("POST", "/api/cmd?sid=0123abcd"),
    ("GET", "/api/pgn?sid=0123abcd"),
    ("POST", "/api/close?sid=0123abcd"),
    ("GET", "/api/unknown"),
];

#[test]
fn the_api_needs_the_token_and_the_page_gets_it_as_a_cookie() {
    let server = start(&[], &fake_engine());
    for (method, target) in API_ROUTES {
        let r = server.request(method, target, &[], b"");
        assert_eq!(r.status, 403, "{method} {target} without a token: {}", r.body);
        let r = server.request(
            method,
            target,
            &[("Authorization", "token wrong-token-0123456789")],
            b"",
        );
        assert_eq!(r.status, 403, "{method} {target} with a wrong token");
        let r = server.request(method, target, &[("Cookie", "vorpal_gui_1=nothing")], b"");
        assert_eq!(r.status, 403, "{method} {target} with a wrong cookie");
    }
    assert_eq!(
        children_of(server.pid()).len(),
        0,
        "no engine started without the token"
    );
    // The page without the token says where the link is; with it, it sets the cookie.
    let bare = server.request("GET", "/", &[], b"");
    assert_eq!(bare.status, 403);
    assert!(bare.body.contains("link printed by"), "{}", bare.body);
    let page = server.request("GET", &format!("/?token={}", server.token), &[], b"");
    assert_eq!(page.status, 200);
    let cookie = page.header("set-cookie").expect("a cookie").to_string();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
    for (name, wanted) in [
        ("content-security-policy", "frame-ancestors 'none'"),
        ("x-frame-options", "DENY"),
        ("x-content-type-options", "nosniff"),
        ("referrer-policy", "no-referrer"),
    ] {
        for reply in [&bare, &page] {
            assert!(reply.header(name).is_some_and(|v| v.contains(wanted)), "{name} missing");
        }
    }
    // The cookie opens the API.
    let pair = cookie.split(';').next().unwrap();
    let r = server.request("POST", "/api/session", &[("Cookie", pair)], b"");
    assert_eq!(r.status, 200, "{}", r.body);
    let sid = r.json()["sid"].as_str().unwrap().to_string();
    assert_eq!(sid.len(), 32, "128-bit session ids");
    assert!(sid.bytes().all(|b| b.is_ascii_hexdigit()));
    let r = server.request("GET", &format!("/api/pgn?sid={sid}"), &[("Cookie", pair)], b"");
    assert_eq!(r.status, 200);
}

#[test]
fn the_token_can_come_from_the_environment() {
    let token = "scripted-token_0123456789";
    let server = GuiServer::start_with_env(
        &fake_engine().iter().map(String::as_str).collect::<Vec<_>>(),
        &[("VORPAL_GUI_TOKEN", token)],
    );
    assert_eq!(server.token, token);
    assert_eq!(server.api("POST", "/api/session", None).status, 200);
}

#[test]
fn cross_site_requests_and_non_json_bodies_are_refused() {
    let server = start(&[], &fake_engine());
    let auth = format!("token {}", server.token);
    let own = format!("http://{}", server.addr);
    let foreign: [&[(&str, &str)]; 4] = [
        &[("Origin", "https://evil.example")],
        &[("Origin", "null")],
        &[("Sec-Fetch-Site", "cross-site")],
        &[("Host", "evil.example")],
    ];
    for extra in foreign {
        let mut headers = vec![("Authorization", auth.as_str())];
        headers.extend_from_slice(extra);
        for (method, target) in API_ROUTES {
            let r = server.request(method, target, &headers, b"");
            assert_eq!(r.status, 403, "{method} {target} with {extra:?}");
        }
    }
    // A cross-site form post (text/plain) with a valid token: 415, nothing played or started.
    let sid = server.new_session();
    let form = br#"{"cmd":"move","uci":"e2m4"}"#;
    let headers = [("Authorization", auth.as_str()), ("Content-Type", "text/plain")];
    let r = server.request("POST", &format!("/api/cmd?sid={sid}"), &headers, form);
    assert_eq!(r.status, 415, "{}", r.body);
    assert_eq!(server.state(&sid)["moves"].as_array().unwrap().len(), 0);
    // The same move as JSON from the page's own origin is played.
    let headers = [
        ("Authorization", auth.as_str()),
        ("Content-Type", "application/json"),
        ("Origin", own.as_str()),
        ("Sec-Fetch-Site", "same-origin"),
    ];
    let r = server.request("POST", &format!("/api/cmd?sid={sid}"), &headers, form);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(server.state(&sid)["moves"].as_array().unwrap().len(), 1);
}

#[test]
fn request_numbers_are_range_checked() {
    let server = start(&[], &fake_engine());
    let sid = server.new_session();
    let cmd = |json: &str| server.api("POST", &format!("/api/cmd?sid={sid}"), Some(json));
    for number in ["960", "4294967296", "-1", "1.5", "\"7\""] {
        let r = cmd(&format!(
            r#"{{"cmd":"new","variant":"alice","chess960":true,"number":{number}}}"#
        ));
        assert_eq!(r.status, 400, "Chess960 number {number}: {}", r.body);
    }
    let r = cmd(r#"{"cmd":"new","variant":"alice","chess960":true,"number":959}"#);
    assert_eq!(r.status, 200, "{}", r.body);
    // `goto` clamps to the game, as documented.
    assert_eq!(cmd(r#"{"cmd":"goto","ply":18446744073709551615}"#).status, 200);
    assert_eq!(cmd(r#"{"cmd":"goto","ply":-3}"#).status, 400);
    let r = server.api("GET", &format!("/api/state?sid={sid}&since=x"), None);
    assert_eq!(r.status, 400);
}

#[test]
fn idle_sockets_and_huge_headers_do_not_harm_the_server() {
    let mut server = start(&[], &fake_engine());
    let idle: Vec<TcpStream> = (0..500)
        .map(|_| TcpStream::connect(&server.addr).expect("an idle connection"))
        .collect();
    let t = Instant::now();
    let page = server.request("GET", &format!("/?token={}", server.token), &[], b"");
    assert_eq!(page.status, 200);
    let sid = server.new_session();
    assert_eq!(server.state(&sid)["turn"], "white");
    assert!(t.elapsed() < Duration::from_secs(2), "answered in {:?}", t.elapsed());
    assert!(server.alive());
    drop(idle);
    // A 1 MiB header: 431, and the server still answers.
    let mut stream = TcpStream::connect(&server.addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let big = format!(
        "GET / HTTP/1.1\r\nHost: {}\r\nX-Big: {}\r\n\r\n",
        server.addr,
        "a".repeat(1 << 20)
    );
    let _ = stream.write_all(big.as_bytes());
    assert_eq!(read_reply(&mut stream).status, 431);
    assert!(server.alive());
    // A body over 1 MiB outside the API (which takes a whole PGN file behind the token): 413
    // before it is read.
    let mut stream = TcpStream::connect(&server.addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let head = format!(
        "POST / HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        server.addr,
        2 << 20
    );
    let _ = stream.write_all(head.as_bytes());
    assert_eq!(read_reply(&mut stream).status, 413);
    assert!(server.alive());
    // The API takes a PGN file of 2,500 games (1.4 MiB) and answers with one label per game.
    let game = format!("[Event \"g\"]\n\n1. e4 {{{}}} d5 *\n\n", "x".repeat(560));
    let file = serde_json::json!({"cmd": "pgn", "text": game.repeat(2500)}).to_string();
    assert!(file.len() > 1 << 20);
    let r = server.api("POST", &format!("/api/cmd?sid={sid}"), Some(&file));
    assert_eq!(r.status, 200, "{}", &r.body[..r.body.len().min(300)]);
    let answer: serde_json::Value = serde_json::from_str(&r.body).unwrap();
    assert_eq!(answer["games"].as_array().map(Vec::len), Some(2500));
    assert_eq!(
        server.api("GET", &format!("/api/state?sid={sid}&since=0"), None).status,
        200
    );
}

#[test]
fn a_low_open_file_limit_never_kills_the_server() {
    let engine = fake_engine();
    let args: Vec<&str> = engine.iter().map(String::as_str).collect();
    let mut server = GuiServer::start_with_file_limit(64, &args);
    let idle: Vec<TcpStream> = (0..200).filter_map(|_| TcpStream::connect(&server.addr).ok()).collect();
    assert!(idle.len() > 100);
    let t = Instant::now();
    assert_eq!(
        server
            .request("GET", &format!("/?token={}", server.token), &[], b"")
            .status,
        200
    );
    let sid = server.new_session();
    assert_eq!(server.state(&sid)["turn"], "white");
    assert!(t.elapsed() < Duration::from_secs(2), "answered in {:?}", t.elapsed());
    assert!(server.alive());
}

#[test]
fn abandoned_sessions_end_with_their_engines() {
    let server = start(&["--session-timeout", "2"], &fake_engine());
    let sids: Vec<String> = (0..8).map(|_| server.engine_session()).collect();
    assert!(
        eventually(Duration::from_secs(10), || server.children().len() == 8),
        "eight engines: {:?}",
        server.children()
    );
    let engines = server.children();
    let full = server.api("POST", "/api/session", None);
    assert_eq!(full.status, 503, "{}", full.body);
    assert!(full.json()["error"].as_str().unwrap().contains("too many open pages"));
    // Nobody asks for anything: after 2 s the sessions and their engines end.
    assert!(
        eventually(Duration::from_secs(8), || engines
            .iter()
            .all(|&p| process_state(p).is_none_or(|s| s == 'Z'))),
        "engines still alive: {:?}",
        server.children()
    );
    assert_eq!(
        server
            .api("GET", &format!("/api/state?sid={}&since=0", sids[0]), None)
            .status,
        410
    );
    for _ in 0..8 {
        server.new_session();
    }
}

#[test]
fn engines_start_only_for_the_modes_that_need_one() {
    let server = start(&[], &fake_engine());
    let sids: Vec<String> = (0..8).map(|_| server.new_session()).collect();
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(
        server.children(),
        Vec::<u32>::new(),
        "pages between people start no engine"
    );
    let cmd = |sid: &str, body: &str| {
        let r = server.api("POST", &format!("/api/cmd?sid={sid}"), Some(body));
        assert_eq!(r.status, 200, "{}", r.body);
    };
    cmd(&sids[0], r#"{"cmd":"settings","mode":"analysis"}"#);
    assert!(eventually(Duration::from_secs(10), || server.children().len() == 1));
    cmd(&sids[1], r#"{"cmd":"settings","mode":"play","color":"white"}"#);
    assert!(eventually(Duration::from_secs(10), || server.children().len() == 2));
    // Back between people (the mode, or Stop engines): the engine ends.
    cmd(&sids[0], r#"{"cmd":"settings","mode":"human"}"#);
    cmd(&sids[1], r#"{"cmd":"stop"}"#);
    assert!(
        eventually(Duration::from_secs(10), || server.children().is_empty()),
        "engines left: {:?}",
        server.children()
    );
}

#[test]
fn restarts_and_the_engine_cap_bound_the_engines() {
    // An engine that never finishes its handshake: each restart must kill it at once.
    let engine = vec![
        "--engine".to_string(),
        "cmd=sleep".into(),
        "arg=30".into(),
        "name=Mute".into(),
    ];
    let server = start(&["--max-engines", "2"], &engine);
    let sid = server.engine_session();
    let mut most = 0;
    for _ in 0..40 {
        let r = server.api("POST", &format!("/api/cmd?sid={sid}"), Some(r#"{"cmd":"restart"}"#));
        assert_eq!(r.status, 200, "{}", r.body);
        most = most.max(server.children().len());
    }
    assert!(most <= 2, "{most} engines at once");
    assert!(eventually(Duration::from_secs(5), || server.children().len() == 1));
    // Two pages fill the cap of two engines; a third page is told why it has none.
    server.engine_session();
    let third = server.engine_session();
    let state = server.state(&third);
    let failed = state["engines"][0]["failed"].as_str().unwrap_or("");
    assert!(failed.contains("--max-engines"), "{state}");
    assert!(server.children().len() <= 2);
}

#[test]
fn sigterm_ends_every_engine_even_a_stubborn_one() {
    let mut server = start(&[], &misbehaving("stubborn", None));
    server.engine_session();
    server.engine_session();
    assert!(eventually(Duration::from_secs(10), || server.children().len() == 2));
    let engines = server.children();
    server.signal("TERM");
    let status = server.exit_within(Duration::from_secs(5)).expect("the server exits");
    assert_eq!(status.code(), Some(0));
    assert!(
        eventually(Duration::from_secs(3), || engines
            .iter()
            .all(|&p| process_state(p).is_none_or(|s| s == 'Z'))),
        "engines left: {engines:?}"
    );
}

#[test]
fn engines_die_with_a_killed_server() {
    let mut server = start(&[], &misbehaving("stubborn", None));
    server.engine_session();
    assert!(eventually(Duration::from_secs(10), || server.children().len() == 1));
    let engines = server.children();
    server.signal("KILL");
    server.exit_within(Duration::from_secs(5)).expect("the server ends");
    assert!(
        eventually(Duration::from_secs(3), || engines
            .iter()
            .all(|&p| process_state(p).is_none_or(|s| s == 'Z'))),
        "engines left: {engines:?}"
    );
}

/// Starts analysis with a misbehaving engine and returns the server and the session.
fn analyse_with(mode: &str, file: Option<&str>) -> (GuiServer, String) {
    let server = start(&[], &misbehaving(mode, file));
    let sid = server.engine_session();
    (server, sid)
}

/// What the page shows of the session's news: the status line and the message.
fn status_of(state: &serde_json::Value) -> String {
    format!(
        "{} {}",
        state["status"].as_str().unwrap_or(""),
        state["message"].as_str().unwrap_or("")
    )
}

fn still_serves(server: &mut GuiServer) {
    let t = Instant::now();
    assert_eq!(
        server
            .request("GET", &format!("/?token={}", server.token), &[], b"")
            .status,
        200
    );
    assert!(t.elapsed() < Duration::from_secs(2), "the page took {:?}", t.elapsed());
    assert!(server.alive());
}

#[test]
fn hostile_engine_output_is_cut_decoded_and_reported() {
    let wait = Duration::from_secs(10);
    let (mut server, sid) = analyse_with("bad-bytes", None);
    let s = server.wait_state(&sid, wait, |s| status_of(s).contains("not UTF-8"));
    assert!(status_of(&s).contains("not UTF-8"), "{s}");
    assert!(s["engines"][0]["failed"].is_null(), "the engine keeps running: {s}");
    assert!(s["engines"][0]["name"].as_str().unwrap().contains('\u{fffd}'));
    still_serves(&mut server);

    let (mut server, sid) = analyse_with("long-line", None);
    let s = server.wait_state(&sid, wait, |s| status_of(s).contains("cut"));
    assert!(status_of(&s).contains("1048576 bytes"), "{s}");
    still_serves(&mut server);

    let (mut server, sid) = analyse_with("multipv-flood", None);
    let s = server.wait_state(&sid, wait, |s| s["lines"].as_array().is_some_and(|l| !l.is_empty()));
    let lines = s["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 1, "only the asked-for line is kept: {} lines", lines.len());
    assert_eq!(lines[0]["multipv"], 1);
    assert!(s.to_string().len() < 100_000, "the state stays small");
    still_serves(&mut server);
}

#[test]
fn an_engine_ending_infinite_analysis_at_once_is_reported_once() {
    let dir = std::env::temp_dir().join(format!("vorpal-gui-instant-{}", std::process::id()));
    let _ = std::fs::remove_file(&dir);
    let file = dir.to_string_lossy().into_owned();
    let (mut server, sid) = analyse_with("instant-bestmove", Some(&file));
    let s = server.wait_state(&sid, Duration::from_secs(10), |s| {
        status_of(s).contains("infinite analysis")
    });
    assert!(status_of(&s).contains("ended its infinite analysis"), "{s}");
    std::thread::sleep(Duration::from_millis(1000));
    let gos = std::fs::read_to_string(&dir).unwrap_or_default().lines().count();
    assert!((1..=2).contains(&gos), "{gos} searches: no loop");
    still_serves(&mut server);
    let _ = std::fs::remove_file(&dir);
}

#[test]
fn a_reloaded_page_rejoins_its_session_and_polls_do_not_pile_up() {
    let server = start(&[], &fake_engine());
    let sid = server.new_session();
    assert_eq!(
        server
            .api(
                "POST",
                &format!("/api/cmd?sid={sid}"),
                Some(r#"{"cmd":"move","uci":"e2m4"}"#)
            )
            .status,
        200
    );
    // The page closes (its beacon) and comes back: the same game.
    assert_eq!(
        server
            .api(
                "POST",
                &format!("/api/close?sid={sid}"),
                Some(&format!(r#"{{"sid":"{sid}"}}"#))
            )
            .status,
        200
    );
    let r = server.api("POST", "/api/session", Some(&format!(r#"{{"rejoin":"{sid}"}}"#)));
    assert_eq!(r.json()["sid"], sid.as_str());
    assert_eq!(r.json()["rejoined"], true);
    assert_eq!(r.json()["state"]["moves"].as_array().unwrap().len(), 1);
    // A second long poll of the session ends the first at once (409). (A page between people
    // starts no engine, so nothing else changes the state meanwhile.)
    let version = server.state(&sid)["version"].as_u64().unwrap();
    let (addr, token) = (server.addr.clone(), server.token.clone());
    let target = format!("/api/state?sid={sid}&since={version}");
    let first = std::thread::spawn(move || {
        let mut s = TcpStream::connect(&addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let head = format!(
            "GET {target} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: token {token}\r\nConnection: close\r\n\r\n"
        );
        s.write_all(head.as_bytes()).unwrap();
        let t = Instant::now();
        (read_reply(&mut s).status, t.elapsed())
    });
    std::thread::sleep(Duration::from_millis(300));
    let second = std::thread::spawn({
        let (addr, token, sid) = (server.addr.clone(), server.token.clone(), sid.clone());
        move || {
            let mut s = TcpStream::connect(&addr).unwrap();
            let head = format!("GET /api/state?sid={sid}&since={version} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: token {token}\r\nConnection: close\r\n\r\n");
            s.write_all(head.as_bytes()).unwrap();
            std::thread::sleep(Duration::from_millis(1500));
        }
    });
    let (status, waited) = first.join().unwrap();
    assert_eq!(status, 409);
    assert!(waited < Duration::from_secs(3), "the older poll waited {waited:?}");
    second.join().unwrap();
    // The page's own asset requests never wait behind polls.
    assert_eq!(server.request("GET", "/app.js", &[], b"").status, 200);
}

/// Issue 32: a `]` in a tag value, or a stray `]` or `}` in the movetext, made the PGN import
/// loop until the server ran out of memory. Now each imports (the tag value intact, the strays
/// skipped), the PGN files every reader must take import, and the server serves on.
#[test]
fn pgn_with_brackets_and_stray_closers_never_takes_the_server_down() {
    let mut server = start(&[], &fake_engine());
    let sid = server.new_session();
    let cmd = |text: &str| {
        let body = serde_json::json!({"cmd": "pgn", "text": text}).to_string();
        server.api("POST", &format!("/api/cmd?sid={sid}"), Some(&body))
    };
    let r = cmd("[Event \"Casual game [Alice]\"]\n\n1. e4 d5 *");
    assert_eq!(r.status, 200, "{}", r.body);
    let pgn = server.api("GET", &format!("/api/pgn?sid={sid}"), None);
    assert!(pgn.body.contains("[Event \"Casual game [Alice]\"]"), "{}", pgn.body);
    for (text, plies) in [
        ("1. e4 ]", 1),
        ("1. e4 e5 }", 2),
        ("1. e4 ] e5 *", 2),
        ("1. e4 e5 } 2. Nf3 *", 3),
    ] {
        let r = cmd(text);
        assert_eq!(r.status, 200, "{text}: {}", r.body);
        assert_eq!(r.json()["state"]["moves"].as_array().unwrap().len(), plies, "{text}");
    }
    for text in ["]", "}"] {
        assert_eq!(cmd(text).status, 400, "{text}");
    }
    let shared = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/pgn");
    for file in std::fs::read_dir(&shared).expect("shared/data/pgn") {
        let path = file.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let r = cmd(&text);
        assert_eq!(r.status, 200, "{}: {}", path.display(), r.body);
        assert!(
            !r.json()["state"]["moves"].as_array().unwrap().is_empty(),
            "{}",
            path.display()
        );
    }
    still_serves(&mut server);
}

/// Two `Host` fields (or two of another field that may appear once) get 400 (RFC 9112).
#[test]
fn repeated_singleton_headers_get_400() {
    let mut server = start(&[], &fake_engine());
    let own = server.addr.to_string();
    let auth = format!("token {}", server.token);
    for extra in [
        [("Host", own.as_str()), ("Host", "evil.example")],
        [("Host", own.as_str()), ("host", own.as_str())],
        [("Authorization", auth.as_str()), ("Authorization", auth.as_str())],
    ] {
        let r = server.request("POST", "/api/session", &extra, b"");
        assert_eq!(r.status, 400, "{extra:?}: {}", r.body);
    }
    still_serves(&mut server);
}

#[test]
fn chess960_without_a_number_is_a_random_start() {
    let server = start(&[], &fake_engine());
    let sid = server.new_session();
    let fens: std::collections::BTreeSet<String> = (0..6)
        .map(|_| {
            let r = server.api(
                "POST",
                &format!("/api/cmd?sid={sid}"),
                Some(r#"{"cmd":"new","variant":"alice","chess960":true}"#),
            );
            assert_eq!(r.status, 200, "{}", r.body);
            r.json()["state"]["fen"].as_str().unwrap().to_string()
        })
        .collect();
    // Six draws from 960 positions: all the same (518 every time, as before) has odds 960^-5.
    assert!(fens.len() > 1, "{fens:?}");
}

#[test]
fn an_elo_outside_the_engines_range_is_refused_with_the_range() {
    // The built-in engine (vorpal itself) lists UCI_Elo 600-2800.
    let server = start(&[], &[]);
    let sid = server.engine_session();
    let state = server.wait_state(&sid, Duration::from_secs(20), |s| s["engines"][0]["ready"] == true);
    assert_eq!(
        state["engines"][0]["eloRange"],
        serde_json::json!([600, 2800]),
        "{state}"
    );
    let cmd = |body: &str| server.api("POST", &format!("/api/cmd?sid={sid}"), Some(body));
    let r = cmd(r#"{"cmd":"settings","mode":"play","color":"white","elo":3000}"#);
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.json()["error"]
            .as_str()
            .unwrap()
            .contains("Elo 600 to 2800, not 3000"),
        "{}",
        r.body
    );
    let r = cmd(r#"{"cmd":"settings","mode":"play","color":"white","elo":1500}"#);
    assert_eq!(r.status, 200, "{}", r.body);
}
