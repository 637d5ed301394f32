//! Handcrafted tapered evaluation with Alice terms.
//!
//! Every term reads its weight from the flat parameter table (`params.rs`) and reports its
//! coefficient to a [`Trace`], so the `eval` command and the tuner see exactly the terms
//! the search plays with.

mod layout;
pub mod params;
mod terms;
mod trace;
mod weights;
pub mod weights_file;

pub use params::{EvalParams, NUM_PARAMS, S};
pub use trace::{breakdown, Breakdown, CoefficientTrace, NoTrace, Trace};

use crate::position::Position;
use crate::types::{BoardId, Color, PieceKind};

/// Game phase weight per piece kind; 24 = all pieces on.
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// Phase of the full army.
pub const MAX_PHASE: i32 = 24;

/// Game phase 0 (bare) ..= 24 (opening material).
pub fn phase(pos: &Position) -> i32 {
    let mut phase = 0;
    for color in Color::BOTH {
        for kind in [PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook, PieceKind::Queen] {
            phase += PHASE_WEIGHT[kind.index()] * pos.pieces_both(color, kind).count() as i32;
        }
    }
    phase.min(MAX_PHASE)
}

/// Blends a tapered score by phase.
#[inline(always)]
pub fn taper(s: S, phase: i32) -> i32 {
    (s.0 * phase + s.1 * (MAX_PHASE - phase)) / MAX_PHASE
}

/// Static evaluation in centipawns from the side to move's view.
pub fn evaluate(pos: &Position, params: &EvalParams) -> i32 {
    evaluate_traced(pos, params, &mut NoTrace)
}

/// Static evaluation, reporting every term's coefficient to `trace`.
pub fn evaluate_traced<T: Trace>(pos: &Position, params: &EvalParams, trace: &mut T) -> i32 {
    let white = terms::side_terms(pos, params, Color::White, trace);
    let black = terms::side_terms(pos, params, Color::Black, trace);
    let mut total = white - black;
    let stm = pos.side_to_move();
    let tempo = params.get(params::TEMPO);
    trace.add(params::TEMPO, stm, 1);
    total += if stm == Color::White { tempo } else { -tempo };
    let ph = phase(pos);
    trace.phase(ph);
    let v = taper(total, ph);
    if stm == Color::White {
        v
    } else {
        -v
    }
}

/// Index into the piece-square table for a piece of `color` on `board` (board C of
/// three-board Alice shares board B's table).
#[inline(always)]
pub(crate) fn pst_index(board: BoardId, kind: PieceKind, sq: crate::types::Square, color: Color) -> usize {
    let rel = if color == Color::White { sq } else { sq.flip_rank() };
    params::PST + (board.index().min(1) * 6 + kind.index()) * 64 + rel.index()
}
