//! The commands beyond UCI over real pipes: `d`, `fen`, `moves`, `perft`/`go perft`,
//! `result`, `flip`, `eval`, `bench`, `help`, and the Alice options (`UCI_Variant`,
//! `AliceEnPassant`, `Debug Log File`).

use crate::support::harness::{assert_legal, game_with_rules, Engine, SOON};
use std::time::Duration;
use vorpal_engine::{perft, EnPassant, Position, Rules};

#[test]
fn d_draws_both_boards_then_fen_key_checkers() {
    let mut e = Engine::start();
    // A white queen on e2 of board B, the rest on board A.
    let fen = "4k3/8/8/8/8/8/4|Q3/R3K3 b Q - 0 1";
    e.send(&format!("position fen {fen}"));
    e.send("d");
    let lines = e.until_prefix("Checkers:");
    assert!(
        lines[0].contains("Board A") && lines[0].contains("Board B"),
        "{lines:?}"
    );
    let rank = |n: char| {
        lines
            .iter()
            .find(|l| l.trim_start().starts_with('|') && l.contains(&format!("| {n}")))
            .unwrap_or_else(|| panic!("rank {n} in {lines:?}"))
            .clone()
    };
    // Board A holds R a1, K e1 and the black king; board B the queen on e2.
    assert!(rank('1').starts_with(" | R |   |   |   | K |"), "{}", rank('1'));
    let two = rank('2');
    let (a, b) = two.split_at(two.find("| 2").unwrap());
    assert!(!a.contains('Q') && b.contains("| Q |"), "{two}");
    assert!(lines
        .iter()
        .any(|l| l.matches("a   b   c   d   e   f   g   h").count() == 2));
    assert!(lines.iter().any(|l| l.contains("Black to move")));
    assert!(lines.contains(&format!("Fen: {fen}")), "{lines:?}");
    let key = lines.iter().find(|l| l.starts_with("Key: ")).unwrap();
    assert_eq!(key.len(), "Key: ".len() + 16);
    assert_eq!(lines.last().unwrap(), "Checkers:");
    // The rook moves on board B and lands on h8 of board A, checking the king there.
    e.send("position fen 4k3/8/8/8/8/8/8/4K2|R w - - 0 1 moves h1h8");
    e.send("d");
    let lines = e.until_prefix("Checkers:");
    assert_eq!(lines.last().unwrap(), "Checkers: h8");
    assert!(lines.iter().any(|l| l.contains("Black to move, in check")));
    e.finish();
}

#[test]
fn moves_lists_uci_and_san() {
    let mut e = Engine::start();
    e.send("position startpos moves g1f3 e7e5");
    e.send("moves");
    let lines = e.until_prefix("Legal moves: ");
    let game = game_with_rules("position startpos moves g1f3 e7e5", Rules::default());
    let pos = game.position();
    assert_eq!(lines.last().unwrap(), &format!("Legal moves: {}", pos.count_legal()));
    assert_eq!(lines.len() - 1, pos.count_legal());
    // The knight on f3 of board B returns to board A: its SAN carries /A.
    assert!(lines.contains(&"f3g5 Ng5/A".to_string()), "{lines:?}");
    for line in &lines[..lines.len() - 1] {
        let (uci, san) = line.split_once(' ').unwrap();
        assert_eq!(pos.parse_uci(uci), pos.parse_san(san), "{line}");
    }
    e.finish();
}

#[test]
fn perft_and_go_perft_divide() {
    let mut e = Engine::start();
    let fen = "rnbqk1nr/pppp1|Npp/4|p3/2|b5/8/8/PPPPPPPP/RNBQKB1R b KQkq - 0 3";
    let pos = Position::from_fen(fen, Rules::default()).unwrap();
    for command in [format!("position fen {fen}\ngo perft 3"), format!("perft 3 {fen}")] {
        for line in command.lines() {
            e.send(line);
        }
        let lines = e.until_prefix("Nodes searched: ");
        let total: u64 = lines.last().unwrap()["Nodes searched: ".len()..].parse().unwrap();
        assert_eq!(total, perft::perft(&pos, 3));
        assert_eq!(lines[lines.len() - 2], "", "a blank line before the total");
        let per_move: u64 = lines[..lines.len() - 2]
            .iter()
            .map(|l| {
                let (mv, n) = l.split_once(": ").unwrap();
                assert!(pos.parse_uci(mv).is_ok(), "{l}");
                n.parse::<u64>().unwrap()
            })
            .sum();
        assert_eq!(per_move, total);
        assert_eq!(lines.len() - 2, pos.count_legal());
    }
    // `perft` with a FEN does not change the position.
    e.send("fen");
    assert_eq!(e.recv(SOON).unwrap(), fen);
    e.finish();
}

#[test]
fn result_reports_the_end_of_the_game() {
    let mut e = Engine::start();
    let cases = [
        ("position startpos", "result * in progress"),
        (
            "position fen rnbqkbnr/ppp1pppp/8/8/4p3/8/PPPP|BPPP/RNBQK1NR w KQkq - 0 3 moves e2b5",
            "result 1-0 checkmate",
        ),
        (
            "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
            "result 1/2-1/2 stalemate",
        ),
        (
            "position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8",
            "result 1/2-1/2 threefold repetition",
        ),
        (
            "position fen 4k3/8/8/8/8/8/8/R3K3 w - - 100 80",
            "result 1/2-1/2 fifty-move rule",
        ),
    ];
    for (position, expected) in cases {
        e.send(position);
        e.send("result");
        assert_eq!(e.recv(SOON).unwrap(), expected, "{position}");
    }
    e.finish();
}

#[test]
fn flip_mirrors_the_position() {
    let mut e = Engine::start();
    e.send("position fen rnbqkbnr/pppp1ppp/8/4|p3/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2");
    e.send("flip");
    e.send("fen");
    assert_eq!(
        e.recv(SOON).unwrap(),
        "rnbqkbnr/pppppppp/8/8/4|P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2"
    );
    e.send("flip");
    e.send("fen");
    assert_eq!(
        e.recv(SOON).unwrap(),
        "rnbqkbnr/pppp1ppp/8/4|p3/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2"
    );
    e.finish();
}

#[test]
fn eval_help_and_bench_answer() {
    let mut e = Engine::start();
    e.send("eval");
    let lines = e.collect_for(Duration::from_millis(500));
    assert!(
        !lines.is_empty() && !lines.iter().any(|l| l.starts_with("info string error")),
        "{lines:?}"
    );
    e.send("help");
    let lines = e.until_prefix("Command line:");
    assert!(lines.iter().any(|l| l.contains("perft")));
    e.send("bench 2");
    let lines = e.until_prefix("Total time (ms) : ");
    let n = lines.len();
    assert!(lines[n - 3].starts_with("Nodes searched  : "), "{lines:?}");
    assert!(lines[n - 2].starts_with("Nodes/second    : "), "{lines:?}");
    let nodes = lines[n - 3].clone();
    e.send("bench 2");
    let again = e.until_prefix("Total time (ms) : ");
    assert_eq!(again[again.len() - 3], nodes, "bench is deterministic");
    e.finish();
}

#[test]
fn variant_option_resets_to_the_start() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4");
    e.send("setoption name uci_variant value ALICE");
    let line = e.recv(SOON).unwrap();
    assert!(line.starts_with("info string variant alice files 8 ranks 8 pocket 0 template fairy startpos "));
    e.send("fen");
    assert_eq!(
        e.recv(SOON).unwrap(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    e.finish();
}

#[test]
fn en_passant_option_changes_the_rules() {
    let mut e = Engine::start();
    let position = "position fen 4k3/8/8/8/3|p|P3/8/8/4K3 b - e3 0 1";
    let count = |e: &mut Engine| -> Vec<String> {
        e.send("moves");
        e.until_prefix("Legal moves: ")
    };
    e.send(position);
    let off = count(&mut e);
    assert!(!off.iter().any(|l| l.starts_with("d4e3 ")), "{off:?}");
    e.send("setoption name AliceEnPassant value normal");
    e.send(position);
    let on = count(&mut e);
    assert!(on.iter().any(|l| l.starts_with("d4e3 ")), "{on:?}");
    assert_eq!(on.len(), off.len() + 1);
    // The engine plays legal moves under the option, including the capture when told to.
    e.send(&format!("{position} moves d4e3"));
    e.send("go depth 2");
    let (_, mv) = e.bestmove(SOON);
    let rules = Rules::with_en_passant(EnPassant::Normal);
    assert_legal(&game_with_rules(&format!("{position} moves d4e3"), rules), &mv);
    e.finish();
}

#[test]
fn debug_log_file_records_the_dialogue() {
    let path = std::env::temp_dir().join(format!("vorpal-debug-log-{}.txt", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let mut e = Engine::start();
    e.send(&format!("setoption name Debug Log File value {}", path.display()));
    e.send("isready");
    e.until_prefix("readyok");
    e.send("setoption name Debug Log File value <empty>");
    e.send("isready");
    e.until_prefix("readyok");
    e.finish();
    let log = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    assert!(log.contains(">> isready\n<< readyok\n"), "{log}");
    assert!(
        !log.contains("<empty>\n<< readyok\n>> isready"),
        "logging stopped: {log}"
    );
}
