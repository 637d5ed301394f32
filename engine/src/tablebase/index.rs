//! Index of a table: every man on one of 128 cells (square and board), the white king reduced
//! by the symmetries of Alice without castling and en passant.
//!
//! The symmetries (each applied to both boards at once, proved by `tests.rs`): exchanging the
//! boards A and B; mirroring the files; for pawnless material also mirroring the ranks and the
//! diagonal a1-h8. Generation uses the first three (the white king on board A in the a1-d4
//! quadrant, or on files a-d with pawns): no position is left fixed by them, so every move
//! reaches exactly one index and the retrograde counts stay exact. Files add the diagonal
//! (the king in the a1-d1-d4 triangle), 10 king slots instead of 16.

use super::material::Material;
use super::setup::{bd, sq, Cell, Setup};
use crate::types::{Color, Piece};

/// The layout of one material's index.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    pub pieces: Vec<Piece>,
    pub pawns: bool,
}

/// The triangle a1-d1-d4 (file >= rank, both below 4): slot of each square, or `u8::MAX`.
const fn triangle_slots() -> [u8; 64] {
    let mut t = [u8::MAX; 64];
    let mut n = 0;
    let mut r = 0;
    while r < 4 {
        let mut f = r;
        while f < 4 {
            t[r * 8 + f] = n;
            n += 1;
            f += 1;
        }
        r += 1;
    }
    t
}
const TRIANGLE: [u8; 64] = triangle_slots();

/// The square of each triangle slot.
const fn triangle_squares() -> [u8; 10] {
    let mut t = [0u8; 10];
    let mut q = 0;
    while q < 64 {
        if TRIANGLE[q] != u8::MAX {
            t[TRIANGLE[q] as usize] = q as u8;
        }
        q += 1;
    }
    t
}
const TRIANGLE_SQUARES: [u8; 10] = triangle_squares();

fn map_cells(s: &mut Setup, f: impl Fn(u8) -> u8) {
    for i in 0..s.men {
        let c = s.cells[i];
        s.cells[i] = (c & 64) | f(sq(c));
    }
}

impl Layout {
    /// The layout of a canonical material.
    pub fn new(material: &Material) -> Layout {
        Layout {
            pieces: material.pieces(),
            pawns: material.has_pawns(),
        }
    }

    /// Men, kings included.
    pub fn men(&self) -> usize {
        self.pieces.len()
    }

    /// Positions for each placement of the white king.
    pub fn rest(&self) -> usize {
        1 << (7 * (self.men() - 1))
    }

    /// Entries per side to move in generation.
    pub fn gen_size(&self) -> usize {
        (if self.pawns { 32 } else { 16 }) * self.rest()
    }

    /// Entries per side to move in a file.
    pub fn file_size(&self) -> usize {
        (if self.pawns { 32 } else { 10 }) * self.rest()
    }

    /// Moves `s` (men in index order) to the generation's representative and returns its index.
    #[inline(always)]
    pub fn gen_index(&self, s: &mut Setup) -> usize {
        let wk = s.cells[0];
        if bd(wk) == 1 {
            for i in 0..s.men {
                s.cells[i] ^= 64;
            }
        }
        if sq(wk) & 7 >= 4 {
            map_cells(s, |q| q ^ 7);
        }
        if !self.pawns && sq(wk) >> 3 >= 4 {
            map_cells(s, |q| q ^ 56);
        }
        s.sort_twins();
        let k = sq(s.cells[0]) as usize;
        let slot = (k >> 3) * 4 + (k & 7);
        slot * self.rest() + self.rest_index(s)
    }

    /// Moves `s` to a file's representative and returns its index.
    #[inline(always)]
    pub fn file_index(&self, s: &mut Setup) -> usize {
        let g = self.gen_index(s);
        if self.pawns {
            return g;
        }
        let k = sq(s.cells[0]);
        if k >> 3 > (k & 7) {
            map_cells(s, |q| (q & 7) << 3 | q >> 3);
            s.sort_twins();
        }
        TRIANGLE[sq(s.cells[0]) as usize] as usize * self.rest() + self.rest_index(s)
    }

    #[inline(always)]
    fn rest_index(&self, s: &Setup) -> usize {
        let mut r = 0usize;
        for i in 1..s.men {
            r = r << 7 | s.cells[i] as usize;
        }
        r
    }

    /// The generation index of the file entry `f`.
    #[inline(always)]
    pub fn file_to_gen(&self, f: usize) -> usize {
        if self.pawns {
            return f;
        }
        let (slot, rest) = (f / self.rest(), f % self.rest());
        let k = TRIANGLE_SQUARES[slot] as usize;
        ((k >> 3) * 4 + (k & 7)) * self.rest() + rest
    }

    /// The setup of file index `idx` with `stm` to move; `None` when another index stands for
    /// it. Every file entry that decodes is its own representative. Validity is not checked.
    #[inline(always)]
    pub fn decode_file(&self, idx: usize, stm: Color) -> Option<Setup> {
        self.decode_gen(self.file_to_gen(idx), stm)
    }

    /// For a pawnless file representative `s` (as [`Layout::file_index`] leaves it) whose white
    /// king stands on the diagonal a1-h8: the index of its mirror image in that diagonal when
    /// the image is another entry. Both entries stand for the same positions, so the
    /// retrograde analysis in the file layout reaches both.
    #[inline(always)]
    pub fn diagonal_twin(&self, s: &Setup, idx: usize) -> Option<usize> {
        let k = sq(s.cells[0]);
        if self.pawns || k >> 3 != (k & 7) {
            return None;
        }
        let mut t = *s;
        map_cells(&mut t, |q| (q & 7) << 3 | q >> 3);
        t.sort_twins();
        let j = TRIANGLE[k as usize] as usize * self.rest() + self.rest_index(&t);
        (j != idx).then_some(j)
    }

    /// How many positions (both boards, all reflections) the valid file entry `idx` stands
    /// for: 4 with pawns, 16 without (8 with the white king on the diagonal, whose mirror
    /// image has an entry of its own).
    pub fn file_entry_positions(&self, idx: usize) -> u64 {
        if self.pawns {
            return 4;
        }
        let k = TRIANGLE_SQUARES[idx / self.rest()];
        if k >> 3 == (k & 7) {
            8
        } else {
            16
        }
    }

    /// The setup of generation index `idx` with `stm` to move; `None` when its twins are not in
    /// order (another index stands for it). Validity is not checked.
    #[inline(always)]
    pub fn decode_gen(&self, idx: usize, stm: Color) -> Option<Setup> {
        let n = self.men();
        let mut s = Setup::empty(stm);
        s.men = n;
        let (slot, mut rest) = (idx / self.rest(), idx % self.rest());
        s.cells[0] = ((slot / 4) * 8 + slot % 4) as Cell;
        for i in (1..n).rev() {
            s.cells[i] = (rest & 127) as Cell;
            rest >>= 7;
        }
        for i in 0..n {
            s.pieces[i] = self.pieces[i];
        }
        for i in 3..n {
            if s.pieces[i] == s.pieces[i - 1] && s.cells[i] <= s.cells[i - 1] {
                return None;
            }
        }
        Some(s)
    }
}
