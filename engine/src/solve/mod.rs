//! An exact problem solver for Alice chess: direct mates and stalemates (`#n`, `=n`), self
//! mates (`s#n`), reflex mates (`r#n`, `semi-r#n`), helpmates and help stalemates (`h#n`,
//! `h#n.5`, `h=n`), help-self mates (`hs#n`), series-movers (`ser-#n`, `ser-h#n`, `ser-s#n`,
//! `ser-=n`), with tries and their refutations, threats and variations, and the short
//! solutions (cooks) of the line stipulations.
//!
//! A solver proves: the search is full width, it never evaluates, and it reports every key move
//! and every helpmate line (duals included). Speed comes only from exact means: a table of
//! proven results (`table.rs`), trying checks first, a filter that skips moves that cannot give
//! check where only a mate can follow (`goal.rs`, proved in `docs/solve.md`), and the root
//! moves spread over threads. The side to move in the given position moves first.

mod direct;
mod goal;
mod help;
mod proof;
mod proof_bounds;
mod series;
mod stipulation;
mod table;

pub use direct::{AttackLine, DefenceLine, DirectSolution};
pub use help::HelpSolution;
pub use stipulation::{Goal, Play, Stipulation, MAX_MOVES};

use crate::clock::Instant;
use crate::tablebase::Tablebases;
use crate::types::Move;
use crate::Position;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

/// What to look for besides the solutions.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Also find tries (`#n`, `=n`, `s#n`): first moves that fail to at most `max_refutations`
    /// defences, with those refutations.
    pub tries: bool,
    /// Also find threats and variations after every key and try (`#n`, `=n`).
    pub variations: bool,
    /// Stop after this many solutions (keys or helpmate lines).
    pub max_solutions: Option<usize>,
    /// The most refutations a try may have (Popeye's default: 1).
    pub max_refutations: usize,
    /// The exact prunings and the proof table (off only to test them against the plain search).
    pub pruning: bool,
    /// The proof table has `2^table_bits` entries of 8 bytes.
    pub table_bits: u32,
    /// Also find the short solutions of line stipulations (help, help-self and series play):
    /// lines of fewer moves that already fulfil the stipulation.
    pub short: bool,
    /// Proof games: the position the game starts from (`a=>b`); None for the variant's start
    /// position (`dia`).
    pub proof_start: Option<Position>,
    /// Endgame tables that decide direct mates (`#n`) at once in positions of at most four
    /// men under the tables' rules (with `pruning` only; other positions are searched).
    pub tablebases: Option<Arc<Tablebases>>,
    /// Popeye's `Threat t` in direct, self and reflex play: an attacker's move after which
    /// the attacker still has `t` or more moves must give check or threaten to win within `t`
    /// moves (were the defender to pass); other moves are not tried. None: every move.
    pub max_threat: Option<u32>,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            tries: false,
            variations: false,
            max_solutions: None,
            max_refutations: 1,
            pruning: true,
            table_bits: 20,
            short: true,
            proof_start: None,
            tablebases: None,
            max_threat: None,
        }
    }
}

/// Shared state of one solve: the stop flag (set by the caller or by the deadline), the node
/// count (for a progress display) and the solutions found so far (for `max_solutions`).
#[derive(Debug, Default)]
pub struct SolveControl {
    stop: AtomicBool,
    nodes: AtomicU64,
    found: AtomicUsize,
    deadline: Option<Instant>,
}

impl SolveControl {
    /// A control that stops the search at `deadline` (checked every few thousand nodes).
    pub fn new(deadline: Option<Instant>) -> SolveControl {
        SolveControl {
            deadline,
            ..SolveControl::default()
        }
    }

    /// Asks the search to stop; its result is then marked incomplete.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// True once the search was asked to stop (or passed its deadline or solution limit).
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Positions visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Adds `nodes` to the count and checks the deadline.
    fn add_nodes(&self, nodes: u64) {
        self.nodes.fetch_add(nodes, Ordering::Relaxed);
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stop();
        }
    }

    /// Counts one more solution; stops the search when `max` is reached.
    fn found_one(&self, max: Option<usize>) {
        let found = self.found.fetch_add(1, Ordering::Relaxed) + 1;
        if max.is_some_and(|m| found >= m) {
            self.stop();
        }
    }
}

/// The solutions of one problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Solution {
    /// Keys (and tries) of a direct or self play problem.
    Direct(DirectSolution),
    /// Every line of a help play problem.
    Help(HelpSolution),
}

/// The result of [`solve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// What was found.
    pub solution: Solution,
    /// Positions visited.
    pub nodes: u64,
    /// False when the search stopped early (deadline, stop request or `max_solutions`): then
    /// the solutions listed are proven, but others may exist.
    pub complete: bool,
}

/// Counts nodes locally and hands them to the shared control in batches (one atomic add per
/// batch keeps the threads from fighting over one cache line).
struct NodeCounter<'a> {
    control: &'a SolveControl,
    pending: std::cell::Cell<u64>,
}

impl<'a> NodeCounter<'a> {
    const BATCH: u64 = 4096;

    fn new(control: &'a SolveControl) -> NodeCounter<'a> {
        NodeCounter {
            control,
            pending: std::cell::Cell::new(0),
        }
    }

    /// Counts one node; false when the search must stop.
    #[inline(always)]
    fn tick(&self) -> bool {
        let n = self.pending.get() + 1;
        if n >= Self::BATCH {
            self.control.add_nodes(n);
            self.pending.set(0);
        } else {
            self.pending.set(n);
        }
        !self.control.stopped()
    }
}

impl Drop for NodeCounter<'_> {
    fn drop(&mut self) {
        self.control.nodes.fetch_add(self.pending.get(), Ordering::Relaxed);
    }
}

/// Solves `stipulation` from `pos` (whose side to move moves first) exactly.
pub fn solve(pos: &Position, stipulation: &Stipulation, options: &SolveOptions, control: &SolveControl) -> Solved {
    let solution = match stipulation.play {
        Play::Help | Play::HelpSelf => Solution::Help(help::solve_help(pos, stipulation, options, control)),
        Play::SeriesDirect | Play::SeriesHelp | Play::SeriesSelf => {
            Solution::Help(series::solve_series(pos, stipulation, options, control))
        }
        Play::ProofGame | Play::AToB => Solution::Help(proof::solve_proof(pos, stipulation, options, control)),
        Play::Direct | Play::SelfPlay | Play::Reflex | Play::SemiReflex => {
            Solution::Direct(direct::solve_direct(pos, stipulation, options, control))
        }
    };
    Solved {
        solution,
        nodes: control.nodes(),
        complete: !control.stopped(),
    }
}

/// The positions in which the moves of a solution `line` of `stipulation` from `pos` are
/// played, one per move: in series play the other side passes between the series moves (a
/// null move), elsewhere each move follows the one before.
pub fn line_positions(pos: &Position, stipulation: &Stipulation, line: &[Move]) -> Vec<Position> {
    let series_moves = match stipulation.play {
        Play::SeriesDirect => line.len(),
        Play::SeriesHelp | Play::SeriesSelf => line.len().saturating_sub(1),
        _ => 0,
    };
    let mut p = *pos;
    let mut out = Vec::with_capacity(line.len());
    for (i, &m) in line.iter().enumerate() {
        out.push(p);
        p = p.after(m);
        if i + 1 < series_moves {
            p.make_null_move();
        }
    }
    out
}

#[cfg(test)]
mod tests;
