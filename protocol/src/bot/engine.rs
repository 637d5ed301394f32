//! The engine that plays the bot's games: Vorpal's own search in the process (threads, hash,
//! endgame tables and network as configured; each game has its own table), or any UCI engine
//! started through the shared client, as `vorpal gui --engine` starts one.

use super::config::EngineConfig;
use super::replay::alice_rules;
use std::sync::Arc;
use std::time::{Duration, Instant};
use vorpal_client::engine_process::{EngineConfig as UciConfig, EngineProcess};
use vorpal_client::engine_settings::{engine_settings, resolve_cmd};
use vorpal_engine::nnue::Network;
use vorpal_engine::search::{Limits, SearchControl, SearchOptions, Searcher, ELO_RANGE};
use vorpal_engine::tablebase::Tablebases;
use vorpal_engine::{Evaluator, Game, Move};
use vorpal_uci_text::options::available_memory_mb;

/// What a search chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice {
    /// The move to play (`None`: no legal move).
    pub best: Option<Move>,
    /// The reply the engine expects (the second move of its line), to ponder on.
    pub ponder: Option<Move>,
    /// The depth it reached (0: not known).
    pub depth: u32,
}

/// Something that finds moves (one per game: a fresh table, or a fresh engine process).
pub trait Player: Send {
    /// The move to play in `game`'s position under `limits`; `stop` ends the search early,
    /// and with `limits.ponder` no time limit applies before its `ponderhit`.
    fn best_move(&mut self, game: &Game, limits: &Limits, stop: &SearchControl) -> Result<Choice, String>;
}

/// The `Skill Level` (0..=20) of each level 1..=8; level 8 is full strength.
pub const LEVEL_SKILL: [u32; 8] = [0, 3, 6, 9, 12, 15, 18, 20];

/// What every game's player is made from, loaded once.
pub struct EngineSpec {
    options: SearchOptions,
    level: u8,
    ponder: bool,
    tablebases: Option<Arc<Tablebases>>,
    network: Option<Arc<Network>>,
    external: Option<UciConfig>,
}

impl EngineSpec {
    /// Checks the settings and loads the tables and the network.
    pub fn load(cfg: &EngineConfig) -> Result<EngineSpec, String> {
        if !(1..=8).contains(&cfg.level) {
            return Err(format!(
                "level {}: the levels are 1 (weakest) to 8 (full strength)",
                cfg.level
            ));
        }
        let (lo, hi) = ELO_RANGE;
        if cfg.elo != 0 && !(lo..=hi).contains(&cfg.elo) {
            return Err(format!("elo {}: from {lo} to {hi} (or 0: not limited)", cfg.elo));
        }
        if !cfg.command.is_empty() && (cfg.level != 8 || cfg.elo != 0) {
            return Err(
                "level and elo weaken the built-in engine; set an external engine's own options instead".into(),
            );
        }
        if !cfg.command.is_empty() && cfg.ponder {
            return Err("ponder works with the built-in engine only (not with an external engine)".into());
        }
        let options = SearchOptions {
            threads: cfg.threads,
            hash_mb: cfg.hash,
            skill_level: LEVEL_SKILL[usize::from(cfg.level - 1)],
            limit_elo: (cfg.elo != 0).then_some(cfg.elo),
            ..SearchOptions::default()
        };
        let tablebases = match cfg.tb.as_str() {
            "" => None,
            dir => Some(Arc::new(
                Tablebases::open(std::path::Path::new(dir)).map_err(|e| format!("tb {dir}: {e}"))?,
            )),
        };
        let network = match cfg.network.as_str() {
            "" => None,
            path => {
                let bytes = std::fs::read(path).map_err(|e| format!("network {path}: {e}"))?;
                Some(Arc::new(
                    Network::from_bytes(&bytes).map_err(|e| format!("network {path}: {e}"))?,
                ))
            }
        };
        let external = if cfg.command.is_empty() {
            None
        } else {
            let mut uci = UciConfig::default();
            engine_settings(&mut uci, &cfg.command).map_err(|e| format!("engine: {e}"))?;
            if uci.cmd.is_empty() {
                return Err("engine: the settings need cmd=PATH".into());
            }
            uci.cmd = resolve_cmd(&uci.cmd);
            if uci.name.is_empty() {
                uci.name = uci.cmd.clone();
            }
            Some(uci)
        };
        Ok(EngineSpec {
            options,
            level: cfg.level,
            ponder: cfg.ponder,
            tablebases,
            network,
            external,
        })
    }

    /// A player for one game.
    pub fn player(&self) -> Result<Box<dyn Player>, String> {
        if let Some(uci) = &self.external {
            let process = EngineProcess::start(uci, alice_rules(), Duration::from_secs(10))
                .map_err(|e| format!("engine {}: {e}", uci.name))?;
            return Ok(Box::new(UciPlayer { process }));
        }
        let mut searcher = crate::analyze::searcher(&self.options, available_memory_mb())?;
        if let Some(net) = &self.network {
            searcher.set_evaluator(Evaluator::with_network(
                searcher.evaluator().params.clone(),
                net.clone(),
            ));
        }
        searcher.set_tablebases(self.tablebases.clone());
        Ok(Box::new(LocalPlayer { searcher }))
    }

    /// True when the bot thinks on the opponent's time.
    pub fn ponders(&self) -> bool {
        self.ponder
    }

    /// The strength in words (the greeting, `--dry-run`).
    pub fn level_words(&self) -> String {
        match (&self.external, self.options.limit_elo) {
            (Some(uci), _) => format!("{} at its own settings", uci.name),
            (None, Some(elo)) => format!("Vorpal limited to about {elo} Elo"),
            (None, None) if self.level == 8 => "Vorpal at level 8 of 8, full strength".into(),
            (None, None) => format!("Vorpal at level {} of 8", self.level),
        }
    }

    /// One line for the log: which engine, with what.
    pub fn describe(&self) -> String {
        match &self.external {
            Some(uci) => format!("external UCI engine {}", uci.name),
            None => format!(
                "{}: Vorpal's search, {} thread(s), {} MB hash per game{}{}{}",
                self.level_words(),
                self.options.threads,
                self.options.hash_mb,
                if self.ponder { ", pondering" } else { "" },
                if self.tablebases.is_some() {
                    ", endgame tables"
                } else {
                    ""
                },
                if self.network.is_some() {
                    ", network from file"
                } else {
                    ""
                }
            ),
        }
    }
}

/// Vorpal's own search.
struct LocalPlayer {
    searcher: Searcher,
}

impl Player for LocalPlayer {
    fn best_move(&mut self, game: &Game, limits: &Limits, stop: &SearchControl) -> Result<Choice, String> {
        let result = self.searcher.search(game, limits, stop, &mut |_| {});
        Ok(Choice {
            best: result.best,
            ponder: result.ponder,
            depth: result.depth,
        })
    }
}

/// A UCI engine over pipes.
struct UciPlayer {
    process: EngineProcess,
}

impl Player for UciPlayer {
    fn best_move(&mut self, game: &Game, limits: &Limits, _stop: &SearchControl) -> Result<Choice, String> {
        let pos = *game.position();
        let none = Choice {
            best: None,
            ponder: None,
            depth: 0,
        };
        if pos.count_legal() == 0 {
            return Ok(none);
        }
        let (position, go) = uci_commands(game, limits);
        let budget = limits
            .clock
            .and_then(|c| c.time[pos.side_to_move().index()])
            .unwrap_or(Duration::from_secs(60));
        let deadline = Instant::now() + budget + Duration::from_secs(5);
        let reply = self
            .process
            .search(&position, &go, deadline)
            .map_err(|e| e.to_string())?;
        let best = pos
            .parse_uci(&reply.bestmove)
            .map_err(|e| format!("the engine's bestmove '{}': {e}", reply.bestmove))?;
        Ok(Choice {
            best: Some(best),
            depth: reply.depth.unwrap_or(0),
            ..none
        })
    }
}

/// The `position` and `go` commands for `game` under `limits`.
fn uci_commands(game: &Game, limits: &Limits) -> (String, String) {
    let mut position = format!("position fen {}", game.start().to_fen());
    let mut pos = *game.start();
    if !game.moves().is_empty() {
        position += " moves";
        for &mv in game.moves() {
            position += &format!(" {}", pos.move_to_uci(mv));
            pos = pos.after(mv);
        }
    }
    let mut go = String::from("go");
    if let Some(clock) = &limits.clock {
        let ms = |t: Option<Duration>| t.map_or(1, |t| t.as_millis().max(1));
        go += &format!(
            " wtime {} btime {} winc {} binc {}",
            ms(clock.time[0]),
            ms(clock.time[1]),
            clock.inc[0].as_millis(),
            clock.inc[1].as_millis()
        );
    }
    if let Some(t) = limits.movetime {
        go += &format!(" movetime {}", t.as_millis());
    }
    if !limits.search_moves.is_empty() {
        go += " searchmoves";
        for &mv in &limits.search_moves {
            go += &format!(" {}", pos.move_to_uci(mv));
        }
    }
    (position, go)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::replay::replay;
    use vorpal_engine::search::Clock;

    #[test]
    fn the_uci_commands_carry_the_game_and_the_clock() {
        let game = replay("", &["e2e4", "e7e5"]).unwrap();
        let limits = Limits {
            clock: Some(Clock {
                time: [Some(Duration::from_millis(59_500)), Some(Duration::from_millis(60_000))],
                inc: [Duration::from_secs(2); 2],
                moves_to_go: None,
            }),
            search_moves: vec![game.position().parse_uci("d2d4").unwrap()],
            ..Limits::default()
        };
        let (position, go) = uci_commands(&game, &limits);
        assert!(position.starts_with("position fen rnbqkbnr/pppppppp/"), "{position}");
        assert!(position.ends_with(" moves e2e4 e7e5"), "{position}");
        assert_eq!(go, "go wtime 59500 btime 60000 winc 2000 binc 2000 searchmoves d2d4");
    }

    #[test]
    fn the_local_player_moves_and_the_settings_are_checked() {
        let spec = EngineSpec::load(&EngineConfig {
            hash: 1,
            ..EngineConfig::default()
        })
        .unwrap();
        assert!(spec.describe().contains("1 thread(s), 1 MB"));
        assert!(spec.describe().starts_with("Vorpal at level 8 of 8, full strength"));
        let mut player = spec.player().unwrap();
        let game = replay("", &["e2e4"]).unwrap();
        let mv = player
            .best_move(&game, &Limits::depth(3), &SearchControl::new())
            .unwrap()
            .best
            .unwrap();
        assert!(game.position().is_legal(mv));
        let bad = |cfg: EngineConfig| EngineSpec::load(&cfg).err().unwrap();
        assert!(bad(EngineConfig {
            tb: "/nonexistent/tb".into(),
            ..EngineConfig::default()
        })
        .starts_with("tb "));
        assert!(bad(EngineConfig {
            command: vec!["name=x".into()],
            ..EngineConfig::default()
        })
        .contains("cmd=PATH"));
        assert!(bad(EngineConfig {
            level: 9,
            ..EngineConfig::default()
        })
        .contains("1 (weakest) to 8"));
        assert!(bad(EngineConfig {
            command: vec!["cmd=vorpal".into()],
            ponder: true,
            ..EngineConfig::default()
        })
        .contains("ponder works with the built-in engine only"));
        assert!(bad(EngineConfig {
            elo: 100,
            ..EngineConfig::default()
        })
        .starts_with("elo 100"));
        let weak = EngineSpec::load(&EngineConfig {
            level: 1,
            hash: 1,
            ..EngineConfig::default()
        })
        .unwrap();
        assert_eq!(weak.level_words(), "Vorpal at level 1 of 8");
        assert_eq!(weak.options.skill_level, 0);
        let rated = EngineSpec::load(&EngineConfig {
            elo: 1200,
            hash: 1,
            ..EngineConfig::default()
        })
        .unwrap();
        assert_eq!(rated.level_words(), "Vorpal limited to about 1200 Elo");
    }
}
