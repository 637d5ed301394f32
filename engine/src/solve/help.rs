//! Help play (`h#n`, `h#n.5`, `h=n`) and help-self play (`hs#n`): every line of half moves,
//! both sides cooperating, whose last move reaches the goal (help-self: whose last move forces
//! the other side to reach it in one move), and no earlier move ends the game. Lines of fewer
//! moves that already do so (the short solutions, Popeye's cooks) are found too: for each
//! length `plies - 2`, `plies - 4`, ... down to one or two half moves, as Popeye solves help
//! play by increasing length.
//!
//! Exact prunings (proofs in `docs/solve.md`): at the last half move only moves that may give
//! check are made for a mate (`goal::may_give_check`); and a position proven to have no line
//! of `k` half moves is remembered in the proof table, so a transposition is not searched twice.

use super::direct::child;
use super::goal::{forced_goal, goal_reached, may_have_check, may_reach, push_replies};
use super::stipulation::{Goal, Play, Stipulation};
use super::table::ProofTable;
use super::{NodeCounter, SolveControl, SolveOptions};
use crate::types::Move;
use crate::Position;
use rayon::prelude::*;

/// Every solution of a problem whose solutions are lines (help, help-self and series play,
/// proof games): the moves of each line in playing order.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct HelpSolution {
    /// The lines of the stipulated length, in move generation order.
    pub lines: Vec<Vec<Move>>,
    /// The short solutions: lines of fewer moves that already fulfil the stipulation
    /// (shortest first), empty when not looked for.
    pub short: Vec<Vec<Move>>,
}

/// Lengths (in half moves) the table can remember a failure for: one bit each in the payload.
const MEMO_PLIES: u32 = 16;

/// One thread's line finder.
struct Helper<'a> {
    goal: Goal,
    /// Help-self play: the last move must force the other side to reach the goal.
    self_end: bool,
    pruning: bool,
    max_solutions: Option<usize>,
    table: &'a ProofTable,
    nodes: NodeCounter<'a>,
}

impl Helper<'_> {
    /// The last half move `m` from `p`: appends the finished lines to `out`.
    fn last_move(&self, p: &Position, m: Move, line: &mut Vec<Move>, out: &mut Vec<Vec<Move>>) {
        if self.self_end {
            let q = child(p, m);
            if let Some(replies) = forced_goal(&q, self.goal, self.pruning) {
                push_replies(line, m, replies, out);
                self.nodes.control.found_one(self.max_solutions);
            }
        } else if (!self.pruning || may_reach(p, m, self.goal)) && goal_reached(&child(p, m), self.goal) {
            line.push(m);
            out.push(line.clone());
            line.pop();
            self.nodes.control.found_one(self.max_solutions);
        }
    }

    /// Appends to `out` every continuation of `line` (which led to `p`) of `plies` half moves.
    fn search(&self, p: &Position, plies: u32, line: &mut Vec<Move>, out: &mut Vec<Vec<Move>>) {
        if !self.nodes.tick() {
            return;
        }
        if plies == 1 {
            // The last move must mate: a position where no move can give check is not even
            // generated, and moves that cannot give check are not made.
            if self.pruning && !self.self_end && self.goal == Goal::Mate && !may_have_check(p) {
                return;
            }
            for &m in p.legal_moves().iter() {
                self.last_move(p, m, line, out);
            }
            return;
        }
        // Failure memo: a position already proven to have no line of this length (reached
        // again by another move order) is not searched twice.
        let memo = self.pruning && plies < MEMO_PLIES;
        if memo && self.table.failed(p.key(), plies) {
            return;
        }
        let before = out.len();
        for &m in p.legal_moves().iter() {
            line.push(m);
            self.search(&child(p, m), plies - 1, line, out);
            line.pop();
        }
        if memo && out.len() == before && !self.nodes.control.stopped() {
            self.table.mark_failed(p.key(), plies);
        }
    }
}

/// The lengths of the short solutions of a line stipulation of length `plies`, whose lengths
/// go in steps of `step` (2 half moves in help play, 1 move in series play): the lengths
/// below `plies` with the same remainder modulo `step`, from the shortest positive one.
pub(crate) fn short_lengths(plies: u32, step: u32) -> impl Iterator<Item = u32> {
    let first = match plies % step {
        0 => step,
        r => r,
    };
    (first..plies).step_by(step as usize)
}

/// Solves a help or help-self play stipulation from `pos` (the side to move plays the first
/// half move).
pub(crate) fn solve_help(
    pos: &Position,
    stipulation: &Stipulation,
    options: &SolveOptions,
    control: &SolveControl,
) -> HelpSolution {
    let table = ProofTable::new(if options.pruning { options.table_bits } else { 16 });
    let helper = || Helper {
        goal: stipulation.goal,
        self_end: stipulation.play == Play::HelpSelf,
        pruning: options.pruning,
        max_solutions: options.max_solutions,
        table: &table,
        nodes: NodeCounter::new(control),
    };
    let lines_of = |plies: u32| -> Vec<Vec<Move>> {
        let mut lines = Vec::new();
        if plies == 1 {
            helper().search(pos, 1, &mut Vec::new(), &mut lines);
            return lines;
        }
        let roots: Vec<Move> = pos.legal_moves().into_iter().collect();
        let per_root: Vec<Vec<Vec<Move>>> = roots
            .par_iter()
            .map(|&m| {
                let mut out = Vec::new();
                helper().search(&child(pos, m), plies - 1, &mut vec![m], &mut out);
                out
            })
            .collect();
        lines.extend(per_root.into_iter().flatten());
        lines
    };
    let plies = stipulation.plies();
    let mut solution = HelpSolution::default();
    if options.short {
        for length in short_lengths(plies, 2) {
            solution.short.extend(lines_of(length));
        }
    }
    solution.lines = lines_of(plies);
    if let Some(max) = options.max_solutions {
        solution.short.truncate(max);
        solution.lines.truncate(max.saturating_sub(solution.short.len()));
    }
    solution
}
