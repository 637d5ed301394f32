//! The UCI dialogue over real pipes: handshake, positions, every way to end a search,
//! pondering, MultiPV, and leaving. Every `bestmove` is checked with the rules core.

use crate::support::harness::{assert_legal, game_of, parse_info, Engine, SOON};
use std::time::{Duration, Instant};
use vorpal_engine::Variant;

const OPTIONS: [&str; 17] = [
    "Debug Log File",
    "Threads",
    "Hash",
    "Clear Hash",
    "Ponder",
    "MultiPV",
    "Skill Level",
    "Move Overhead",
    "UCI_Chess960",
    "UCI_Variant",
    "UCI_AnalyseMode",
    "UCI_LimitStrength",
    "UCI_Elo",
    "UCI_ShowWDL",
    "AliceEnPassant",
    "EvalFile",
    "UseNNUE",
];

/// Sets `position`, searches with `go`, checks the info lines and the move; returns the
/// lines and the time until `bestmove`.
fn search(engine: &mut Engine, position: &str, go: &str) -> (Vec<String>, Duration) {
    engine.send(position);
    let start = Instant::now();
    engine.send(go);
    let (lines, mv) = engine.bestmove(Duration::from_secs(60));
    let elapsed = start.elapsed();
    for line in lines.iter().filter(|l| l.contains(" score ")) {
        parse_info(line);
    }
    assert_legal(&game_of(position), &mv);
    (lines, elapsed)
}

#[test]
fn handshake_lists_every_option_and_can_repeat() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until_prefix("uciok");
    // Nothing but the banner (read by `Engine::start`) before the `id` lines.
    let id = 0;
    assert!(lines[id].starts_with("id name Vorpal "), "{lines:?}");
    assert!(lines[id + 1].starts_with("id author "));
    for name in OPTIONS {
        let prefix = format!("option name {name} type ");
        assert!(
            lines.iter().any(|l| l.starts_with(&prefix)),
            "{name} missing: {lines:?}"
        );
    }
    let variants: Vec<String> = Variant::ALL.iter().map(|v| format!("var {}", v.name())).collect();
    assert!(
        lines.contains(&format!(
            "option name UCI_Variant type combo default alice {}",
            variants.join(" ")
        )),
        "{lines:?}"
    );
    assert!(lines.contains(&"option name Clear Hash type button".to_string()));
    // `uci` again gives the same answer.
    e.send("uci");
    let again = e.until_prefix("uciok");
    assert_eq!(again, lines);
    e.send("debug on");
    e.send("register later");
    e.send("debug off");
    assert!(e.sync().is_empty(), "{}", e.dump());
    e.finish();
}

#[test]
fn every_fen_form_and_move_notation_sets_the_same_position() {
    let mut e = Engine::start();
    let expected = "rnbqk1nr/pppp1|Npp/4|p3/2|b5/8/8/PPPPPPPP/RNBQKB1R b KQkq - 0 3";
    let forms = [
        format!("position fen {expected}"),
        // Split form: two full FENs.
        "position fen rnbqk1nr/pppp2pp/8/8/8/8/PPPPPPPP/RNBQKB1R b KQkq - 0 3 | 8/5N2/4p3/2b5/8/8/8/8 b - - 0 3"
            .to_string(),
        // Wide form: 16 files.
        "position fen rnbqk1nr8/pppp2pp5N2/12p3/10b5/16/16/PPPPPPPP8/RNBQKB1R8 b KQkq - 0 3".to_string(),
        // From the start with moves, UCI and SAN (with and without landing suffixes).
        "position startpos moves g1f3 e7e6 f3g5 f8c5 g5f7".to_string(),
        "position startpos moves Nf3 e6 Ng5/A Bc5 Nxf7".to_string(),
    ];
    for form in &forms {
        e.send(form);
        e.send("fen");
        let lines = e.read_until(SOON, |l| !l.starts_with("info"));
        assert_eq!(lines, vec![expected.to_string()], "{form}\n{}", e.dump());
    }
    e.send("fen wide");
    assert_eq!(
        e.recv(SOON).unwrap(),
        "rnbqk1nr8/pppp2pp5N2/12p3/10b5/16/16/PPPPPPPP8/RNBQKB1R8 b KQkq - 0 3"
    );
    let (_, _) = search(&mut e, &forms[3], "go depth 2");
    e.finish();
}

#[test]
fn long_move_lists_are_fast() {
    let mut e = Engine::start();
    let mut position = String::from("position startpos moves");
    for _ in 0..500 {
        position.push_str(" g1f3 g8f6 f3g1 f6g8");
    }
    let start = Instant::now();
    for _ in 0..5 {
        e.send(&position);
    }
    assert!(e.sync().is_empty(), "{}", e.dump());
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "5 x 2,000 plies took {:?}",
        start.elapsed()
    );
    e.send("fen");
    assert_eq!(
        e.recv(SOON).unwrap(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2000 1001"
    );
    search(&mut e, &position, "go depth 2");
    e.finish();
}

#[test]
fn go_depth_nodes_movetime_mate() {
    let mut e = Engine::start();
    let (lines, _) = search(&mut e, "position startpos", "go depth 4");
    let depths: Vec<u32> = lines
        .iter()
        .filter(|l| l.contains(" score "))
        .map(|l| parse_info(l).0)
        .collect();
    assert!(
        !depths.is_empty() && depths.iter().all(|&d| (1..=4).contains(&d)),
        "{depths:?}"
    );
    assert_eq!(depths.last(), Some(&4), "{lines:?}");

    let (lines, _) = search(&mut e, "position startpos moves e2e4", "go nodes 5000");
    assert!(lines.iter().any(|l| l.contains(" score ")), "{lines:?}");

    let (_, took) = search(&mut e, "position startpos moves d2d4 d7d5", "go movetime 300");
    assert!(
        took >= Duration::from_millis(100) && took <= Duration::from_secs(3),
        "movetime 300 took {took:?}"
    );

    let (_, took) = search(
        &mut e,
        "position startpos moves e2e4 e7e5",
        "go wtime 2000 btime 2000 winc 20 binc 20 movestogo 20",
    );
    assert!(took <= Duration::from_secs(3), "a 2 s clock took {took:?}");

    let mate = "position fen rnbqkbnr/ppp1pppp/8/8/4p3/8/PPPP|BPPP/RNBQK1NR w KQkq - 0 3";
    let (lines, _) = search(&mut e, mate, "go mate 1");
    assert_eq!(
        lines.last().unwrap().split_whitespace().nth(1),
        Some("e2b5"),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.contains(" score mate 1 ")), "{lines:?}");

    let (lines, _) = search(&mut e, "position startpos", "go depth 3 searchmoves a2a3 h2h3");
    assert!(["a2a3", "h2h3"].contains(&lines.last().unwrap().split_whitespace().nth(1).unwrap()));
    e.finish();
}

#[test]
fn no_legal_move_answers_none() {
    let mut e = Engine::start();
    e.send("position fen rnbqkbnr/ppp1pppp/8/8/4p3/8/PPPP|BPPP/RNBQK1NR w KQkq - 0 3 moves e2b5");
    e.send("go depth 5");
    let (lines, mv) = e.bestmove(SOON);
    assert_eq!(lines, vec!["info depth 0 score mate 0", "bestmove (none)"]);
    assert_eq!(mv, "(none)");
    e.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    e.send("go movetime 100");
    let (lines, _) = e.bestmove(SOON);
    assert_eq!(lines, vec!["info depth 0 score cp 0", "bestmove (none)"]);
    // In infinite mode even this waits for `stop`.
    e.send("go infinite");
    let early = e.collect_for(Duration::from_millis(300));
    assert!(!early.iter().any(|l| l.starts_with("bestmove")), "{early:?}");
    e.send("stop");
    assert_eq!(e.bestmove(SOON).1, "(none)");
    e.finish();
}

#[test]
fn infinite_waits_for_stop_and_isready_answers_during_search() {
    let mut e = Engine::start();
    let position = "position startpos moves e2e4";
    e.send(position);
    e.send("go infinite");
    let early = e.collect_for(Duration::from_millis(500));
    assert!(!early.iter().any(|l| l.starts_with("bestmove")), "{early:?}");
    let asked = Instant::now();
    let before = e.sync();
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "readyok took {:?}",
        asked.elapsed()
    );
    assert!(!before.iter().any(|l| l.starts_with("bestmove")), "{before:?}");
    // Read-only commands are answered during the search too.
    e.send("fen");
    e.read_until(SOON, |l| l.starts_with("rnbqkbnr/"));
    let stopped = Instant::now();
    e.send("stop");
    let (_, mv) = e.bestmove(SOON);
    assert!(
        stopped.elapsed() < Duration::from_secs(2),
        "stop took {:?}",
        stopped.elapsed()
    );
    assert_legal(&game_of(position), &mv);
    // A second `stop` does nothing.
    e.send("stop");
    assert!(e.sync().is_empty(), "{}", e.dump());
    e.finish();
}

#[test]
fn ponder_then_ponderhit_or_stop() {
    let mut e = Engine::start();
    e.send("setoption name Ponder value true");
    let position = "position startpos moves e2e4 e7e5";
    e.send(position);
    e.send("go ponder wtime 1000 btime 1000");
    let early = e.collect_for(Duration::from_millis(1500));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "bestmove while pondering: {early:?}"
    );
    let hit = Instant::now();
    e.send("ponderhit");
    let (_, mv) = e.bestmove(SOON);
    assert!(
        hit.elapsed() < Duration::from_secs(3),
        "after ponderhit: {:?}",
        hit.elapsed()
    );
    assert_legal(&game_of(position), &mv);

    // A ponder search that ends early still waits, then `stop` gives the move.
    e.send(position);
    e.send("go ponder depth 1");
    let early = e.collect_for(Duration::from_millis(500));
    assert!(!early.iter().any(|l| l.starts_with("bestmove")), "{early:?}");
    e.send("stop");
    let (_, mv) = e.bestmove(SOON);
    assert_legal(&game_of(position), &mv);
    e.finish();
}

#[test]
fn multipv_lines_have_stockfish_shape() {
    let mut e = Engine::start();
    e.send("setoption name MultiPV value 3");
    e.send("setoption name UCI_ShowWDL value true");
    let (lines, _) = search(&mut e, "position startpos", "go depth 3");
    let infos: Vec<(u32, u32, Vec<String>)> = lines
        .iter()
        .filter(|l| l.contains(" score "))
        .map(|l| parse_info(l))
        .collect();
    assert!(lines
        .iter()
        .filter(|l| l.contains(" score "))
        .all(|l| l.contains(" wdl ")));
    let last: Vec<&(u32, u32, Vec<String>)> = infos.iter().filter(|i| i.0 == 3).collect();
    let numbers: Vec<u32> = last.iter().map(|i| i.1).collect();
    assert!(
        numbers.starts_with(&[1, 2, 3]) || numbers.ends_with(&[1, 2, 3]),
        "{lines:?}"
    );
    let mut firsts: Vec<&String> = last.iter().rev().take(3).map(|i| &i.2[0]).collect();
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "three different first moves: {lines:?}");
    e.send("setoption name UCI_ShowWDL value false");
    e.send("setoption name MultiPV value 1");
    let (lines, _) = search(&mut e, "position startpos", "go depth 2");
    assert!(lines
        .iter()
        .filter(|l| l.contains(" score "))
        .all(|l| !l.contains(" wdl ") && l.contains(" multipv 1 ")));
    e.finish();
}

#[test]
fn position_or_go_during_a_search_stops_it_first() {
    let mut e = Engine::start();
    let first = "position startpos";
    e.send(first);
    e.send("go infinite");
    e.collect_for(Duration::from_millis(200));
    let second = "position startpos moves e2e4";
    e.send(second);
    // The running search ends and its bestmove (for the first position) comes first.
    let (_, mv) = e.bestmove(SOON);
    assert_legal(&game_of(first), &mv);
    e.send("go infinite");
    e.collect_for(Duration::from_millis(200));
    e.send("go depth 1");
    let (_, mv) = e.bestmove(SOON);
    assert_legal(&game_of(second), &mv);
    let (_, mv) = e.bestmove(SOON);
    assert_legal(&game_of(second), &mv);
    e.finish();
}

#[test]
fn options_are_applied() {
    let mut e = Engine::start();
    for line in [
        "setoption name Threads value 2",
        "setoption name Hash value 8",
        "setoption name Clear Hash",
        "setoption name move overhead value 50",
        "setoption name Skill Level value 10",
        "setoption name UCI_LimitStrength value true",
        "setoption name UCI_Elo value 1800",
        "setoption name UCI_AnalyseMode value true",
        "setoption name UCI_Chess960 value false",
        "ucinewgame",
    ] {
        e.send(line);
    }
    assert!(e.sync().is_empty(), "{}", e.dump());
    search(&mut e, "position startpos moves e2e4", "go depth 3");
    e.send("setoption name UCI_Variant value alice");
    assert_eq!(
        e.recv(SOON).unwrap(),
        "info string variant alice files 8 ranks 8 pocket 0 template fairy startpos rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    e.finish();
}

#[test]
fn quit_during_search_exits_promptly() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    e.collect_for(Duration::from_millis(300));
    let start = Instant::now();
    e.send("quit");
    let (status, rest) = e.wait_exit(SOON);
    assert!(status.success());
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "quit took {:?}",
        start.elapsed()
    );
    // The search's bestmove is still printed, as Stockfish does.
    assert!(rest.iter().any(|l| l.starts_with("bestmove")), "{}", e.dump());
}

#[test]
fn end_of_input_exits_zero_even_while_searching() {
    let mut e = Engine::start();
    e.send("isready");
    e.until_prefix("readyok");
    e.close_input();
    let (status, _) = e.wait_exit(SOON);
    assert!(status.success());

    let mut e = Engine::start();
    e.send("go infinite");
    e.collect_for(Duration::from_millis(200));
    let start = Instant::now();
    e.close_input();
    let (status, rest) = e.wait_exit(SOON);
    assert!(status.success());
    assert!(start.elapsed() < Duration::from_secs(2));
    assert!(rest.iter().any(|l| l.starts_with("bestmove")), "{}", e.dump());
}
