//! Castling rights and the castling geometry (king and rook start squares).

use crate::attacks;
use crate::types::{Bitboard, Color, Square};

/// Which wing.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum CastleSide {
    /// Towards the h-file (O-O).
    King = 0,
    /// Towards the a-file (O-O-O).
    Queen = 1,
}

impl CastleSide {
    /// Both wings.
    pub const BOTH: [CastleSide; 2] = [CastleSide::King, CastleSide::Queen];

    /// The wing of a castling move (encoded king square to rook square, so in Chess960 too).
    #[inline(always)]
    pub fn of_castling(mv: crate::types::Move) -> CastleSide {
        if mv.to().file() > mv.from().file() {
            CastleSide::King
        } else {
            CastleSide::Queen
        }
    }
}

/// A set of castling rights: bit `color * 2 + side`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct CastlingRights(u8);

impl CastlingRights {
    /// No rights.
    pub const NONE: CastlingRights = CastlingRights(0);
    /// All four rights.
    pub const ALL: CastlingRights = CastlingRights(15);

    /// The single right of `color` on `side`.
    #[inline(always)]
    pub const fn single(color: Color, side: CastleSide) -> CastlingRights {
        CastlingRights(1 << (color as u8 * 2 + side as u8))
    }

    /// True when the set holds the right of `color` on `side`.
    #[inline(always)]
    pub const fn has(self, color: Color, side: CastleSide) -> bool {
        self.0 & CastlingRights::single(color, side).0 != 0
    }

    /// Adds a right.
    pub fn insert(&mut self, color: Color, side: CastleSide) {
        self.0 |= CastlingRights::single(color, side).0;
    }

    /// Both rights of `color`.
    #[inline(always)]
    pub const fn both(color: Color) -> CastlingRights {
        CastlingRights(3 << (color as u8 * 2))
    }

    /// Removes the rights in `other`.
    #[inline(always)]
    pub fn remove(&mut self, other: CastlingRights) {
        self.0 &= !other.0;
    }

    /// Raw bits 0..16.
    #[inline(always)]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// True when no right is left.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// Where kings and rooks start: the standard squares, or the squares of a Chess960 array read
/// from the FEN's castling field. Kept small, as it is copied with every position.
///
/// Castling always ends with the king on the g- or c-file and the rook on the f- or d-file of
/// the back rank (Chess960 rules), on the landing board.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) struct CastlingConfig {
    /// King start square per colour.
    pub king: [Square; 2],
    /// Rook start square per colour and side.
    pub rook: [[Square; 2]; 2],
}

impl CastlingConfig {
    /// The standard array: kings on e1/e8, rooks on a1/h1/a8/h8.
    pub fn standard() -> CastlingConfig {
        CastlingConfig::new(
            [Square::new(4), Square::new(60)],
            [[Square::new(7), Square::new(0)], [Square::new(63), Square::new(56)]],
        )
    }

    /// A configuration from the king and rook start squares ([colour], [colour][side]).
    pub const fn new(king: [Square; 2], rook: [[Square; 2]; 2]) -> CastlingConfig {
        CastlingConfig { king, rook }
    }

    /// Squares that must be empty on the castling board for `color` castling on `side`, king
    /// and rook aside: the king's way to its destination and the rook's way to its destination
    /// (together: everything between the outermost of king, rook and their destinations).
    #[inline(always)]
    pub fn empty(&self, color: Color, side: CastleSide) -> Bitboard {
        let (ks, rs) = (self.king[color.index()], self.rook[color.index()][side as usize]);
        let (kd, rd) = CastlingConfig::destinations(color, side);
        let ways = attacks::between(ks, kd) | attacks::between(rs, rd);
        (ways | Bitboard::from_square(kd) | Bitboard::from_square(rd))
            & !(Bitboard::from_square(ks) | Bitboard::from_square(rs))
    }

    /// Squares the king passes over or lands on (its start square is covered by "not in
    /// check"); none may be attacked on the castling board.
    #[inline(always)]
    pub fn king_path(&self, color: Color, side: CastleSide) -> Bitboard {
        let kd = CastlingConfig::destinations(color, side).0;
        attacks::between(self.king[color.index()], kd) | Bitboard::from_square(kd)
    }

    /// This configuration with the entries of absent rights reset to the standard squares (the
    /// king's entry when its colour has no right left), so equal positions have equal
    /// configurations however they were reached.
    pub fn canonical(&self, rights: CastlingRights) -> CastlingConfig {
        let standard = CastlingConfig::standard();
        let (mut king, mut rook) = (self.king, self.rook);
        for color in Color::BOTH {
            let c = color.index();
            if !rights.has(color, CastleSide::King) && !rights.has(color, CastleSide::Queen) {
                king[c] = standard.king[c];
            }
            for side in CastleSide::BOTH {
                if !rights.has(color, side) {
                    rook[c][side as usize] = standard.rook[c][side as usize];
                }
            }
        }
        CastlingConfig::new(king, rook)
    }

    /// The wing of `color` whose rook starts on `rook_sq`, if any.
    #[inline(always)]
    pub fn side_of(&self, color: Color, rook_sq: Square) -> Option<CastleSide> {
        CastleSide::BOTH
            .into_iter()
            .find(|&s| self.rook[color.index()][s as usize] == rook_sq)
    }

    /// Destination squares of king and rook for a castling of `color` on `side`.
    pub const fn destinations(color: Color, side: CastleSide) -> (Square, Square) {
        let rank = match color {
            Color::White => 0,
            Color::Black => 7,
        };
        match side {
            CastleSide::King => (Square::from_coords(6, rank), Square::from_coords(5, rank)),
            CastleSide::Queen => (Square::from_coords(2, rank), Square::from_coords(3, rank)),
        }
    }
}
