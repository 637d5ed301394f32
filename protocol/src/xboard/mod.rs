//! CECP (the XBoard/WinBoard engine protocol, version 2): `vorpal xboard`, or `xboard` typed
//! in the UCI loop. XBoard draws the Alice boards side by side as one wide board defined by the
//! engine (`setup`), sends moves in the wide notation (`e2m4`: e2 on A to e4 on B) and lets the
//! engine referee them; see `setup.rs` for the geometry and the move texts, `commands.rs` for
//! the commands, `printer.rs` for the search output, and docs/protocol.md for the dialogue.
//!
//! The engine state is the UCI side's [`Uci`] (settings, game, search worker): options,
//! threads, hash and the search thread are shared code; this module adds who plays which
//! colour, the time control and the analyse mode.

mod commands;
pub mod printer;
pub mod setup;

use crate::input::{read_line, Line, MAX_LINE};
use crate::output::{one_line, Output};
use crate::uci::{panic_text, Flow, Uci};
use crate::worker::Job;
use printer::{result_line, JobState, Mode, XboardPrinter};
use setup::Cell;
use std::io::BufRead;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;
use vorpal_engine::search::{Clock, Limits};
use vorpal_engine::{Color, Move};

/// Runs CECP on stdin/stdout until `quit` or the end of input (`vorpal xboard`).
pub fn run_stdin() {
    let uci = Uci::new(Output::stdout());
    serve(&mut std::io::stdin().lock(), uci);
}

/// Serves CECP on `input` with the engine state `uci` (fresh, or handed over by the UCI loop
/// after `xboard`).
pub fn serve(input: &mut dyn BufRead, uci: Uci) {
    let out = uci.out.clone();
    out.set_cecp(true);
    let mut xboard = Xboard::new(uci);
    loop {
        match read_line(input) {
            Ok(Some(Line::Text(line))) => {
                // A bug must not end the game (where panics unwind: debug and test builds).
                match panic::catch_unwind(AssertUnwindSafe(|| xboard.handle_line(&line))) {
                    Ok(Flow::Quit) => break,
                    Ok(_) => {}
                    Err(e) => out.error(&format!(
                        "internal error while handling '{}': {}; the engine keeps serving",
                        one_line(&line),
                        panic_text(e.as_ref())
                    )),
                }
            }
            Ok(Some(Line::TooLong(n))) => {
                out.line(&format!("Error (line of {n} bytes is longer than {MAX_LINE}): ignored"))
            }
            Ok(None) => break,
            Err(e) => {
                log::error!("reading input failed: {e}; quitting");
                break;
            }
        }
    }
    xboard.stop_search(true);
}

/// The clock settings of `level`, `st`, `sd`, `time` and `otim`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period (`level MPS ...`; 0 = the whole game).
    pub moves_per_period: u32,
    /// Time per period.
    pub base: Duration,
    /// Increment per move.
    pub inc: Duration,
    /// Fixed time per move (`st`).
    pub per_move: Option<Duration>,
    /// Depth limit (`sd`).
    pub depth: Option<u32>,
    /// The engine's clock (`time`).
    pub own: Option<Duration>,
    /// The opponent's clock (`otim`).
    pub opponent: Option<Duration>,
}

/// Thinking time when the GUI gave no time control at all.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(5);

impl TimeControl {
    /// Search limits for the engine playing `engine` in a position with `fullmove` number.
    pub fn limits(&self, engine: Color, fullmove: u16) -> Limits {
        let mut limits = Limits {
            depth: self.depth,
            ..Limits::default()
        };
        if let Some(t) = self.per_move {
            limits.movetime = Some(t);
        } else if self.own.is_some() || !self.base.is_zero() || !self.inc.is_zero() {
            let own = self.own.unwrap_or(self.base);
            let mut clock = Clock::default();
            clock.time[engine.index()] = Some(own);
            clock.time[engine.flip().index()] = Some(self.opponent.unwrap_or(own));
            clock.inc = [self.inc; 2];
            if self.moves_per_period > 0 {
                let done = (u32::from(fullmove.max(1)) - 1) % self.moves_per_period;
                clock.moves_to_go = Some(self.moves_per_period - done);
            }
            limits.clock = Some(clock);
        } else if self.depth.is_none() {
            limits.movetime = Some(DEFAULT_MOVE_TIME);
        }
        limits
    }
}

/// The engine as CECP sees it.
pub struct Xboard {
    pub(crate) uci: Uci,
    /// The colour the engine plays; None in force mode.
    engine: Option<Color>,
    analyzing: bool,
    /// After a `result` or the end of the game: the engine does not think until a new position.
    game_over: bool,
    /// A `setboard` position was refused: every move is illegal until the next position.
    bad_position: bool,
    post: Arc<AtomicBool>,
    tc: TimeControl,
    job: Option<(Mode, Arc<JobState>)>,
    hint: Option<Move>,
    /// The cell of the piece the user picked up (`lift`), and the first leg's cell (`put` on
    /// a cyan cell).
    lifted: Option<Cell>,
    via: Option<Cell>,
}

impl Xboard {
    /// CECP on top of the engine state `uci`: a new game, the engine playing Black.
    pub fn new(uci: Uci) -> Xboard {
        Xboard {
            uci,
            engine: Some(Color::Black),
            analyzing: false,
            game_over: false,
            bad_position: false,
            post: Arc::new(AtomicBool::new(false)),
            tc: TimeControl::default(),
            job: None,
            hint: None,
            lifted: None,
            via: None,
        }
    }

    fn out(&self) -> &Output {
        &self.uci.out
    }

    /// Plays the move a finished search printed (before any command is handled, so the
    /// engine's game always includes the moves the GUI has seen).
    fn collect(&mut self) {
        let Some((Mode::Play, state)) = &self.job else { return };
        let Some(mv) = state.take_played() else { return };
        self.hint = state.hint();
        if self.uci.game.play(mv) {
            if self.uci.game.outcome().is_some() {
                self.game_over = true;
            }
        } else {
            log::error!("the search printed an illegal move {mv:?}");
        }
    }

    /// Stops a running search. With `discard` its move is neither printed nor played;
    /// otherwise it is printed (if not yet) and played.
    pub(crate) fn stop_search(&mut self, discard: bool) {
        if let Some((_, state)) = &self.job {
            if discard {
                state.discard();
            }
        }
        self.uci.worker.stop();
        self.collect();
        self.job = None;
    }

    /// True while a search of the engine's own move runs.
    fn thinking(&self) -> bool {
        matches!(self.job, Some((Mode::Play, _))) && self.uci.worker.is_running()
    }

    /// Starts thinking about the engine's move if it is on move and the game goes on.
    fn maybe_think(&mut self) {
        let side = self.uci.game.position().side_to_move();
        if self.analyzing || self.game_over || self.bad_position || self.engine != Some(side) {
            return;
        }
        if let Some(outcome) = self.uci.game.outcome() {
            self.out().line(&result_line(outcome));
            self.game_over = true;
            return;
        }
        let fullmove = self.uci.game.position().fullmove_number();
        let limits = self.tc.limits(side, fullmove);
        self.start(Mode::Play, limits);
    }

    /// (Re)starts the analysis of the current position, in analyse mode.
    fn analyse(&mut self) {
        if !self.analyzing || self.bad_position {
            return;
        }
        self.stop_search(true);
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        self.start(Mode::Analyze, limits);
    }

    fn start(&mut self, mode: Mode, limits: Limits) {
        self.stop_search(true);
        let state = Arc::new(JobState::new());
        let printer = XboardPrinter {
            mode,
            post: Arc::clone(&self.post),
            state: Arc::clone(&state),
        };
        self.uci.worker.start(Job {
            game: self.uci.game.clone(),
            limits,
            printer: Arc::new(printer),
        });
        self.job = Some((mode, state));
    }

    /// Handles one input line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        self.uci.out.log_input(line);
        log::debug!("input: {line}");
        self.collect();
        let words: Vec<&str> = line.split_whitespace().collect();
        self.dispatch(&words, line)
    }
}
