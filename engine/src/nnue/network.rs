//! Quantised inference: the first layer as i16 rows per feature, accumulators of i16, the
//! output layer as an i32 dot product of squared clipped activations.
//!
//! Loops run over plain slices of whole rows so the compiler vectorises them (16 lanes of i16
//! per AVX2 register); no `unsafe`.

use super::features::{feature_index, INPUTS};
use super::format::{NetError, NetFile};
use crate::position::Position;
use crate::types::{BoardId, Color, Piece};

/// Largest magnitude an evaluation of the network may have (well inside the non-mate range).
pub const MAX_EVAL: i32 = 20_000;

/// Output terms summed in i32 before moving to i64 (bounds the worst case below 2^31).
const OUTPUT_CHUNK: usize = 128;

/// A loaded network, ready for inference.
#[derive(Clone, Debug)]
pub struct Network {
    hidden: usize,
    qa: i32,
    qb: i32,
    scale: i32,
    /// `INPUTS` rows of `hidden` weights.
    ft_weights: Vec<i16>,
    ft_bias: Vec<i16>,
    /// `2 * hidden`: side to move, then the other side.
    out_weights: Vec<i16>,
    out_bias: i32,
    text: String,
}

/// The two perspectives' hidden activations before clipping (White's first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    /// `2 * hidden`: White's perspective, then Black's.
    pub values: Vec<i16>,
}

impl Network {
    /// Builds the inference form of a network file; refuses weights whose products could
    /// overflow the integer arithmetic.
    pub fn from_file(file: NetFile) -> Result<Network, NetError> {
        let qa = file.qa as i32;
        // v * w must fit i16 for v in 0..=qa (the output dot product multiplies in i16 first).
        let limit = i16::MAX as i32 / qa;
        if let Some(w) = file.out_weights.iter().find(|w| (**w as i32).abs() > limit) {
            return Err(NetError::Header(format!(
                "output weight {w} exceeds {limit} (= 32767 / qa {qa})"
            )));
        }
        Ok(Network {
            hidden: file.hidden,
            qa,
            qb: file.qb as i32,
            scale: file.scale as i32,
            ft_weights: file.ft_weights,
            ft_bias: file.ft_bias,
            out_weights: file.out_weights,
            out_bias: file.out_bias,
            text: file.text,
        })
    }

    /// Reads and checks a network from the bytes of a network file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        Network::from_file(NetFile::from_bytes(bytes)?)
    }

    /// Hidden neurons per perspective.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The description stored with the network.
    pub fn description(&self) -> &str {
        &self.text
    }

    /// The network applies to standard Alice, under any en passant option and Chess960 flag.
    pub fn applies_to(pos: &Position) -> bool {
        pos.rules().variant == crate::rules::Variant::Alice
    }

    /// The weight row of one feature.
    #[inline(always)]
    fn row(&self, feature: usize) -> &[i16] {
        &self.ft_weights[feature * self.hidden..(feature + 1) * self.hidden]
    }

    /// A fresh accumulator of the right size (not yet meaningful).
    pub fn new_accumulator(&self) -> Accumulator {
        Accumulator {
            values: vec![0; 2 * self.hidden],
        }
    }

    /// Computes both perspectives from scratch.
    pub fn refresh(&self, pos: &Position, acc: &mut Accumulator) {
        let (white, black) = acc.values.split_at_mut(self.hidden);
        white.copy_from_slice(&self.ft_bias);
        black.copy_from_slice(&self.ft_bias);
        for board in BoardId::BOTH {
            for color in Color::BOTH {
                for kind in crate::types::PieceKind::ALL {
                    let piece = Piece::new(color, kind);
                    for sq in pos.pieces(board, color, kind) {
                        add_row(white, self.row(feature_index(Color::White, piece, board, sq)));
                        add_row(black, self.row(feature_index(Color::Black, piece, board, sq)));
                    }
                }
            }
        }
    }

    /// `child = parent - removed + added` for both perspectives (an Alice move empties at most
    /// three cells and fills at most two).
    pub fn update(&self, parent: &Accumulator, child: &mut Accumulator, removed: &[PieceAt], added: &[PieceAt]) {
        let h = self.hidden;
        for (half, perspective) in Color::BOTH.into_iter().enumerate() {
            let src = &parent.values[half * h..(half + 1) * h];
            let dst = &mut child.values[half * h..(half + 1) * h];
            let rows = |cells: &[PieceAt]| -> [Option<&[i16]>; 3] {
                let mut out = [None, None, None];
                for (slot, cell) in out.iter_mut().zip(cells) {
                    *slot = Some(self.row(feature_index(perspective, cell.piece, cell.board, cell.square)));
                }
                out
            };
            match (rows(removed), rows(added)) {
                ([Some(r1), None, None], [Some(a1), None, None]) => sub_add(dst, src, r1, a1),
                ([Some(r1), Some(r2), None], [Some(a1), None, None]) => sub2_add(dst, src, r1, r2, a1),
                (rem, add) => {
                    dst.copy_from_slice(src);
                    for r in rem.into_iter().flatten() {
                        sub_row(dst, r);
                    }
                    for a in add.into_iter().flatten() {
                        add_row(dst, a);
                    }
                }
            }
        }
    }

    /// Evaluation in centipawns from the side to move's view, from an accumulator of `pos`.
    pub fn evaluate(&self, acc: &Accumulator, side_to_move: Color) -> i32 {
        let h = self.hidden;
        let (white, black) = acc.values.split_at(h);
        let (us, them) = if side_to_move == Color::White {
            (white, black)
        } else {
            (black, white)
        };
        let sum = self.dot(us, &self.out_weights[..h]) + self.dot(them, &self.out_weights[h..]);
        let out = (sum / self.qa as i64 + self.out_bias as i64) * self.scale as i64 / (self.qa * self.qb) as i64;
        out.clamp(-MAX_EVAL as i64, MAX_EVAL as i64) as i32
    }

    /// Evaluation of `pos` with a full refresh (for callers outside the search).
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        let mut acc = self.new_accumulator();
        self.refresh(pos, &mut acc);
        self.evaluate(&acc, pos.side_to_move())
    }

    /// `Σ screlu(x) * w` with screlu(x) = clamp(x, 0, qa)^2, as `(v * w) * v` so the first
    /// product stays in i16 (checked at load), summed in i32 chunks and then in i64.
    #[inline(always)]
    fn dot(&self, acc: &[i16], weights: &[i16]) -> i64 {
        let qa = self.qa as i16;
        let mut total = 0i64;
        for (a, w) in acc.chunks(OUTPUT_CHUNK).zip(weights.chunks(OUTPUT_CHUNK)) {
            let mut sum = 0i32;
            for (&x, &w) in a.iter().zip(w) {
                let v = x.clamp(0, qa);
                sum += (v.wrapping_mul(w) as i32) * v as i32;
            }
            total += sum as i64;
        }
        total
    }
}

/// A piece on a cell of one board (an accumulator change).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceAt {
    /// The piece.
    pub piece: Piece,
    /// Its board.
    pub board: BoardId,
    /// Its square.
    pub square: crate::types::Square,
}

#[inline(always)]
fn add_row(dst: &mut [i16], row: &[i16]) {
    for (d, &w) in dst.iter_mut().zip(row) {
        *d = d.wrapping_add(w);
    }
}

#[inline(always)]
fn sub_row(dst: &mut [i16], row: &[i16]) {
    for (d, &w) in dst.iter_mut().zip(row) {
        *d = d.wrapping_sub(w);
    }
}

#[inline(always)]
fn sub_add(dst: &mut [i16], src: &[i16], r: &[i16], a: &[i16]) {
    for (((d, &s), &r), &a) in dst.iter_mut().zip(src).zip(r).zip(a) {
        *d = s.wrapping_sub(r).wrapping_add(a);
    }
}

#[inline(always)]
fn sub2_add(dst: &mut [i16], src: &[i16], r1: &[i16], r2: &[i16], a: &[i16]) {
    for ((((d, &s), &r1), &r2), &a) in dst.iter_mut().zip(src).zip(r1).zip(r2).zip(a) {
        *d = s.wrapping_sub(r1).wrapping_sub(r2).wrapping_add(a);
    }
}

/// Features of the network are defined for the two boards of standard Alice.
const _: () = assert!(INPUTS == 2 * 2 * 6 * 64);
