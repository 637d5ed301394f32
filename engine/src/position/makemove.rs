//! Making moves (copy-make: the caller keeps the old position to undo).

use super::castling::{CastleSide, CastlingConfig, CastlingRights};
use super::Position;
use crate::attacks;
use crate::types::{BoardId, Color, Move, MoveKind, Piece, PieceKind, Square};

impl Position {
    /// Plays `mv`, which must be legal in this position (see `is_legal`).
    pub fn make_move(&mut self, mv: Move) {
        self.make_unchecked(mv);
        #[cfg(debug_assertions)]
        self.assert_consistent();
    }

    /// `make_move` without the debug consistency check (for the generic generator's
    /// make-and-test of pseudo-legal moves, which may leave the own king in check).
    ///
    /// A move takes the piece from `from` of its board, removes what it captures (on the
    /// destination of its own board; for a zero move on the destination of the landing board;
    /// for en passant also the passed pawn) and puts it on `to` of the landing board, which may
    /// be its own board in O'Donohue and Duo. A pawn move resets the fifty-move clock unless it
    /// is a null move (a reversible Lady Alice null move of a pawn does not).
    pub(crate) fn make_unchecked(&mut self, mv: Move) {
        let us = self.side;
        let (from, to, fb, tb) = (mv.from(), mv.to(), mv.from_board(), mv.to_board());
        self.key ^= self.ep_key() ^ attacks::zobrist_castling(self.castling.bits());
        self.halfmove = self.halfmove.saturating_add(1);
        let mut new_ep = None;
        let lost = if self.castling.is_empty() {
            CastlingRights::NONE
        } else {
            self.castling_lost(mv)
        };
        match mv.kind() {
            MoveKind::Castle => {
                let side = CastleSide::of_castling(mv);
                let (kd, rd) = CastlingConfig::destinations(us, side);
                let king = self.remove(fb, from);
                let rook = self.remove(fb, to);
                self.put(tb, king, kd);
                self.put(tb, rook, rd);
                self.king_sq[us.index()] = kd;
                self.king_bd[us.index()] = tb;
            }
            MoveKind::Null => {
                let piece = self.remove(fb, from);
                if mv.is_capture() {
                    self.remove(tb, to);
                    self.halfmove = 0;
                }
                self.put(tb, piece, to);
                if piece.kind() == PieceKind::King {
                    self.king_bd[us.index()] = tb;
                }
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
                if piece.kind() == PieceKind::King {
                    self.king_sq[us.index()] = to;
                    self.king_bd[us.index()] = tb;
                } else if piece.kind() == PieceKind::Pawn {
                    self.halfmove = 0;
                    if kind == MoveKind::DoublePush {
                        new_ep = Some(Square::new(((from.index() + to.index()) / 2) as u8));
                        self.ep_board = tb;
                    }
                }
            }
        }
        if !lost.is_empty() {
            let before = self.castling;
            self.castling.remove(lost);
            if self.castling != before {
                self.castle_config = self.castle_config.canonical(self.castling);
            }
        }
        self.ep_square = new_ep;
        if new_ep.is_none() {
            self.ep_board = BoardId::A;
        }
        self.side = us.flip();
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.key ^= attacks::zobrist_side() ^ attacks::zobrist_castling(self.castling.bits());
        self.key ^= self.ep_key();
        self.checkers = self.compute_checkers();
        self.drop_idle_ep_square();
    }

    /// Castling rights that `mv` (not yet made) takes away. A right needs the king on its start
    /// square and the rook on its start square of the king's board (checked on input and by
    /// `check_consistency`), so a move from one of those cells moves the king or that rook (any
    /// move, null moves and castling included), and a capture on the rook's cell of the enemy
    /// king's board takes that rook. A piece landing on a start square of another board, or
    /// moving from one, leaves the right alone (O'Donohue, Duo, three-board Alice).
    #[inline(always)]
    fn castling_lost(&self, mv: Move) -> CastlingRights {
        let us = self.side;
        let them = us.flip();
        let config = &self.castle_config;
        let mut lost = CastlingRights::NONE;
        let (from, fb) = (mv.from(), mv.from_board());
        if fb == self.king_board(us) {
            if from == config.king[us.index()] {
                lost = CastlingRights::both(us);
            } else if let Some(side) = config.side_of(us, from) {
                lost = CastlingRights::single(us, side);
            }
        }
        if mv.is_capture() {
            let cap_board = if mv.kind() == MoveKind::Null { mv.to_board() } else { fb };
            if cap_board == self.king_board(them) {
                if let Some(side) = config.side_of(them, mv.to()) {
                    let mut both = lost;
                    both.insert(them, side);
                    lost = both;
                }
            }
        }
        lost
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
        self.ep_board = BoardId::A;
        self.side = self.side.flip();
        self.key ^= attacks::zobrist_side();
        self.halfmove = self.halfmove.saturating_add(1);
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

    /// The piece `mv` captures on its destination (not the en passant pawn): on the mover's
    /// board, or for a Duo zero move on the landing board.
    #[inline(always)]
    pub fn captured_piece(&self, mv: Move) -> Option<Piece> {
        match mv.kind() {
            MoveKind::Castle => None,
            MoveKind::Null if mv.is_capture() => self.piece_on(mv.to_board(), mv.to()),
            MoveKind::Null => None,
            _ => self.piece_on(mv.from_board(), mv.to()),
        }
    }
}
