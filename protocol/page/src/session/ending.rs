//! The ends a player declares in play mode, as on lichess: abort (before both sides have
//! moved), resign (once the game has begun), and a draw offer that the engine answers by its
//! own evaluation of the game.

use super::clocks::Declared;
use super::PageSession;
use crate::lines::white_centipawns;
use crate::settings::Mode;
use vorpal_client::arbiter::color_name;
use vorpal_engine::{Color, GameResult};

/// The engine takes a draw when its evaluation for its own side is at most this (centipawns):
/// when it is not better.
pub const DRAW_ACCEPT_CP: i32 = 0;

/// What the player asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The game did not really begin: no result.
    Abort,
    /// The player gives the game up.
    Resign,
    /// The player offers a draw; the engine decides.
    OfferDraw,
}

impl PageSession {
    /// The person's side in a game against the engine that has not ended, and the end of its
    /// line; else why the ending cannot be asked for.
    fn running_game(&self) -> Result<(Color, usize), String> {
        let Mode::Play { human } = self.settings.mode else {
            return Err("abort, resign and draw offers are for a game against the engine".into());
        };
        let end = self.tree.line_end(self.cursor);
        if self.result_at(end).is_some() {
            return Err("the game is over".into());
        }
        Ok((human, end))
    }

    /// True when the game may still be aborted: fewer than two moves played.
    pub fn abortable(&self) -> bool {
        self.tree.node(self.tree.line_end(self.cursor)).ply < 2
    }

    /// Carries out `ending`; a declined draw offer is Ok with the engine's answer as the message.
    pub(crate) fn declare(&mut self, ending: Ending) -> Result<(), String> {
        let (human, end) = self.running_game()?;
        let (result, text) = match ending {
            Ending::Abort if !self.abortable() => {
                return Err("the game has begun: resign or offer a draw instead of aborting".into())
            }
            Ending::Abort => ("*".to_string(), "Game aborted".to_string()),
            Ending::Resign => (
                GameResult::win_for(human.flip()).pgn().to_string(),
                format!("{} resigns", color_name(human)),
            ),
            Ending::OfferDraw => match self.engine_view_cp(human.flip()) {
                Some(cp) if cp <= DRAW_ACCEPT_CP => (
                    "1/2-1/2".to_string(),
                    format!("Draw agreed ({} accepted)", self.engine[0].name),
                ),
                seen => {
                    self.message = Some(match seen {
                        Some(cp) => format!(
                            "{} declines the draw: it sees {:+.2} for itself",
                            self.engine[0].name,
                            f64::from(cp) / 100.0
                        ),
                        None => format!(
                            "{} declines the draw: it has not judged the game yet",
                            self.engine[0].name
                        ),
                    });
                    self.bump();
                    return Ok(());
                }
            },
        };
        self.stop_clocks();
        self.stop_search();
        self.declared = Some(Declared {
            node: end,
            result,
            text,
        });
        self.set_cursor(end);
        self.bump();
        Ok(())
    }

    /// The engine's latest evaluation for `side` (its own): its running search's first line,
    /// else its judgement before the last move.
    fn engine_view_cp(&self, side: Color) -> Option<i32> {
        let (searched, cp) = self.analysis_judgement().or(self.engine_judgement)?;
        Some(if searched == side { cp } else { -cp })
    }

    /// The first line's score of the analysis at hand, for the side to move of its position.
    pub(super) fn analysis_judgement(&self) -> Option<(Color, i32)> {
        let position = self.analysis.position?;
        let score = self.analysis.lines.get(&1)?.score?;
        let side = position.side_to_move();
        let white = white_centipawns(score, side);
        Some((side, if side == Color::White { white } else { -white }))
    }
}
