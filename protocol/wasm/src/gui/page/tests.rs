//! The browser build's page driven as its JavaScript drives it: commands as JSON, the engine
//! requests carried to engines, their lines carried back, ticks. The engines are the module's
//! own sliced UCI engines ([`crate::UciEngine`]), as each Worker runs one.

use super::*;
use crate::{Step, UciEngine, SLICE};
use serde_json::Value;
use std::collections::BTreeMap;

/// The page and its "Workers".
struct Browser {
    page: Page,
    workers: BTreeMap<u32, UciEngine>,
    started: u32,
}

impl Browser {
    fn new() -> Browser {
        Browser {
            page: Page::new(),
            workers: BTreeMap::new(),
            started: 0,
        }
    }

    /// A command; its answer as JSON.
    fn send(&mut self, json: &str) -> (bool, Value) {
        let (done, text) = self.page.command(json);
        self.pump(0);
        (done, serde_json::from_str(&text).unwrap())
    }

    /// Carries requests and lines for `slices` search slices (and at least once).
    fn pump(&mut self, slices: usize) {
        for round in 0..=slices {
            for request in self.page.take_requests() {
                match request {
                    Request::Start { link } => {
                        self.started += 1;
                        self.workers.insert(link, UciEngine::new());
                    }
                    Request::Send { link, line } => {
                        if let Some(engine) = self.workers.get_mut(&link) {
                            engine.command(&line);
                        }
                    }
                    Request::End { link } => {
                        self.workers.remove(&link);
                    }
                }
            }
            let mut searching = false;
            for (&link, engine) in &mut self.workers {
                if round > 0 && engine.state() == Step::Searching {
                    searching |= engine.step(SLICE) == Step::Searching;
                }
                for line in engine.take_output().lines() {
                    self.page.engine_line(link, line);
                }
            }
            self.page.tick();
            if round > 0 && !searching && self.page.take_requests_peek_empty() {
                break;
            }
        }
    }

    fn view(&self) -> Value {
        serde_json::from_str(&self.page.view()).unwrap()
    }
}

impl Page {
    /// True when no request waits (a test's look; the page's JavaScript takes them).
    fn take_requests_peek_empty(&self) -> bool {
        self.pool.lock_is_quiet()
    }
}

#[test]
fn people_play_and_the_view_is_the_server_s() {
    let mut b = Browser::new();
    let (done, answer) = b.send(r#"{"cmd":"move","uci":"e2m4"}"#);
    assert!(done, "{answer}");
    assert_eq!(answer["ok"], true);
    assert_eq!(answer["state"]["nodes"].as_array().unwrap().len(), 2);
    let (done, answer) = b.send(r#"{"cmd":"move","san":"Ke7"}"#);
    assert!(!done);
    assert_eq!(
        answer["error"],
        "1... Ke7 is illegal: e7 is occupied by a black piece on board A"
    );
    assert!(b.page.pgn().contains("1. e4 *"), "{}", b.page.pgn());
    assert_eq!(b.started, 0, "between people no engine starts");
    let (done, answer) = b.send("{not json");
    assert!(!done && answer["error"].as_str().unwrap().starts_with("bad JSON"));
}

#[test]
fn analysis_starts_a_worker_and_shows_its_lines_and_a_mode_change_ends_it() {
    let mut b = Browser::new();
    let (done, answer) = b.send(r#"{"cmd":"settings","mode":"analysis","multipv":2}"#);
    assert!(done, "{answer}");
    assert_eq!(b.started, 1);
    let mut view = b.view();
    for _ in 0..400 {
        b.pump(1);
        view = b.view();
        if view["lines"]
            .as_array()
            .is_some_and(|l| l.len() == 2 && l[0]["depth"].as_u64() >= Some(4))
        {
            break;
        }
    }
    let lines = view["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 2, "{view}");
    assert!(lines[0]["depth"].as_u64().unwrap() >= 4, "{view}");
    assert_eq!(view["engines"][0]["ready"], true, "{view}");
    b.send(r#"{"cmd":"settings","mode":"human"}"#);
    assert!(b.workers.is_empty(), "the Worker is ended");
    let view = b.view();
    assert!(!view["status"].as_str().unwrap().contains("failed"), "{view}");
}

#[test]
fn the_engine_answers_a_move_in_play_mode() {
    let mut b = Browser::new();
    let (done, answer) = b.send(r#"{"cmd":"settings","mode":"play","color":"white","limit":"depth","depth":3}"#);
    assert!(done, "{answer}");
    b.send(r#"{"cmd":"move","uci":"e2m4"}"#);
    b.pump(200);
    let view = b.view();
    assert_eq!(view["nodes"].as_array().unwrap().len(), 3, "the engine replied: {view}");
    assert!(b.page.pgn().contains("1. e4 "), "{}", b.page.pgn());
}

#[test]
fn the_game_report_is_refused_with_the_reason() {
    let mut b = Browser::new();
    b.send(r#"{"cmd":"move","uci":"e2m4"}"#);
    let (done, answer) = b.send(r#"{"cmd":"review"}"#);
    assert!(!done);
    assert!(answer["error"].as_str().unwrap().contains("vorpal gui"), "{answer}");
}

#[test]
fn a_failed_worker_is_reported() {
    let mut b = Browser::new();
    b.send(r#"{"cmd":"settings","mode":"analysis"}"#);
    let link = *b.workers.keys().next().unwrap();
    b.page.engine_failed(link, "the module did not load");
    b.pump(0);
    let view = b.view();
    assert!(
        view["status"].as_str().unwrap().contains("the module did not load"),
        "{view}"
    );
}
