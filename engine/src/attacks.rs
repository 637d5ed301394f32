//! Attack tables for one board: leapers, magic-bitboard sliders, and line masks.
//! All tables are generated at build time (see `build.rs`).

use crate::types::{Bitboard, Color, PieceKind, Square};

/// One square's magic-bitboard entry.
pub(crate) struct Magic {
    mask: u64,
    magic: u64,
    offset: usize,
    shift: u32,
}

impl Magic {
    #[inline(always)]
    fn index(&self, occupied: Bitboard) -> usize {
        self.offset + ((occupied.0 & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
    }
}

include!(concat!(env!("OUT_DIR"), "/tables.rs"));

/// Knight attacks from `sq`.
#[inline(always)]
pub fn knight(sq: Square) -> Bitboard {
    Bitboard(KNIGHT_ATTACKS[sq.index()])
}

/// King attacks from `sq`.
#[inline(always)]
pub fn king(sq: Square) -> Bitboard {
    Bitboard(KING_ATTACKS[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline(always)]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN_ATTACKS[color.index() * 64 + sq.index()])
}

/// Bishop attacks from `sq` with blockers `occupied` (of the bishop's own board).
#[inline(always)]
pub fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(SLIDER_ATTACKS[BISHOP_MAGICS[sq.index()].index(occupied)])
}

/// Rook attacks from `sq` with blockers `occupied`.
#[inline(always)]
pub fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(SLIDER_ATTACKS[ROOK_MAGICS[sq.index()].index(occupied)])
}

/// Queen attacks from `sq` with blockers `occupied`.
#[inline(always)]
pub fn queen(sq: Square, occupied: Bitboard) -> Bitboard {
    bishop(sq, occupied) | rook(sq, occupied)
}

/// Attacks of a non-pawn piece kind.
#[inline(always)]
pub fn piece(kind: PieceKind, sq: Square, occupied: Bitboard) -> Bitboard {
    match kind {
        PieceKind::Knight => knight(sq),
        PieceKind::Bishop => bishop(sq, occupied),
        PieceKind::Rook => rook(sq, occupied),
        PieceKind::Queen => queen(sq, occupied),
        PieceKind::King => king(sq),
        PieceKind::Pawn => Bitboard::EMPTY,
    }
}

/// Squares strictly between `a` and `b` when they share a line, else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a.index() * 64 + b.index()])
}

/// The whole line through `a` and `b` (edge to edge) when they share one, else empty.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINE[a.index() * 64 + b.index()])
}

/// Zobrist key of a piece (index 0..12) on a board (0..3) and square.
#[inline(always)]
pub(crate) fn zobrist_piece(board: usize, piece: usize, sq: Square) -> u64 {
    ZOBRIST_PIECES[(board * 12 + piece) * 64 + sq.index()]
}

/// Zobrist key of a castling-rights set (0..16).
#[inline(always)]
pub(crate) fn zobrist_castling(rights: u8) -> u64 {
    ZOBRIST_CASTLING[rights as usize]
}

/// Zobrist key of an en passant file.
#[inline(always)]
pub(crate) fn zobrist_ep(file: u8) -> u64 {
    ZOBRIST_EP[file as usize]
}

/// Zobrist key of Black to move.
pub(crate) const fn zobrist_side() -> u64 {
    ZOBRIST_SIDE
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn rook_attacks_stop_at_blockers() {
        let occ = Bitboard::from_square(sq("d6")) | Bitboard::from_square(sq("f4"));
        let att = rook(sq("d4"), occ);
        assert!(att.has(sq("d6")) && !att.has(sq("d7")));
        assert!(att.has(sq("f4")) && !att.has(sq("g4")));
        assert!(att.has(sq("a4")) && att.has(sq("d1")));
        assert_eq!(att.count(), 2 + 2 + 3 + 3);
    }

    #[test]
    fn bishop_and_leapers() {
        assert_eq!(bishop(sq("a1"), Bitboard::EMPTY).count(), 7);
        assert_eq!(knight(sq("a1")).count(), 2);
        assert_eq!(king(sq("e4")).count(), 8);
        assert_eq!(
            pawn(Color::White, sq("e4")),
            Bitboard::from_square(sq("d5")) | Bitboard::from_square(sq("f5"))
        );
        assert_eq!(pawn(Color::Black, sq("a7")), Bitboard::from_square(sq("b6")));
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(sq("a1"), sq("d4")).count(), 2);
        assert!(between(sq("a1"), sq("b3")).is_empty());
        assert_eq!(line(sq("b2"), sq("c3")).count(), 8);
    }
}
