//! Bad input over real pipes: each case gets exactly one `info string error ...` line, the
//! engine keeps the position the message names, answers the next `isready`, and still plays
//! a legal move.

use crate::support::harness::{assert_legal, game_of, Engine, SOON};
use std::time::Duration;

const START: &str = "position startpos";
const AFTER_E4: &str = "position startpos moves e2e4";

/// Sends `input` with `position` in force before it, expects one error line, then checks that
/// the engine is at `expected` (a `position` command) and plays a legal move there.
fn one_error(e: &mut Engine, input: &[u8], expected: &str) -> String {
    e.send_bytes(input);
    let lines = e.sync();
    assert_eq!(
        lines.len(),
        1,
        "one line for {:?}\n{}",
        String::from_utf8_lossy(input),
        e.dump()
    );
    assert!(lines[0].starts_with("info string error "), "{}", e.dump());
    plays_legal_move(e, expected);
    lines[0].clone()
}

fn plays_legal_move(e: &mut Engine, expected: &str) {
    let want = game_of(expected).position().to_fen();
    e.send("fen");
    assert_eq!(e.recv(SOON).unwrap(), want, "position after the error\n{}", e.dump());
    e.send("go depth 1");
    let (_, mv) = e.bestmove(SOON);
    assert_legal(&game_of(expected), &mv);
}

#[test]
fn malformed_fens_keep_the_previous_position() {
    let mut e = Engine::start();
    e.send(AFTER_E4);
    let bad = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",           // 7 ranks
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",        // 4 fields... of 6
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",  // side
        "rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  // piece letter
        "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",   // short rank
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1", // long rank
        "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1 | 8/8/8/8/4P3/8/8/8 w - - 0 1", // both boards
        "4k3/8/8/8/8/8/8/8 w - - 0 1",                               // no white king
        "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",                            // two kings
        "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",                            // pawn on rank 1
        "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",                           // side not to move in check
        "4k3/8/8/8/8/8/8/4K3 w K - 0 1",                             // castling without rook
        "",                                                          // nothing
    ];
    for fen in bad {
        let msg = one_error(&mut e, format!("position fen {fen}").as_bytes(), AFTER_E4);
        assert!(msg.contains("previous position"), "{msg}");
    }
    e.finish();
}

#[test]
fn bad_moves_keep_the_position_up_to_the_last_legal_move() {
    let mut e = Engine::start();
    let msg = one_error(
        &mut e,
        b"position startpos moves e2e4 e7e5 e1e3 g8f6",
        "position startpos moves e2e4 e7e5",
    );
    assert!(msg.contains("e1e3") && msg.contains("after 2 moves"), "{msg}");
    one_error(&mut e, b"position startpos moves e2e4 zz99", AFTER_E4);
    one_error(&mut e, b"position startpos moves Nf6", START);
    one_error(&mut e, b"position startpos e2e4", START);
    e.send(AFTER_E4);
    one_error(&mut e, b"position", AFTER_E4);
    one_error(&mut e, b"position somewhere", AFTER_E4);
    e.finish();
}

#[test]
fn unknown_commands_garbage_and_long_lines() {
    let mut e = Engine::start();
    e.send(AFTER_E4);
    one_error(&mut e, b"frobnicate now", AFTER_E4);
    one_error(&mut e, b"UCI_NewGame", AFTER_E4);
    let garbage: Vec<u8> = (0..4000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 7) as u8)
        .map(|b| if b == b'\n' || b == b'\r' { 0x01 } else { b })
        .collect();
    let mut line = vec![0x01u8];
    line.extend(&garbage);
    one_error(&mut e, &line, AFTER_E4);
    let long = vec![b'a'; 3 << 20];
    let msg = one_error(&mut e, &long, AFTER_E4);
    assert!(msg.contains("longer than"), "{msg}");
    // Empty and blank lines are ignored silently.
    e.send("");
    e.send("   \t ");
    assert!(e.sync().is_empty());
    e.finish();
}

#[test]
fn bad_go_parameters_are_reported_and_the_search_still_runs() {
    let mut e = Engine::start();
    e.send(AFTER_E4);
    for go in [
        "go wtime -1000 btime 1000 winc 0 binc 0",
        "go depth 0",
        "go depth abc nodes 3000",
        "go nodes -5",
        "go movetime 99999999999999999999999 depth 2",
        "go depth 2 frobnicate",
        "go depth 2 searchmoves e7e5 e2e4",
        "go movestogo 0 wtime 500 btime 500",
        "go depth 2 mate",
    ] {
        e.send(go);
        let (lines, mv) = e.bestmove(SOON);
        let errors = lines.iter().filter(|l| l.starts_with("info string error ")).count();
        assert_eq!(errors, 1, "{go}\n{}", e.dump());
        assert_legal(&game_of(AFTER_E4), &mv);
    }
    // A huge depth is clamped: the search runs until stopped.
    e.send("go depth 1000000");
    let first = e.until_prefix("info string error ");
    assert!(first.last().unwrap().contains("depth"), "{}", e.dump());
    e.collect_for(Duration::from_millis(300));
    e.send("stop");
    let (_, mv) = e.bestmove(SOON);
    assert_legal(&game_of(AFTER_E4), &mv);
    e.finish();
}

#[test]
fn bad_options_change_nothing() {
    let mut e = Engine::start();
    e.send(AFTER_E4);
    for line in [
        "setoption name NoSuchOption value 3",
        "setoption name Hash value 0",
        "setoption name Hash value lots",
        "setoption name Threads",
        "setoption name MultiPV value 100000",
        "setoption name Ponder value perhaps",
        "setoption name UCI_Variant value crazyhouse",
        "setoption name AliceEnPassant value sometimes",
        "setoption name UCI_Chess960 value maybe",
        "setoption Hash 16",
        "setoption",
        "debug sideways",
        "perft many",
        "perft 3 not/a/fen w - - 0 1",
        "bench -1",
        "fen sideways",
    ] {
        one_error(&mut e, line.as_bytes(), AFTER_E4);
    }
    // MultiPV is still 1.
    e.send("go depth 2");
    let (lines, _) = e.bestmove(SOON);
    assert!(lines
        .iter()
        .filter(|l| l.contains(" score "))
        .all(|l| l.contains(" multipv 1 ")));
    e.finish();
}

#[test]
fn bad_input_during_a_search_leaves_it_running() {
    let mut e = Engine::start();
    e.send(AFTER_E4);
    e.send("go infinite");
    e.collect_for(Duration::from_millis(200));
    e.send("frobnicate");
    e.send_bytes(&[0x01, 0xff, 0xfe, 0x80]);
    let lines = e.sync();
    let errors = lines.iter().filter(|l| l.starts_with("info string error ")).count();
    assert_eq!(errors, 2, "{}", e.dump());
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "{}", e.dump());
    e.send("stop");
    let (_, mv) = e.bestmove(SOON);
    assert_legal(&game_of(AFTER_E4), &mv);
    plays_legal_move(&mut e, AFTER_E4);
    e.finish();
}
