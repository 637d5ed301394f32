//! Fully legal move generation for standard Alice (docs/rules.md §1 and §3.1), also used for
//! Looking-glass Alice and for Chess960 castling in both. The other variants go through the
//! generic make-and-test generator (`generic.rs`); `generate` dispatches on the variant.
//!
//! Let `kb` be the board of our king and `ob` the other board. A piece moving on `kb` leaves
//! it (it transfers to `ob`), so it can never block a check there, and it may not be pinned
//! unless it captures the pinner. A piece moving on `ob` lands on `kb`: it cannot expose our
//! king (nothing is removed from `kb`), and when in check it must land between king and checker.
//! King moves are tested on both boards.

use super::castling::{CastleSide, CastlingConfig};
use super::Position;
use crate::attacks;
use crate::rules::EnPassant;
use crate::types::{Bitboard, BoardId, Color, Move, MoveKind, MoveList, PieceKind, Square};

/// Which moves to generate.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum GenType {
    /// Every legal move.
    All,
    /// Captures (en passant included) and promotions.
    Noisy,
    /// Everything else: quiet moves and castling.
    Quiet,
}

/// Landing targets for the pieces of one board.
struct Targets {
    board: BoardId,
    /// True for the king's own board (moves leave it).
    king_board: bool,
    quiet: Bitboard,
    capture: Bitboard,
}

const PROMOS: [PieceKind; 4] = [PieceKind::Queen, PieceKind::Knight, PieceKind::Rook, PieceKind::Bishop];

impl Position {
    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(GenType::All, &mut list);
        list
    }

    /// Appends the legal moves of `gen` type to `list`.
    pub fn generate(&self, gen: GenType, list: &mut MoveList) {
        if !self.rules.variant.fast_generator() {
            self.generic_generate(gen, list);
            return;
        }
        match gen {
            GenType::All => self.gen::<true, true>(list),
            GenType::Noisy => self.gen::<true, false>(list),
            GenType::Quiet => self.gen::<false, true>(list),
        }
    }

    /// Number of legal moves (the bulk count at the last perft ply).
    pub fn count_legal(&self) -> usize {
        let mut list = MoveList::new();
        if self.rules.variant.fast_generator() {
            self.gen::<true, true>(&mut list);
        } else {
            self.generic_generate(GenType::All, &mut list);
        }
        list.len()
    }

    fn gen<const NOISY: bool, const QUIET: bool>(&self, list: &mut MoveList) {
        let us = self.side;
        let them = us.flip();
        let kb = self.king_board(us);
        let ob = kb.other();
        let ksq = self.king_square(us);
        self.gen_king::<NOISY, QUIET>(list, ksq, kb);
        let checkers = self.checkers;
        if checkers.more_than_one() {
            return;
        }
        let in_check = checkers.any();
        if QUIET && !in_check {
            self.gen_castling(list, kb);
        }
        let empty_both = !(self.occupied(kb) | self.occupied(ob));
        // Landing on the king's board while in check: only between king and a sliding checker.
        let block = if in_check {
            attacks::between(ksq, checkers.lsb())
        } else {
            Bitboard::FULL
        };
        let pinned = self.pinned(us);
        let mask = |on: bool, b: Bitboard| if on { b } else { Bitboard::EMPTY };
        let on_kb = Targets {
            board: kb,
            king_board: true,
            quiet: mask(QUIET && !in_check, empty_both),
            capture: mask(
                NOISY,
                (if in_check { checkers } else { self.color_on(kb, them) }) & !self.occupied(ob),
            ),
        };
        let on_ob = Targets {
            board: ob,
            king_board: false,
            quiet: mask(QUIET, empty_both & block),
            capture: mask(NOISY, self.color_on(ob, them) & !self.occupied(kb) & block),
        };
        for t in [&on_kb, &on_ob] {
            let movable = if t.king_board { !pinned } else { Bitboard::FULL };
            self.gen_pawns::<NOISY, QUIET>(list, t, movable);
            for kind in [PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook, PieceKind::Queen] {
                for from in self.pieces(t.board, us, kind) {
                    let att = attacks::piece(kind, from, self.occupied(t.board));
                    self.push_captures(list, t, from, att & t.capture, MoveKind::Normal);
                    if movable.has(from) {
                        for to in att & t.quiet {
                            list.push(Move::new(from, t.board, to, t.board.other(), MoveKind::Normal, false));
                        }
                    }
                }
            }
        }
        if NOISY {
            self.gen_en_passant(list);
        }
    }

    /// A capture by a piece of the king's board removes two pieces from that board (the
    /// capturer transfers away): legal unless that opens a slider line to the king.
    #[inline(always)]
    fn king_board_capture_ok(&self, from: Square, to: Square) -> bool {
        let us = self.side;
        let ksq = self.king_square(us);
        let both = Bitboard::from_square(from) | Bitboard::from_square(to);
        if (attacks::queen(ksq, Bitboard::EMPTY) & both).is_empty() {
            return true;
        }
        let kb = self.king_board(us);
        !self.slider_attacks_king(us, self.occupied(kb) ^ both, Bitboard::from_square(to))
    }

    #[inline(always)]
    fn push_captures(&self, list: &mut MoveList, t: &Targets, from: Square, targets: Bitboard, kind: MoveKind) {
        for to in targets {
            if !t.king_board || self.king_board_capture_ok(from, to) {
                list.push(Move::new(from, t.board, to, t.board.other(), kind, true));
            }
        }
    }

    fn gen_pawns<const NOISY: bool, const QUIET: bool>(&self, list: &mut MoveList, t: &Targets, movable: Bitboard) {
        let us = self.side;
        let board = t.board;
        let pawns = self.pieces(board, us, PieceKind::Pawn);
        if pawns.is_empty() {
            return;
        }
        let up = us == Color::White;
        let (last_rank, start_rank) = if up {
            (Bitboard::rank(7), Bitboard::rank(1))
        } else {
            (Bitboard::rank(0), Bitboard::rank(6))
        };
        let step: i8 = if up { 8 } else { -8 };
        let free_here = !self.occupied(board);
        // Pushes: the pawn's own board must be free on the way; the landing cell is checked by
        // `t.quiet` (empty on both boards). Promotions by push count as noisy moves.
        let single = (pawns & movable).shift_rank(up) & free_here;
        if QUIET {
            for to in single & t.quiet & !last_rank {
                list.push(Move::new(
                    to.offset(-step),
                    board,
                    to,
                    board.other(),
                    MoveKind::Normal,
                    false,
                ));
            }
            let double = (single & start_rank.shift_rank(up)).shift_rank(up) & t.quiet;
            for to in double {
                list.push(Move::new(
                    to.offset(-2 * step),
                    board,
                    to,
                    board.other(),
                    MoveKind::DoublePush,
                    false,
                ));
            }
        }
        if NOISY {
            // Quiet promotions are generated with the noisy moves; their landing needs `quiet`
            // semantics, which are computed here even when QUIET is off.
            let push_ok = self.quiet_targets_for(t);
            for to in single & push_ok & last_rank {
                for promo in PROMOS {
                    list.push(Move::new(
                        to.offset(-step),
                        board,
                        to,
                        board.other(),
                        Move::promo_kind(promo),
                        false,
                    ));
                }
            }
            let mut capture_targets = t.capture;
            if let Some(ep) = self.double_ep_square(board) {
                capture_targets &= !Bitboard::from_square(ep);
            }
            for from in pawns {
                let targets = attacks::pawn(us, from) & capture_targets;
                for to in targets {
                    if t.king_board && !self.king_board_capture_ok(from, to) {
                        continue;
                    }
                    if last_rank.has(to) {
                        for promo in PROMOS {
                            list.push(Move::new(from, board, to, board.other(), Move::promo_kind(promo), true));
                        }
                    } else {
                        list.push(Move::new(from, board, to, board.other(), MoveKind::Normal, true));
                    }
                }
            }
        }
    }

    /// Landing cells for non-capturing moves of `t`'s board ignoring the requested gen type.
    #[inline(always)]
    fn quiet_targets_for(&self, t: &Targets) -> Bitboard {
        let us = self.side;
        let empty_both = !(self.occupied(BoardId::A) | self.occupied(BoardId::B));
        if t.king_board {
            if self.in_check() {
                Bitboard::EMPTY
            } else {
                empty_both
            }
        } else if self.checkers.any() {
            empty_both & attacks::between(self.king_square(us), self.checkers.lsb())
        } else {
            empty_both
        }
    }

    /// In `double` en passant mode, the passed square on `board` when it holds an enemy piece:
    /// a pawn capture there is the double en passant capture, not an ordinary one.
    #[inline(always)]
    pub(super) fn double_ep_square(&self, board: BoardId) -> Option<Square> {
        if self.rules.ep_mode() != EnPassant::Double {
            return None;
        }
        let ep = self.ep_square?;
        let (_, pawn_board, _) = self.ep_capturers()?;
        (pawn_board == board && self.color_on(board, self.side.flip()).has(ep)).then_some(ep)
    }

    fn gen_en_passant(&self, list: &mut MoveList) {
        let Some((_, board, capturers)) = self.ep_capturers() else {
            return;
        };
        let ep = self.ep_square.expect("ep_capturers implies a square");
        let us = self.side;
        if self.occupied(board.other()).has(ep) || self.color_on(board, us).has(ep) {
            return;
        }
        if self.color_on(board, us.flip()).has(ep) && self.rules.ep_mode() == EnPassant::Normal {
            return; // only the ordinary capture of that piece (generated with the captures)
        }
        for from in capturers {
            let mv = Move::new(from, board, ep, board.other(), MoveKind::EnPassant, true);
            if self.leaves_king_safe(mv) {
                list.push(mv);
            }
        }
    }

    /// Plays `mv` on a copy and tests our king there (used for rare special moves).
    pub(crate) fn leaves_king_safe(&self, mv: Move) -> bool {
        let mut next = *self;
        next.make_move(mv);
        let us = self.side;
        let kb = next.king_board(us);
        !next.is_attacked(next.king_square(us), kb, next.occupied(kb), us.flip())
    }

    fn gen_king<const NOISY: bool, const QUIET: bool>(&self, list: &mut MoveList, ksq: Square, kb: BoardId) {
        let us = self.side;
        let them = us.flip();
        let ob = kb.other();
        let targets = attacks::king(ksq) & !self.color_on(kb, us) & !self.occupied(ob);
        let mut wanted = Bitboard::EMPTY;
        if NOISY {
            wanted |= targets & self.color_on(kb, them);
        }
        if QUIET {
            wanted |= targets & !self.occupied(kb);
        }
        let occ_without_king = self.occupied(kb) ^ Bitboard::from_square(ksq);
        for to in wanted {
            if !self.is_attacked(to, kb, occ_without_king, them) && !self.is_attacked(to, ob, self.occupied(ob), them) {
                let capture = self.occupied(kb).has(to);
                list.push(Move::new(ksq, kb, to, ob, MoveKind::Normal, capture));
            }
        }
    }

    /// Castling (docs/rules.md §1): king and rook on their start squares of the king's board, path
    /// empty there, king not passing attacked squares there, destinations empty on the other
    /// board and the king safe there after both transfer. Caller ensures we are not in check.
    #[inline(always)]
    fn gen_castling(&self, list: &mut MoveList, kb: BoardId) {
        let us = self.side;
        let them = us.flip();
        for side in CastleSide::BOTH {
            if let Some(mv) = self.castling_move(us, them, kb, side) {
                list.push(mv);
            }
        }
    }

    #[inline(always)]
    pub(crate) fn castling_move(&self, us: Color, them: Color, kb: BoardId, side: CastleSide) -> Option<Move> {
        if !self.castling.has(us, side) {
            return None;
        }
        let config = self.castle_config;
        let (ks, rs) = (config.king[us.index()], config.rook[us.index()][side as usize]);
        if !self.pieces(kb, us, PieceKind::King).has(ks) || !self.pieces(kb, us, PieceKind::Rook).has(rs) {
            return None;
        }
        let (kd, rd) = CastlingConfig::destinations(us, side);
        let dests = Bitboard::from_square(kd) | Bitboard::from_square(rd);
        let occ = self.occupied(kb);
        if (config.empty(us, side) & occ).any() {
            return None;
        }
        let ob = kb.other();
        if (self.occupied(ob) & dests).any() {
            return None;
        }
        for sq in config.king_path(us, side) {
            if self.is_attacked(sq, kb, occ, them) {
                return None;
            }
        }
        if self.is_attacked(kd, ob, self.occupied(ob) | dests, them) {
            return None;
        }
        Some(Move::new(ks, kb, rs, ob, MoveKind::Castle, false))
    }
}
