//! The searcher: options, iterative deepening with aspiration windows, MultiPV, Lazy SMP
//! threads sharing the transposition table, and progress reports.

use super::history::History;
use super::params::SearchParams;
use super::report::{Bound, Report, Score, SearchInfo, SearchResult};
use super::thread::{RootMove, SearchControl, ThreadState};
use super::{Limits, INFINITY, MATE, MATE_BOUND, MAX_PLY};
use crate::clock::Instant;
use crate::error::OptionsError;
use crate::evaluator::Evaluator;
use crate::game::Game;
use crate::search::tt::TranspositionTable;
use crate::tablebase::Tablebases;
use crate::types::Move;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

/// Engine settings that persist between searches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Search threads (Lazy SMP).
    pub threads: usize,
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// Number of principal variations reported.
    pub multipv: usize,
    /// Time kept in reserve per move for communication delays.
    pub move_overhead_ms: u64,
    /// 0..=20; below 20 the engine deliberately plays weaker moves.
    pub skill_level: u32,
    /// UCI_LimitStrength with UCI_Elo: a target rating (overrides `skill_level`).
    pub limit_elo: Option<u32>,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            threads: 1,
            hash_mb: 16,
            multipv: 1,
            move_overhead_ms: 10,
            skill_level: 20,
            limit_elo: None,
        }
    }
}

/// Runs searches; owns the transposition table and the per-thread histories.
pub struct Searcher {
    pub(super) options: SearchOptions,
    pub(super) tt: TranspositionTable,
    pub(super) histories: Vec<History>,
    pub(super) params: SearchParams,
    pub(super) evaluator: Evaluator,
    /// Endgame tables (`AliceTbPath`), when loaded.
    pub(super) tablebases: Option<Arc<Tablebases>>,
    /// Positions made by all searches so far (the `stats` build).
    #[cfg(feature = "stats")]
    pub copy_makes: u64,
}

impl Searcher {
    /// A searcher with `options`; falls back to a 1 MB table when the hash can't be had.
    pub fn new(options: SearchOptions) -> Searcher {
        let tt = TranspositionTable::new(options.hash_mb).unwrap_or_else(|_| TranspositionTable::new(1).expect("1 MB"));
        let histories = (0..options.threads.max(1)).map(thread_history).collect();
        Searcher {
            options,
            tt,
            histories,
            params: SearchParams::default(),
            evaluator: Evaluator::default(),
            tablebases: None,
            #[cfg(feature = "stats")]
            copy_makes: 0,
        }
    }

    /// Current options.
    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// Changes options; on failure (e.g. hash memory not available) nothing changes.
    pub fn set_options(&mut self, options: SearchOptions) -> Result<(), OptionsError> {
        if options.threads == 0 || options.multipv == 0 {
            return Err("threads and multipv must be at least 1".into());
        }
        if options.hash_mb != self.options.hash_mb {
            self.tt = TranspositionTable::new(options.hash_mb)?;
        }
        let have = self.histories.len();
        self.histories.truncate(options.threads);
        self.histories.extend((have..options.threads).map(thread_history));
        self.options = options;
        Ok(())
    }

    /// The search parameters in use.
    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// Replaces the search parameters (SPSA tuning).
    pub fn set_params(&mut self, params: SearchParams) {
        self.params = params;
    }

    /// The evaluation in use.
    pub fn evaluator(&self) -> &Evaluator {
        &self.evaluator
    }

    /// Replaces the evaluation (a network loaded by `EvalFile`, the hand-crafted one). The
    /// table is cleared: its stored evaluations came from the old one.
    pub fn set_evaluator(&mut self, evaluator: Evaluator) {
        self.evaluator = evaluator;
        self.tt.clear();
    }

    /// Uses these endgame tables from the next search on (`None`: none). The hash table is
    /// cleared: its scores were found without them.
    pub fn set_tablebases(&mut self, tablebases: Option<Arc<Tablebases>>) {
        self.tablebases = tablebases;
        self.tt.clear();
    }

    /// The endgame tables in use.
    pub fn tablebases(&self) -> Option<&Arc<Tablebases>> {
        self.tablebases.as_ref()
    }

    /// Forgets everything learned (new game, Clear Hash).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.histories.iter_mut().for_each(History::clear);
    }

    /// The killer moves of search thread `thread` (tests).
    #[cfg(test)]
    pub(crate) fn killers(&self, thread: usize) -> &[[Move; 2]] {
        &self.histories[thread].killers
    }

    /// Per-mille fill of the transposition table.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Searches the current position of `game` (earlier positions count for repetitions).
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &SearchControl,
        report: &mut dyn FnMut(Report),
    ) -> SearchResult {
        let start = Instant::now();
        let prepared = match self.prepare(game, limits, start, report) {
            Ok(prepared) => prepared,
            Err(result) => return result,
        };
        let (pos, skill, multipv, time) = (prepared.pos, prepared.skill, prepared.multipv, prepared.time);
        let (mut root_moves, limits, game_keys) = (prepared.root_moves, prepared.limits, prepared.game_keys);
        let threads = self.options.threads.max(1);
        let shown = self.shown_lines(root_moves.len());
        let (shared, histories) = self.search_parts(control, &limits, time, &pos, threads);
        let (main_history, helper_histories) = histories.split_first_mut().expect("at least one history");
        // Only the lines the caller asked for are reported: a weakened search (`Skill Level`)
        // searches more lines than that to choose its move among them.
        let mut shown_lines = |r: Report| match &r {
            Report::Info(info) if info.multipv > shown => {}
            _ => report(r),
        };
        let mut main = ThreadState::new(
            0,
            &shared,
            main_history,
            &game_keys,
            root_moves.clone(),
            Some(&mut shown_lines),
        );
        let (result, helper_results) = std::thread::scope(|scope| {
            let mut handles = Vec::with_capacity(threads - 1);
            for (i, history) in helper_histories.iter_mut().enumerate().take(threads - 1) {
                let shared = &shared;
                let keys = &game_keys;
                let moves = root_moves.clone();
                let handle = std::thread::Builder::new()
                    .stack_size(16 << 20)
                    .spawn_scoped(scope, move || {
                        let mut worker = ThreadState::new(i + 1, shared, history, keys, moves, None);
                        let (_, depth, _) = worker.iterate(&pos, 1);
                        (worker.root_moves.swap_remove(0), depth)
                    })
                    .expect("spawn search thread");
                handles.push(handle);
            }
            let result = main.iterate(&pos, multipv);
            shared.abort.store(true, Ordering::SeqCst);
            let helpers: Vec<(RootMove, u32)> = handles.into_iter().filter_map(|h| h.join().ok()).collect();
            (result, helpers)
        });
        root_moves = main.root_moves;
        let mut result = result;
        // Thread voting (one line, full strength, no depth limit): a helper's move may win.
        if multipv == 1 && limits.depth.is_none() && shared.params.thread_vote != 0 && !helper_results.is_empty() {
            if let Some(winner) = voted_helper((&root_moves[0], result.1), &helper_results) {
                let (rm, depth) = &helper_results[winner];
                let nodes = shared.total_nodes();
                let ms = (shared.time.elapsed().as_millis() as u64).max(1);
                let score = Score::from_internal(rm.score.clamp(-MATE, MATE));
                report(Report::Info(SearchInfo {
                    depth: *depth,
                    seldepth: rm.seldepth.max(*depth),
                    multipv: 1,
                    score,
                    bound: Bound::Exact,
                    wdl: wdl(score),
                    nodes,
                    nps: nodes.saturating_mul(1000) / ms,
                    hashfull: shared.tt.hashfull(),
                    time_ms: ms,
                    pv: rm.pv.clone(),
                }));
                if let Some(i) = root_moves.iter().position(|r| r.mv == rm.mv) {
                    root_moves[i] = rm.clone();
                    root_moves[..=i].rotate_right(1);
                }
                result = (score, *depth, Some(rm.mv));
            }
        }
        let nodes = shared.total_nodes();
        #[cfg(feature = "stats")]
        {
            let copy_makes = shared.copy_makes.load(Ordering::Relaxed);
            self.copy_makes += copy_makes;
        }
        skill.conclude(&pos, &self.tt, &root_moves, multipv, result, nodes)
    }
}

/// Time by effort: when most of the nodes went into the best move, the alternatives were
/// refuted easily and the choice is clear (less time); when few did, think longer. The
/// factor scales the soft limit; 1 before depth 5 or with `tm_node_scale` 0.
pub(crate) fn effort_scale(params: &SearchParams, best_nodes: u64, nodes: u64, depth: i32) -> f64 {
    if params.tm_node_scale == 0 || depth < 5 || nodes == 0 {
        return 1.0;
    }
    let fraction = best_nodes as f64 / nodes as f64;
    (params.tm_node_base as f64 / 100.0 - fraction) * params.tm_node_scale as f64 / 100.0
}

/// Lazy SMP thread voting: every thread's best move collects votes weighted by the thread's
/// completed depth and by how far its score is above the worst one, so a move several deep
/// threads agree on beats one thread's outlier. A proven win goes to the thread with the
/// best score. Returns the index of the helper whose move wins, None when the main thread's
/// does.
pub(crate) fn voted_helper(main: (&RootMove, u32), helpers: &[(RootMove, u32)]) -> Option<usize> {
    let all: Vec<(&RootMove, u32)> = std::iter::once(main)
        .chain(helpers.iter().map(|(rm, d)| (rm, *d)))
        .filter(|(rm, d)| *d > 0 && rm.score > -INFINITY)
        .collect();
    let worst = all.iter().map(|(rm, _)| rm.score).min()?;
    let weight = |(rm, d): &(&RootMove, u32)| (rm.score - worst + 14) as i64 * *d as i64;
    let votes = |mv: Move| all.iter().filter(|(rm, _)| rm.mv == mv).map(weight).sum::<i64>();
    let mut best = (main, None);
    for (i, (rm, depth)) in helpers.iter().enumerate() {
        let candidate = (rm, *depth);
        if *depth == 0 || rm.score == -INFINITY {
            continue;
        }
        let (b, _) = best;
        let better = if b.0.score >= MATE_BOUND || rm.score >= MATE_BOUND {
            rm.score > b.0.score
        } else {
            let (v, bv) = (votes(rm.mv), votes(b.0.mv));
            v > bv || (v == bv && weight(&candidate) > weight(&b))
        };
        if better {
            best = (candidate, Some(i));
        }
    }
    // A helper that agrees with the main thread changes nothing (the main line is kept).
    best.1.filter(|&i| helpers[i].0.mv != main.0.mv)
}

/// Threads that keep a continuation-history table (the rest order moves without it).
const FULL_HISTORY_THREADS: usize = 8;

/// The history tables of search thread `index`.
fn thread_history(index: usize) -> History {
    History::new(index < FULL_HISTORY_THREADS)
}

/// Win/draw/loss per mille for a score (a logistic model; mates are certain).
pub fn wdl(score: Score) -> (u32, u32, u32) {
    match score {
        Score::Mate(n) if n > 0 => (1000, 0, 0),
        Score::Mate(_) => (0, 0, 1000),
        Score::Cp(cp) => {
            let f = |x: f64| 1000.0 / (1.0 + (-(x - 160.0) / 65.0).exp());
            let w = f(cp as f64).round() as u32;
            let l = f(-cp as f64).round() as u32;
            (w, 1000 - w - l, l)
        }
    }
}

/// Where iterative deepening stands between two iterations.
#[derive(Clone, Debug)]
pub(crate) struct Deepening {
    /// The next iteration's depth.
    pub depth: i32,
    /// The last depth to search.
    pub max_depth: i32,
    /// Score, depth and best move of the last completed iteration.
    pub completed: (Score, u32, Option<Move>),
    /// Completed iterations in a row with the same best move.
    stable_iterations: i32,
    last_best: Move,
    last_score: i32,
}

impl Deepening {
    /// Before the first iteration of search thread `id` under `limits`.
    pub(crate) fn new(id: usize, limits: &Limits) -> Deepening {
        let max_depth = limits
            .depth
            .map_or(MAX_PLY as i32 - 4, |d| (d as i32).clamp(1, MAX_PLY as i32 - 4));
        Deepening {
            // Helper threads start at staggered depths so they search different trees.
            depth: 1 + (id % 2) as i32,
            max_depth,
            completed: (Score::Cp(0), 0, None),
            stable_iterations: 0,
            last_best: Move::NONE,
            last_score: 0,
        }
    }
}

impl ThreadState<'_> {
    /// Iterative deepening; returns the score, depth and best move of the last completed
    /// iteration (no move when none completed).
    pub(crate) fn iterate(&mut self, pos: &crate::position::Position, multipv: usize) -> (Score, u32, Option<Move>) {
        self.set_eval_root(pos);
        let mut deepening = Deepening::new(self.id, self.shared.limits);
        while deepening.depth <= deepening.max_depth && self.deepen(pos, multipv, &mut deepening) {}
        self.flush_nodes();
        deepening.completed
    }

    /// Searches the iteration at `deepening.depth` (every line of it); true when the next
    /// one should follow, false when the search ends here (stopped, or a stop condition of
    /// the main thread met).
    pub(crate) fn deepen(
        &mut self,
        pos: &crate::position::Position,
        multipv: usize,
        deepening: &mut Deepening,
    ) -> bool {
        let depth = deepening.depth;
        self.root_depth = depth;
        for r in &mut self.root_moves {
            r.previous_score = r.score;
        }
        for pv_index in 0..multipv {
            self.pv_index = pv_index;
            self.seldepth = 0;
            self.aspiration(pos, depth);
            if self.stopped {
                break;
            }
            // Lines found so far are kept best first (a later line may beat an earlier one).
            self.root_moves[..=pv_index].sort_by_key(|r| std::cmp::Reverse(r.score));
        }
        if self.stopped {
            return false;
        }
        // A completed iteration reports each of its lines once, best first (the UCI
        // convention: reporting the lines so far after each line would repeat them).
        if self.id == 0 {
            for i in 0..multipv {
                let info = self.info(depth, i, Bound::Exact);
                self.emit(Report::Info(info));
            }
        }
        let best = &self.root_moves[0];
        deepening.completed = (Score::from_internal(best.score), depth as u32, Some(best.mv));
        deepening.depth += 1;
        if self.id != 0 {
            return true;
        }
        let limits = self.shared.limits;
        if limits
            .soft_nodes
            .is_some_and(|soft| self.shared.total_nodes().max(self.nodes) >= soft)
        {
            return false;
        }
        // Stop conditions of the main thread.
        if let Some(mate) = limits.mate {
            if best.score >= MATE_BOUND && (MATE - best.score + 1) / 2 <= mate as i32 {
                return false;
            }
        }
        if best.mv == deepening.last_best {
            deepening.stable_iterations += 1;
        } else {
            deepening.stable_iterations = 0;
        }
        // Think longer when the best move changes or the score drops; less when stable.
        let stability = 1.4 - 0.1 * deepening.stable_iterations.min(6) as f64;
        let drop = if depth > 1 && best.score < deepening.last_score - 30 {
            1.3
        } else {
            1.0
        };
        let effort = effort_scale(self.shared.params, best.nodes, self.nodes, depth);
        deepening.last_best = best.mv;
        deepening.last_score = best.score;
        if self
            .shared
            .time
            .soft_limit_reached(self.shared.control, stability * drop * effort)
        {
            return false;
        }
        !self.shared.control.is_stopped()
    }

    /// One iteration for one PV line with an aspiration window around the last score.
    fn aspiration(&mut self, pos: &crate::position::Position, depth: i32) {
        let previous = self.root_moves[self.pv_index].score;
        let mut delta = self.shared.params.aspiration;
        let (mut alpha, mut beta) = if depth >= 4 && previous.abs() < MATE_BOUND {
            (previous - delta, previous + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let score = self.search(pos, alpha, beta, depth, 0, false);
            // Sort even when stopped: a move that beat the best one in this unfinished
            // iteration comes first (moves not searched yet keep their older scores).
            self.root_moves[self.pv_index..].sort_by_key(|r| std::cmp::Reverse(r.score));
            if self.stopped {
                return;
            }
            let slow = self.shared.time.elapsed() > Duration::from_secs(3);
            if score <= alpha {
                if self.id == 0 && slow {
                    let info = self.info(depth, self.pv_index, Bound::Upper);
                    self.emit(Report::Info(info));
                }
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                if self.id == 0 && slow {
                    let info = self.info(depth, self.pv_index, Bound::Lower);
                    self.emit(Report::Info(info));
                }
                beta = (score + delta).min(INFINITY);
            } else {
                return;
            }
            delta += delta / 2;
        }
    }

    /// Records a root move's result (PV from the child) or marks it as not better.
    /// `first` marks the first move searched in this root call: it is searched with the full
    /// window, so its child PV is fresh even when it fails low.
    /// `nodes` were spent on the move's search.
    pub(crate) fn record_root_score(
        &mut self,
        root: &crate::position::Position,
        mv: Move,
        score: i32,
        alpha: i32,
        first: bool,
        nodes: u64,
    ) {
        // A reported line is kept only as far as its moves are legal in turn (GUIs must never
        // be sent an illegal move): the full tier's Lazy SMP test once saw another move's line
        // here, copied after a search whose window had narrowed to one point (now cleared
        // before each child search, alphabeta.rs); this check stays as the last guard.
        let mut at = root.after(mv);
        let child_pv: Vec<Move> = self.pv[1][..self.pv_len[1]]
            .iter()
            .copied()
            .take_while(|&m| {
                let legal = at.is_legal(m);
                if legal {
                    at = at.after(m);
                }
                legal
            })
            .collect();
        let seldepth = self.seldepth as u32;
        if let Some(rm) = self.root_moves.iter_mut().find(|r| r.mv == mv) {
            rm.nodes += nodes;
            if first || score > alpha {
                rm.score = score;
                rm.seldepth = seldepth;
                rm.pv = std::iter::once(mv).chain(child_pv).collect();
            } else {
                rm.score = -INFINITY;
            }
        }
    }

    /// Sends `currmove` after the first second of the search.
    pub(crate) fn report_currmove(&mut self, mv: Move, number: i32) {
        if self.shared.time.elapsed() >= Duration::from_secs(1) {
            let depth = self.root_depth as u32;
            self.emit(Report::CurrMove {
                depth,
                mv,
                number: number as u32 + self.pv_index as u32,
            });
        }
    }

    fn emit(&mut self, report: Report) {
        if let Some(sink) = self.reporter.as_mut() {
            sink(report);
        }
    }

    fn info(&self, depth: i32, index: usize, bound: Bound) -> SearchInfo {
        let rm = &self.root_moves[index];
        let updated = rm.score != -INFINITY;
        let raw = if updated { rm.score } else { rm.previous_score };
        let score = Score::from_internal(raw.clamp(-MATE, MATE));
        let nodes = self.shared.total_nodes().max(self.nodes);
        // Whole milliseconds, at least 1 (as Stockfish prints them), and the speed from the
        // same figures, so a search reported at once does not claim a huge speed.
        let ms = (self.shared.time.elapsed().as_millis() as u64).max(1);
        SearchInfo {
            depth: depth as u32,
            seldepth: rm.seldepth.max(depth as u32),
            multipv: index as u32 + 1,
            score,
            bound,
            wdl: wdl(score),
            nodes,
            nps: nodes.saturating_mul(1000) / ms,
            hashfull: self.shared.tt.hashfull(),
            time_ms: ms,
            pv: rm.pv.clone(),
        }
    }
}
