//! A small position of the tables: up to four men, each on a cell (square and board), with
//! its own move and un-move generation for standard Alice without castling and en passant.
//! Tests check both against the engine's move generator (`tests.rs`).

use super::material::{kind_rank, MAX_MEN};
use crate::attacks;
use crate::types::{Bitboard, Color, Piece, PieceKind, Square};

/// A cell: `board * 64 + square` (board 0 = A, 1 = B).
pub(crate) type Cell = u8;

/// The square of a cell.
#[inline(always)]
pub(crate) fn sq(cell: Cell) -> u8 {
    cell & 63
}

/// The board of a cell (0 = A, 1 = B).
#[inline(always)]
pub(crate) fn bd(cell: Cell) -> usize {
    (cell >> 6) as usize
}

/// Marks "no piece" in [`TbMove::captured`].
pub(crate) const NONE: u8 = 0xff;

/// Men on cells and the side to move. Men 0 and 1 are the white and black kings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Setup {
    pub men: usize,
    pub pieces: [Piece; MAX_MEN],
    pub cells: [Cell; MAX_MEN],
    pub stm: Color,
}

/// A move of a [`Setup`]: which man, to which cell, what it takes (index or [`NONE`]), what
/// a pawn promotes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TbMove {
    pub man: u8,
    pub to: Cell,
    pub captured: u8,
    pub promo: Option<PieceKind>,
}

impl TbMove {
    /// A capture or promotion: the child has another material.
    #[inline(always)]
    pub fn converts(&self) -> bool {
        self.captured != NONE || self.promo.is_some()
    }
}

impl Setup {
    /// True when `mv` resets the fifty-move clock: a capture or a pawn move.
    #[inline(always)]
    pub fn zeroes(&self, mv: &TbMove) -> bool {
        mv.converts() || self.pieces[mv.man as usize].kind() == PieceKind::Pawn
    }
}

#[inline(always)]
fn attacks_of(piece: Piece, from: u8, occ: u64) -> u64 {
    let s = Square::new(from);
    match piece.kind() {
        PieceKind::Pawn => attacks::pawn(piece.color(), s).0,
        kind => attacks::piece(kind, s, Bitboard(occ)).0,
    }
}

impl Setup {
    /// An empty setup with `stm` to move.
    pub fn empty(stm: Color) -> Setup {
        Setup {
            men: 0,
            pieces: [Piece::new(Color::White, PieceKind::King); MAX_MEN],
            cells: [0; MAX_MEN],
            stm,
        }
    }

    /// Occupancy of board `b`.
    #[inline(always)]
    pub fn occ(&self, b: usize) -> u64 {
        let mut o = 0;
        for i in 0..self.men {
            if bd(self.cells[i]) == b {
                o |= 1u64 << sq(self.cells[i]);
            }
        }
        o
    }

    /// The man of index `king` is a king of `color`: index 0 or 1.
    #[inline(always)]
    fn king_of(color: Color) -> usize {
        color.index()
    }

    /// True when `target` on board `b` is attacked by a man of `by` on that board, with
    /// blockers `occ`, ignoring man `skip`.
    #[inline(always)]
    fn attacked(&self, target: u8, b: usize, by: Color, occ: u64, skip: usize) -> bool {
        for i in 0..self.men {
            let c = self.cells[i];
            if i != skip
                && bd(c) == b
                && self.pieces[i].color() == by
                && attacks_of(self.pieces[i], sq(c), occ) >> target & 1 != 0
            {
                return true;
            }
        }
        false
    }

    /// True when the king of `color` is in check.
    #[inline(always)]
    pub fn in_check(&self, color: Color) -> bool {
        let k = self.cells[Self::king_of(color)];
        self.attacked(sq(k), bd(k), color.flip(), self.occ(bd(k)), usize::MAX)
    }

    /// True when no two men share a square (on either board) and the side not to move is not
    /// in check, pawns off the first and last ranks.
    pub fn is_valid(&self) -> bool {
        let mut seen = 0u64;
        for i in 0..self.men {
            let s = sq(self.cells[i]);
            if seen >> s & 1 != 0 {
                return false;
            }
            seen |= 1 << s;
            if self.pieces[i].kind() == PieceKind::Pawn && !(8..56).contains(&s) {
                return false;
            }
        }
        !self.in_check(self.stm.flip())
    }

    /// The setup after `mv` (men removed by a capture keep the order of the rest).
    pub fn after(&self, mv: TbMove) -> Setup {
        let mut child = *self;
        child.cells[mv.man as usize] = mv.to;
        if let Some(k) = mv.promo {
            child.pieces[mv.man as usize] = Piece::new(self.stm, k);
        }
        if mv.captured != NONE {
            let c = mv.captured as usize;
            for i in c..self.men - 1 {
                child.cells[i] = child.cells[i + 1];
                child.pieces[i] = child.pieces[i + 1];
            }
            child.men -= 1;
        }
        child.stm = self.stm.flip();
        child
    }

    /// True when the side that moved in `child` (made from `self` by `mv`) left its king safe,
    /// with Alice's rule for king moves (the destination must not be attacked on the home
    /// board, judged with the king gone).
    #[inline(always)]
    fn legal_after(&self, mv: TbMove, child: &Setup) -> bool {
        let us = self.stm;
        let man = mv.man as usize;
        if man == Self::king_of(us) {
            let from = self.cells[man];
            let home = bd(from);
            let occ = self.occ(home) & !(1u64 << sq(from));
            if self.attacked(sq(mv.to), home, us.flip(), occ, mv.captured as usize) {
                return false;
            }
        }
        !child.in_check(us)
    }

    /// Calls `f` with every legal move of the side to move and the setup it leads to.
    pub fn for_each_move(&self, mut f: impl FnMut(TbMove, &Setup)) {
        let us = self.stm;
        let occ = [self.occ(0), self.occ(1)];
        let any = occ[0] | occ[1];
        let mut emit = |mv: TbMove| {
            let child = self.after(mv);
            if self.legal_after(mv, &child) {
                f(mv, &child);
            }
        };
        for i in 0..self.men {
            let p = self.pieces[i];
            if p.color() != us {
                continue;
            }
            let c = self.cells[i];
            let (s, b) = (sq(c), bd(c));
            let land = ((1 - b) as u8) << 6;
            let man_at = |t: u8| (0..self.men).find(|&j| self.cells[j] == (b as u8) << 6 | t);
            if p.kind() == PieceKind::Pawn {
                let up: i8 = if us == Color::White { 8 } else { -8 };
                let last = if us == Color::White { 7 } else { 0 };
                let start = if us == Color::White { 1 } else { 6 };
                let push = |t: u8, captured: u8, emit: &mut dyn FnMut(TbMove)| {
                    if t / 8 == last {
                        for k in [PieceKind::Queen, PieceKind::Rook, PieceKind::Bishop, PieceKind::Knight] {
                            emit(TbMove {
                                man: i as u8,
                                to: land | t,
                                captured,
                                promo: Some(k),
                            });
                        }
                    } else {
                        emit(TbMove {
                            man: i as u8,
                            to: land | t,
                            captured,
                            promo: None,
                        });
                    }
                };
                let one = (s as i8 + up) as u8;
                if any >> one & 1 == 0 {
                    push(one, NONE, &mut emit);
                    let two = (one as i8 + up) as u8;
                    if s / 8 == start && any >> two & 1 == 0 {
                        push(two, NONE, &mut emit);
                    }
                } else if s / 8 == start && occ[b] >> one & 1 == 0 {
                    // The passed square need only be empty on the home board.
                    let two = (one as i8 + up) as u8;
                    if any >> two & 1 == 0 {
                        push(two, NONE, &mut emit);
                    }
                }
                let mut caps = attacks_of(p, s, 0) & occ[b] & !occ[1 - b];
                while caps != 0 {
                    let t = caps.trailing_zeros() as u8;
                    caps &= caps - 1;
                    if let Some(j) = man_at(t) {
                        if self.pieces[j].color() != us {
                            push(t, j as u8, &mut emit);
                        }
                    }
                }
                continue;
            }
            let mut targets = attacks_of(p, s, occ[b]) & !occ[1 - b];
            while targets != 0 {
                let t = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                let captured = if occ[b] >> t & 1 != 0 {
                    match man_at(t) {
                        Some(j) if self.pieces[j].color() != us && self.pieces[j].kind() != PieceKind::King => j as u8,
                        _ => continue,
                    }
                } else {
                    NONE
                };
                emit(TbMove {
                    man: i as u8,
                    to: land | t,
                    captured,
                    promo: None,
                });
            }
        }
    }

    /// Calls `f` with every setup that reaches this one by a legal move of the side that just
    /// moved, without a capture or promotion (the moves that stay in one table); pawn moves
    /// (which reset the fifty-move clock) only when `pawns` is true. With `check_predecessor`
    /// false, predecessors whose side not to move is in check (illegal positions) are passed on
    /// too: the generator has marked those entries already.
    pub fn for_each_unmove(&self, check_predecessor: bool, pawns: bool, mut f: impl FnMut(&Setup)) {
        let them = self.stm.flip(); // the side that made the last move
        let occ = [self.occ(0), self.occ(1)];
        let any = occ[0] | occ[1];
        for i in 0..self.men {
            let p = self.pieces[i];
            if p.color() != them || (!pawns && p.kind() == PieceKind::Pawn) {
                continue;
            }
            let c = self.cells[i];
            let (t, x) = (sq(c), bd(c));
            let y = 1 - x; // the board it moved on
            let home = (y as u8) << 6;
            let mut froms = if p.kind() == PieceKind::Pawn {
                let down: i8 = if them == Color::White { -8 } else { 8 };
                let start = if them == Color::White { 1 } else { 6 };
                let mut f = 0u64;
                let one = t as i8 + down;
                if (8..56).contains(&one) && any >> one & 1 == 0 {
                    f |= 1 << one;
                }
                let two = one + down;
                if (8..56).contains(&two) && two as u8 / 8 == start && occ[y] >> one & 1 == 0 && any >> two & 1 == 0 {
                    f |= 1 << two;
                }
                f
            } else {
                attacks_of(p, t, occ[y]) & !any
            };
            while froms != 0 {
                let s = froms.trailing_zeros() as u8;
                froms &= froms - 1;
                let mut pred = *self;
                pred.cells[i] = home | s;
                pred.stm = them;
                // The side to move now must not have been in check before the move.
                if check_predecessor && pred.in_check(self.stm) {
                    continue;
                }
                // A king may not have moved onto a square attacked on its home board.
                if i == Self::king_of(them) && self.attacked(t, y, self.stm, occ[y], usize::MAX) {
                    continue;
                }
                f(&pred);
            }
        }
    }

    /// Sorts men of the same colour and kind by cell, so that one arrangement stands for all.
    #[inline(always)]
    pub fn sort_twins(&mut self) {
        for i in 2..self.men {
            let mut j = i;
            while j > 2 && self.pieces[j - 1] == self.pieces[j] && self.cells[j - 1] > self.cells[j] {
                self.cells.swap(j - 1, j);
                j -= 1;
            }
        }
    }

    /// Puts the men in index order: white king, black king, white pieces strongest first,
    /// black pieces strongest first (twins by cell).
    pub fn normalize(&mut self) {
        let key = |p: Piece, c: Cell| {
            let group = match (p.color(), p.kind()) {
                (Color::White, PieceKind::King) => 0u32,
                (Color::Black, PieceKind::King) => 1,
                (Color::White, _) => 2,
                (Color::Black, _) => 3,
            };
            group << 16 | (kind_rank(p.kind()) as u32) << 8 | c as u32
        };
        for i in 1..self.men {
            let mut j = i;
            while j > 0 && key(self.pieces[j - 1], self.cells[j - 1]) > key(self.pieces[j], self.cells[j]) {
                self.pieces.swap(j - 1, j);
                self.cells.swap(j - 1, j);
                j -= 1;
            }
        }
    }

    /// The same setup with colours exchanged and the ranks mirrored (a symmetry of the rules).
    pub fn color_flipped(&self) -> Setup {
        let mut s = *self;
        for i in 0..self.men {
            s.pieces[i] = Piece::new(self.pieces[i].color().flip(), self.pieces[i].kind());
            s.cells[i] = self.cells[i] ^ 56;
        }
        s.stm = self.stm.flip();
        s.normalize();
        s
    }
}

impl Setup {
    /// The pipe FEN of this setup (`|` before a man on board B), no castling, clocks 0 1.
    pub fn to_fen(self) -> String {
        let mut rows = Vec::new();
        for rank in (0..8u8).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for file in 0..8u8 {
                let q = rank * 8 + file;
                match (0..self.men).find(|&i| sq(self.cells[i]) == q) {
                    Some(i) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        if bd(self.cells[i]) == 1 {
                            row.push('|');
                        }
                        row.push(self.pieces[i].letter());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            rows.push(row);
        }
        let side = if self.stm == Color::White { 'w' } else { 'b' };
        format!("{} {side} - - 0 1", rows.join("/"))
    }
}
