//! The end of one game: the site's own record read from its public page (the result, why, and
//! every move, including a last move the stream never sent), the goodbye (not after an abort
//! before both sides moved), and the game appended to the PGN file once. Only where the site
//! gives nothing (its page cannot be read, or it has deleted the game) does the bot work the
//! result out itself ([`super::ending`]), and the PGN says so.

use super::ending::{conclude, EndFacts, Ending};
use super::game::GameRun;
use super::record::Finished;
use super::replay::replay;
use super::site_page::{SiteGame, ABORTED};
use std::time::Duration;
use vorpal_engine::Game;

/// Reads of the page after a `gameEnd` before the bot settles for its own reading.
const FINAL_READS: u32 = 4;
/// The wait before the second read (then twice, three times as long).
const FINAL_WAIT: Duration = Duration::from_millis(if cfg!(test) { 5 } else { 500 });

impl GameRun {
    /// The site's record after the end: read until it says the game is over.
    fn final_record(&mut self) -> Option<SiteGame> {
        if let Some(record) = self.site_record.take() {
            return record;
        }
        for attempt in 0..FINAL_READS {
            if attempt > 0 {
                std::thread::sleep(FINAL_WAIT * attempt);
            }
            match self.shared.site.page(&self.id) {
                Ok(Some(record)) if record.ended() => return Some(record),
                Ok(Some(_)) => log::info!("game {}: the site's page does not show the end yet", self.id),
                Ok(None) => return None,
                Err(e) => log::warn!("game {}: the site's page cannot be read: {e}", self.id),
            }
        }
        None
    }

    /// The bot's own reading of the end (the site gave nothing), marked so.
    fn own_ending(&mut self, ended: bool) -> (Ending, Option<Game>) {
        let mut game = self.game.clone();
        // The bot's last move, sent but not echoed: the site sends no state after a move that
        // ends the game on the board, so it counts as played only when it does (a move that
        // came too late is not in the game).
        if let (true, Some(g), Some(sent)) = (ended, game.as_mut(), self.sent.as_ref()) {
            if g.moves().len() == sent.ply && g.position().after(sent.mv).count_legal() == 0 {
                g.play(sent.mv);
            }
        }
        let clocks = self
            .state
            .as_ref()
            .map(|(s, at)| ([s.wtime, s.btime], at.elapsed().as_millis()));
        let mut ending = conclude(&EndFacts {
            game: game.as_ref(),
            me: self.me,
            pending: None,
            clocks_ms: if ended { clocks } else { None },
            aborted: self.aborted.as_ref().map(|(why, _)| why.as_str()),
            gave_up: self.gave_up.as_deref(),
        });
        ending.reason += " (the bot's own reading: the site gave no result)";
        (ending, game)
    }

    /// Works out the end, says goodbye, appends the game to the PGN file.
    pub(super) fn finish(&mut self, ended: bool) {
        self.engine.stop();
        if self.shared.engine.ponders() {
            let (hits, misses) = self.ponder_hits;
            log::info!("game {}: pondering: {hits} hits, {misses} misses", self.id);
        }
        let record = self.final_record();
        let fen = match (&self.full, &record) {
            (Some(f), _) => f.initial_fen.clone(),
            (None, Some(r)) => r.initial_fen.clone(),
            (None, None) => String::new(),
        };
        let (ending, game) = match &record {
            Some(site) => {
                let moves: Vec<&str> = site.moves.iter().map(String::as_str).collect();
                let game = match replay(&fen, &moves) {
                    Ok(game) => Some(game),
                    Err(e) => {
                        log::warn!(
                            "game {}: the site's moves do not replay ({e}); the stream's kept",
                            self.id
                        );
                        self.game.clone()
                    }
                };
                let ending = Ending {
                    result: site.pgn_result(),
                    reason: site.termination(),
                };
                (ending, game)
            }
            None => self.own_ending(ended),
        };
        log::info!("game {}: over: {} ({})", self.id, ending.result, ending.reason);
        let plies = game.as_ref().map_or(0, |g| g.moves().len());
        let site_aborted = record.as_ref().is_some_and(|r| r.status == ABORTED);
        if ended && plies >= 2 && !site_aborted && self.aborted.is_none() && !self.shared.chat.goodbye.is_empty() {
            self.chat(&self.shared.chat.goodbye.clone());
        }
        let (white, black) = match (&self.full, &record) {
            (Some(f), _) => (f.white.name.clone(), f.black.name.clone()),
            (None, Some(r)) => (r.white.clone(), r.black.clone()),
            (None, None) => ("?".into(), "?".into()),
        };
        let finished = Finished {
            server: &self.shared.server,
            id: &self.id,
            white: &white,
            black: &black,
            initial_fen: &fen,
            time_control: self.time_control.clone(),
            game: game.as_ref(),
            ending: &ending,
        };
        match self.shared.recorder.append(&finished) {
            Ok(true) => log::info!("game {}: recorded", self.id),
            Ok(false) => log::info!("game {}: already in the PGN file; not recorded again", self.id),
            Err(e) => log::error!("game {}: {e}", self.id),
        }
    }
}
