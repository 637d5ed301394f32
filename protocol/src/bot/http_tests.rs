//! The client against a scripted local server: statuses sorted into what to do, the headers
//! sent, streams read, a quiet stream noticed.

use super::*;
use crate::bot::ndjson::Next;
use crate::bot::test_server::{serve, Answer};
use crate::bot::wire::{Event, GameEvent};

#[test]
fn ids_are_letters_and_digits() {
    assert!(is_id("iqSgPqOc"));
    assert!(!is_id(""));
    assert!(!is_id("../x"));
    assert!(!is_id("a b"));
}

#[test]
fn errors_read_as_sentences() {
    let refused = ApiError::Refused {
        status: 401,
        body: String::new(),
    };
    assert_eq!(refused.to_string(), "HTTP 401: the token was refused");
    let limited = ApiError::RateLimited {
        retry_after: Some(Duration::from_secs(30)),
    };
    assert!(limited.to_string().contains("30 s"));
    assert!(quote(&"x".repeat(500)).ends_with("...)"));
}

#[test]
fn answers_are_sorted_by_status() {
    let mut limited = Answer::new("429 Too Many Requests", "");
    limited.headers.push("Retry-After: 7".into());
    let server = serve(vec![
        Answer::new("403 Forbidden", "403: Forbidden"),
        Answer::new("200 OK", r#"{"id":"Vorpal","username":"Vorpal","title":"BOT"}"#),
        limited,
        Answer::new("502 Bad Gateway", ""),
        Answer::new("404 Not Found", "404: Not Found"),
    ]);
    let api = Api::new(&server.base, "secret");
    assert!(matches!(api.account(), Err(ApiError::Refused { status: 403, .. })));
    let account = api.account().unwrap();
    assert_eq!(
        (account.username.as_str(), account.title.as_deref()),
        ("Vorpal", Some("BOT"))
    );
    assert_eq!(
        api.accept("abc"),
        Err(ApiError::RateLimited {
            retry_after: Some(Duration::from_secs(7))
        })
    );
    assert_eq!(api.decline("abc", "tooFast"), Err(ApiError::Server { status: 502 }));
    assert!(matches!(
        api.send_move("abc", "e2e4"),
        Err(ApiError::Rejected { status: 404, .. })
    ));
    let requests = server.requests.lock().unwrap().clone();
    assert!(requests[0].starts_with("GET /api/account HTTP/1.1"), "{}", requests[0]);
    assert!(requests[0]
        .to_ascii_lowercase()
        .contains("authorization: bearer secret"));
    assert!(requests[3].starts_with("POST /api/challenge/abc/decline"));
    assert!(requests[3].ends_with("reason=tooFast"), "{}", requests[3]);
    assert!(requests[4].starts_with("POST /api/bot/game/abc/move/e2e4"));
}

#[test]
fn the_event_stream_carries_the_capabilities_and_its_lines() {
    let body = "{\"type\":\"ping\"}\n\n{\"type\":\"gameStart\",\"game\":{\"id\":\"abcd1234\"}}\n";
    let server = serve(vec![Answer::new("200 OK", body)]);
    let api = Api::new(&server.base, "secret");
    let mut stream = api.event_stream(&["alice".to_string()]).unwrap();
    assert_eq!(stream.next::<Event>().unwrap(), Next::Message(Event::Ping));
    assert!(matches!(
        stream.next::<Event>().unwrap(),
        Next::Message(Event::GameStart { .. })
    ));
    assert_eq!(stream.next::<Event>().unwrap(), Next::End);
    let head = server.requests.lock().unwrap()[0].to_ascii_lowercase();
    assert!(
        head.contains(r#"x-pychess-bot-capabilities: {"variants":["alice"],"version":1}"#),
        "{head}"
    );
}

#[test]
fn a_quiet_stream_is_noticed() {
    let mut quiet = Answer::new("200 OK", "{\"type\":\"ping\"}\n");
    quiet.hold = Some(Duration::from_secs(3));
    let server = serve(vec![quiet]);
    let api = Api::with_quiet_limit(&server.base, "secret", Duration::from_millis(300));
    let mut stream = api.game_stream("abcd1234").unwrap();
    assert_eq!(stream.next::<GameEvent>().unwrap(), Next::Message(GameEvent::Ping));
    let started = std::time::Instant::now();
    assert_eq!(stream.next::<GameEvent>().unwrap_err(), "the stream went quiet");
    assert!(started.elapsed() < Duration::from_secs(2));
}
