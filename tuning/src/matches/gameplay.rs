//! Playing one game between two engine processes under the arbiter's eye: clocks measured by
//! the runner, every move checked before it is relayed, engines that crash or hang replaced.

use crate::matches::adjudication::{Adjudication, Adjudicator};
use crate::matches::openings::Opening;
use crate::matches::results::Termination;
use std::time::{Duration, Instant};
use vorpal_client::arbiter::{bare_king, color_name, end_text, loss_text, Arbiter};
use vorpal_client::engine_process::{EngineConfig, EngineError, EngineProcess};
use vorpal_client::timecontrol::{go_command, SideClock};
use vorpal_engine::{Color, GameResult, Move, Position, Rules};

/// Settings shared by every game of a match.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// The rules the games are refereed under; engines get them through `UCI_Variant`,
    /// `UCI_Chess960` and `AliceEnPassant` when they list those options.
    pub rules: Rules,
    /// Time an engine may overrun its clock or movetime before it loses on time.
    pub margin: Duration,
    /// Longest wait for a move when no clock or movetime limits it (nodes, depth).
    pub move_timeout: Duration,
    /// Longest wait for `uciok`/`readyok`.
    pub startup_timeout: Duration,
    /// How long an engine gets to answer `stop` after overrunning its time.
    pub stop_grace: Duration,
    /// Score and length adjudication.
    pub adjudication: Adjudication,
}

impl Default for GameSettings {
    fn default() -> Self {
        GameSettings {
            rules: Rules::default(),
            margin: Duration::from_millis(100),
            move_timeout: Duration::from_secs(60),
            startup_timeout: Duration::from_secs(10),
            stop_grace: Duration::from_secs(1),
            adjudication: Adjudication::default(),
        }
    }
}

/// An engine's configuration and its current process (started on first use, replaced after
/// a crash or hang).
pub struct EngineSlot {
    /// How to start it.
    pub config: EngineConfig,
    /// The running process, if any.
    pub process: Option<EngineProcess>,
    /// Processes started so far.
    pub starts: u32,
    /// Consecutive failed starts.
    pub failed_starts: u32,
}

impl EngineSlot {
    /// A slot with no process yet.
    pub fn new(config: EngineConfig) -> EngineSlot {
        EngineSlot {
            config,
            process: None,
            starts: 0,
            failed_starts: 0,
        }
    }

    /// Starts the process if needed and begins a new game on it. A process that died since its
    /// last game gets one fresh start before the game is given up.
    fn prepare(&mut self, settings: &GameSettings) -> Result<(), EngineError> {
        if let Some(p) = self.process.as_mut() {
            match p.new_game(settings.startup_timeout) {
                Ok(()) => return Ok(()),
                Err(e) => {
                    log::warn!("{}: {e} before a new game; restarting it", self.config.name);
                    self.discard();
                }
            }
        }
        self.start_fresh(settings)
    }

    /// Starts a new process and begins a game on it.
    fn start_fresh(&mut self, settings: &GameSettings) -> Result<(), EngineError> {
        let mut p = match EngineProcess::start(&self.config, settings.rules, settings.startup_timeout) {
            Ok(p) => p,
            Err(e) => {
                self.failed_starts += 1;
                return Err(e);
            }
        };
        self.starts += 1;
        self.failed_starts = 0;
        let r = p.new_game(settings.startup_timeout);
        self.process = Some(p);
        if r.is_err() {
            self.discard();
        }
        r
    }

    /// Kills the process; the next game starts a new one.
    pub fn discard(&mut self) {
        if let Some(p) = self.process.take() {
            p.kill();
        }
    }
}

/// One move of a played game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The move.
    pub mv: Move,
    /// SAN with the landing-board suffix.
    pub san: String,
    /// Comment (`+0.35/12 1.234s`), `None` for book moves.
    pub comment: Option<String>,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// Start position (of the opening).
    pub start: Position,
    /// Book moves followed by the engines' moves.
    pub moves: Vec<PlayedMove>,
    /// Number of book moves at the front of `moves`.
    pub book_plies: usize,
    /// Result.
    pub result: GameResult,
    /// How it ended.
    pub termination: Termination,
    /// Explanation.
    pub reason: String,
}

/// Time in a PGN comment: seconds with three decimals.
fn seconds(d: Duration) -> String {
    format!("{:.3}s", d.as_secs_f64())
}

/// Plays a game of `white` against `black` from `opening`.
pub fn play_game(
    white: &mut EngineSlot,
    black: &mut EngineSlot,
    opening: &Opening,
    settings: &GameSettings,
) -> PlayedGame {
    let mut arbiter = Arbiter::new(opening.start);
    let mut moves = Vec::new();
    for &mv in &opening.moves {
        moves.push(PlayedMove {
            mv,
            san: arbiter.position().move_to_san(mv),
            comment: None,
        });
        arbiter.play(mv);
    }
    let book_plies = moves.len();
    let finish = |moves: Vec<PlayedMove>, result, termination, reason: String| PlayedGame {
        start: opening.start,
        moves,
        book_plies,
        result,
        termination,
        reason,
    };
    for (color, slot) in [(Color::White, &mut *white), (Color::Black, &mut *black)] {
        if let Err(e) = slot.prepare(settings) {
            log::warn!("{}: {e}", slot.config.name);
            let (result, reason) = loss_text(color, &format!("engine failed to start a game ({e})"));
            return finish(moves, result, Termination::Crash, reason);
        }
    }
    let mut clocks = [SideClock::new(&white.config.tc), SideClock::new(&black.config.tc)];
    let mut adjudicator = Adjudicator::new(settings.adjudication);
    loop {
        if let Some((result, reason)) = arbiter.outcome() {
            let text = end_text(arbiter.position(), result, reason);
            return finish(moves, result, Termination::Normal, text);
        }
        let color = arbiter.side_to_move();
        let slot = if color == Color::White {
            &mut *white
        } else {
            &mut *black
        };
        let tc = slot.config.tc;
        let clock = clocks[color.index()];
        let go = go_command(&tc, &clocks[0], &clocks[1], color == Color::White);
        let limit = if clock.is_timed() {
            Some(clock.remaining())
        } else {
            tc.movetime
        };
        let wait = limit.map_or(settings.move_timeout, |t| t + settings.margin);
        let process = slot.process.as_mut().expect("prepared");
        let reply = process.search(&arbiter.position_command(), &go, Instant::now() + wait);
        let reply = match reply {
            Ok(r) => r,
            Err(EngineError::Timeout(_)) if limit.is_some() => {
                // Out of time: the engine may still be alive; give it a chance to answer stop.
                let mut why = "loses on time".to_string();
                if let Err(e) = process.stop(settings.stop_grace) {
                    log::warn!("{}: did not answer stop ({e}); restarting it", slot.config.name);
                    why += " (did not answer stop; engine restarted)";
                    slot.discard();
                }
                let (result, reason) = time_loss(arbiter.position(), color, &why);
                return finish(moves, result, Termination::TimeForfeit, reason);
            }
            Err(e) => {
                let termination = match e {
                    EngineError::Timeout(_) => Termination::Stall,
                    _ => Termination::Crash,
                };
                log::warn!("{}: {e}; restarting it", slot.config.name);
                slot.discard();
                let what = if termination == Termination::Stall {
                    format!(
                        "stopped answering (no move in {:.1}s); engine restarted",
                        wait.as_secs_f64()
                    )
                } else {
                    format!("engine {e}")
                };
                let (result, reason) = loss_text(color, &what);
                return finish(moves, result, termination, reason);
            }
        };
        if !clocks[color.index()].charge(reply.elapsed, settings.margin)
            || tc.movetime.is_some_and(|t| reply.elapsed > t + settings.margin)
        {
            let why = format!("loses on time ({} used)", seconds(reply.elapsed));
            let (result, reason) = time_loss(arbiter.position(), color, &why);
            return finish(moves, result, Termination::TimeForfeit, reason);
        }
        let mv = match arbiter.check(&reply.bestmove) {
            Ok(mv) => mv,
            Err(illegal) => {
                log::warn!("{} ({}) {illegal}", slot.config.name, color_name(color));
                let (result, reason) = loss_text(color, &format!("makes an {illegal}"));
                return finish(moves, result, Termination::IllegalMove, reason);
            }
        };
        let mut comment = String::new();
        if let Some(s) = reply.score {
            comment = format!("{}/{} ", s.pgn(), reply.depth.unwrap_or(0));
        }
        comment += &seconds(reply.elapsed);
        moves.push(PlayedMove {
            mv,
            san: arbiter.position().move_to_san(mv),
            comment: Some(comment),
        });
        arbiter.play(mv);
        let score = reply.score.map(|s| s.centipawns());
        if arbiter.outcome().is_none() {
            if let Some((result, reason)) = adjudicator.record(color, score, arbiter.moves().len()) {
                return finish(moves, result, Termination::Adjudication, reason);
            }
        }
    }
}

/// A loss on time, or a draw when the opponent has only its king left.
fn time_loss(pos: &Position, loser: Color, why: &str) -> (GameResult, String) {
    if bare_king(pos, loser.flip()) {
        (
            GameResult::Draw,
            format!(
                "Draw: {} {why} but {} has a bare king",
                color_name(loser),
                color_name(loser.flip())
            ),
        )
    } else {
        loss_text(loser, why)
    }
}
