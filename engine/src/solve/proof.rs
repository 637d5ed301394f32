//! Proof games (`diaN`, `diaN.5`, `a=>bN`): every game of exactly the stipulated number of
//! half moves from the start position (the variant's, or a given one) to the diagram: the
//! same pieces on the same squares of the same boards, the same side to move (castling rights
//! and counters are not compared). Shorter games of the same parity (the short solutions) are
//! listed too, as Popeye solves by increasing length.
//!
//! The search is the plain full-width walk over legal moves, with two exact prunings (proofs
//! in `docs/solve.md`):
//!
//! - **Move bounds** ([`proof_bounds`](super::proof_bounds), standard and Looking-glass
//!   Alice): for each side a lower bound on the moves it still needs; a position whose bound
//!   exceeds the side's remaining moves has no game.
//! - **Failure memo**: a position proven to have no game of `k` more half moves is not searched
//!   again through a transposition (the proof table).

use super::direct::child;
use super::help::HelpSolution;
use super::proof_bounds::Target;
use super::stipulation::Stipulation;
use super::table::ProofTable;
use super::{NodeCounter, SolveControl, SolveOptions};
use crate::types::Move;
use crate::Position;
use rayon::prelude::*;

/// The memo keeps one bit per remaining length in 16-length windows; a window other than the
/// first is stored under the position's key mixed with this odd constant times its number.
const WINDOW_SALT: u64 = 0x9E37_79B9_7F4A_7C15;

/// The memo's key and bit for `key` with `plies` half moves to go.
fn memo_slot(key: u64, plies: u32) -> (u64, u32) {
    (key ^ WINDOW_SALT.wrapping_mul(u64::from(plies / 16)), plies % 16)
}

/// One thread's game finder.
struct Prover<'a> {
    target: &'a Target,
    pruning: bool,
    max_solutions: Option<usize>,
    table: &'a ProofTable,
    nodes: NodeCounter<'a>,
}

impl Prover<'_> {
    /// Appends to `out` every continuation of `line` (which led to `p`) of `plies` half moves
    /// that ends on the diagram.
    fn search(&self, p: &Position, plies: u32, line: &mut Vec<Move>, out: &mut Vec<Vec<Move>>) {
        if !self.nodes.tick() {
            return;
        }
        if plies == 0 {
            if self.target.reached(p) {
                out.push(line.clone());
                self.nodes.control.found_one(self.max_solutions);
            }
            return;
        }
        if self.pruning && !self.target.feasible(p, plies) {
            return;
        }
        let (memo_key, memo_bit) = memo_slot(p.key(), plies);
        if self.pruning && self.table.failed(memo_key, memo_bit) {
            return;
        }
        let before = out.len();
        for &m in p.legal_moves().iter() {
            line.push(m);
            self.search(&child(p, m), plies - 1, line, out);
            line.pop();
        }
        if self.pruning && out.len() == before && !self.nodes.control.stopped() {
            self.table.mark_failed(memo_key, memo_bit);
        }
    }
}

/// Solves a proof game: `target` is the diagram, the game starts from `options.proof_start`
/// (or the variant's start position).
pub(crate) fn solve_proof(
    target: &Position,
    stipulation: &Stipulation,
    options: &SolveOptions,
    control: &SolveControl,
) -> HelpSolution {
    let start = options.proof_start.unwrap_or_else(|| Position::start(target.rules()));
    let target = Target::new(target);
    let table = ProofTable::new(if options.pruning {
        options.table_bits.max(22)
    } else {
        16
    });
    let prover = || Prover {
        target: &target,
        pruning: options.pruning,
        max_solutions: options.max_solutions,
        table: &table,
        nodes: NodeCounter::new(control),
    };
    let games_of = |plies: u32| -> Vec<Vec<Move>> {
        if plies == 0 {
            let mut out = Vec::new();
            prover().search(&start, 0, &mut Vec::new(), &mut out);
            return out;
        }
        let roots: Vec<Move> = start.legal_moves().into_iter().collect();
        let per_root: Vec<Vec<Vec<Move>>> = roots
            .par_iter()
            .map(|&m| {
                let mut out = Vec::new();
                prover().search(&child(&start, m), plies - 1, &mut vec![m], &mut out);
                out
            })
            .collect();
        per_root.into_iter().flatten().collect()
    };
    let plies = stipulation.plies();
    let mut solution = HelpSolution::default();
    if options.short {
        let mut length = plies % 2;
        while length < plies {
            solution.short.extend(games_of(length));
            length += 2;
        }
    }
    solution.lines = games_of(plies);
    if let Some(max) = options.max_solutions {
        solution.short.truncate(max);
        solution.lines.truncate(max.saturating_sub(solution.short.len()));
    }
    solution
}
