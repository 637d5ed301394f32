//! The page's JSON commands (`POST /api/cmd` bodies, one a line) on one session: each is
//! answered 200 or 400, and the session's PGN export then imports back.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let lines: String = text.lines().take(24).collect::<Vec<_>>().join("\n");
    let (statuses, pgn, view) = vorpal_protocol::doors::gui_commands(&lines);
    for s in &statuses {
        assert!(*s == 200 || *s == 400, "status {s} for\n{lines}");
    }
    assert!(view.starts_with('{'), "view {view}");
    if let Err(e) = vorpal_protocol::doors::gui_pgn_import(&pgn) {
        panic!("the session's own PGN is refused ({e}):\n{pgn}\nafter\n{lines}");
    }
});
