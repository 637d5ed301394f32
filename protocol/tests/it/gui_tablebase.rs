//! `vorpal gui --tb DIR` on a real server on a free port: the 3-man tables are made with
//! `vorpal tb generate`, a KQvK position is analysed, and the page's state carries the engine's
//! tablebase verdict (`tablebase: mate in 4`) with its `#4` line; a missing directory is refused
//! at start-up with a clear message.
#![cfg(target_os = "linux")]

use crate::support::gui_server::GuiServer;
use crate::support::harness::run_cli;
use std::path::PathBuf;
use std::time::Duration;

/// Mate in 4 for White (the tables' depth to mate).
const KQK: &str = "8/6|Q1/8/8/8/4|k1K1/8/8 w - - 0 1";

fn three_man_tables() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vorpal-gui-tb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let run = run_cli(
        &["tb", "generate", "--all", "3", "--dir", dir.to_str().unwrap()],
        Duration::from_secs(120),
    );
    assert!(run.status.success(), "{}", run.stderr);
    dir
}

#[test]
fn analysis_shows_the_tablebase_verdict() {
    let dir = three_man_tables();
    let server = GuiServer::start(&["--tb", dir.to_str().unwrap()]);
    let sid = server.new_session();
    let cmd = |json: &str| {
        let r = server.api("POST", &format!("/api/cmd?sid={sid}"), Some(json));
        assert_eq!(r.status, 200, "{json}: {}", r.body);
    };
    cmd(&format!(r#"{{"cmd":"fen","fen":"{KQK}"}}"#));
    cmd(r#"{"cmd":"settings","mode":"analysis","multipv":1}"#);
    let state = server.wait_state(&sid, Duration::from_secs(30), |s| {
        s["tablebase"].is_string() && !s["lines"].as_array().is_none_or(|l| l.is_empty())
    });
    assert_eq!(state["tablebase"], "tablebase: mate in 4", "{state}");
    assert_eq!(state["lines"][0]["score"], "#4", "{state}");
    // Another position forgets the verdict; the start position is not in the tables.
    cmd(r#"{"cmd":"fen","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}"#);
    let state = server.wait_state(&sid, Duration::from_secs(30), |s| {
        !s["lines"].as_array().is_none_or(|l| l.is_empty())
    });
    assert!(state["tablebase"].is_null(), "{state}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_table_directory_is_refused_at_start() {
    let run = run_cli(&["gui", "--tb", "/nonexistent/vorpal-tables"], Duration::from_secs(10));
    assert_eq!(run.status.code(), Some(2), "{}", run.stderr);
    assert!(
        run.stderr.contains("--tb: cannot use '/nonexistent/vorpal-tables'"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty(), "no link printed: {}", run.stdout);
}
