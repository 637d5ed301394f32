//! Making moves (copy-make: the caller keeps the old position to undo).

use super::castling::{CastleSide, CastlingConfig};
use super::Position;
use crate::attacks;
use crate::types::{Color, Move, MoveKind, Piece, PieceKind, Square};

impl Position {
    /// Plays `mv`, which must be legal in this position (see `is_legal`).
    pub fn make_move(&mut self, mv: Move) {
        let us = self.side;
        let (from, to, fb, tb) = (mv.from(), mv.to(), mv.from_board(), mv.to_board());
        self.key ^= self.ep_key() ^ attacks::zobrist_castling(self.castling.bits());
        self.halfmove += 1;
        let mut new_ep = None;
        match mv.kind() {
            MoveKind::Castle => {
                let side = if to.file() > from.file() {
                    CastleSide::King
                } else {
                    CastleSide::Queen
                };
                let (kd, rd) = CastlingConfig::destinations(us, side);
                let king = self.remove(fb, from);
                let rook = self.remove(fb, to);
                self.put(tb, king, kd);
                self.put(tb, rook, rd);
            }
            MoveKind::Null => {
                let piece = self.remove(fb, from);
                self.put(tb, piece, to);
            }
            kind => {
                let piece = self.remove(fb, from);
                if kind == MoveKind::EnPassant {
                    let passed = if us == Color::White {
                        to.offset(-8)
                    } else {
                        to.offset(8)
                    };
                    self.remove(fb, passed);
                }
                if self.piece_on(fb, to).is_some() {
                    self.remove(fb, to);
                    self.halfmove = 0;
                }
                let placed = match mv.promotion() {
                    Some(kind) => Piece::new(us, kind),
                    None => piece,
                };
                self.put(tb, placed, to);
                if piece.kind() == PieceKind::Pawn {
                    self.halfmove = 0;
                    if kind == MoveKind::DoublePush {
                        new_ep = Some(Square::new(((from.index() + to.index()) / 2) as u8));
                    }
                }
            }
        }
        let config = self.castle_config;
        self.castling.remove(config.rights_touching(from));
        self.castling.remove(config.rights_touching(to));
        self.ep_square = new_ep;
        self.side = us.flip();
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.key ^= attacks::zobrist_side() ^ attacks::zobrist_castling(self.castling.bits());
        self.key ^= self.ep_key();
        self.checkers = self.compute_checkers();
        #[cfg(debug_assertions)]
        self.assert_consistent();
    }

    /// The position after `mv` (copy-make).
    pub fn after(&self, mv: Move) -> Position {
        let mut next = *self;
        next.make_move(mv);
        next
    }

    /// Passes the turn (for null-move pruning); the side to move must not be in check.
    pub fn make_null_move(&mut self) {
        debug_assert!(!self.in_check());
        self.key ^= self.ep_key();
        self.ep_square = None;
        self.side = self.side.flip();
        self.key ^= attacks::zobrist_side();
        self.halfmove += 1;
        self.checkers = self.compute_checkers();
    }

    /// True when `mv` gives check.
    pub fn gives_check(&self, mv: Move) -> bool {
        self.after(mv).in_check()
    }

    /// The piece that `mv` moves.
    #[inline(always)]
    pub fn moved_piece(&self, mv: Move) -> Option<Piece> {
        self.piece_on(mv.from_board(), mv.from())
    }

    /// The piece `mv` captures on its destination (not the en passant pawn).
    #[inline(always)]
    pub fn captured_piece(&self, mv: Move) -> Option<Piece> {
        if mv.is_castle() {
            return None;
        }
        self.piece_on(mv.from_board(), mv.to())
    }
}
