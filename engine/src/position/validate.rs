//! Consistency checks of the incremental state (run after every make in debug builds).

use super::{CastleSide, Position, NO_PIECE};
use crate::error::ConsistencyError;
use crate::types::{Bitboard, BoardId, Color, PieceKind};

impl Position {
    /// Recomputes every derived field from the piece sets and reports the first mismatch, and
    /// checks the variant's invariants: boards beyond the variant's are empty, pieces stand only
    /// on the valid squares (files a-d in Mini Alice), a square is occupied on two boards only
    /// where the variant allows it, no pawn on the first or last rank, each castling right has its
    /// king and rook on their start squares of one board, the en passant square has its pawn.
    pub fn check_consistency(&self) -> Result<(), ConsistencyError> {
        self.consistency().map_err(ConsistencyError)
    }

    fn consistency(&self) -> Result<(), String> {
        for board in BoardId::ALL {
            let b = board.index();
            let mut occ = Bitboard::EMPTY;
            for color in Color::BOTH {
                let mut by_color = Bitboard::EMPTY;
                for kind in PieceKind::ALL {
                    let set = self.pieces[b][color.index()][kind.index()];
                    if ((occ | by_color) & set).any() {
                        return Err(format!("overlapping piece sets on board {}", board.letter()));
                    }
                    by_color |= set;
                }
                if by_color != self.by_color[b][color.index()] {
                    return Err(format!(
                        "colour occupancy of {color:?} on board {} is stale",
                        board.letter()
                    ));
                }
                occ |= by_color;
            }
            if occ != self.occupied[b] {
                return Err(format!("occupancy of board {} is stale", board.letter()));
            }
            let white = self.by_color[b][0];
            for sq in crate::types::Square::all() {
                if self.cell(b, sq) > NO_PIECE {
                    return Err(format!("mailbox of board {} at {sq} holds garbage", board.letter()));
                }
                let expected = self.piece_on(board, sq).map(|p| p.index());
                let actual = occ.has(sq).then(|| {
                    let color = if white.has(sq) { 0 } else { 1 };
                    let kind = PieceKind::ALL
                        .iter()
                        .position(|k| self.pieces[b][color][k.index()].has(sq));
                    color * 6 + kind.unwrap_or(6)
                });
                if expected != actual {
                    return Err(format!("mailbox of board {} at {sq} is stale", board.letter()));
                }
            }
        }
        self.check_variant_invariants()?;
        for color in Color::BOTH {
            if self.pieces_both(color, PieceKind::King).count() != 1 {
                return Err(format!("{color:?} does not have exactly one king"));
            }
            let king = (self.king_square(color), self.king_board(color));
            if king != self.find_king(color) {
                return Err(format!("the {color:?} king's square or board is stale"));
            }
        }
        if self.key != self.compute_key() {
            return Err("incremental key differs from the recomputed key".into());
        }
        if self.checkers != self.compute_checkers() {
            return Err("checkers are stale".into());
        }
        Ok(())
    }

    fn check_variant_invariants(&self) -> Result<(), String> {
        let variant = self.rules.variant;
        for board in &BoardId::ALL[variant.boards()..] {
            if self.occupied[board.index()].any() {
                return Err(format!(
                    "board {} is not used in {variant} but holds pieces",
                    board.letter()
                ));
            }
        }
        let valid = variant.valid_squares();
        let mut seen = Bitboard::EMPTY;
        for b in 0..3 {
            if (self.occupied[b] & !valid).any() {
                return Err(format!("a piece stands off the {variant} board"));
            }
            if !variant.shared_squares() && (seen & self.occupied[b]).any() {
                return Err("a square is occupied on two boards".into());
            }
            seen |= self.occupied[b];
        }
        let edge = Bitboard::rank(0) | Bitboard::rank(7);
        for color in Color::BOTH {
            if (self.pieces_both(color, PieceKind::Pawn) & edge).any() {
                return Err(format!("a {color:?} pawn stands on the first or last rank"));
            }
        }
        let config = &self.castle_config;
        for color in Color::BOTH {
            for side in CastleSide::BOTH {
                if !self.castling.has(color, side) {
                    continue;
                }
                let kb = self.king_board(color);
                let (ks, rs) = (config.king[color.index()], config.rook[color.index()][side as usize]);
                if self.king_square(color) != ks || !self.pieces(kb, color, PieceKind::Rook).has(rs) {
                    return Err(format!(
                        "castling right {color:?} {side:?} without king on {ks} and rook on {rs} of one board"
                    ));
                }
            }
        }
        if let Some(ep) = self.ep_square {
            let (rank, mover, step) = match self.side {
                Color::White => (5, Color::Black, -8),
                Color::Black => (2, Color::White, 8),
            };
            if ep.rank() != rank || !self.pieces(self.ep_board, mover, PieceKind::Pawn).has(ep.offset(step)) {
                return Err(format!("en passant square {ep} without its {mover:?} pawn"));
            }
        } else if self.ep_board != BoardId::A {
            return Err("en passant board set without an en passant square".into());
        }
        Ok(())
    }

    /// Panics with the position's FEN when an incremental field is stale (debug builds).
    #[cfg(debug_assertions)]
    pub(crate) fn assert_consistent(&self) {
        if let Err(e) = self.check_consistency() {
            panic!("inconsistent position after make: {e}: {}", self.to_fen());
        }
    }
}
