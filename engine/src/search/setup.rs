//! What every search does before and after its threads run: the root moves, the strength
//! settings and the time limits first, the move to play from the lines last. Whole searches
//! ([`Searcher::search`]) and sliced ones (`slices.rs`) share them.

use super::history::History;
use super::params::Reductions;
use super::report::{Bound, Report, Score, SearchInfo, SearchResult};
use super::root::wdl;
use super::thread::{RootMove, SearchControl, Shared};
use super::{strength, tablebase_root, Limits, Searcher, INFINITY};
use crate::clock::Instant;
use crate::game::Game;
use crate::search::time::TimeManager;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::Duration;

impl Searcher {
    /// Sets up a search of `game` under `limits` that started at `start`: the root moves,
    /// the strength settings, a new table generation and the time limits. A root without
    /// legal moves, or one the endgame tables settle, gives its result at once instead.
    pub(crate) fn prepare(
        &mut self,
        game: &Game,
        limits: &Limits,
        start: Instant,
        report: &mut dyn FnMut(Report),
    ) -> Result<Prepared, SearchResult> {
        let pos = *game.position();
        let root_moves: Vec<RootMove> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| limits.search_moves.is_empty() || limits.search_moves.contains(m))
            .map(|mv| RootMove {
                mv,
                score: -INFINITY,
                previous_score: -INFINITY,
                pv: vec![mv],
                seldepth: 0,
                nodes: 0,
            })
            .collect();
        if root_moves.is_empty() {
            let score = if pos.in_check() && pos.count_legal() == 0 {
                Score::Mate(0)
            } else {
                Score::Cp(0)
            };
            report(Report::Info(SearchInfo {
                depth: 0,
                seldepth: 0,
                multipv: 1,
                score,
                bound: Bound::Exact,
                wdl: wdl(score),
                nodes: 0,
                nps: 0,
                hashfull: self.tt.hashfull(),
                time_ms: 0,
                pv: Vec::new(),
            }));
            return Err(SearchResult {
                best: None,
                ponder: None,
                score,
                depth: 0,
                completed_best: None,
                nodes: 0,
            });
        }
        if let Some(tb) = self.tablebases.clone() {
            if let Some(result) = tablebase_root(&tb, &pos, &root_moves, self.options.multipv, start, report) {
                return Err(result);
            }
        }
        let skill = strength::Skill::new(self.options.skill_level, self.options.limit_elo);
        let multipv = self.options.multipv.max(skill.multipv()).min(root_moves.len());
        let mut limits = limits.clone();
        if let Some(d) = skill.depth_cap() {
            limits.depth = Some(limits.depth.map_or(d, |x| x.min(d)));
        }
        self.tt.set_rules(pos.rules());
        self.tt.new_search();
        // Killers belong to the plies of one search tree: a new root makes them stale.
        self.histories.iter_mut().for_each(History::clear_killers);
        let game_keys = game.history_keys();
        let time = TimeManager::new(
            &limits,
            pos.side_to_move(),
            Duration::from_millis(self.options.move_overhead_ms),
            start,
        );
        Ok(Prepared {
            pos,
            root_moves,
            skill,
            multipv,
            limits,
            game_keys,
            time,
        })
    }

    /// The number of lines reported (MultiPV) among `root_moves` root moves.
    pub(crate) fn shown_lines(&self, root_moves: usize) -> u32 {
        self.options.multipv.min(root_moves) as u32
    }

    /// What the threads of one search share, and the histories of the threads, borrowed
    /// together from the searcher.
    pub(crate) fn search_parts<'a>(
        &'a mut self,
        control: &'a SearchControl,
        limits: &'a Limits,
        time: TimeManager,
        pos: &crate::position::Position,
        threads: usize,
    ) -> (Shared<'a>, &'a mut [History]) {
        let shared = Shared {
            tt: &self.tt,
            control,
            abort: AtomicBool::new(false),
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            limits,
            time,
            params: &self.params,
            reductions: Reductions::new(&self.params),
            eval: &self.evaluator.params,
            net: self.evaluator.network_for(pos),
            threads,
            tablebases: self.tablebases.as_deref(),
            #[cfg(feature = "stats")]
            copy_makes: AtomicU64::new(0),
        };
        (shared, &mut self.histories)
    }
}

/// A search set up by [`Searcher::prepare`], before its threads run.
pub(crate) struct Prepared {
    pub pos: crate::position::Position,
    pub root_moves: Vec<RootMove>,
    pub skill: strength::Skill,
    /// Lines searched (at least those shown; more for a weakened engine).
    pub multipv: usize,
    /// The caller's limits with the strength's depth cap.
    pub limits: Limits,
    pub game_keys: Vec<u64>,
    pub time: TimeManager,
}
