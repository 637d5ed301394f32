//! Pondering (`ponder = true`, `--ponder`): while the opponent thinks, the game's engine
//! searches the position after the reply it expects (the second move of its last line) on a
//! thread of its own, as a UCI engine does between `go ponder` and `ponderhit`. The search is
//! given the bot's usual limits for that position but runs without a time limit while it
//! ponders. When the opponent plays the expected move (a hit) the time limits apply at once,
//! counted from the start of the pondering: the reply comes sooner, from a deeper search, and
//! never later than a fresh search would end. Any other move (a miss) stops it, and the bot
//! searches the real position afresh.

use super::engine::{Choice, Player};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use vorpal_engine::search::{Limits, SearchControl};
use vorpal_engine::{Game, Move};

/// A search on the expected position, running while the opponent thinks.
struct Ponder {
    /// The game after the expected reply.
    game: Game,
    /// The expected reply, as UCI text.
    expected: String,
    started: Instant,
    control: Arc<SearchControl>,
    handle: JoinHandle<(Box<dyn Player>, Result<Choice, String>)>,
}

/// How a pondering search ended when the bot's turn came.
pub(super) enum Pondered {
    /// There was none.
    Nothing,
    /// The opponent played the expected move: the search's choice, and how long it pondered
    /// before the hit.
    Hit {
        /// The move the search chose.
        choice: Result<Choice, String>,
        /// The time from the start of the pondering to the opponent's move.
        pondered: Duration,
    },
    /// The opponent played another move.
    Miss {
        /// The reply the search had expected (UCI text).
        expected: String,
        /// How long it pondered.
        pondered: Duration,
    },
}

/// The game's engine: not made yet, idle, or pondering (then held by its search thread).
#[derive(Default)]
pub(super) struct EngineSlot {
    idle: Option<Box<dyn Player>>,
    ponder: Option<Ponder>,
}

impl EngineSlot {
    /// The engine for a move in `game`: a pondering search ended first (a hit when it searched
    /// this very position, its time limits applied from now on; otherwise stopped). `None`
    /// when no engine was made yet (or a pondering thread failed).
    pub(super) fn take(&mut self, game: &Game) -> (Option<Box<dyn Player>>, Pondered) {
        let Some(ponder) = self.ponder.take() else {
            return (self.idle.take(), Pondered::Nothing);
        };
        let pondered = ponder.started.elapsed();
        let hit = ponder.game.moves() == game.moves();
        if hit {
            ponder.control.ponderhit();
        } else {
            ponder.control.stop();
        }
        let Ok((player, choice)) = ponder.handle.join() else {
            log::error!("the pondering search failed; a new engine is made");
            return (None, Pondered::Nothing);
        };
        let pondered_on = if hit {
            Pondered::Hit { choice, pondered }
        } else {
            Pondered::Miss {
                expected: ponder.expected,
                pondered,
            }
        };
        (Some(player), pondered_on)
    }

    /// Keeps `player` idle.
    pub(super) fn put(&mut self, player: Box<dyn Player>) {
        self.idle = Some(player);
    }

    /// True while a search ponders on the game `game` continued by one move.
    pub(super) fn pondering_after(&self, game: &Game) -> bool {
        self.ponder.as_ref().is_some_and(|p| {
            p.game
                .moves()
                .split_last()
                .is_some_and(|(_, before)| before == game.moves())
        })
    }

    /// Starts pondering on `game` continued by `expected` under `limits` (made for the bot's
    /// move there), with the idle engine; `control` is the game's (a `gameEnd` or a shutdown
    /// stops it). False when there is no idle engine or the move is not legal.
    pub(super) fn ponder(
        &mut self,
        game: &Game,
        expected: Move,
        mut limits: Limits,
        control: &Arc<SearchControl>,
    ) -> bool {
        if self.ponder.is_some() || !game.position().is_legal(expected) {
            return false;
        }
        let Some(mut player) = self.idle.take() else {
            return false;
        };
        let mut next = game.clone();
        next.play(expected);
        limits.ponder = true;
        control.reset(true);
        let (searched, search_control) = (next.clone(), control.clone());
        let spawned = std::thread::Builder::new().name("bot-ponder".into()).spawn(move || {
            let choice = player.best_move(&searched, &limits, &search_control);
            (player, choice)
        });
        match spawned {
            Ok(handle) => {
                self.ponder = Some(Ponder {
                    game: next,
                    expected: game.position().move_to_uci(expected),
                    started: Instant::now(),
                    control: control.clone(),
                    handle,
                });
                true
            }
            Err(e) => {
                log::warn!("cannot start pondering: {e}");
                false
            }
        }
    }

    /// Stops a pondering search and waits for it (the game is over).
    pub(super) fn stop(&mut self) {
        if let Some(ponder) = self.ponder.take() {
            ponder.control.stop();
            let _ = ponder.handle.join();
        }
    }
}

impl Drop for EngineSlot {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::config::EngineConfig;
    use crate::bot::engine::EngineSpec;
    use crate::bot::replay::replay;
    use vorpal_engine::search::Clock;

    fn player() -> Box<dyn Player> {
        EngineSpec::load(&EngineConfig {
            hash: 1,
            ..EngineConfig::default()
        })
        .unwrap()
        .player()
        .unwrap()
    }

    /// 100 ms of clock a side: a fresh search would end within it.
    fn limits() -> Limits {
        Limits {
            clock: Some(Clock {
                time: [Some(Duration::from_millis(100)); 2],
                inc: [Duration::ZERO; 2],
                moves_to_go: None,
            }),
            ..Limits::default()
        }
    }

    #[test]
    fn a_hit_keeps_the_search_and_a_miss_stops_it() {
        let control = Arc::new(SearchControl::new());
        let mut slot = EngineSlot::default();
        let game = replay("", &["e2e4"]).unwrap();
        assert!(!slot.ponder(&game, game.position().parse_uci("e7e5").unwrap(), limits(), &control));
        slot.put(player());
        let expected = game.position().parse_uci("e7e5").unwrap();
        assert!(slot.ponder(&game, expected, limits(), &control));
        assert!(slot.pondering_after(&game));
        // Pondering: no time limit, so it runs far past its 100 ms of clock.
        std::thread::sleep(Duration::from_millis(400));
        assert!(control.is_pondering() && !control.is_stopped());
        let hit = replay("", &["e2e4", "e7e5"]).unwrap();
        let (engine, pondered) = slot.take(&hit);
        let Pondered::Hit { choice, pondered } = pondered else {
            panic!("a hit")
        };
        assert!(pondered >= Duration::from_millis(400));
        let choice = choice.unwrap();
        assert!(hit.position().is_legal(choice.best.unwrap()));
        assert!(choice.depth > 0);
        slot.put(engine.unwrap());
        assert!(slot.ponder(&game, expected, limits(), &control));
        let miss = replay("", &["e2e4", "d7d5"]).unwrap();
        let started = Instant::now();
        let (engine, pondered) = slot.take(&miss);
        assert!(engine.is_some() && started.elapsed() < Duration::from_secs(2));
        assert!(matches!(pondered, Pondered::Miss { expected: ref e, .. } if e == "e7e5"));
        assert!(control.is_stopped());
        slot.put(engine.unwrap());
        assert!(slot.ponder(&game, expected, limits(), &control));
        slot.stop();
        assert!(!slot.pondering_after(&game));
        let (engine, pondered) = slot.take(&miss);
        assert!(engine.is_none() && matches!(pondered, Pondered::Nothing));
    }
}
