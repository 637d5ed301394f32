//! What a `go` asks for: depth, nodes, time, mate, searchmoves, pondering.

use crate::types::Move;
use std::time::Duration;

/// Clock state of a timed game (UCI `wtime btime winc binc movestogo`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Remaining time of White and Black.
    pub time: [Option<Duration>; 2],
    /// Increment per move of White and Black.
    pub inc: [Duration; 2],
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u32>,
}

/// Limits of one search. Every limit set applies; none set means infinite.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes (summed over threads): the search stops there, mid-iteration if need be.
    pub nodes: Option<u64>,
    /// Soft node limit: no new iteration starts once this many nodes are searched (the main
    /// thread checks after each completed iteration), so the result is that of a whole
    /// iteration unless `nodes`, the hard cap, ends one first. Data generation uses it.
    pub soft_nodes: Option<u64>,
    /// Fixed time for this move.
    pub movetime: Option<Duration>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Game clock.
    pub clock: Option<Clock>,
    /// Search until stopped.
    pub infinite: bool,
    /// Pondering: no time limit until `ponderhit`.
    pub ponder: bool,
    /// Restrict the root to these moves (empty = all).
    pub search_moves: Vec<Move>,
}

impl Limits {
    /// Limits for a fixed depth.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Limits for a fixed node count.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Limits for a fixed time.
    pub fn movetime(time: Duration) -> Limits {
        Limits {
            movetime: Some(time),
            ..Limits::default()
        }
    }

    /// True when the search only ends on an external stop (infinite analysis).
    pub fn is_unbounded(&self) -> bool {
        self.depth.is_none()
            && self.nodes.is_none()
            && self.soft_nodes.is_none()
            && self.movetime.is_none()
            && self.mate.is_none()
            && self.clock.is_none()
    }
}
