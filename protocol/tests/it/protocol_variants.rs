//! The variants over real pipes: `UCI_Variant` resets to each variant's start and prints the
//! Fairy-Stockfish variant line; the engine plays legal moves in every variant (checked with
//! the rules core under the same rules); `UCI_Chess960` switches castling to king-takes-rook.

use crate::support::harness::{assert_legal, game_with_rules, Engine, SOON};
use vorpal_engine::{Rules, Variant};

#[test]
fn every_variant_starts_and_plays_legal_moves() {
    let mut e = Engine::start();
    for variant in Variant::ALL {
        let rules = Rules::for_variant(variant);
        e.send(&format!("setoption name UCI_Variant value {}", variant.name()));
        let line = e.recv(SOON).unwrap();
        let start = game_with_rules("position startpos", rules).position().to_fen();
        assert_eq!(
            line,
            format!(
                "info string variant {} files {} ranks 8 pocket 0 template fairy startpos {start}",
                variant.name(),
                variant.files()
            )
        );
        e.send("d");
        let diagram = e.until_prefix("Checkers:");
        assert_eq!(diagram[0].matches("Board ").count(), variant.boards(), "{diagram:?}");
        assert!(diagram.contains(&format!("Fen: {start}")), "{diagram:?}");
        // Four searched moves, each checked in the position the engine was given.
        let mut position = String::from("position startpos moves");
        for _ in 0..4 {
            e.send(&position);
            e.send("go depth 3");
            let (lines, mv) = e.bestmove(SOON);
            assert!(
                !lines.iter().any(|l| l.starts_with("info string error")),
                "{}: {}",
                variant.name(),
                e.dump()
            );
            let game = game_with_rules(&position, rules);
            let played = assert_legal(&game, &mv);
            position.push(' ');
            position.push_str(&game.position().move_to_uci(played));
        }
        e.send(&position);
        e.send("moves");
        let moves = e.until_prefix("Legal moves: ");
        let game = game_with_rules(&position, rules);
        assert_eq!(moves.len() - 1, game.position().count_legal(), "{}", variant.name());
    }
    e.finish();
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    let mut e = Engine::start();
    let position = "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    e.send(position);
    e.send("moves");
    let standard = e.until_prefix("Legal moves: ");
    assert!(standard.contains(&"e1g1 O-O".to_string()), "{standard:?}");
    e.send("setoption name UCI_Chess960 value true");
    e.send(position);
    e.send("moves");
    let chess960 = e.until_prefix("Legal moves: ");
    assert!(chess960.contains(&"e1h1 O-O".to_string()), "{chess960:?}");
    assert!(chess960.contains(&"e1a1 O-O-O".to_string()), "{chess960:?}");
    // A Chess960 array (Scharnagl 0: BBQNNRKR) searched and answered legally.
    let rules = Rules::default().with_chess960(true);
    let fen = Variant::Alice.chess960_fen(0).unwrap();
    let position = format!("position fen {fen}");
    e.send(&position);
    e.send("go depth 3");
    let (_, mv) = e.bestmove(SOON);
    assert_legal(&game_with_rules(&position, rules), &mv);
    e.finish();
}
