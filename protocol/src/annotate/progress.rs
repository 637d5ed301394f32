//! The progress line of `vorpal annotate` on stderr: the game, the position being searched and
//! an estimate of the time left (from the time per position so far).

use crate::uci::output::StdStream;
use std::cell::Cell;
use std::io::Write;
use std::time::Instant;

/// The progress line (drawn only when enabled).
pub struct Progress {
    enabled: bool,
    started: Cell<Option<Instant>>,
    games: Cell<usize>,
    /// Positions of every game together, and those done before the current game.
    total: Cell<usize>,
    done_before: Cell<usize>,
    /// Positions of the current game done (to carry over to the next game).
    done_in_game: Cell<usize>,
    shown: Cell<bool>,
}

impl Progress {
    /// A progress line, drawn when `enabled`.
    pub fn new(enabled: bool) -> Progress {
        Progress {
            enabled,
            started: Cell::new(None),
            games: Cell::new(0),
            total: Cell::new(0),
            done_before: Cell::new(0),
            done_in_game: Cell::new(0),
            shown: Cell::new(false),
        }
    }

    /// The review of `games` games with `positions` positions in all starts.
    pub fn start(&self, games: usize, positions: usize) {
        self.started.set(Some(Instant::now()));
        self.games.set(games);
        self.total.set(positions);
    }

    /// Game `game` has `done` of its `total` positions searched.
    pub fn position(&self, game: usize, done: usize, total: usize) {
        if done == 0 {
            self.done_before.set(self.done_before.get() + self.done_in_game.get());
        }
        self.done_in_game.set(done);
        if !self.enabled || done == total {
            return;
        }
        let all_done = self.done_before.get() + done;
        let elapsed = self.started.get().map_or(0.0, |t| t.elapsed().as_secs_f64());
        let left = match all_done {
            0 => "time left unknown".to_string(),
            n => {
                let secs = elapsed / n as f64 * (self.total.get() - n) as f64;
                format!("about {} s left", secs.round() as u64)
            }
        };
        // Positions are searched from the last: the ply shown counts down.
        let ply = total - 1 - done;
        let mut err = StdStream(std::io::stderr().lock());
        let _ = write!(
            err,
            "\r\x1b[Kgame {game}/{}, ply {ply}/{}, {left}",
            self.games.get(),
            total - 1
        );
        let _ = err.flush();
        self.shown.set(true);
    }

    /// Erases the line.
    pub fn clear(&self) {
        if self.shown.replace(false) {
            let mut err = StdStream(std::io::stderr().lock());
            let _ = write!(err, "\r\x1b[K");
            let _ = err.flush();
        }
    }
}
