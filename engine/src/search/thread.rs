//! Per-thread search state and what all threads share.

use super::history::{History, PrevMoves};
use super::params::{Reductions, SearchParams};
use super::{Limits, MAX_PLY};
use crate::eval::EvalParams;
use crate::nnue::{AccumulatorStack, Network};
use crate::position::Position;
use crate::search::time::TimeManager;
use crate::search::tt::TranspositionTable;
use crate::types::Move;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Flags the caller uses to steer a running search.
#[derive(Debug, Default)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
}

impl SearchControl {
    /// Fresh flags (not stopped, not pondering).
    pub fn new() -> SearchControl {
        SearchControl::default()
    }

    /// Asks the search to stop as soon as possible.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// The opponent played the pondered move: time limits apply from now on.
    pub fn ponderhit(&self) {
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// True after `stop`.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// True while pondering (before `ponderhit`).
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// Resets the flags before a new search.
    pub fn reset(&self, pondering: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(pondering, Ordering::SeqCst);
    }
}

/// State shared by the threads of one search.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a SearchControl,
    /// Set when the search must end (limits reached, main thread done, or external stop).
    pub abort: AtomicBool,
    pub nodes: Vec<AtomicU64>,
    pub limits: &'a Limits,
    pub time: TimeManager,
    pub params: &'a SearchParams,
    /// Late-move reductions from `params`.
    pub reductions: Reductions,
    pub eval: &'a EvalParams,
    /// The network when it evaluates this search's variant.
    pub net: Option<&'a Network>,
    pub threads: usize,
    /// Endgame tables probed inside the search (win/draw/loss), when loaded.
    pub tablebases: Option<&'a crate::tablebase::Tablebases>,
    /// Positions made by all threads (the `stats` build).
    #[cfg(feature = "stats")]
    pub copy_makes: AtomicU64,
}

impl Shared<'_> {
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

/// One root move with its last score and principal variation.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub previous_score: i32,
    pub pv: Vec<Move>,
    pub seldepth: u32,
    /// Nodes this thread spent below the move in this search (time management).
    pub nodes: u64,
}

/// Per-ply search stack entry.
#[derive(Clone, Copy, Default)]
pub(crate) struct StackEntry {
    pub static_eval: i32,
    /// (piece, landing cell) of the move made at this ply, for continuation history.
    pub moved: Option<usize>,
    /// The move a singular-extension search at this ply leaves out (NONE otherwise).
    pub excluded: Move,
    /// Double extensions on the path down to this ply (they are capped).
    pub double_extensions: i32,
}

/// A search thread's own state.
pub(crate) struct ThreadState<'a> {
    pub id: usize,
    pub shared: &'a Shared<'a>,
    pub history: &'a mut History,
    pub stack: Vec<StackEntry>,
    /// Keys of the game's earlier positions followed by the current search path.
    pub keys: Vec<u64>,
    /// Index in `keys` of the root position.
    pub root_index: usize,
    /// Index in `keys` of the first position after the latest null move on the path (0
    /// without one): repetitions are looked for from there on.
    pub null_barrier: usize,
    pub pv: Vec<[Move; MAX_PLY + 1]>,
    pub pv_len: [usize; MAX_PLY + 1],
    pub nodes: u64,
    pub seldepth: usize,
    pub root_moves: Vec<RootMove>,
    pub pv_index: usize,
    pub root_depth: i32,
    pub stopped: bool,
    /// The search stopped because its slice ended (a sliced search), not for good.
    pub paused: bool,
    /// Positions this thread made (the `stats` build).
    #[cfg(feature = "stats")]
    pub copy_makes: u64,
    /// Where progress goes (the main thread only).
    pub reporter: Option<&'a mut dyn FnMut(super::Report)>,
    /// Network accumulators by ply (when a network evaluates this search).
    pub accumulators: Option<AccumulatorStack>,
}

impl<'a> ThreadState<'a> {
    pub fn new(
        id: usize,
        shared: &'a Shared<'a>,
        history: &'a mut History,
        game_keys: &[u64],
        root_moves: Vec<RootMove>,
        reporter: Option<&'a mut dyn FnMut(super::Report)>,
    ) -> Self {
        ThreadState {
            id,
            shared,
            history,
            stack: vec![StackEntry::default(); MAX_PLY + 8],
            keys: game_keys.to_vec(),
            root_index: game_keys.len(),
            null_barrier: 0,
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            nodes: 0,
            seldepth: 0,
            root_moves,
            pv_index: 0,
            root_depth: 0,
            stopped: false,
            paused: false,
            #[cfg(feature = "stats")]
            copy_makes: 0,
            reporter,
            accumulators: shared.net.map(|net| AccumulatorStack::new(net, MAX_PLY + 8)),
        }
    }

    /// Prepares the evaluation for a search from `root` (the network's ply-0 accumulator).
    pub fn set_eval_root(&mut self, root: &Position) {
        if let (Some(net), Some(stack)) = (self.shared.net, self.accumulators.as_mut()) {
            stack.set_root(net, root);
        }
    }

    /// Static evaluation of `pos`, the position at `ply` of the current path.
    #[inline(always)]
    pub fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        match (self.shared.net, self.accumulators.as_mut()) {
            (Some(net), Some(stack)) => stack.evaluate(net, ply, pos),
            _ => crate::eval::evaluate(pos, self.shared.eval),
        }
    }

    /// Records that the search enters the child at `ply` by `mv` from `parent`.
    #[inline(always)]
    pub fn enter_child(&mut self, ply: usize, parent: &Position, mv: Move) {
        if let Some(stack) = self.accumulators.as_mut() {
            stack.enter_move(ply, parent, mv);
        }
    }

    /// Records that the search enters the child at `ply` by a null move.
    #[inline(always)]
    pub fn enter_null_child(&mut self, ply: usize) {
        if let Some(stack) = self.accumulators.as_mut() {
            stack.enter_null(ply);
        }
    }

    /// Counts a node and checks the limits every so often; true when the search must stop.
    #[inline(always)]
    pub fn count_node_and_check_stop(&mut self) -> bool {
        self.nodes += 1;
        if let Some(limit) = self.shared.limits.nodes {
            // With one thread this is exact, so `go nodes` is deterministic.
            let total = if self.shared.threads == 1 {
                self.nodes
            } else {
                self.shared.total_nodes() + (self.nodes & 1023)
            };
            if total >= limit {
                self.shared.abort.store(true, Ordering::Relaxed);
            }
        }
        if self.nodes & 1023 == 0 {
            self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
            if self.id == 0 && self.shared.time.hard_limit_reached(self.shared.control) {
                self.shared.abort.store(true, Ordering::Relaxed);
            }
            if self.id == 0 && self.shared.time.pause_due() {
                self.paused = true;
                self.shared.abort.store(true, Ordering::Relaxed);
            }
            if self.shared.control.is_stopped() {
                self.shared.abort.store(true, Ordering::Relaxed);
            }
        }
        if self.shared.abort.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        self.stopped
    }

    /// Publishes the node count (and, in the `stats` build, the copy-make count).
    pub fn flush_nodes(&self) {
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        #[cfg(feature = "stats")]
        self.shared.copy_makes.fetch_add(self.copy_makes, Ordering::Relaxed);
    }

    /// Counts one position made from another (only in the `stats` build).
    #[inline(always)]
    pub fn count_copy_make(&mut self) {
        #[cfg(feature = "stats")]
        {
            self.copy_makes += 1;
        }
    }

    /// Makes `mv` on a copy of `pos` (counted in the `stats` build) and prefetches the
    /// child's table bucket, which its search probes first.
    #[inline(always)]
    pub fn make_child(&mut self, pos: &Position, mv: Move) -> Position {
        self.count_copy_make();
        let child = pos.after(mv);
        self.shared.tt.prefetch(child.key());
        child
    }

    /// Repetition: twofold inside the search path, threefold with the game history; never
    /// across a null move on the path (the positions before it are not reachable by moves).
    pub fn is_repetition(&self, key: u64, halfmove: u16) -> bool {
        repetition(
            &self.keys[self.null_barrier..],
            self.root_index.saturating_sub(self.null_barrier),
            key,
            halfmove,
        )
    }

    /// Continuation-history context: moves 1, 2 and 4 plies before `ply` (the last only
    /// with `cont_ply4`).
    #[inline(always)]
    pub fn prev_moves(&self, ply: usize) -> PrevMoves {
        let get = |back: usize| {
            if ply >= back {
                self.stack[ply - back].moved
            } else {
                None
            }
        };
        let fourth = if self.shared.params.cont_ply4 != 0 {
            get(4)
        } else {
            None
        };
        [get(1), get(2), fourth]
    }

    pub fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = if ply < MAX_PLY { self.pv_len[ply + 1] } else { 0 };
        self.pv[ply][0] = mv;
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let len = child_len.min(MAX_PLY);
        if ply < MAX_PLY {
            head[ply][1..=len].copy_from_slice(&tail[0][..len]);
        }
        self.pv_len[ply] = len + 1;
    }
}

/// Repetition of `key` among `keys` (the positions before the current one, oldest first;
/// those from `root_index` on are on the search path): twofold on the path, threefold with
/// the earlier game. Only the last `halfmove` plies can repeat, every second one.
pub(crate) fn repetition(keys: &[u64], root_index: usize, key: u64, halfmove: u16) -> bool {
    let n = keys.len();
    let reach = (halfmove as usize).min(n);
    let mut earlier = 0;
    let mut d = 4;
    while d <= reach {
        let i = n - d;
        if keys[i] == key {
            if i >= root_index {
                return true;
            }
            earlier += 1;
            if earlier >= 2 {
                return true;
            }
        }
        d += 2;
    }
    false
}
