//! Assertions for the hand-made rule tests (`tests/tests/it/rules.rs`, `rules_en_passant.rs`).
//!
//! A move is checked as legal through the generator (`legal_moves`, `parse_uci`) and through
//! `is_legal` on its encoding; a move is checked as illegal by `parse_uci` failing and by
//! `is_legal` rejecting every encoding of that from/to pair (any boards, kind and capture flag).

use vorpal_engine::{BoardId, Game, Move, MoveKind, MoveParseError, Position, Rules, Square};

/// Every move kind (for enumerating move encodings).
pub const KINDS: [MoveKind; 9] = MoveKind::ALL;

/// Parses `fen` under `rules`, panicking with the FEN on error.
pub fn pos_with(fen: &str, rules: Rules) -> Position {
    Position::from_fen(fen, rules).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Parses `fen` under the default rules.
pub fn pos(fen: &str) -> Position {
    pos_with(fen, Rules::default())
}

/// Square from its name.
pub fn sq(name: &str) -> Square {
    Square::parse(name).unwrap_or_else(|| panic!("bad square {name}"))
}

/// Sorted list of whitespace-separated UCI moves.
pub fn list(moves: &str) -> Vec<String> {
    let mut v: Vec<String> = moves.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

/// Every legal move in UCI, sorted.
pub fn legal(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(|&m| p.move_to_uci(m)).collect();
    v.sort();
    v
}

/// Legal moves (UCI, sorted) of the piece on `from`.
pub fn moves_from(p: &Position, from: &str) -> Vec<String> {
    legal(p).into_iter().filter(|m| m.starts_with(from)).collect()
}

/// The piece on `square` (FEN letter) and its board letter.
pub fn cell(p: &Position, square: &str) -> Option<(char, char)> {
    p.piece_at(sq(square))
        .map(|(piece, board)| (piece.letter(), board.letter()))
}

/// Asserts `uci` is legal by both paths and returns its move.
pub fn assert_legal(p: &Position, uci: &str) -> Move {
    let mv = p
        .parse_uci(uci)
        .unwrap_or_else(|e| panic!("{uci} should be legal in {}: {e}", p.to_fen()));
    assert!(p.is_legal(mv), "is_legal rejects {uci} ({mv:?}) in {}", p.to_fen());
    assert!(p.legal_moves().contains(&mv));
    assert_eq!(p.move_to_uci(mv), uci);
    mv
}

/// Asserts `uci` is illegal: `parse_uci` says so, and `is_legal` accepts no encoding of it.
pub fn assert_illegal(p: &Position, uci: &str) {
    assert!(
        matches!(p.parse_uci(uci), Err(MoveParseError::Illegal(_))),
        "{uci} should be illegal in {}",
        p.to_fen()
    );
    let (from, to) = (sq(&uci[..2]), sq(&uci[2..4]));
    let mut targets = vec![to];
    // Castling is encoded as king-takes-rook.
    match uci {
        "e1g1" => targets.push(sq("h1")),
        "e1c1" => targets.push(sq("a1")),
        "e8g8" => targets.push(sq("h8")),
        "e8c8" => targets.push(sq("a8")),
        _ => {}
    }
    for to in targets {
        for fb in BoardId::BOTH {
            for tb in BoardId::BOTH {
                for kind in KINDS {
                    for cap in [false, true] {
                        let mv = Move::new(from, fb, to, tb, kind, cap);
                        assert!(!p.is_legal(mv), "is_legal accepts {mv:?} ({uci}) in {}", p.to_fen());
                    }
                }
            }
        }
    }
}

/// Plays SAN moves from `start` and returns the game.
pub fn play_san(start: Position, sans: &[&str]) -> Game {
    let mut game = Game::new(start);
    for san in sans {
        let mv = game.position().parse_san(san).unwrap_or_else(|e| panic!("{san}: {e}"));
        assert_eq!(game.position().move_to_san(mv), *san, "SAN of {mv:?}");
        assert!(game.play(mv));
    }
    game
}
