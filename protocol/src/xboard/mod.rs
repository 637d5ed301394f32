//! CECP (the XBoard/WinBoard engine protocol, version 2): `vorpal xboard`, or `xboard` typed
//! in the UCI loop. XBoard draws the Alice boards side by side as one wide board defined by the
//! engine (`setup`), sends moves in the wide notation (`e2m4`: e2 on A to e4 on B) and lets the
//! engine referee them; see `setup.rs` for the geometry and the move texts, `commands.rs` for
//! the commands, `printer.rs` for the search output, and docs/protocol.md for the dialogue.
//!
//! The engine state is the protocol-free [`EngineSession`] (settings, game, search worker); this
//! adapter adds what only CECP has: who plays which colour, the time control, the analyse
//! mode and the move the GUI is entering.

mod commands;
pub mod printer;
pub mod setup;

use crate::uci::input::MAX_LINE;
use crate::uci::serve::{Flow, Protocol};
use crate::uci::session::EngineSession;
use printer::{error, result_line, JobState, Mode, XboardPrinter};
use setup::Cell;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;
use vorpal_engine::search::{Clock, Limits};
use vorpal_engine::{Color, Move};

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

/// The CECP side of a session.
pub struct Xboard {
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
    /// A fresh CECP adapter: the engine playing Black.
    pub fn new() -> Xboard {
        Xboard {
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

    /// Plays the move a finished search printed (before any command is handled, so the
    /// engine's game always includes the moves the GUI has seen).
    fn collect(&mut self, session: &mut EngineSession) {
        let Some((Mode::Play, state)) = &self.job else { return };
        let Some(mv) = state.take_played() else { return };
        self.hint = state.hint();
        if session.play(mv) {
            if session.game().outcome().is_some() {
                self.game_over = true;
            }
        } else {
            log::error!("the search printed an illegal move {mv:?}");
        }
    }

    /// Stops a running search. With `discard` its move is neither printed nor played;
    /// otherwise it is printed (if not yet) and played.
    pub(crate) fn stop_search(&mut self, session: &mut EngineSession, discard: bool) {
        if let Some((_, state)) = &self.job {
            if discard {
                state.discard();
            }
        }
        session.stop();
        self.collect(session);
        self.job = None;
    }

    /// True while a search of the engine's own move runs.
    fn thinking(&self, session: &EngineSession) -> bool {
        matches!(self.job, Some((Mode::Play, _))) && session.is_searching()
    }

    /// Starts thinking about the engine's move if it is on move and the game goes on.
    fn maybe_think(&mut self, session: &mut EngineSession) {
        let side = session.position().side_to_move();
        if self.analyzing || self.game_over || self.bad_position || self.engine != Some(side) {
            return;
        }
        if let Some(outcome) = session.game().outcome() {
            session.out().line(&result_line(outcome));
            self.game_over = true;
            return;
        }
        let fullmove = session.position().fullmove_number();
        let limits = self.tc.limits(side, fullmove);
        self.start(session, Mode::Play, limits);
    }

    /// (Re)starts the analysis of the current position, in analyse mode.
    fn analyse(&mut self, session: &mut EngineSession) {
        if !self.analyzing || self.bad_position {
            return;
        }
        self.stop_search(session, true);
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        self.start(session, Mode::Analyze, limits);
    }

    fn start(&mut self, session: &mut EngineSession, mode: Mode, limits: Limits) {
        self.stop_search(session, true);
        let state = Arc::new(JobState::new());
        let printer = XboardPrinter {
            mode,
            post: Arc::clone(&self.post),
            state: Arc::clone(&state),
        };
        session.start_search(limits, Arc::new(printer));
        self.job = Some((mode, state));
    }
}

impl Default for Xboard {
    fn default() -> Self {
        Xboard::new()
    }
}

impl Protocol for Xboard {
    fn handle_line(&mut self, session: &mut EngineSession, line: &str) -> Flow {
        self.collect(session);
        let words: Vec<&str> = line.split_whitespace().collect();
        self.dispatch(session, &words, line)
    }

    fn line_too_long(&mut self, session: &mut EngineSession, bytes: usize) {
        session.out().line(&format!(
            "Error (line of {bytes} bytes is longer than {MAX_LINE}): ignored"
        ));
    }

    fn report_error(&self, session: &EngineSession, message: &str) {
        error(session, message);
    }

    fn end(&mut self, session: &mut EngineSession) {
        self.stop_search(session, true);
    }
}
