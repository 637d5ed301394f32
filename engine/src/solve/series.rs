//! Series play (`ser-#n`, `ser-=n`, `ser-h#n`, `ser-s#n`): the side to move plays `n` moves in
//! a row while the other side passes, then
//!
//! - `ser-#n`, `ser-=n`: the last of them reaches the goal;
//! - `ser-h#n`: the other side reaches the goal in one move;
//! - `ser-s#n`: the other side must reach the goal in one move (every move of it does, and it
//!   has one).
//!
//! No series move but the last may give check: a check must be answered at once, and the
//! other side only passes (Popeye models the pass as a null move, illegal in check). The last
//! move may give check in `ser-h#` and `ser-s#` (the other side moves for real after it), and
//! must in `ser-#`. Short solutions: the same for every length `1..n` (Popeye solves series
//! play by increasing length too).
//!
//! Exact prunings (proofs in `docs/solve.md`): the check filter where the next move must mate,
//! and the failure memo of positions (after the pass) proven to have no series of `k` moves.

use super::direct::child;
use super::goal::{forced_goal, goal_reached, may_have_check, may_reach, push_replies};
use super::help::{short_lengths, HelpSolution};
use super::stipulation::{Goal, Play, Stipulation};
use super::table::ProofTable;
use super::{NodeCounter, SolveControl, SolveOptions};
use crate::types::Move;
use crate::Position;
use rayon::prelude::*;

/// Series lengths the table can remember a failure for: one bit each in the payload.
const MEMO_MOVES: u32 = 16;

/// One thread's series finder.
struct Series<'a> {
    play: Play,
    goal: Goal,
    pruning: bool,
    max_solutions: Option<usize>,
    table: &'a ProofTable,
    nodes: NodeCounter<'a>,
}

impl Series<'_> {
    fn found(&self, line: &[Move], out: &mut Vec<Vec<Move>>) {
        out.push(line.to_vec());
        self.nodes.control.found_one(self.max_solutions);
    }

    /// The last series move `m` from `p`: appends the finished lines to `out`.
    fn last_move(&self, p: &Position, m: Move, line: &mut Vec<Move>, out: &mut Vec<Vec<Move>>) {
        match self.play {
            Play::SeriesDirect => {
                if (!self.pruning || may_reach(p, m, self.goal)) && goal_reached(&child(p, m), self.goal) {
                    line.push(m);
                    self.found(line, out);
                    line.pop();
                }
            }
            Play::SeriesHelp => {
                let q = child(p, m);
                if self.pruning && self.goal == Goal::Mate && !may_have_check(&q) {
                    return;
                }
                line.push(m);
                for &d in q.legal_moves().iter() {
                    if (!self.pruning || may_reach(&q, d, self.goal)) && goal_reached(&child(&q, d), self.goal) {
                        line.push(d);
                        self.found(line, out);
                        line.pop();
                    }
                }
                line.pop();
            }
            _ => {
                let q = child(p, m);
                if let Some(replies) = forced_goal(&q, self.goal, self.pruning) {
                    push_replies(line, m, replies, out);
                    self.nodes.control.found_one(self.max_solutions);
                }
            }
        }
    }

    /// Appends to `out` every series of `moves` moves from `p` (the series side to move)
    /// continuing `line`.
    fn search(&self, p: &Position, moves: u32, line: &mut Vec<Move>, out: &mut Vec<Vec<Move>>) {
        if !self.nodes.tick() {
            return;
        }
        if moves == 1 {
            if self.pruning && self.play == Play::SeriesDirect && self.goal == Goal::Mate && !may_have_check(p) {
                return;
            }
            for &m in p.legal_moves().iter() {
                self.last_move(p, m, line, out);
            }
            return;
        }
        let memo = self.pruning && moves < MEMO_MOVES;
        if memo && self.table.failed(p.key(), moves) {
            return;
        }
        let before = out.len();
        for &m in p.legal_moves().iter() {
            let mut next = child(p, m);
            // A check must be answered: the other side cannot pass.
            if next.in_check() {
                continue;
            }
            next.make_null_move();
            line.push(m);
            self.search(&next, moves - 1, line, out);
            line.pop();
        }
        if memo && out.len() == before && !self.nodes.control.stopped() {
            self.table.mark_failed(p.key(), moves);
        }
    }
}

/// Solves a series stipulation from `pos` (the side to move plays the series).
pub(crate) fn solve_series(
    pos: &Position,
    stipulation: &Stipulation,
    options: &SolveOptions,
    control: &SolveControl,
) -> HelpSolution {
    let table = ProofTable::new(if options.pruning { options.table_bits } else { 16 });
    let finder = || Series {
        play: stipulation.play,
        goal: stipulation.goal,
        pruning: options.pruning,
        max_solutions: options.max_solutions,
        table: &table,
        nodes: NodeCounter::new(control),
    };
    let lines_of = |moves: u32| -> Vec<Vec<Move>> {
        if moves == 1 {
            let mut lines = Vec::new();
            finder().search(pos, 1, &mut Vec::new(), &mut lines);
            return lines;
        }
        let roots: Vec<Move> = pos.legal_moves().into_iter().collect();
        let per_root: Vec<Vec<Vec<Move>>> = roots
            .par_iter()
            .map(|&m| {
                let mut out = Vec::new();
                let mut next = child(pos, m);
                if !next.in_check() {
                    next.make_null_move();
                    finder().search(&next, moves - 1, &mut vec![m], &mut out);
                }
                out
            })
            .collect();
        per_root.into_iter().flatten().collect()
    };
    let mut solution = HelpSolution::default();
    if options.short {
        for length in short_lengths(stipulation.moves, 1) {
            solution.short.extend(lines_of(length));
        }
    }
    solution.lines = lines_of(stipulation.moves);
    if let Some(max) = options.max_solutions {
        solution.short.truncate(max);
        solution.lines.truncate(max.saturating_sub(solution.short.len()));
    }
    solution
}
