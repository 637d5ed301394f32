//! A search run in slices, for a host with one thread that must stay responsive: a browser's
//! Worker hears `stop` only between two calls into WebAssembly, so the search returns to it
//! every so often and goes on where it was at the next call.
//!
//! A slice searches whole iterations of the iterative deepening, one after the other, until
//! [`SliceBudget::iterations`] has passed; the state between iterations (root moves with
//! their scores and lines, stability, the node count, the time limits) stays in the
//! [`SlicedSearch`], the transposition table and histories in the [`Searcher`]. So a sliced
//! search visits exactly the nodes of a whole one with one thread. An iteration still
//! running after [`SliceBudget::pause`] is paused: the slice ends, the root moves go back to
//! where they were before it, and the next slice searches that depth again, the table
//! keeping what the paused part found (then node counts differ from a whole search). The
//! allowance doubles with each pause of the same iteration, so every iteration completes.

use super::history::History;
use super::report::{Report, SearchResult};
use super::setup::Prepared;
use super::thread::{SearchControl, ThreadState};
use super::{Limits, Searcher};
use crate::clock::Instant;
use crate::game::Game;
use crate::search::root::Deepening;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// How long one slice of a [`SlicedSearch`] may run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SliceBudget {
    /// No new iteration starts in a slice after this long.
    pub iterations: Duration,
    /// The running iteration is paused after this long (doubled with each pause of the same
    /// iteration).
    pub pause: Duration,
}

/// A search in progress between two slices ([`Searcher::start_sliced`]).
pub struct SlicedSearch {
    state: State,
}

enum State {
    Running(Box<Run>),
    Done(SearchResult),
}

/// What a running sliced search keeps between slices.
struct Run {
    prepared: Prepared,
    deepening: Deepening,
    /// Nodes searched so far.
    nodes: u64,
    /// Pauses of the current iteration so far.
    pauses: u32,
}

impl SlicedSearch {
    /// True once the search has its result.
    pub fn is_done(&self) -> bool {
        matches!(self.state, State::Done(_))
    }
}

impl Searcher {
    /// Starts a search of the current position of `game` under `limits` that
    /// [`Searcher::run_slice`] carries on; one search thread whatever the `threads` option.
    /// A root without legal moves (or one the endgame tables settle) is reported and done at
    /// once.
    pub fn start_sliced(&mut self, game: &Game, limits: &Limits, report: &mut dyn FnMut(Report)) -> SlicedSearch {
        let state = match self.prepare(game, limits, Instant::now(), report) {
            Ok(prepared) => State::Running(Box::new(Run {
                deepening: Deepening::new(0, &prepared.limits),
                prepared,
                nodes: 0,
                pauses: 0,
            })),
            Err(result) => State::Done(result),
        };
        SlicedSearch { state }
    }

    /// Runs one slice of `search`, reporting as a whole search does; the result once the
    /// search is over (its limits reached, or `control` stopped before or during the
    /// slice), None when it goes on. Called again when done, it returns the result again.
    pub fn run_slice(
        &mut self,
        search: &mut SlicedSearch,
        control: &SearchControl,
        budget: SliceBudget,
        report: &mut dyn FnMut(Report),
    ) -> Option<SearchResult> {
        let run = match &mut search.state {
            State::Done(result) => return Some(result.clone()),
            State::Running(run) => run,
        };
        let over = control.is_stopped()
            || run.prepared.time.hard_limit_reached(control)
            || run.deepening.depth > run.deepening.max_depth;
        if !over && !self.slice(run, control, budget, report) {
            return None;
        }
        let Run {
            prepared,
            deepening,
            nodes,
            ..
        } = &**run;
        let result = prepared.skill.conclude(
            &prepared.pos,
            &self.tt,
            &prepared.root_moves,
            prepared.multipv,
            deepening.completed,
            *nodes,
        );
        search.state = State::Done(result.clone());
        Some(result)
    }

    /// Searches iterations of `run` within `budget`; true when the search is over.
    fn slice(
        &mut self,
        run: &mut Run,
        control: &SearchControl,
        budget: SliceBudget,
        report: &mut dyn FnMut(Report),
    ) -> bool {
        let shown = self.shown_lines(run.prepared.root_moves.len());
        let mut time = run.prepared.time.clone();
        let begun = time.elapsed();
        let allowance = budget.pause.saturating_mul(1 << run.pauses.min(20));
        time.set_pause(Some(begun.saturating_add(allowance)));
        let pos = run.prepared.pos;
        let multipv = run.prepared.multipv;
        let (shared, histories) = self.search_parts(control, &run.prepared.limits, time, &pos, 1);
        shared.nodes[0].store(run.nodes, Ordering::Relaxed);
        let history: &mut History = &mut histories[0];
        let mut shown_lines = |r: Report| match &r {
            Report::Info(info) if info.multipv > shown => {}
            _ => report(r),
        };
        let root_moves = std::mem::take(&mut run.prepared.root_moves);
        let mut main = ThreadState::new(
            0,
            &shared,
            history,
            &run.prepared.game_keys,
            root_moves,
            Some(&mut shown_lines),
        );
        main.nodes = run.nodes;
        main.set_eval_root(&pos);
        let over = loop {
            let before = main.root_moves.clone();
            if !main.deepen(&pos, multipv, &mut run.deepening) {
                if !main.paused {
                    break true;
                }
                main.root_moves = before;
                run.pauses += 1;
                break false;
            }
            run.pauses = 0;
            if run.deepening.depth > run.deepening.max_depth {
                break true;
            }
            if shared.time.elapsed() >= begun.saturating_add(budget.iterations) {
                break false;
            }
        };
        run.nodes = main.nodes;
        run.prepared.root_moves = std::mem::take(&mut main.root_moves);
        over
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Report, SearchOptions};
    use crate::{Position, Rules};

    const FENS: [&str; 3] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "4k3/8/8/8/8/8/4P3/4K2R w K - 0 1",
    ];

    /// The `info` lines' fields that do not depend on time.
    fn lines(reports: &[Report]) -> Vec<String> {
        reports
            .iter()
            .filter_map(|r| match r {
                Report::Info(i) => Some(format!(
                    "{} {} {:?} {} {:?}",
                    i.depth, i.multipv, i.score, i.nodes, i.pv
                )),
                _ => None,
            })
            .collect()
    }

    fn sliced(
        searcher: &mut Searcher,
        game: &Game,
        limits: &Limits,
        budget: SliceBudget,
    ) -> (SearchResult, Vec<Report>, u32) {
        let mut reports = Vec::new();
        let control = SearchControl::new();
        let mut search = searcher.start_sliced(game, limits, &mut |r| reports.push(r));
        let mut slices = 0;
        loop {
            slices += 1;
            if let Some(result) = searcher.run_slice(&mut search, &control, budget, &mut |r| reports.push(r)) {
                assert!(search.is_done());
                return (result, reports, slices);
            }
        }
    }

    #[test]
    fn one_iteration_a_slice_visits_the_nodes_of_a_whole_search() {
        let options = SearchOptions {
            multipv: 2,
            ..SearchOptions::default()
        };
        let budget = SliceBudget {
            iterations: Duration::ZERO,
            pause: Duration::from_secs(3600),
        };
        for fen in FENS {
            let game = Game::new(Position::from_fen(fen, Rules::default()).unwrap());
            let limits = Limits::depth(7);
            let mut whole = Searcher::new(options.clone());
            let mut reports = Vec::new();
            let expected = whole.search(&game, &limits, &SearchControl::new(), &mut |r| reports.push(r));
            let mut slicer = Searcher::new(options.clone());
            let (result, sliced_reports, slices) = sliced(&mut slicer, &game, &limits, budget);
            assert_eq!(slices, 7, "{fen}");
            assert_eq!(result, expected, "{fen}");
            assert_eq!(lines(&sliced_reports), lines(&reports), "{fen}");
        }
    }

    #[test]
    fn paused_iterations_are_searched_again_until_they_complete() {
        let budget = SliceBudget {
            iterations: Duration::ZERO,
            pause: Duration::from_micros(50),
        };
        let game = Game::new(Position::from_fen(FENS[1], Rules::default()).unwrap());
        let mut searcher = Searcher::new(SearchOptions::default());
        let (result, reports, slices) = sliced(&mut searcher, &game, &Limits::depth(9), budget);
        assert_eq!(result.depth, 9);
        assert!(game.position().is_legal(result.best.unwrap()));
        assert!(slices >= 9);
        let depths: Vec<u32> = reports
            .iter()
            .filter_map(|r| match r {
                Report::Info(i) => Some(i.depth),
                _ => None,
            })
            .collect();
        assert_eq!(depths, (1..=9).collect::<Vec<u32>>(), "each iteration reported once");
    }

    #[test]
    fn a_stop_between_slices_ends_the_search_with_the_last_completed_iteration() {
        let game = Game::new(Position::start(Rules::default()));
        let mut searcher = Searcher::new(SearchOptions::default());
        let control = SearchControl::new();
        let budget = SliceBudget {
            iterations: Duration::ZERO,
            pause: Duration::from_secs(3600),
        };
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        let mut search = searcher.start_sliced(&game, &limits, &mut |_| {});
        for _ in 0..4 {
            assert_eq!(searcher.run_slice(&mut search, &control, budget, &mut |_| {}), None);
        }
        control.stop();
        let result = searcher.run_slice(&mut search, &control, budget, &mut |_| {}).unwrap();
        assert_eq!(result.depth, 4);
        assert_eq!(result.completed_best, result.best);
        assert!(game.position().is_legal(result.best.unwrap()));
        assert_eq!(
            searcher.run_slice(&mut search, &control, budget, &mut |_| {}),
            Some(result)
        );
    }

    #[test]
    fn a_root_without_moves_is_done_at_once() {
        let mated = Position::from_fen(
            "rnbqkbnr/ppp1pppp/8/1B6/4p3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3",
            Rules::default(),
        )
        .unwrap();
        let mut searcher = Searcher::new(SearchOptions::default());
        let mut reports = Vec::new();
        let search = searcher.start_sliced(&Game::new(mated), &Limits::depth(5), &mut |r| reports.push(r));
        assert!(search.is_done());
        assert_eq!(reports.len(), 1);
    }
}
