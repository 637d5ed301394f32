//! What the search reports: scores, bounds, per-iteration info and the final result.

use super::{MATE, MATE_BOUND};
use crate::types::Move;

/// A score as reported: centipawns or moves to mate (positive = the side to move mates).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's view.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

impl Score {
    /// Converts an internal search score.
    pub fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(MATE + v) / 2)
        } else {
            Score::Cp(v)
        }
    }
}

/// Whether a reported score is exact or a bound from an aspiration window fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Exact score.
    Exact,
    /// The true score is at least this (fail high).
    Lower,
    /// The true score is at most this (fail low).
    Upper,
}

/// One principal variation line of one iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based index of this line (MultiPV).
    pub multipv: u32,
    /// Score from the side to move's view.
    pub score: Score,
    /// Exact or bound.
    pub bound: Bound,
    /// Win/draw/loss per mille from the side to move's view.
    pub wdl: (u32, u32, u32),
    /// Nodes searched so far (all threads).
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Transposition table fill, per mille.
    pub hashfull: u32,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Principal variation.
    pub pv: Vec<Move>,
}

/// Progress messages sent to the caller during a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// A finished (or bound-failed) line of an iteration.
    Info(SearchInfo),
    /// The root move being searched (sent after the first second).
    CurrMove {
        /// Iteration depth.
        depth: u32,
        /// Root move.
        mv: Move,
        /// 1-based number in the root move order.
        number: u32,
    },
    /// A free-text note.
    Note(String),
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// Best move, or None when the position has no legal move.
    pub best: Option<Move>,
    /// Expected reply, for pondering.
    pub ponder: Option<Move>,
    /// Score of the best move of the last completed iteration.
    pub score: Score,
    /// Last completed depth.
    pub depth: u32,
    /// The best move of the last completed iteration: the move `score` and `depth` belong to
    /// (None when no iteration completed). `best` can differ when a stopped iteration had
    /// already found a move that beats it.
    pub completed_best: Option<Move>,
    /// Nodes searched (all threads).
    pub nodes: u64,
}
