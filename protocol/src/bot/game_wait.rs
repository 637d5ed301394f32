//! The waits of a game: the bot's move not echoed (sent again only while the site's page lacks
//! it), a quiet stream, a first state that does not come, an abort without its end, the
//! opponent's clock run out. None of them ends a game: each makes the game thread ask the
//! site's page whether it still runs.

use super::game::GameRun;
use std::time::{Duration, Instant};
use vorpal_engine::Color;

/// A move not echoed within this long is sent again if the site's page does not have it.
const RESEND_AFTER: Duration = Duration::from_secs(3);
/// How long the game's stream may take to deliver its first `gameFull` before the site is asked.
const FIRST_STATE_WAIT: Duration = Duration::from_secs(60);
/// How long the end may take to come after an abort before the site is asked.
const ABORT_ECHO_WAIT: Duration = Duration::from_secs(15);
/// Slack beyond the opponent's clock before the site is asked.
const OPPONENT_SLACK: Duration = Duration::from_secs(10);
/// A stream silent this long (the site pings every 6 s) makes the bot ask the site.
const QUIET_WAIT: Duration = Duration::from_secs(30);

impl GameRun {
    /// Checks the waits (resending an unechoed move); `Some(why)` when the site should be
    /// asked whether the game still runs. Nothing here ends a game: only the site does.
    pub(super) fn worry(&mut self, started: Instant) -> Option<String> {
        if let Some((_, at)) = &self.aborted {
            return (at.elapsed() > ABORT_ECHO_WAIT).then(|| "no end came after the abort".to_string());
        }
        if self.last_heard.elapsed() > QUIET_WAIT {
            return Some(format!(
                "nothing from its stream for {} s",
                self.last_heard.elapsed().as_secs()
            ));
        }
        if self.full.is_none() {
            return (started.elapsed() > FIRST_STATE_WAIT).then(|| "its stream sent no game yet".to_string());
        }
        if self.sent.is_some() {
            return self.resend_if_lost();
        }
        let (state, at) = self.state.as_ref()?;
        let opponent_ms = match self.me {
            Color::White => state.btime,
            Color::Black => state.wtime,
        };
        let limit = Duration::from_millis(opponent_ms.max(0.0) as u64) + OPPONENT_SLACK;
        (at.elapsed() > limit).then(|| "the opponent's clock has run out".to_string())
    }

    /// The bot's move not echoed for [`RESEND_AFTER`]: sent again only when the site's page
    /// shows the game still waiting for it. A move the site already has must never go again:
    /// once the opponent has answered, it would be an invalid move, which loses the game.
    /// `Some(why)` when the site's page says the game is over or gone.
    pub(super) fn resend_if_lost(&mut self) -> Option<String> {
        let sent = self.sent.as_ref()?;
        if sent.delivered || sent.at.elapsed() < RESEND_AFTER {
            return None;
        }
        let (ply, text) = (sent.ply, sent.text.clone());
        match self.shared.site.page(&self.id) {
            Ok(Some(record)) if record.ended() => {
                self.last_check = None;
                return Some(format!("{text} was not echoed"));
            }
            Ok(Some(record)) if record.moves.len() > ply => {
                log::info!(
                    "game {}: the site has {text} (its page shows it); waiting for the stream",
                    self.id
                );
                if let Some(sent) = self.sent.as_mut() {
                    sent.delivered = true;
                }
            }
            Ok(Some(record)) if record.moves.len() == ply => {
                log::info!(
                    "game {}: {text} not echoed and not on the site's page; sending it again",
                    self.id
                );
                self.send();
            }
            Ok(Some(_)) => {}
            Ok(None) => {
                self.last_check = None;
                return Some("the site has no such game any more".into());
            }
            Err(e) => {
                log::warn!(
                    "game {}: {text} not echoed; the site's page cannot be read ({e}); not resending yet",
                    self.id
                );
                if let Some(sent) = self.sent.as_mut() {
                    sent.at = Instant::now();
                }
            }
        }
        None
    }
}
