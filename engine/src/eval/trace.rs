//! Evaluation traces: the coefficient of every parameter, for the tuner and the `eval`
//! command's term table.

use super::params::{EvalParams, GROUPS, NUM_PARAMS, S};
use crate::position::Position;
use crate::types::Color;
use std::fmt;

/// Receives each term's coefficient as the evaluation computes it.
pub trait Trace {
    /// Parameter `index` counted `count` times for `color`.
    fn add(&mut self, index: usize, color: Color, count: i32);
    /// The game phase used to taper.
    fn phase(&mut self, _phase: i32) {}
}

/// The trace of normal play: does nothing and compiles away.
pub struct NoTrace;

impl Trace for NoTrace {
    #[inline(always)]
    fn add(&mut self, _: usize, _: Color, _: i32) {}
}

/// Net coefficients (White minus Black) per parameter, plus the phase: the tuner's input.
#[derive(Clone, Debug)]
pub struct CoefficientTrace {
    /// White-minus-Black count of every parameter.
    pub coefficients: Vec<i32>,
    /// Phase 0..=24.
    pub phase: i32,
}

impl Default for CoefficientTrace {
    fn default() -> Self {
        CoefficientTrace {
            coefficients: vec![0; NUM_PARAMS],
            phase: 0,
        }
    }
}

impl Trace for CoefficientTrace {
    fn add(&mut self, index: usize, color: Color, count: i32) {
        self.coefficients[index] += if color == Color::White { count } else { -count };
    }
    fn phase(&mut self, phase: i32) {
        self.phase = phase;
    }
}

/// Per-group, per-colour sums for the `eval` command.
#[derive(Clone, Debug)]
pub struct Breakdown {
    rows: Vec<(&'static str, [S; 2])>,
    phase: i32,
    total: i32,
    side: Color,
}

struct GroupTrace<'a> {
    params: &'a EvalParams,
    sums: Vec<[S; 2]>,
    phase: i32,
}

impl Trace for GroupTrace<'_> {
    fn add(&mut self, index: usize, color: Color, count: i32) {
        let group = GROUPS
            .iter()
            .position(|(_, start, len)| (*start..start + len).contains(&index))
            .expect("every parameter belongs to a group");
        self.sums[group][color.index()] += self.params.get(index) * count;
    }
    fn phase(&mut self, phase: i32) {
        self.phase = phase;
    }
}

/// The evaluation of `pos` split into its term groups (default parameters).
pub fn breakdown(pos: &Position) -> Breakdown {
    let params = EvalParams::default();
    let mut trace = GroupTrace {
        params: &params,
        sums: vec![[S::default(); 2]; GROUPS.len()],
        phase: 0,
    };
    let total = super::evaluate_traced(pos, &params, &mut trace);
    let rows = GROUPS.iter().map(|g| g.0).zip(trace.sums.iter().copied()).collect();
    Breakdown {
        rows,
        phase: trace.phase,
        total,
        side: pos.side_to_move(),
    }
}

impl Breakdown {
    /// Final score from the side to move's view.
    pub fn total(&self) -> i32 {
        self.total
    }
}

impl fmt::Display for Breakdown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cp = |v: i32| format!("{:7.2}", v as f64 / 100.0);
        writeln!(f, "{:<24}|      White      |      Black      |      Total", "Term")?;
        writeln!(f, "{:<24}|   MG       EG   |   MG       EG   |   MG       EG", "")?;
        writeln!(f, "{}", "-".repeat(76))?;
        for (name, [w, b]) in &self.rows {
            let t = *w - *b;
            writeln!(
                f,
                "{name:<24}| {} {} | {} {} | {} {}",
                cp(w.0),
                cp(w.1),
                cp(b.0),
                cp(b.1),
                cp(t.0),
                cp(t.1)
            )?;
        }
        writeln!(f, "{}", "-".repeat(76))?;
        writeln!(f, "Phase: {} / {}", self.phase, super::MAX_PHASE)?;
        let white_view = if self.side == Color::White {
            self.total
        } else {
            -self.total
        };
        write!(f, "Final evaluation: {:+.2} (White side)", white_view as f64 / 100.0)
    }
}
