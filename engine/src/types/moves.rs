//! Compact move encoding and the move list.

use super::{BoardId, PieceKind, Square};
use arrayvec::ArrayVec;
use std::fmt;

/// What a move does besides moving one piece.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    /// An ordinary move or capture.
    Normal = 0,
    /// A pawn's two-square step (sets the en passant square).
    DoublePush = 1,
    /// Castling; the move's `to` is the rook's square (king takes rook internally).
    Castle = 2,
    /// En passant capture of the pawn that passed `to` (docs/rules.md §3.1).
    EnPassant = 3,
    /// Promotion to a knight.
    PromoKnight = 4,
    /// Promotion to a bishop.
    PromoBishop = 5,
    /// Promotion to a rook.
    PromoRook = 6,
    /// Promotion to a queen.
    PromoQueen = 7,
    /// A piece moving to the same square of the other board: the Lady Alice null move and the
    /// Duo zero move (a zero move onto an enemy piece captures it; the capture flag is set).
    Null = 8,
}

impl MoveKind {
    /// Every move kind, in encoding order.
    pub const ALL: [MoveKind; 9] = [
        MoveKind::Normal,
        MoveKind::DoublePush,
        MoveKind::Castle,
        MoveKind::EnPassant,
        MoveKind::PromoKnight,
        MoveKind::PromoBishop,
        MoveKind::PromoRook,
        MoveKind::PromoQueen,
        MoveKind::Null,
    ];
}

/// A move: from-square and board, to-square and landing board, kind and a capture flag.
///
/// Bits: 0-5 from, 6-11 to, 12-13 from board, 14-15 landing board, 16-19 kind, 20 capture.
/// `Move::NONE` (all zero) is never a legal move.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Move(u32);

impl Move {
    /// The empty move (no move).
    pub const NONE: Move = Move(0);
    const CAPTURE: u32 = 1 << 20;

    /// Builds a move.
    #[inline(always)]
    pub const fn new(
        from: Square,
        from_board: BoardId,
        to: Square,
        to_board: BoardId,
        kind: MoveKind,
        capture: bool,
    ) -> Move {
        Move(
            from.index() as u32
                | (to.index() as u32) << 6
                | (from_board as u32) << 12
                | (to_board as u32) << 14
                | (kind as u32) << 16
                | if capture { Move::CAPTURE } else { 0 },
        )
    }

    /// Origin square.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::new((self.0 & 63) as u8)
    }

    /// Destination square (for castling: the rook's square; for a null move: `from`).
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::new(((self.0 >> 6) & 63) as u8)
    }

    /// Board the moving piece stands on.
    #[inline(always)]
    pub const fn from_board(self) -> BoardId {
        BoardId::from_index(((self.0 >> 12) & 3) as usize)
    }

    /// Board the piece lands on.
    #[inline(always)]
    pub const fn to_board(self) -> BoardId {
        BoardId::from_index(((self.0 >> 14) & 3) as usize)
    }

    /// Move kind.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        MoveKind::ALL[((self.0 >> 16) & 15) as usize]
    }

    /// True when the move removes an enemy piece.
    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        self.0 & Move::CAPTURE != 0
    }

    /// Promotion piece, if any.
    #[inline(always)]
    pub const fn promotion(self) -> Option<PieceKind> {
        match self.kind() {
            MoveKind::PromoKnight => Some(PieceKind::Knight),
            MoveKind::PromoBishop => Some(PieceKind::Bishop),
            MoveKind::PromoRook => Some(PieceKind::Rook),
            MoveKind::PromoQueen => Some(PieceKind::Queen),
            _ => None,
        }
    }

    /// True for captures and promotions (the moves quiescence search looks at).
    #[inline(always)]
    pub const fn is_noisy(self) -> bool {
        self.is_capture() || self.promotion().is_some()
    }

    /// True for castling.
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        matches!(self.kind(), MoveKind::Castle)
    }

    /// True when `other` plays the same piece between the same cells (squares and boards, the
    /// same promotion or castling), whether or not either captures: a threat stays the same
    /// threat when a defence has put a piece on its target or taken one from it.
    pub fn same_play(self, other: Move) -> bool {
        let key = |m: Move| {
            (
                m.from(),
                m.to(),
                m.from_board(),
                m.to_board(),
                m.promotion(),
                m.is_castle(),
            )
        };
        key(self) == key(other)
    }

    /// The promotion move kind for a piece kind.
    pub const fn promo_kind(kind: PieceKind) -> MoveKind {
        match kind {
            PieceKind::Knight => MoveKind::PromoKnight,
            PieceKind::Bishop => MoveKind::PromoBishop,
            PieceKind::Rook => MoveKind::PromoRook,
            _ => MoveKind::PromoQueen,
        }
    }

    /// Raw 32-bit encoding (for hash tables).
    #[inline(always)]
    pub const fn raw(self) -> u32 {
        self.0
    }

    /// Move from its raw encoding; may be garbage, so check it with `Position::is_legal`.
    #[inline(always)]
    pub const fn from_raw(raw: u32) -> Move {
        let raw = raw & 0x1F_FFFF;
        let kind = (raw >> 16) & 15;
        let (from_board, to_board) = ((raw >> 12) & 3, (raw >> 14) & 3);
        // Fields out of range (a garbage table entry) decode to no move.
        if kind as usize >= MoveKind::ALL.len()
            || from_board as usize >= BoardId::ALL.len()
            || to_board as usize >= BoardId::ALL.len()
        {
            return Move::NONE;
        }
        Move(raw)
    }

    /// True for `Move::NONE`.
    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}{}{}:{:?}{}",
            self.from(),
            self.from_board().letter(),
            self.to(),
            self.to_board().letter(),
            self.kind(),
            if self.is_capture() { "x" } else { "" }
        )
    }
}

/// Maximum number of legal moves in any position of the supported variants. Standard Alice
/// stays far below 512; Duo and three-board Alice give most moves two landing boards (a bound
/// of 55 moves per queen, 658 in all), so the list holds 1024.
pub const MAX_MOVES: usize = 1024;

/// A fixed-capacity list of moves.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;
