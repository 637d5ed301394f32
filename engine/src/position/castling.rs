//! Castling rights and the castling geometry (king and rook start squares).

use crate::types::{Color, Square};

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

/// Where kings and rooks start (standard chess squares; Chess960 arrays later).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) struct CastlingConfig {
    /// King start square per colour.
    pub king: [Square; 2],
    /// Rook start square per colour and side.
    pub rook: [[Square; 2]; 2],
}

impl CastlingConfig {
    /// The standard array: kings on e1/e8, rooks on a1/h1/a8/h8.
    pub const fn standard() -> CastlingConfig {
        CastlingConfig {
            king: [Square::new(4), Square::new(60)],
            rook: [[Square::new(7), Square::new(0)], [Square::new(63), Square::new(56)]],
        }
    }

    /// Rights lost when a piece leaves or arrives at `sq`.
    #[inline(always)]
    pub fn rights_touching(&self, sq: Square) -> CastlingRights {
        let mut lost = CastlingRights::NONE;
        for color in Color::BOTH {
            if sq == self.king[color.index()] {
                lost.0 |= 3 << (color as u8 * 2);
            }
            for side in CastleSide::BOTH {
                if sq == self.rook[color.index()][side as usize] {
                    lost.0 |= CastlingRights::single(color, side).0;
                }
            }
        }
        lost
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
