//! The game report as the page sees it: a review of the main line that the host runs in the
//! background (`vorpal gui`: the engine library's search on a server thread, as `vorpal
//! annotate`; the browser build offers none), its progress, then every move's evaluation and
//! judgement, the better lines, both sides' totals and the annotated PGN. The session keeps the
//! state ([`Review`]) and starts, follows and shows it (`session/review.rs`); the host fills in
//! a [`ReviewReport`].

use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use vorpal_engine::Rules;

/// A finished review: what the host's analysis found, move by move, ready for the page.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewReport {
    /// One entry per main-line move, in order.
    pub moves: Vec<ReviewedMove>,
    /// The start position's evaluation (White's centipawns, clamped to ±10 pawns).
    pub start_cp: i32,
    /// White's totals, then Black's.
    pub sides: [SideTotals; 2],
    /// The game with the review's annotations, as PGN.
    pub pgn: String,
}

/// One reviewed move: evaluations from White's view.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReviewedMove {
    /// The engine's move (SAN), when it named one.
    pub best: Option<String>,
    /// Centipawns clamped to ±10 pawns (mates at the edge).
    pub cp: i32,
    /// `0.32`, `#-3`.
    pub eval: String,
    /// `inaccuracy`, `mistake`, `blunder`.
    pub judgement: Option<&'static str>,
    /// The engine's line, numbered SAN.
    pub line: Option<String>,
    /// Winning chances given away, 0..1.
    pub loss: f64,
    /// `?!`, `?` or `??`.
    pub mark: Option<&'static str>,
    /// True when the evaluation is a mate.
    pub mate: bool,
    /// The move's node in the tree (filled in by the session).
    pub node: usize,
    /// The move's ply.
    pub ply: usize,
    /// The move in SAN.
    pub san: String,
}

/// One side's totals.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideTotals {
    /// Accuracy in percent, one decimal.
    pub accuracy: Option<f64>,
    /// Average centipawn loss.
    pub acpl: Option<i64>,
    /// Moves judged blunders.
    pub blunders: usize,
    /// Moves judged inaccuracies.
    pub inaccuracies: usize,
    /// Moves judged mistakes.
    pub mistakes: usize,
}

/// What the report reports while running: false from `progress` stops it.
pub type ReviewProgress = Box<dyn FnMut(usize, usize) -> bool + Send>;
/// The end of a review: None when it was stopped, else the report or why it failed.
pub type ReviewFinish = Box<dyn FnOnce(Option<Result<ReviewReport, String>>) + Send>;

/// A review for the host to run.
pub struct ReviewJob {
    /// The game (the session's own PGN, so the report keeps its tags and comments).
    pub pgn: String,
    /// Its rules.
    pub rules: Rules,
    /// Main-line moves the game has (the host refuses a PGN that reads back otherwise).
    pub moves: usize,
    /// Called with (positions searched, positions in all) after each position.
    pub progress: ReviewProgress,
    /// Called once at the end.
    pub finish: ReviewFinish,
}

/// A review of the main line, running or finished. Dropping it stops the search.
pub struct Review {
    /// The main line's nodes (after the root) and their moves (wide UCI) when it started.
    pub(crate) nodes: Vec<(usize, String)>,
    /// Positions searched so far and in all.
    pub(crate) done: usize,
    pub(crate) total: usize,
    /// Nodes searched per position.
    pub(crate) nodes_per_position: u64,
    /// The finished review, or why it failed.
    pub(crate) outcome: Option<Result<ReviewReport, String>>,
    /// Set to stop the search.
    pub(crate) cancel: Arc<AtomicBool>,
}

impl Drop for Review {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::SeqCst);
    }
}

/// The game report for the page: its state (`running`, `failed` with a `message`, `done`)
/// and progress; when done, every move's evaluation and judgement, the better lines, both
/// sides' totals and the annotated PGN. Fields in alphabetical order, as the page has always
/// received them; the report's own fields are left out until it is done.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReviewView<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) black: Option<&'a SideTotals>,
    /// Positions searched so far.
    pub(crate) done: usize,
    /// Why it failed.
    pub(crate) message: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) moves: Option<Vec<ReviewedMove>>,
    /// Nodes searched per position.
    pub(crate) nodes: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) pgn: Option<&'a str>,
    /// The start position's evaluation (White's centipawns).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) start_cp: Option<i32>,
    pub(crate) state: &'static str,
    /// Positions in all.
    pub(crate) total: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) white: Option<&'a SideTotals>,
}
