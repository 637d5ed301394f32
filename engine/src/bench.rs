//! The fixed benchmark: a list of positions (from `data/bench.fens`) searched to a fixed
//! depth with one thread and a cleared 16 MB table each. The node total is the engine's
//! signature: it changes exactly when search or evaluation behaviour changes.

use crate::clock::Instant;
use crate::evaluator::Evaluator;
use crate::game::Game;
use crate::position::Position;
use crate::rules::Rules;
use crate::search::{Limits, SearchControl, SearchOptions, Searcher};

/// Bench positions, one FEN per line.
pub const BENCH_FENS: &str = include_str!("../data/bench.fens");
/// Depth used when none is given.
pub const DEFAULT_DEPTH: u32 = 13;

/// Totals of a bench run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes searched over all positions.
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub time_ms: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Positions the search made (the `stats` build).
    #[cfg(feature = "stats")]
    pub copy_makes: u64,
}

/// The bench positions.
pub fn positions() -> Vec<Position> {
    BENCH_FENS
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|fen| Position::from_fen(fen, Rules::default()).expect("bench FENs are valid"))
        .collect()
}

/// Runs the bench at `depth` with `evaluator` (the default one gives the engine's signature);
/// `progress(index, fen, nodes)` is called after each position.
pub fn run(depth: u32, evaluator: &Evaluator, progress: &mut dyn FnMut(usize, &str, u64)) -> BenchResult {
    let start = Instant::now();
    let mut nodes = 0;
    let mut searcher = Searcher::new(SearchOptions {
        threads: 1,
        hash_mb: 16,
        ..SearchOptions::default()
    });
    searcher.set_evaluator(evaluator.clone());
    for (i, pos) in positions().into_iter().enumerate() {
        searcher.clear();
        let control = SearchControl::new();
        let result = searcher.search(&Game::new(pos), &Limits::depth(depth), &control, &mut |_| {});
        nodes += result.nodes;
        progress(i + 1, &pos.to_fen(), result.nodes);
    }
    let ms = start.elapsed().as_millis() as u64;
    BenchResult {
        nodes,
        time_ms: ms,
        nps: nodes * 1000 / ms.max(1),
        #[cfg(feature = "stats")]
        copy_makes: searcher.copy_makes,
    }
}
