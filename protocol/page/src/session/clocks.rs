//! The clocks of a timed game (play and watch modes with a clock limit) and the loss on time.

use super::PageSession;
use crate::settings::{Limit, Mode};
use vorpal_client::arbiter::{bare_king, color_name};
use vorpal_engine::clock::Instant;
use vorpal_engine::{Color, GameResult};

/// The clocks of a timed game.
#[derive(Clone, Debug)]
pub struct Clocks {
    /// Milliseconds left for White and Black.
    pub left_ms: [i64; 2],
    /// Added after each move.
    pub inc_ms: i64,
    /// When the side to move started thinking (None: the clocks are stopped).
    pub since: Option<Instant>,
    /// Whose clock runs (or ran last).
    pub turn: Color,
}

/// An end the rules do not see on the board: a loss on time (or a draw, against a bare
/// king), a resignation, a draw agreed, an abort. Where it happened and the result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Declared {
    /// The node where the game ended: the end of the line then played.
    pub(super) node: usize,
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` for an aborted game.
    pub(super) result: String,
    /// Why, in words (`White loses on time`).
    pub(super) text: String,
}

impl PageSession {
    /// Stops the running clock, charging the time since it started.
    pub(super) fn stop_clocks(&mut self) {
        if let Some(c) = self.clocks.as_mut() {
            if let Some(since) = c.since.take() {
                c.left_ms[c.turn.index()] -= since.elapsed().as_millis() as i64;
            }
        }
    }

    /// Milliseconds left for each side now.
    pub fn clock_now(&self) -> Option<[i64; 2]> {
        let c = self.clocks.as_ref()?;
        let mut left = c.left_ms;
        if let Some(since) = c.since {
            left[c.turn.index()] -= since.elapsed().as_millis() as i64;
        }
        Some(left)
    }

    /// Ends the game when the running clock has no time left: a loss on time, or a draw
    /// when the opponent has a bare king.
    pub(super) fn check_flag(&mut self) {
        if self.declared.is_some() || self.result.is_some() {
            return;
        }
        let Some(left) = self.clock_now() else { return };
        let Some(side) = self.clocks.as_ref().filter(|c| c.since.is_some()).map(|c| c.turn) else {
            return;
        };
        if left[side.index()] <= 0 {
            self.stop_clocks();
            let end = self.tree.line_end(self.cursor);
            let (result, text) = if bare_king(&self.tree.node(end).position, side.flip()) {
                (
                    "1/2-1/2".to_string(),
                    format!(
                        "{} lost on time, but the opponent has a bare king: draw",
                        color_name(side)
                    ),
                )
            } else {
                let r = GameResult::win_for(side.flip()).pgn().to_string();
                (r, format!("{} loses on time", color_name(side)))
            };
            self.declared = Some(Declared {
                node: end,
                result,
                text,
            });
            self.set_cursor(self.cursor);
            self.stop_search();
            self.bump();
        }
    }

    /// The clocks the mode and limit ask for, full and stopped.
    pub(super) fn reset_clocks(&mut self) {
        self.clocks = match (self.settings.mode, self.settings.limit) {
            (Mode::Play { .. } | Mode::Watch, Limit::Clock { base_ms, inc_ms }) => Some(Clocks {
                left_ms: [base_ms as i64; 2],
                inc_ms: inc_ms as i64,
                since: None,
                turn: self.shown().side_to_move(),
            }),
            _ => None,
        };
    }
}
