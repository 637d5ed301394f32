//! Self-play data generation for evaluation tuning, run by `vorpal-datagen`; the Texel tuner
//! ([`crate::texel`]) and the network trainer ([`crate::nnue`]) read what it writes
//! ([`parse_line`], [`packed`]).
//!
//! Every worker thread owns a [`Searcher`] (one search thread, a small hash) and plays whole
//! games: a few random opening plies chosen by a generator seeded from the game's index, then
//! moves searched to a soft node limit (no iteration starts past it; a hard cap, four times
//! the soft limit by default, ends a runaway one) or a depth. The move played and the score
//! written are those of the same completed iteration ([`search_move`]). Games end by the rules
//! ([`vorpal_engine::game::outcome`]) or by adjudication (resign when the score stays beyond a
//! bound, draw when it stays near zero late in the game, or a ply cap), so games stay short.
//!
//! Each kept position becomes one line of the text output, one 32-byte record of the packed
//! output ([`crate::datagen::packed`]), or both:
//!
//! ```text
//! <pipe FEN> | <search score in cp, White's view> | <result 1.0 / 0.5 / 0.0, White's view>
//! ```
//!
//! Positions are left out while still in the opening (random plies plus `skip_plies`), when the
//! side to move is in check, when the best move is a capture or promotion, when the score is a
//! mate or beyond `max_score`, and when the search did not finish one iteration: the tuner wants
//! quiet positions whose static evaluation should predict the result.
//!
//! Output is streamed: a game's data is written (and flushed) as soon as the game ends, so
//! memory stays bounded by the games in flight. A sidecar records every finished game with the
//! byte lengths of the data files after it ([`crate::datagen::sink`]). A game's moves depend only
//! on the settings and its index, so rerunning with the same `--out` skips the recorded games and
//! plays the rest; a partial game written by an interrupted run is cut off first.

pub mod args;
pub mod packed;
pub mod progress;
pub mod relabel;
pub mod sink;
pub mod tools;

use crate::datagen::packed::PackedRecord;
use crate::datagen::progress::{progress_line, ProgressSnapshot};
pub use crate::datagen::sink::{read_progress, GameRecord, OutputFormat, Progress, ProgressEntry};
use crate::datagen::sink::{with_suffix, Sink};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::io;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use vorpal_engine::game::{Game, GameResult};
use vorpal_engine::search::{Limits, Score, SearchControl, SearchOptions, Searcher};
use vorpal_engine::{Move, Position};

/// Settings of a data generation run.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Text data file (appended to); the packed data is `<out>.bin`, the sidecar `<out>.progress`.
    pub out: PathBuf,
    /// Which data files are written.
    pub format: OutputFormat,
    /// Total number of games wanted (games already recorded count towards it); `u64::MAX` =
    /// no limit (a time budget ends the run).
    pub games: u64,
    /// Worker threads, each playing its own games with a one-thread searcher.
    pub threads: usize,
    /// Soft node limit per move: no iteration starts after this many nodes, so the move and
    /// score come from one completed iteration (exact with one search thread, so games are
    /// reproducible).
    pub nodes: Option<u64>,
    /// Hard node cap per move (`None`: four times `nodes`); an iteration it cuts is dropped.
    pub max_nodes: Option<u64>,
    /// Depth per move.
    pub depth: Option<u32>,
    /// Transposition table per worker, in MB.
    pub hash_mb: usize,
    /// Base seed; game `i` uses a generator seeded from (seed, i).
    pub seed: u64,
    /// Random plies played from the start position before searching.
    pub random_plies: u32,
    /// Re-roll the random opening while the search score after it exceeds this (cp); 0 = off.
    pub opening_window: i32,
    /// Positions of the first `random_plies + skip_plies` plies are not written.
    pub skip_plies: u32,
    /// Positions whose |score| exceeds this (cp) are not written; 0 = no bound.
    pub max_score: i32,
    /// Search with the hand-crafted evaluation instead of the built-in network (the data of
    /// the first network came from it; later rounds use the network).
    pub hand_crafted: bool,
    /// Games reaching this many plies are adjudicated drawn.
    pub max_plies: u32,
    /// Resign adjudication: |score| at least this (cp, or a mate) ...
    pub resign_cp: i32,
    /// ... for this many consecutive plies, with the same side ahead (0 = off).
    pub resign_plies: u32,
    /// Draw adjudication: |score| at most this (cp) ...
    pub draw_cp: i32,
    /// ... for this many consecutive plies (0 = off) ...
    pub draw_plies: u32,
    /// ... once the game has at least this many plies.
    pub draw_after: u32,
    /// Start no new game after this much time.
    pub max_time: Option<Duration>,
    /// Interval between progress lines on stderr.
    pub progress_interval: Duration,
}

impl Default for DatagenConfig {
    fn default() -> Self {
        DatagenConfig {
            out: PathBuf::from("datagen.txt"),
            format: OutputFormat::Both,
            games: 100,
            threads: 1,
            nodes: Some(5000),
            max_nodes: None,
            depth: None,
            hash_mb: 4,
            seed: 1,
            random_plies: 8,
            opening_window: 400,
            skip_plies: 8,
            max_score: 3000,
            hand_crafted: false,
            max_plies: 400,
            resign_cp: 1000,
            resign_plies: 6,
            draw_cp: 10,
            draw_plies: 12,
            draw_after: 80,
            max_time: None,
            progress_interval: Duration::from_secs(5),
        }
    }
}

impl DatagenConfig {
    /// The settings that determine a game's moves; resuming requires them unchanged.
    pub fn signature(&self) -> String {
        let opt = |v: Option<String>| v.unwrap_or_else(|| "-".into());
        format!(
            "seed={} nodes={} max_nodes={} depth={} hash={} random_plies={} opening_window={} skip_plies={} \
             max_score={} max_plies={} resign={}/{} draw={}/{}/{} eval={}",
            self.seed,
            opt(self.nodes.map(|n| n.to_string())),
            opt(self.hard_nodes().map(|n| n.to_string())),
            opt(self.depth.map(|d| d.to_string())),
            self.hash_mb,
            self.random_plies,
            self.opening_window,
            self.skip_plies,
            self.max_score,
            self.max_plies,
            self.resign_cp,
            self.resign_plies,
            self.draw_cp,
            self.draw_plies,
            self.draw_after,
            if self.hand_crafted { "hce" } else { "nnue" }
        )
    }

    /// The hard node cap: `max_nodes`, or four times the soft limit.
    pub fn hard_nodes(&self) -> Option<u64> {
        self.max_nodes.or(self.nodes.map(|n| n.saturating_mul(4)))
    }

    /// The search limits of one move: the soft node limit, the hard cap, the depth.
    pub fn limits(&self) -> Limits {
        Limits {
            soft_nodes: self.nodes,
            nodes: self.hard_nodes(),
            depth: self.depth,
            ..Limits::default()
        }
    }

    /// Path of the progress sidecar.
    pub fn progress_path(&self) -> PathBuf {
        with_suffix(&self.out, ".progress")
    }

    /// Path of the packed data file.
    pub fn packed_path(&self) -> PathBuf {
        with_suffix(&self.out, ".bin")
    }
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct DatagenSummary {
    /// Games played by this run.
    pub games: u64,
    /// Games recorded in the file, this run included.
    pub games_total: u64,
    /// Positions written by this run.
    pub positions: u64,
    /// Plies played by this run.
    pub plies: u64,
    /// White wins, draws, Black wins of this run.
    pub results: [u64; 3],
    /// Wall time of this run.
    pub elapsed: Duration,
}

impl DatagenSummary {
    /// Positions written per second.
    pub fn positions_per_second(&self) -> f64 {
        self.positions as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Result as written in the data: 1.0, 0.5 or 0.0 from White's view.
pub fn result_text(result: GameResult) -> &'static str {
    match result {
        GameResult::WhiteWins => "1.0",
        GameResult::Draw => "0.5",
        GameResult::BlackWins => "0.0",
    }
}

/// Mixes a seed and a game index into an independent seed (SplitMix64 finaliser).
pub fn game_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A search score from White's view in cp; mates become ±(100000 - moves).
fn white_score(score: Score, stm_white: bool) -> (i32, bool) {
    let (v, mate) = match score {
        Score::Cp(cp) => (cp, false),
        Score::Mate(n) if n > 0 => (100_000 - n, true),
        Score::Mate(n) => (-100_000 - n, true),
    };
    (if stm_white { v } else { -v }, mate)
}

/// A searched move with the score of the same completed iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchedMove {
    /// The move to play: the best move of the last completed iteration (or, when none
    /// completed, the search's move, whose position is then not written).
    pub mv: Move,
    /// The completed iteration's score in cp, White's view (mates ±(100000 - moves)).
    pub score: i32,
    /// The score is a mate.
    pub mate: bool,
    /// Depth of the completed iteration (0: none completed).
    pub depth: u32,
    /// Nodes the search took.
    pub nodes: u64,
}

/// A worker's searcher: one search thread, `hash_mb` of hash, the built-in network or (with
/// `hand_crafted`) the hand-crafted evaluation.
pub fn worker_searcher(hash_mb: usize, hand_crafted: bool) -> Searcher {
    let mut searcher = Searcher::new(SearchOptions {
        threads: 1,
        hash_mb,
        ..SearchOptions::default()
    });
    if hand_crafted {
        searcher.set_evaluator(vorpal_engine::Evaluator::hand_crafted(Default::default()));
    }
    searcher
}

/// Searches the current position of `game` within `limits`; the move and the score come from
/// the same completed iteration (`SearchResult::completed_best`), never the move of an
/// iteration the hard cap cut with the score of the one before. `None` without a legal move.
pub fn search_move(
    searcher: &mut Searcher,
    game: &Game,
    limits: &Limits,
    control: &SearchControl,
    report: &mut dyn FnMut(vorpal_engine::search::Report),
) -> Option<SearchedMove> {
    let r = searcher.search(game, limits, control, report);
    let mv = r.completed_best.or(r.best)?;
    let (score, mate) = white_score(r.score, game.position().side_to_move() == vorpal_engine::Color::White);
    Some(SearchedMove {
        mv,
        score,
        mate,
        depth: r.depth,
        nodes: r.nodes,
    })
}

/// Plays random opening plies from the start and returns the game after them. The opening is
/// re-rolled while the game ends in it or, with an opening window, while the side to move's
/// search score (same limits as the game, fresh hash) is beyond the window: a lopsided start
/// would only teach "the side ahead wins". After 100 unbalanced attempts the next playable
/// opening is taken, so a narrow window cannot stall a worker.
pub fn random_opening(cfg: &DatagenConfig, rng: &mut StdRng, searcher: &mut Searcher, control: &SearchControl) -> Game {
    let limits = cfg.limits();
    for attempt in 0.. {
        let mut game = Game::new(Position::startpos());
        let mut ok = true;
        for _ in 0..cfg.random_plies {
            let moves: Vec<Move> = game.position().legal_moves().into_iter().collect();
            match moves.choose(rng) {
                Some(&mv) if game.outcome().is_none() => {
                    game.play(mv);
                }
                _ => {
                    ok = false;
                    break;
                }
            }
        }
        if !ok || game.outcome().is_some() {
            continue;
        }
        if cfg.opening_window > 0 && attempt < 100 {
            searcher.clear();
            let r = searcher.search(&game, &limits, control, &mut |_| {});
            let balanced = matches!(r.score, Score::Cp(cp) if cp.abs() <= cfg.opening_window);
            if !balanced {
                continue;
            }
        }
        return game;
    }
    unreachable!("the loop only ends by returning")
}

/// Plays game number `index` with `searcher`; the moves depend only on `cfg` and `index`.
pub fn play_game(
    cfg: &DatagenConfig,
    index: u64,
    searcher: &mut Searcher,
    control: &SearchControl,
) -> io::Result<GameRecord> {
    let mut rng = StdRng::seed_from_u64(game_seed(cfg.seed, index));
    let mut game = random_opening(cfg, &mut rng, searcher, control);
    searcher.clear();
    let limits = cfg.limits();
    let first_kept = (cfg.random_plies + cfg.skip_plies) as usize;
    let mut kept: Vec<(Position, i32)> = Vec::new();
    let (mut white_ahead, mut black_ahead, mut quiet) = (0u32, 0u32, 0u32);
    let result = loop {
        if let Some((result, _)) = game.outcome() {
            break result;
        }
        let ply = game.moves().len();
        if ply >= cfg.max_plies as usize {
            break GameResult::Draw;
        }
        let pos = *game.position();
        let Some(SearchedMove {
            mv: best,
            score,
            mate,
            depth,
            ..
        }) = search_move(searcher, &game, &limits, control, &mut |_| {})
        else {
            // Unreachable after `outcome`, but never loop forever on it.
            break GameResult::Draw;
        };
        let in_bounds = cfg.max_score <= 0 || score.abs() <= cfg.max_score;
        if ply >= first_kept && !pos.in_check() && !best.is_noisy() && !mate && in_bounds && depth > 0 {
            kept.push((pos, score));
        }
        // Adjudication on the scores of consecutive plies (both sides' searches agree).
        let beyond = mate || score.abs() >= cfg.resign_cp;
        white_ahead = if beyond && score > 0 { white_ahead + 1 } else { 0 };
        black_ahead = if beyond && score < 0 { black_ahead + 1 } else { 0 };
        quiet = if ply >= cfg.draw_after as usize && !mate && score.abs() <= cfg.draw_cp {
            quiet + 1
        } else {
            0
        };
        if cfg.resign_plies > 0 && white_ahead >= cfg.resign_plies {
            break GameResult::WhiteWins;
        }
        if cfg.resign_plies > 0 && black_ahead >= cfg.resign_plies {
            break GameResult::BlackWins;
        }
        if cfg.draw_plies > 0 && quiet >= cfg.draw_plies {
            break GameResult::Draw;
        }
        let played = game.play(best);
        debug_assert!(played, "the search returned an illegal move");
    };
    let res = result_text(result);
    let mut lines = String::new();
    let mut packed = Vec::new();
    for (pos, score) in &kept {
        if cfg.format.text() {
            lines.push_str(&format!("{} | {score} | {res}\n", pos.to_fen()));
        }
        if cfg.format.packed() {
            packed.extend_from_slice(&PackedRecord::encode(pos, *score, result)?.0);
        }
    }
    Ok(GameRecord {
        lines,
        packed,
        positions: kept.len() as u64,
        plies: game.moves().len() as u64,
        result,
    })
}

/// Runs the generation described by `cfg` until `cfg.games` games are recorded (or the time
/// budget ends), resuming from the progress sidecar if there is one.
pub fn run(cfg: &DatagenConfig) -> io::Result<DatagenSummary> {
    if cfg.nodes.is_none() && cfg.depth.is_none() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "give a node or depth limit",
        ));
    }
    let (sink, done) = Sink::open(&cfg.out, cfg.format, &cfg.signature())?;
    let already = done.len() as u64;
    if already > 0 {
        log::info!(
            "resuming: {already} games recorded, {} to play",
            cfg.games.saturating_sub(already)
        );
    }
    let sink = Mutex::new(sink);
    let next = AtomicU64::new(0);
    let (games, positions, plies) = (AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0));
    let results: [AtomicU64; 3] = Default::default();
    let start = Instant::now();
    let failure: Mutex<Option<io::Error>> = Mutex::new(None);
    let failed = AtomicBool::new(false);
    let fail = |e: io::Error| {
        failed.store(true, Ordering::SeqCst);
        let mut slot = failure.lock().unwrap_or_else(|p| p.into_inner());
        slot.get_or_insert(e);
    };
    let worker = || {
        let mut searcher = worker_searcher(cfg.hash_mb, cfg.hand_crafted);
        let control = SearchControl::new();
        loop {
            if failed.load(Ordering::SeqCst) || cfg.max_time.is_some_and(|t| start.elapsed() >= t) {
                break;
            }
            // Game indices in order, skipping recorded ones (no list of the whole run).
            let index = next.fetch_add(1, Ordering::SeqCst);
            if index >= cfg.games {
                break;
            }
            if done.contains(&index) {
                continue;
            }
            let written = play_game(cfg, index, &mut searcher, &control).and_then(|record| {
                sink.lock()
                    .map_or_else(|_| Err(poisoned()), |mut s| s.write(index, &record))
                    .map(|()| record)
            });
            let record = match written {
                Ok(record) => record,
                Err(e) => {
                    fail(e);
                    break;
                }
            };
            games.fetch_add(1, Ordering::SeqCst);
            positions.fetch_add(record.positions, Ordering::SeqCst);
            plies.fetch_add(record.plies, Ordering::SeqCst);
            let slot = match record.result {
                GameResult::WhiteWins => 0,
                GameResult::Draw => 1,
                GameResult::BlackWins => 2,
            };
            results[slot].fetch_add(1, Ordering::SeqCst);
        }
    };
    let snapshot = || ProgressSnapshot {
        games_recorded: already + games.load(Ordering::SeqCst),
        games_wanted: cfg.games,
        games_this_run: games.load(Ordering::SeqCst),
        positions_this_run: positions.load(Ordering::SeqCst),
        elapsed: start.elapsed(),
        time_left: cfg.max_time.map(|t| t.saturating_sub(start.elapsed())),
    };
    std::thread::scope(|scope| {
        let mut workers = Vec::new();
        for _ in 0..cfg.threads.max(1) {
            match std::thread::Builder::new()
                .stack_size(16 << 20)
                .spawn_scoped(scope, worker)
            {
                Ok(handle) => workers.push(handle),
                Err(e) => fail(e),
            }
        }
        // The scope's own thread reports progress until every worker has ended.
        let tick = Duration::from_millis(50).min(cfg.progress_interval);
        let mut last_report = Instant::now();
        while !workers.iter().all(|w| w.is_finished()) {
            std::thread::sleep(tick);
            if last_report.elapsed() >= cfg.progress_interval {
                last_report = Instant::now();
                log::info!("{}", progress_line(&snapshot()));
            }
        }
    });
    // A last line, so even a run shorter than the interval reports its rate.
    log::info!("{}", progress_line(&snapshot()));
    if let Some(e) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    let games = games.into_inner();
    Ok(DatagenSummary {
        games,
        games_total: already + games,
        positions: positions.into_inner(),
        plies: plies.into_inner(),
        results: results.map(AtomicU64::into_inner),
        elapsed: start.elapsed(),
    })
}

/// The error of a lock whose holder panicked.
fn poisoned() -> io::Error {
    io::Error::other("a datagen worker panicked while writing")
}

/// One parsed data line.
#[derive(Clone, Debug, PartialEq)]
pub struct DataLine {
    /// The position's FEN (pipe form).
    pub fen: String,
    /// Search score in cp, White's view.
    pub score: i32,
    /// Result 0.0 / 0.5 / 1.0, White's view.
    pub result: f64,
}

/// Parses `<fen> | <score> | <result>`. The pipe FEN contains `|` itself, so the two fields
/// are split off from the right.
pub fn parse_line(line: &str) -> Result<DataLine, String> {
    let mut parts = line.trim().rsplitn(3, '|');
    let (Some(result), Some(score), Some(fen)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(format!("expected '<fen> | <score> | <result>': {line}"));
    };
    let score = score
        .trim()
        .parse::<i32>()
        .map_err(|e| format!("bad score '{}': {e}", score.trim()))?;
    let result = match result.trim() {
        "1.0" | "1" | "1-0" => 1.0,
        "0.5" | "1/2-1/2" => 0.5,
        "0.0" | "0" | "0-1" => 0.0,
        other => return Err(format!("bad result '{other}'")),
    };
    Ok(DataLine {
        fen: fen.trim().to_string(),
        score,
        result,
    })
}
