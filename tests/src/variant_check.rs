//! Assertions for the variant rule tests (`tests/tests/it/variants_*.rs`).
//!
//! A move is checked as legal through the generator (`legal_moves`, `parse_uci`) and through
//! `is_legal` on its encoding; a move is checked as illegal by `parse_uci` failing and by
//! `is_legal` rejecting every encoding of that from/to pair (any boards, kind and capture flag).

use crate::rules_check::KINDS;
use vorpal_engine::{BoardId, EnPassant, Move, MoveParseError, Position, Rules, Square, Variant};

/// Parses `fen` under `variant`'s default rules.
pub fn vpos(variant: Variant, fen: &str) -> Position {
    vpos_with(Rules::for_variant(variant), fen)
}

/// Parses `fen` under `rules`.
pub fn vpos_with(rules: Rules, fen: &str) -> Position {
    Position::from_fen(fen, rules).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// `variant` with en passant `mode`.
pub fn with_ep(variant: Variant, mode: EnPassant) -> Rules {
    Rules::for_variant(variant).with_ep(mode)
}

/// Every legal move in the wide form, sorted.
pub fn wide_moves(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(|&m| p.move_to_wide(m)).collect();
    v.sort();
    v
}

/// Legal moves (wide form, sorted) from the cell `from` (wide cell name such as `e2` or `m2`).
pub fn wide_from(p: &Position, from: &str) -> Vec<String> {
    wide_moves(p).into_iter().filter(|m| m.starts_with(from)).collect()
}

/// Square from its name.
pub fn square(name: &str) -> Square {
    Square::parse(name).unwrap_or_else(|| panic!("bad square {name}"))
}

/// The piece letter on `square` of `board`, if any.
pub fn on(p: &Position, board: BoardId, name: &str) -> Option<char> {
    p.piece_on(board, square(name)).map(|piece| piece.letter())
}

/// Asserts `text` (plain or wide UCI) is legal by both paths and returns the move.
pub fn legal_move(p: &Position, text: &str) -> Move {
    let mv = p
        .parse_uci(text)
        .unwrap_or_else(|e| panic!("{text} should be legal in {}: {e}", p.to_fen()));
    assert!(p.is_legal(mv), "is_legal rejects {text} ({mv:?}) in {}", p.to_fen());
    assert!(p.legal_moves().contains(&mv), "{text} not generated in {}", p.to_fen());
    mv
}

/// Plays the legal move `text` and returns the new position.
pub fn play(p: &Position, text: &str) -> Position {
    p.after(legal_move(p, text))
}

/// Asserts that no move between the squares of `text` (its first two cells, any boards) is
/// legal: `parse_uci` rejects it and `is_legal` accepts no encoding of that square pair.
pub fn no_move(p: &Position, text: &str) {
    assert!(
        matches!(p.parse_uci(text), Err(MoveParseError::Illegal(_))),
        "{text} should be illegal in {} ({:?})",
        p.to_fen(),
        p.parse_uci(text)
    );
    let cell = |s: &str| {
        let b = s.as_bytes();
        Square::from_coords((b[0] - b'a') % 8, b[1] - b'1')
    };
    let (from, to) = (cell(&text[..2]), cell(&text[2..4]));
    for fb in BoardId::ALL {
        for tb in BoardId::ALL {
            for kind in KINDS {
                for cap in [false, true] {
                    let mv = Move::new(from, fb, to, tb, kind, cap);
                    assert!(!p.is_legal(mv), "is_legal accepts {mv:?} ({text}) in {}", p.to_fen());
                }
            }
        }
    }
}

/// Asserts that the wide move `wide` is not legal (other moves between the same squares may be:
/// a text on a-h only may still parse as the plain form of such a move).
pub fn not_legal(p: &Position, wide: &str) {
    assert!(
        !wide_moves(p).contains(&wide.to_string()),
        "{wide} should be illegal in {}",
        p.to_fen()
    );
    if let Ok(mv) = p.parse_uci(wide) {
        assert_ne!(p.move_to_wide(mv), wide, "{wide} parses in {}", p.to_fen());
    }
}
