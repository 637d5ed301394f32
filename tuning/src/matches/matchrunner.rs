//! Running a match: `--concurrency` worker threads, each with its own engine processes, take
//! games from the shard's schedule in order; the main thread writes every finished game to
//! the PGN and results files at once, keeps the tally, prints progress and stops the match when
//! the SPRT reaches a bound. Games already in the output (on `--resume`) are not replayed.

use crate::matches::gameplay::{play_game, EngineSlot, GameSettings, PlayedGame};
use crate::matches::openings::Opening;
use crate::matches::output::{game_summary, game_to_pgn, MatchFiles, PgnMeta};
use crate::matches::results::{ResultsHeader, Tally};
use crate::matches::schedule::{Schedule, ScheduledGame};
use crate::matches::stats::{Sprt, SprtStatus};
use std::collections::{HashSet, VecDeque};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};
use vorpal_client::engine_process::{EngineConfig, EngineProcess};

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The engines; statistics are from the first one's view.
    pub engines: Vec<EngineConfig>,
    /// The opening book.
    pub openings: Vec<Opening>,
    /// The schedule (pairings, rounds, opening order).
    pub schedule: Schedule,
    /// Parallel games.
    pub concurrency: usize,
    /// Per-game settings.
    pub game: GameSettings,
    /// PGN output.
    pub pgn: Option<PathBuf>,
    /// Results output.
    pub results: Option<PathBuf>,
    /// Continue the match in the existing outputs.
    pub resume: bool,
    /// Shard index and count.
    pub shard: (usize, usize),
    /// Sequential test, if any.
    pub sprt: Option<Sprt>,
    /// PGN `Event` tag.
    pub event: String,
    /// PGN `Site` tag.
    pub site: String,
    /// Print progress lines on stderr.
    pub progress: bool,
    /// Stop the whole match after this many consecutive failed starts of one engine.
    pub max_failed_starts: u32,
}

/// How a match ended.
#[derive(Clone, Debug)]
pub struct MatchOutcome {
    /// Every finished game of this shard (including resumed ones).
    pub tally: Tally,
    /// Games of this shard in the schedule.
    pub shard_games: u64,
    /// SPRT decision when one was reached.
    pub sprt: Option<SprtStatus>,
    /// Engine processes started, by engine.
    pub starts: Vec<u32>,
    /// Wall time of this run.
    pub elapsed: Duration,
    /// Why the match stopped early (an engine that cannot be started, an output error).
    pub error: Option<String>,
}

enum Message {
    Done(ScheduledGame, Box<PlayedGame>),
    Fatal(String),
}

/// One worker: plays games from `queue` until it is empty or `stop` is set.
fn worker(
    cfg: &MatchConfig,
    queue: &Mutex<VecDeque<ScheduledGame>>,
    stop: &AtomicBool,
    tx: mpsc::Sender<Message>,
) -> Vec<u32> {
    let mut slots: Vec<EngineSlot> = cfg.engines.iter().cloned().map(EngineSlot::new).collect();
    while !stop.load(Ordering::SeqCst) {
        let Some(game) = queue.lock().expect("queue lock").pop_front() else {
            break;
        };
        let opening = &cfg.openings[game.opening];
        let (w, b) = pick_two(&mut slots, game.white, game.black);
        let played = play_game(w, b, opening, &cfg.game);
        let failing = [&*w, &*b]
            .into_iter()
            .find(|s| s.failed_starts >= cfg.max_failed_starts)
            .map(|s| s.config.name.clone());
        if tx.send(Message::Done(game, Box::new(played))).is_err() {
            break;
        }
        if let Some(name) = failing {
            let _ = tx.send(Message::Fatal(format!(
                "engine {name} failed to start {} times in a row",
                cfg.max_failed_starts
            )));
            break;
        }
    }
    let starts = slots.iter().map(|s| s.starts).collect();
    for s in slots {
        if let Some(p) = s.process {
            p.shutdown(Duration::from_millis(500));
        }
    }
    starts
}

/// Two distinct mutable slots.
fn pick_two(slots: &mut [EngineSlot], a: usize, b: usize) -> (&mut EngineSlot, &mut EngineSlot) {
    assert_ne!(a, b, "an engine cannot play itself in one process slot");
    if a < b {
        let (x, y) = slots.split_at_mut(b);
        (&mut x[a], &mut y[0])
    } else {
        let (x, y) = slots.split_at_mut(a);
        (&mut y[0], &mut x[b])
    }
}

/// Starts and stops every engine once, so a wrong command or a broken engine is reported
/// before any game is played.
fn preflight(cfg: &MatchConfig) -> Result<(), String> {
    for e in &cfg.engines {
        match EngineProcess::start(e, cfg.game.rules, cfg.game.startup_timeout) {
            Ok(p) => {
                if let Some(id) = p.id_name() {
                    log::info!("{}: {id}", e.name);
                }
                p.shutdown(Duration::from_millis(500));
            }
            Err(err) => return Err(format!("engine {}: {err}", e.name)),
        }
    }
    Ok(())
}

/// Runs (or resumes) the match. Errors before the first game (bad outputs) are returned as
/// `Err`; a match stopped later reports why in [`MatchOutcome::error`].
pub fn run_match(cfg: &MatchConfig) -> Result<MatchOutcome, String> {
    let start = Instant::now();
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let unique: HashSet<&String> = names.iter().collect();
    if unique.len() != names.len() {
        return Err("engine names must be distinct (set name=...)".into());
    }
    let header = ResultsHeader {
        engines: names.clone(),
        total_games: cfg.schedule.total_games(),
        shard: cfg.shard,
    };
    let (mut files, done) = MatchFiles::open(cfg.pgn.as_deref(), cfg.results.as_deref(), &header, cfg.resume)?;
    let shard_games = cfg.schedule.shard(cfg.shard.0, cfg.shard.1);
    let shard_total = shard_games.len() as u64;
    let mut tally = Tally::new(names.clone());
    for g in done {
        tally.add(g);
    }
    let pending: VecDeque<ScheduledGame> = shard_games
        .into_iter()
        .filter(|g| !tally.games.contains_key(&g.id))
        .collect();
    if cfg.resume && !tally.games.is_empty() {
        eprintln!(
            "Resuming: {} games already played, {} to go",
            tally.games.len(),
            pending.len()
        );
    }
    let meta = PgnMeta {
        event: cfg.event.clone(),
        site: cfg.site.clone(),
        names: names.clone(),
        time_controls: cfg.engines.iter().map(|e| e.tc.describe()).collect(),
    };
    let mut sprt_status = cfg.sprt.map(|s| tally.sprt_status(&s).1);
    if !pending.is_empty() {
        preflight(cfg)?;
    }
    let already_decided = sprt_status.is_some_and(|s| s != SprtStatus::Continue);
    let to_play = if already_decided { 0 } else { pending.len() };
    let queue = Mutex::new(pending);
    let stop = AtomicBool::new(already_decided);
    let (tx, rx) = mpsc::channel();
    let mut fatal = None;
    let mut write_error = None;
    let mut starts = vec![0u32; names.len()];
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..cfg.concurrency.max(1).min(to_play.max(1)))
            .map(|_| {
                let tx = tx.clone();
                let (queue, stop) = (&queue, &stop);
                scope.spawn(move || worker(cfg, queue, stop, tx))
            })
            .collect();
        drop(tx);
        let mut played_now = 0u64;
        for msg in rx {
            let (game, played) = match msg {
                Message::Done(g, p) => (g, p),
                Message::Fatal(e) => {
                    stop.store(true, Ordering::SeqCst);
                    fatal.get_or_insert(e);
                    continue;
                }
            };
            let summary = game_summary(&game, &played, &names);
            let pgn = game_to_pgn(&game, &played, &meta).to_text();
            if let Err(e) = files.append(&pgn, &summary) {
                stop.store(true, Ordering::SeqCst);
                write_error.get_or_insert(e);
            }
            if cfg.progress {
                eprintln!(
                    "Finished game {} ({} vs {}): {} {{{}}}",
                    game.id + 1,
                    summary.white,
                    summary.black,
                    summary.result.pgn(),
                    summary.reason
                );
            }
            tally.add(summary);
            played_now += 1;
            let remaining = shard_total.saturating_sub(tally.games.len() as u64);
            let eta = start.elapsed().mul_f64(remaining as f64 / played_now as f64);
            if let Some(s) = &cfg.sprt {
                let status = tally.sprt_status(s).1;
                sprt_status = Some(status);
                if status != SprtStatus::Continue && !stop.swap(true, Ordering::SeqCst) {
                    eprintln!("SPRT: {status:?} - stopping after the games in progress");
                }
            }
            if cfg.progress {
                eprintln!("{}", tally.progress_line(shard_total, cfg.sprt.as_ref(), Some(eta)));
            }
        }
        for h in handles {
            if let Ok(s) = h.join() {
                for (total, n) in starts.iter_mut().zip(s) {
                    *total += n;
                }
            }
        }
    });
    Ok(MatchOutcome {
        tally,
        shard_games: shard_total,
        sprt: sprt_status,
        starts,
        elapsed: start.elapsed(),
        error: write_error.or(fatal),
    })
}
