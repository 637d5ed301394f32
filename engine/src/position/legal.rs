//! `is_legal`: validates any move encoding (from a hash table or a user) directly from the
//! rules, independently of the generator. Tests compare the two over every encoding.

use super::castling::{CastleSide, CastlingConfig};
use super::Position;
use crate::attacks;
use crate::rules::EnPassant;
use crate::types::{Bitboard, Color, Move, MoveKind, PieceKind};

impl Position {
    /// True when `mv` is a legal move in this position. For the variants of the generic
    /// generator this asks that generator (for the moving piece only); for standard Alice it
    /// checks the rules directly, independently of the fast generator.
    pub fn is_legal(&self, mv: Move) -> bool {
        if mv.is_none() {
            return false;
        }
        if !self.rules.variant.fast_generator() {
            return self.generic_is_legal(mv);
        }
        let us = self.side;
        let (from, to, fb, tb) = (mv.from(), mv.to(), mv.from_board(), mv.to_board());
        // Standard Alice: every move transfers to the other board.
        if tb != fb.other() {
            return false;
        }
        let Some(piece) = self.piece_on(fb, from) else {
            return false;
        };
        if piece.color() != us {
            return false;
        }
        match mv.kind() {
            MoveKind::Null => false,
            MoveKind::Castle => self.castling_is_legal(mv),
            MoveKind::EnPassant => self.en_passant_is_legal(mv),
            kind => {
                let target = self.piece_on(fb, to);
                if target.is_some_and(|t| t.color() == us) || mv.is_capture() != target.is_some() {
                    return false;
                }
                if self.occupied(tb).has(to) {
                    return false;
                }
                let pattern_ok = match piece.kind() {
                    PieceKind::Pawn => self.pawn_move_is_legal(mv, kind, target.is_some()),
                    PieceKind::King => {
                        kind == MoveKind::Normal
                            && attacks::king(from).has(to)
                            && !self.is_attacked(to, fb, self.occupied(fb) ^ Bitboard::from_square(from), us.flip())
                    }
                    other => kind == MoveKind::Normal && attacks::piece(other, from, self.occupied(fb)).has(to),
                };
                pattern_ok && self.leaves_king_safe(mv)
            }
        }
    }

    fn pawn_move_is_legal(&self, mv: Move, kind: MoveKind, capture: bool) -> bool {
        let us = self.side;
        let (from, to, fb) = (mv.from(), mv.to(), mv.from_board());
        let (step, start_rank, last_rank): (i8, u8, u8) = if us == Color::White { (8, 1, 7) } else { (-8, 6, 0) };
        let promotes = to.rank() == last_rank;
        if promotes != mv.promotion().is_some() {
            return false;
        }
        if kind == MoveKind::DoublePush {
            return !capture
                && from.rank() == start_rank
                && to.index() as i8 == from.index() as i8 + 2 * step
                && !self.occupied(fb).has(from.offset(step))
                && !self.occupied(fb).has(to);
        }
        if !matches!(kind, MoveKind::Normal) && mv.promotion().is_none() {
            return false;
        }
        if capture {
            // In double en passant mode a pawn capture onto the passed square (with the
            // passed pawn on this board) is the double capture, never an ordinary one.
            if self.rules.ep_mode() == EnPassant::Double
                && self.ep_square == Some(to)
                && self.ep_capturers().is_some_and(|(_, b, _)| b == fb)
            {
                return false;
            }
            attacks::pawn(us, from).has(to)
        } else {
            to.index() as i8 == from.index() as i8 + step
        }
    }

    fn en_passant_is_legal(&self, mv: Move) -> bool {
        let us = self.side;
        let (from, to, fb, tb) = (mv.from(), mv.to(), mv.from_board(), mv.to_board());
        if self.rules.ep_mode() == EnPassant::Off || self.ep_square != Some(to) || !mv.is_capture() {
            return false;
        }
        if !self.pieces(fb, us, PieceKind::Pawn).has(from) || !attacks::pawn(us, from).has(to) {
            return false;
        }
        let passed = if us == Color::White {
            to.offset(-8)
        } else {
            to.offset(8)
        };
        if !self.pieces(fb, us.flip(), PieceKind::Pawn).has(passed) || self.occupied(tb).has(to) {
            return false;
        }
        match self.piece_on(fb, to) {
            None => {}
            Some(p) if p.color() != us && self.rules.ep_mode() == EnPassant::Double => {}
            Some(_) => return false,
        }
        self.leaves_king_safe(mv)
    }

    fn castling_is_legal(&self, mv: Move) -> bool {
        let us = self.side;
        let them = us.flip();
        let (from, to, fb, tb) = (mv.from(), mv.to(), mv.from_board(), mv.to_board());
        if self.in_check() || mv.is_capture() {
            return false;
        }
        let config = self.castle_config;
        let Some(side) = CastleSide::BOTH
            .into_iter()
            .find(|&s| config.rook[us.index()][s as usize] == to && self.castling.has(us, s))
        else {
            return false;
        };
        if config.king[us.index()] != from
            || !self.pieces(fb, us, PieceKind::King).has(from)
            || !self.pieces(fb, us, PieceKind::Rook).has(to)
        {
            return false;
        }
        let (kd, rd) = CastlingConfig::destinations(us, side);
        let lo = from.index().min(to.index()).min(kd.index()).min(rd.index());
        let hi = from.index().max(to.index()).max(kd.index()).max(rd.index());
        // Every square between the outermost of king, rook and their destinations must be
        // empty on the castling board except the king and the rook themselves.
        for i in lo..=hi {
            let sq = crate::types::Square::new(i as u8);
            if sq != from && sq != to && self.occupied(fb).has(sq) {
                return false;
            }
        }
        if self.occupied(tb).has(kd) || self.occupied(tb).has(rd) {
            return false;
        }
        let (k_lo, k_hi) = (from.index().min(kd.index()), from.index().max(kd.index()));
        for i in k_lo..=k_hi {
            if self.is_attacked(crate::types::Square::new(i as u8), fb, self.occupied(fb), them) {
                return false;
            }
        }
        self.leaves_king_safe(mv)
    }
}
