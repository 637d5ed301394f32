//! Quantised inference: the first layer as i16 rows per feature, accumulators of i16, the
//! output layer as an i32 dot product of squared clipped activations.
//!
//! The hidden size is a compile-time constant of the network type ([`HIDDEN`] for the
//! engine's network), so rows and accumulators are fixed-size arrays, aligned to 64 bytes.
//! The loops themselves are the kernels of [`super::simd`], of the path chosen when the
//! network loads.

use super::features::{feature_index, INPUTS};
use super::format::{NetError, NetFile, MAX_HIDDEN};
use super::simd::{Kernels, SimdPath, OUTPUT_CHUNK};
use crate::position::Position;
use crate::types::{BoardId, Color, Piece};
use arrayvec::ArrayVec;
use std::fmt;

/// Largest magnitude an evaluation of the network may have (well inside the non-mate range).
pub const MAX_EVAL: i32 = 20_000;

/// Hidden neurons per perspective of the engine's network; a file of another size is refused.
pub const HIDDEN: usize = 128;

/// Largest accumulator quantisation: 128 output terms of at most `32767 · qa` each must sum
/// below 2^31 (see [`OUTPUT_CHUNK`]).
pub const MAX_QA: u32 = (i32::MAX as u64 / (OUTPUT_CHUNK as u64 * i16::MAX as u64)) as u32;

/// One row of `H` weights or activations, aligned to a cache line.
#[derive(Clone, PartialEq, Eq)]
#[repr(C, align(64))]
struct Row<const H: usize>([i16; H]);

impl<const H: usize> Row<H> {
    /// The row of a slice of exactly `H` values.
    fn of(values: &[i16]) -> Row<H> {
        Row(values.try_into().expect("a row has H values"))
    }
}

/// A loaded network of `H` hidden neurons per perspective, ready for inference.
#[derive(Clone)]
pub struct Network<const H: usize = HIDDEN> {
    kernels: Kernels,
    qa: i32,
    qb: i32,
    scale: i32,
    /// `INPUTS` rows.
    ft_weights: Vec<Row<H>>,
    ft_bias: Row<H>,
    /// The side to move's output weights, then the other side's.
    out_weights: [Row<H>; 2],
    out_bias: i32,
    text: String,
}

impl<const H: usize> fmt::Debug for Network<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Network {{ hidden: {H}, qa: {}, qb: {}, scale: {}, simd: {} }}",
            self.qa,
            self.qb,
            self.scale,
            self.kernels.path()
        )
    }
}

/// The two perspectives' hidden activations before clipping, White's first.
#[derive(Clone, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator<const H: usize = HIDDEN> {
    halves: [[i16; H]; 2],
}

impl<const H: usize> Accumulator<H> {
    /// The activations of `perspective`.
    pub fn perspective(&self, perspective: Color) -> &[i16; H] {
        &self.halves[perspective.index()]
    }
}

impl<const H: usize> fmt::Debug for Accumulator<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Accumulator")
            .field("white", &&self.halves[0][..])
            .field("black", &&self.halves[1][..])
            .finish()
    }
}

impl<const H: usize> Network<H> {
    /// The hidden size must suit the kernels (whole groups of 16 lanes) and the file format.
    const VALID_HIDDEN: () = assert!(H > 0 && H.is_multiple_of(16) && H <= MAX_HIDDEN);

    /// Builds the inference form of a network file with the kernels `VORPAL_SIMD` asks for
    /// (the widest this processor runs unless it says `portable`); refuses a file of another
    /// hidden size and weights whose products could overflow the integer arithmetic.
    pub fn from_file(file: NetFile) -> Result<Network<H>, NetError> {
        #[allow(clippy::let_unit_value)]
        let () = Self::VALID_HIDDEN;
        if file.hidden != H {
            return Err(NetError::Header(format!(
                "hidden size {}, this build's network has {H}",
                file.hidden
            )));
        }
        if file.qa > MAX_QA {
            return Err(NetError::Header(format!(
                "qa {} above {MAX_QA} (the output sums could overflow)",
                file.qa
            )));
        }
        let qa = file.qa as i32;
        // v * w must fit i16 for v in 0..=qa (the output dot product multiplies in i16 first).
        let limit = i16::MAX as i32 / qa;
        if let Some(w) = file.out_weights.iter().find(|w| (**w as i32).abs() > limit) {
            return Err(NetError::Header(format!(
                "output weight {w} exceeds {limit} (= 32767 / qa {qa})"
            )));
        }
        let kernels = Kernels::new(SimdPath::from_environment())
            .or_else(|| Kernels::new(SimdPath::Portable))
            .expect("the portable kernels run everywhere");
        Ok(Network {
            kernels,
            qa,
            qb: file.qb as i32,
            scale: file.scale as i32,
            ft_weights: file.ft_weights.chunks_exact(H).map(Row::of).collect(),
            ft_bias: Row::of(&file.ft_bias),
            out_weights: [Row::of(&file.out_weights[..H]), Row::of(&file.out_weights[H..])],
            out_bias: file.out_bias,
            text: file.text,
        })
    }

    /// Reads and checks a network from the bytes of a network file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network<H>, NetError> {
        Network::from_file(NetFile::from_bytes(bytes)?)
    }

    /// The same network computed by the kernels of `path`; `None` when this processor does
    /// not run them.
    pub fn with_simd(&self, path: SimdPath) -> Option<Network<H>> {
        let kernels = Kernels::new(path)?;
        Some(Network {
            kernels,
            ..self.clone()
        })
    }

    /// The kernels' path this network computes with.
    pub fn simd(&self) -> SimdPath {
        self.kernels.path()
    }

    /// Hidden neurons per perspective.
    pub fn hidden(&self) -> usize {
        H
    }

    /// The description stored with the network.
    pub fn description(&self) -> &str {
        &self.text
    }

    /// The weight row of one feature.
    #[inline(always)]
    fn row(&self, feature: usize) -> &[i16; H] {
        &self.ft_weights[feature].0
    }

    /// A fresh accumulator (not yet meaningful).
    pub fn new_accumulator(&self) -> Accumulator<H> {
        Accumulator { halves: [[0; H]; 2] }
    }

    /// Computes both perspectives from scratch.
    pub fn refresh(&self, pos: &Position, acc: &mut Accumulator<H>) {
        acc.halves = [self.ft_bias.0; 2];
        let mut rows: [ArrayVec<&[i16; H], 32>; 2] = [ArrayVec::new(), ArrayVec::new()];
        for board in BoardId::BOTH {
            for color in Color::BOTH {
                for kind in crate::types::PieceKind::ALL {
                    let piece = Piece::new(color, kind);
                    for sq in pos.pieces(board, color, kind) {
                        for perspective in Color::BOTH {
                            let list = &mut rows[perspective.index()];
                            // A set-up position may hold more than 32 pieces: add them in
                            // several passes.
                            if list.is_full() {
                                self.add_rows(&mut acc.halves[perspective.index()], list);
                                list.clear();
                            }
                            list.push(self.row(feature_index(perspective, piece, board, sq)));
                        }
                    }
                }
            }
        }
        for (half, list) in acc.halves.iter_mut().zip(&rows) {
            self.add_rows(half, list);
        }
    }

    /// `half += Σ rows`.
    fn add_rows(&self, half: &mut [i16; H], rows: &[&[i16; H]]) {
        let base = *half;
        self.kernels.update(half, &base, &[], rows);
    }

    /// `child = parent - removed + added` for both perspectives (an Alice move empties at most
    /// three cells and fills at most two).
    #[inline]
    pub fn update(&self, parent: &Accumulator<H>, child: &mut Accumulator<H>, removed: &[PieceAt], added: &[PieceAt]) {
        let (removed, added) = (&removed[..removed.len().min(3)], &added[..added.len().min(2)]);
        for perspective in Color::BOTH {
            let row = |c: &PieceAt| self.row(feature_index(perspective, c.piece, c.board, c.square));
            // Fixed arrays (unused slots hold any row) spare building a list per call.
            let mut sub = [&self.ft_bias.0; 3];
            let mut add = [&self.ft_bias.0; 2];
            for (slot, cell) in sub.iter_mut().zip(removed) {
                *slot = row(cell);
            }
            for (slot, cell) in add.iter_mut().zip(added) {
                *slot = row(cell);
            }
            let half = perspective.index();
            self.kernels.update(
                &mut child.halves[half],
                &parent.halves[half],
                &sub[..removed.len()],
                &add[..added.len()],
            );
        }
    }

    /// Evaluation in centipawns from the side to move's view, from an accumulator of `pos`.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator<H>, side_to_move: Color) -> i32 {
        let us = side_to_move.index();
        let [w_us, w_them] = &self.out_weights;
        let sum = self
            .kernels
            .output(&acc.halves[us], &acc.halves[1 - us], &w_us.0, &w_them.0, self.qa as i16);
        let out = (sum / self.qa as i64 + self.out_bias as i64) * self.scale as i64 / (self.qa * self.qb) as i64;
        out.clamp(-MAX_EVAL as i64, MAX_EVAL as i64) as i32
    }

    /// Evaluation of `pos` with a full refresh (for callers outside the search).
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        let mut acc = self.new_accumulator();
        self.refresh(pos, &mut acc);
        self.evaluate(&acc, pos.side_to_move())
    }
}

impl Network {
    /// The network applies to standard Alice, under any en passant option and Chess960 flag.
    pub fn applies_to(pos: &Position) -> bool {
        pos.rules().variant == crate::rules::Variant::Alice
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

/// Features of the network are defined for the two boards of standard Alice.
const _: () = assert!(INPUTS == 2 * 2 * 6 * 64);
