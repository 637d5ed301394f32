//! The generic legal move generator, used by every variant except standard and Looking-glass
//! Alice (which keep the fast generator of `movegen.rs`): Lady Alice, O'Donohue, Duo, Mini Alice
//! and three-board Alice, each with or without Chess960 castling and en passant where it applies.
//!
//! It is simple rather than fast. Moves are generated pseudo-legally from the variant's movement
//! and landing rules (a piece moves on its board seeing only that board, within the board's
//! valid squares; where it may land is decided by [`Position::landing_boards`]), then each is
//! made on a copy and kept only if the mover's king is not in check by the variant's check rule
//! (`king_in_check`; Duo adds the zero-square check). King moves must in addition not end on a
//! square attacked on the board they leave (docs/rules.md §1 item 6); null and zero moves are
//! exempt from that (a Duo king may escape check by a zero move; a Lady Alice king may not
//! null-move while in check at all). `is_legal` runs the same code for the moving piece only.

use super::castling::CastlingConfig;
use super::movegen::GenType;
use super::Position;
use crate::attacks;
use crate::rules::{EnPassant, Variant};
use crate::types::{Bitboard, BoardId, Color, Move, MoveKind, MoveList, PieceKind, Square};

const PROMOS: [PieceKind; 4] = [PieceKind::Queen, PieceKind::Knight, PieceKind::Rook, PieceKind::Bishop];

/// Up to two landing boards of one move.
#[derive(Copy, Clone)]
pub(crate) struct Landings {
    boards: [BoardId; 2],
    len: usize,
}

impl Landings {
    const NONE: Landings = Landings {
        boards: [BoardId::A, BoardId::A],
        len: 0,
    };

    fn push(&mut self, board: BoardId) {
        self.boards[self.len] = board;
        self.len += 1;
    }

    fn iter(self) -> impl Iterator<Item = BoardId> {
        self.boards.into_iter().take(self.len)
    }
}

impl Position {
    /// Where a piece moving on `board` to the cells `dests` (the destination, or for castling
    /// both destinations) may land:
    /// - Alice, Looking-glass, Lady Alice, Mini Alice: the other board, if `dests` are empty there;
    /// - three-board Alice: each other board where `dests` are empty;
    /// - O'Donohue: the other board if `dests` are empty there, else its own board;
    /// - Duo: its own board, and the other board if `dests` are empty there.
    pub(crate) fn landing_boards(&self, board: BoardId, dests: Bitboard) -> Landings {
        let mut out = Landings::NONE;
        match self.rules.variant {
            Variant::Alice3 => {
                for other in self.other_boards(board) {
                    if (self.occupied(other) & dests).is_empty() {
                        out.push(other);
                    }
                }
            }
            Variant::ODonohue => {
                let other = board.other();
                out.push(if (self.occupied(other) & dests).is_empty() {
                    other
                } else {
                    board
                });
            }
            Variant::Duo => {
                out.push(board);
                if (self.occupied(board.other()) & dests).is_empty() {
                    out.push(board.other());
                }
            }
            _ => {
                if (self.occupied(board.other()) & dests).is_empty() {
                    out.push(board.other());
                }
            }
        }
        out
    }

    /// Appends the legal moves of `gen` type (generic generator).
    pub(crate) fn generic_generate(&self, gen: GenType, list: &mut MoveList) {
        self.pseudo_moves(None, &mut |mv| {
            let wanted = match gen {
                GenType::All => true,
                GenType::Noisy => mv.is_noisy(),
                GenType::Quiet => !mv.is_noisy(),
            };
            if wanted && self.legal_after(mv) {
                list.push(mv);
            }
        });
    }

    /// The generic generator's legal moves, whatever the variant (for standard Alice this is a
    /// second, slower generator that tests compare with the fast one).
    pub fn generic_legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generic_generate(GenType::All, &mut list);
        list
    }

    /// `is_legal` for the generic variants: `mv` is one of the pseudo-legal moves of the piece on
    /// its from-cell and passes the make-and-test check.
    pub(crate) fn generic_is_legal(&self, mv: Move) -> bool {
        let boards = self.rules.boards();
        let (fb, tb) = (mv.from_board(), mv.to_board());
        if fb.index() >= boards || tb.index() >= boards {
            return false;
        }
        if !self.color_on(fb, self.side).has(mv.from()) {
            return false;
        }
        let mut found = false;
        self.pseudo_moves(Some((fb, mv.from())), &mut |m| found |= m == mv);
        found && self.legal_after(mv)
    }

    /// Makes `mv` on a copy: true when the mover's king is then not in check.
    #[inline]
    fn legal_after(&self, mv: Move) -> bool {
        let mut next = *self;
        next.make_unchecked(mv);
        !next.king_in_check(self.side)
    }

    /// Calls `sink` with every pseudo-legal move (of the piece on `only`, when given).
    fn pseudo_moves<F: FnMut(Move)>(&self, only: Option<(BoardId, Square)>, sink: &mut F) {
        let us = self.side;
        let them = us.flip();
        let variant = self.rules.variant;
        let valid = variant.valid_squares();
        let in_check = self.in_check();
        for &board in self.boards() {
            let own = self.color_on(board, us);
            let occ = self.occupied(board);
            let movers = match only {
                Some((b, sq)) if b == board => own & Bitboard::from_square(sq),
                Some(_) => Bitboard::EMPTY,
                None => own,
            };
            for from in movers {
                let kind = self.piece_on(board, from).map_or(PieceKind::Pawn, |p| p.kind());
                match kind {
                    PieceKind::Pawn => self.pawn_moves(board, from, sink),
                    PieceKind::King => {
                        let occ_without = occ ^ Bitboard::from_square(from);
                        for to in attacks::king(from) & valid & !own {
                            if !self.king_square_attacked(to, board, occ_without, them) {
                                self.land(board, from, to, MoveKind::Normal, occ.has(to), sink);
                            }
                        }
                    }
                    other => {
                        for to in attacks::piece(other, from, occ) & valid & !own {
                            self.land(board, from, to, MoveKind::Normal, occ.has(to), sink);
                        }
                    }
                }
                let zero = board.other();
                match variant {
                    // Lady Alice null move: to the empty same square of the other board; never a
                    // king's way out of check.
                    Variant::LadyAlice if !self.occupied(zero).has(from) && (kind != PieceKind::King || !in_check) => {
                        sink(Move::new(from, board, from, zero, MoveKind::Null, false));
                    }
                    // Duo zero move: pieces other than pawns, onto an empty square or an enemy.
                    Variant::Duo if kind != PieceKind::Pawn && !self.color_on(zero, us).has(from) => {
                        let capture = self.color_on(zero, them).has(from);
                        sink(Move::new(from, board, from, zero, MoveKind::Null, capture));
                    }
                    _ => {}
                }
            }
        }
        if !in_check && !self.castling.is_empty() {
            self.castling_moves(only, sink);
        }
        self.en_passant_moves(only, sink);
    }

    /// Calls `sink` once per landing board of a move from `from` on `board` to `to`.
    #[inline]
    fn land<F: FnMut(Move)>(
        &self,
        board: BoardId,
        from: Square,
        to: Square,
        kind: MoveKind,
        capture: bool,
        sink: &mut F,
    ) {
        for tb in self.landing_boards(board, Bitboard::from_square(to)).iter() {
            sink(Move::new(from, board, to, tb, kind, capture));
        }
    }

    fn pawn_moves<F: FnMut(Move)>(&self, board: BoardId, from: Square, sink: &mut F) {
        let us = self.side;
        let variant = self.rules.variant;
        let valid = variant.valid_squares();
        let occ = self.occupied(board);
        let (step, start_rank, last_rank): (i8, u8, u8) = if us == Color::White { (8, 1, 7) } else { (-8, 6, 0) };
        // Pushes: the way must be free on the pawn's own board; `land` checks the landing board.
        let to = from.offset(step);
        if valid.has(to) && !occ.has(to) {
            if to.rank() == last_rank {
                for promo in PROMOS {
                    self.land(board, from, to, Move::promo_kind(promo), false, sink);
                }
            } else {
                self.land(board, from, to, MoveKind::Normal, false, sink);
                let to2 = to.offset(step);
                if variant.pawn_double_step() && from.rank() == start_rank && !occ.has(to2) {
                    self.land(board, from, to2, MoveKind::DoublePush, false, sink);
                }
            }
        }
        let double_ep = self.double_ep_square(board);
        for to in attacks::pawn(us, from) & valid & self.color_on(board, us.flip()) {
            if double_ep == Some(to) {
                continue; // the double en passant capture replaces the ordinary one (§3.1)
            }
            if to.rank() == last_rank {
                for promo in PROMOS {
                    self.land(board, from, to, Move::promo_kind(promo), true, sink);
                }
            } else {
                self.land(board, from, to, MoveKind::Normal, true, sink);
            }
        }
    }

    /// Castling (the caller checked that we are not in check): king and rook on their start
    /// squares of the king's board, the squares between them and their destinations empty there,
    /// the king not passing or landing on a square attacked there; the landing boards follow the
    /// variant with both destinations as the landing cells (O'Donohue: both stay on their board
    /// unless both destinations are empty on the other; Duo: the mover chooses).
    fn castling_moves<F: FnMut(Move)>(&self, only: Option<(BoardId, Square)>, sink: &mut F) {
        let us = self.side;
        let them = us.flip();
        let kb = self.king_board(us);
        let ksq = self.king_square(us);
        if only.is_some_and(|cell| cell != (kb, ksq)) {
            return;
        }
        let config = self.castle_config;
        let occ = self.occupied(kb);
        for side in super::CastleSide::BOTH {
            let (c, s) = (us.index(), side as usize);
            if !self.castling.has(us, side) || ksq != config.king[c] {
                continue;
            }
            let rs = config.rook[c][s];
            if !self.pieces(kb, us, PieceKind::Rook).has(rs) || (config.empty(us, side) & occ).any() {
                continue;
            }
            let mut path = config.king_path(us, side);
            if Iterator::any(&mut path, |sq| self.king_square_attacked(sq, kb, occ, them)) {
                continue;
            }
            let (kd, rd) = CastlingConfig::destinations(us, side);
            let dests = Bitboard::from_square(kd) | Bitboard::from_square(rd);
            for tb in self.landing_boards(kb, dests).iter() {
                sink(Move::new(ksq, kb, rs, tb, MoveKind::Castle, false));
            }
        }
    }

    /// En passant (§3.1) where the variant has it: a pawn on the passed pawn's board takes on the
    /// passed square and lands as any move of that board does.
    fn en_passant_moves<F: FnMut(Move)>(&self, only: Option<(BoardId, Square)>, sink: &mut F) {
        let Some((_, board, capturers)) = self.ep_capturers() else {
            return;
        };
        let Some(ep) = self.ep_square else { return };
        let us = self.side;
        if self.color_on(board, us).has(ep) {
            return;
        }
        if self.color_on(board, us.flip()).has(ep) && self.rules.ep_mode() == EnPassant::Normal {
            return; // only the ordinary capture of that piece
        }
        for from in capturers {
            if only.is_none_or(|cell| cell == (board, from)) {
                self.land(board, from, ep, MoveKind::EnPassant, true, sink);
            }
        }
    }
}
