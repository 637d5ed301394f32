//! The search thread: runs one search at a time on its own thread so the input loop keeps
//! answering (`isready`, `stop`, `ponderhit`; in CECP `ping`, `.`, `?`). It knows no protocol:
//! what the thread prints is decided by the job's [`Printer`] (UCI: the `info` lines and exactly
//! one `bestmove` per `go`, in `infinite` and `ponder` mode never before `stop` or `ponderhit`;
//! CECP: the thinking output and the engine's `move`).

use crate::uci::output::Output;
use crate::uci::panics::panic_text;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::Duration;
use vorpal_engine::search::{Limits, Report, SearchControl, Searcher};
use vorpal_engine::{Game, Move, Position};

/// How the search thread prints a search: the protocol's progress lines, its final move, and
/// the problems met on the way. Implemented by each protocol adapter (`uci/printer.rs`,
/// `xboard/printer.rs`); every method runs on the search thread (or, for a search that cannot
/// start, on the caller's).
pub trait Printer: Send + Sync {
    /// The position has no legal move; the search does not run. Called before `finish`.
    fn no_legal_move(&self, pos: &Position, out: &Output);
    /// One progress report of the search.
    fn report(&self, pos: &Position, report: Report, out: &Output);
    /// Something went wrong in the engine (the search still ends with `finish`).
    fn error(&self, message: &str, out: &Output);
    /// The search is over (in `infinite` and `ponder` mode only after `stop` or `ponderhit`):
    /// `best` is a legal move of `game`'s current position, or None when it has none.
    fn finish(&self, game: &Game, best: Option<Move>, ponder: Option<Move>, out: &Output);
}

/// Stack of the search thread (deep recursion with copy-make positions).
const STACK_BYTES: usize = 64 << 20;

/// One search request.
pub struct Job {
    /// The game (position and history) to search.
    pub game: Game,
    /// Limits of the search.
    pub limits: Limits,
    /// What the search thread prints.
    pub printer: Arc<dyn Printer>,
}

/// Owns the searcher and the thread searching with it.
pub struct SearchWorker {
    searcher: Arc<Mutex<Searcher>>,
    control: Arc<SearchControl>,
    handle: Option<JoinHandle<()>>,
    out: Output,
}

impl SearchWorker {
    /// A worker printing to `out`.
    pub fn new(searcher: Searcher, out: Output) -> SearchWorker {
        SearchWorker {
            searcher: Arc::new(Mutex::new(searcher)),
            control: Arc::new(SearchControl::new()),
            handle: None,
            out,
        }
    }

    /// Starts a search (stopping a running one first; its `bestmove` is printed before).
    pub fn start(&mut self, job: Job) {
        self.stop();
        self.control.reset(job.limits.ponder);
        let searcher = Arc::clone(&self.searcher);
        let control = Arc::clone(&self.control);
        let out = self.out.clone();
        let (printer, pos) = (Arc::clone(&job.printer), *job.game.position());
        let spawned = thread::Builder::new()
            .name("search".into())
            .stack_size(STACK_BYTES)
            .spawn(move || run(job, &searcher, &control, &out));
        match spawned {
            Ok(handle) => self.handle = Some(handle),
            Err(e) => {
                printer.error(&format!("go: cannot start the search thread: {e}"), &self.out);
                printer.finish(&Game::new(pos), None, None, &self.out);
            }
        }
    }

    /// Stops the search, if any, and waits until its `bestmove` is printed.
    pub fn stop(&mut self) {
        if self.handle.is_some() {
            self.control.stop();
        }
        self.wait();
    }

    /// Switches a pondering search to normal thinking (`ponderhit`).
    pub fn ponderhit(&self) {
        self.control.ponderhit();
    }

    /// True while a search thread is running (it may be about to print its move).
    pub fn is_running(&self) -> bool {
        self.handle.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// Waits for the running search to end on its own.
    pub fn wait(&mut self) {
        if let Some(handle) = self.handle.take() {
            if handle.join().is_err() {
                log::error!("the search thread panicked");
            }
        }
    }

    /// The searcher, after stopping any search (for option changes and `ucinewgame`).
    pub fn searcher(&mut self) -> MutexGuard<'_, Searcher> {
        self.stop();
        lock(&self.searcher)
    }
}

fn lock(searcher: &Mutex<Searcher>) -> MutexGuard<'_, Searcher> {
    searcher.lock().unwrap_or_else(|e| e.into_inner())
}

/// The body of the search thread.
fn run(job: Job, searcher: &Mutex<Searcher>, control: &SearchControl, out: &Output) {
    let pos = *job.game.position();
    let legal = pos.legal_moves();
    let mut best = None;
    let mut ponder = None;
    let printer = Arc::clone(&job.printer);
    if legal.is_empty() {
        printer.no_legal_move(&pos, out);
    } else {
        let mut searcher = lock(searcher);
        let mut report = |r: Report| printer.report(&pos, r, out);
        let searched = panic::catch_unwind(AssertUnwindSafe(|| {
            searcher.search(&job.game, &job.limits, control, &mut report)
        }));
        match searched {
            Ok(result) => {
                best = result.best;
                ponder = result.ponder;
            }
            Err(e) => {
                let what = panic_text(e.as_ref());
                printer.error(&format!("the search failed ({what}); clearing the hash table"), out);
                searcher.clear();
            }
        }
        if !best.is_some_and(|m| legal.contains(&m)) {
            let fallback = job.limits.search_moves.first().copied().unwrap_or(legal[0]);
            if let Some(m) = best {
                printer.error(&format!("the search returned an illegal move {m:?}"), out);
            }
            log::warn!(
                "no usable best move from the search; playing {}",
                pos.move_to_uci(fallback)
            );
            best = Some(fallback);
            ponder = None;
        }
    }
    // In `infinite` and `ponder` mode the GUI expects no `bestmove` before `stop` (or
    // `ponderhit`), even when the search has nothing left to do.
    while !control.is_stopped() && (job.limits.infinite || control.is_pondering()) {
        thread::sleep(Duration::from_millis(1));
    }
    printer.finish(&job.game, best, ponder, out);
}
