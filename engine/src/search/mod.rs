//! Search: iterative deepening principal variation search over the Alice rules, with a
//! shared transposition table, Lazy SMP threads and time management.
//!
//! The entry point is [`Searcher`]: it owns the transposition table and the thread settings
//! and runs one search at a time, reporting progress through a callback (the library never
//! prints).

mod alphabeta;
mod checks;
mod history;
mod limits;
mod movepick;
mod params;
mod qsearch;
mod report;
mod root;
mod see;
mod setup;
mod slices;
mod strength;
mod tablebase;
#[cfg(test)]
mod tests;
mod thread;
pub mod time;
pub mod tt;

pub use limits::{Clock, Limits};
pub use movepick::MovePicker;
pub use params::{ParamSpec, SearchParams};
pub use report::{Bound, Report, Score, SearchInfo, SearchResult};
pub use root::{wdl, SearchOptions, Searcher};
pub use see::see_ge;
pub use slices::{SliceBudget, SlicedSearch};
pub use strength::ELO_RANGE;
pub(crate) use tablebase::tablebase_root;
pub use thread::SearchControl;

/// Deepest ply the search can reach.
pub const MAX_PLY: usize = 128;
/// Mate score at the root (mate in `n` plies = `MATE - n`).
pub const MATE: i32 = 32_000;
/// Scores at or beyond this magnitude are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// A tablebase win at the root (a win in `n` plies from the root = `TB_WIN - n`): a band
/// below the mate scores and above any evaluation.
pub const TB_WIN: i32 = MATE_BOUND - 1 - MAX_PLY as i32;
/// Scores at or beyond this magnitude (and below mates) are tablebase wins.
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;
/// Larger than any score.
pub const INFINITY: i32 = 32_001;
