//! One game, on its own thread: its stream read on a second thread ([`super::game_stream`],
//! reconnecting for as long as the game runs), every state replayed under Alice rules, the
//! engine asked when it is the bot's turn, the move sent (again only if it is not echoed and the
//! site's page shows the game still waiting for it: a resent move arriving after the opponent's
//! answer would be an invalid move, which loses) and its round trip measured. The bot never gives up on a game the site still runs: when the
//! stream is lost or quiet, or a wait runs long, it reads the game's public page and ends only
//! when the site says so ([`super::game_end`] then records the site's result). A game whose
//! moves do not replay is aborted, never played on.

use super::budget::{bot_limits, TimeSettings};
use super::config::ChatConfig;
use super::engine::{Choice, EngineSpec, Player};
use super::game_stream::{read_stream, Msg};
use super::http::{Api, ApiError};
use super::overhead::Overhead;
use super::ponder::{EngineSlot, Pondered};
use super::record::Recorder;
use super::replay::{replay, sendable_moves};
use super::site_page::SiteGame;
use super::wire::{GameEvent, GameFull, GameState};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};
use vorpal_engine::search::SearchControl;
use vorpal_engine::{Color, Game, Move};

/// The site's page is read at most this often while the game runs.
const CHECK_EVERY: Duration = Duration::from_secs(10);

/// What a game does on the site (the HTTP client; a recording fake in tests).
pub trait GameSite: Send + Sync {
    /// Plays `uci` in game `id`.
    fn send_move(&self, id: &str, uci: &str) -> Result<(), ApiError>;
    /// Aborts game `id`.
    fn abort(&self, id: &str) -> Result<(), ApiError>;
    /// Says `text` in game `id`'s chat.
    fn chat(&self, id: &str, text: &str) -> Result<(), ApiError>;
    /// The site's record of game `id` (its public page); `None` when the site has none.
    fn page(&self, id: &str) -> Result<Option<SiteGame>, ApiError>;
}

impl GameSite for Api {
    fn send_move(&self, id: &str, uci: &str) -> Result<(), ApiError> {
        Api::send_move(self, id, uci)
    }

    fn abort(&self, id: &str) -> Result<(), ApiError> {
        Api::abort(self, id)
    }

    fn chat(&self, id: &str, text: &str) -> Result<(), ApiError> {
        Api::chat(self, id, text)
    }

    fn page(&self, id: &str) -> Result<Option<SiteGame>, ApiError> {
        Api::game_page(self, id)
    }
}

/// What every game shares.
pub struct GameContext {
    /// Where moves, aborts and chat lines go.
    pub site: Arc<dyn GameSite>,
    /// The site's base URL (for the PGN).
    pub server: String,
    /// The bot's user name.
    pub me: String,
    /// The engine.
    pub engine: Arc<EngineSpec>,
    /// The time settings.
    pub time: TimeSettings,
    /// The measured network overhead of a move.
    pub overhead: Arc<Overhead>,
    /// The chat lines.
    pub chat: ChatConfig,
    /// The PGN file.
    pub recorder: Arc<Recorder>,
    /// Set when the running games are to be aborted (shutting down).
    pub abort_all: Arc<AtomicBool>,
}

/// The bot's move sent and not yet seen in a state.
pub(super) struct Sent {
    /// Its index in the move list.
    pub ply: usize,
    /// The move.
    pub mv: Move,
    /// Its text.
    pub text: String,
    /// When it was first sent (for the round trip).
    pub first: Instant,
    /// When it was last sent.
    pub at: Instant,
    /// How often it was sent.
    pub sends: u32,
    /// The site's page shows it played (no more sends; the stream's echo is awaited).
    pub delivered: bool,
}

/// The state of one game being played.
pub(super) struct GameRun {
    pub shared: Arc<GameContext>,
    pub id: String,
    pub full: Option<GameFull>,
    pub me: Color,
    pub game: Option<Game>,
    pub state: Option<(GameState, Instant)>,
    pub time_control: Option<String>,
    pub sent: Option<Sent>,
    pub aborted: Option<(String, Instant)>,
    pub gave_up: Option<String>,
    pub control: Arc<SearchControl>,
    /// The site's record, once it said the game is over (or has no such game: `Some(None)`).
    pub site_record: Option<Option<SiteGame>>,
    /// When the stream last said anything.
    pub last_heard: Instant,
    /// When the site's page was last read.
    pub last_check: Option<Instant>,
    /// The greeting was sent (or is no longer due).
    pub greeted: bool,
    /// The game's engine, idle or pondering.
    pub engine: EngineSlot,
    /// The game after the bot's last move and the reply its search expects (to ponder on).
    pub expect: Option<(Game, Move)>,
    /// Ponder hits and misses so far.
    pub ponder_hits: (u32, u32),
}

/// Plays game `id` to its end, reading its stream from `api`, and records it.
pub fn play(shared: Arc<GameContext>, api: Arc<Api>, id: String) {
    log::info!("game {id}: following");
    let (tx, rx) = mpsc::channel();
    let done = Arc::new(AtomicBool::new(false));
    let mut run = GameRun::new(shared.clone(), &id);
    {
        let (stream_id, done, control) = (id.clone(), done.clone(), run.control.clone());
        let spawned = std::thread::Builder::new()
            .name(format!("bot-stream-{id}"))
            .spawn(move || read_stream(&api, &stream_id, &tx, &done, &control));
        if let Err(e) = spawned {
            log::error!("game {id}: cannot start its stream thread: {e}");
        }
    }
    {
        // A second signal stops a running search at once.
        let (done, control, abort_all) = (done.clone(), run.control.clone(), shared.abort_all.clone());
        let spawned = std::thread::Builder::new()
            .name(format!("bot-watch-{id}"))
            .spawn(move || {
                while !done.load(Ordering::SeqCst) {
                    if abort_all.load(Ordering::SeqCst) {
                        control.stop();
                    }
                    std::thread::sleep(Duration::from_millis(50));
                }
            });
        if let Err(e) = spawned {
            log::warn!("game {id}: cannot start its watch thread: {e}");
        }
    }
    let ended = run.follow(&rx);
    done.store(true, Ordering::SeqCst);
    run.finish(ended);
}

impl GameRun {
    pub(super) fn new(shared: Arc<GameContext>, id: &str) -> GameRun {
        GameRun {
            shared,
            id: id.to_string(),
            full: None,
            me: Color::White,
            game: None,
            state: None,
            time_control: None,
            sent: None,
            aborted: None,
            gave_up: None,
            control: Arc::new(SearchControl::new()),
            site_record: None,
            last_heard: Instant::now(),
            last_check: None,
            greeted: false,
            engine: EngineSlot::default(),
            expect: None,
            ponder_hits: (0, 0),
        }
    }

    /// Handles the stream's messages until the game ends (true) or cannot be followed (false).
    /// A game the site already ended (while the bot was down) ends at once.
    pub(super) fn follow(&mut self, rx: &Receiver<Msg>) -> bool {
        if self.site_says_over("looking the game up") {
            return true;
        }
        let started = Instant::now();
        loop {
            if self.shared.abort_all.load(Ordering::SeqCst) && self.aborted.is_none() && self.full.is_some() {
                self.abort("the bot is shutting down");
            }
            match rx.recv_timeout(Duration::from_millis(250)) {
                Ok(Msg::Event(event)) => {
                    self.last_heard = Instant::now();
                    match *event {
                        GameEvent::GameFull(full) => {
                            if self.full.is_none() {
                                self.start(&full);
                            }
                            self.full = Some(full.clone());
                            self.on_state(full.state);
                        }
                        GameEvent::GameState(state) if self.full.is_some() => self.on_state(state),
                        GameEvent::GameEnd { .. } => {
                            log::info!("game {}: gameEnd", self.id);
                            return true;
                        }
                        _ => {}
                    }
                }
                Ok(Msg::Lost(why)) => {
                    if self.site_says_over(&format!("its stream was lost ({why})")) {
                        return true;
                    }
                }
                Ok(Msg::Gone(why)) => {
                    self.last_check = None;
                    if self.site_says_over(&why) {
                        return true;
                    }
                    self.gave_up = Some(why);
                    return false;
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Some(why) = self.worry(started) {
                        if self.site_says_over(&why) {
                            return true;
                        }
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.last_check = None;
                    if self.site_says_over("its stream thread ended") {
                        return true;
                    }
                    self.gave_up = Some("its stream ended".into());
                    return false;
                }
            }
        }
    }

    /// Asks the site's page whether the game is over (at most every [`CHECK_EVERY`]); true
    /// when it is (or the site has no such game any more), with the record kept.
    pub(super) fn site_says_over(&mut self, why: &str) -> bool {
        if self.last_check.is_some_and(|at| at.elapsed() < CHECK_EVERY) {
            return false;
        }
        self.last_check = Some(Instant::now());
        match self.shared.site.page(&self.id) {
            Ok(Some(record)) if record.ended() => {
                log::info!(
                    "game {}: {why}; the site says it is over: {}",
                    self.id,
                    record.termination()
                );
                self.site_record = Some(Some(record));
                true
            }
            Ok(Some(record)) => {
                log::info!(
                    "game {}: {why}; the site says it runs ({} moves); following on",
                    self.id,
                    record.moves.len()
                );
                false
            }
            Ok(None) => {
                log::info!("game {}: {why}; the site has no such game (any more)", self.id);
                self.site_record = Some(None);
                true
            }
            Err(e) => {
                log::warn!(
                    "game {}: {why}; the site's page cannot be read ({e}); following on",
                    self.id
                );
                false
            }
        }
    }

    /// The first `gameFull`: the players and the bot's colour.
    fn start(&mut self, full: &GameFull) {
        let me = &self.shared.me;
        self.me = if full.black.name.eq_ignore_ascii_case(me) {
            Color::Black
        } else {
            Color::White
        };
        let moves = full.state.move_list().len();
        if moves < 2 {
            self.time_control = Some(format!(
                "{}+{}",
                (full.state.wtime.max(0.0) / 1000.0).round() as u64,
                full.state.winc.max(0.0).round() as u64
            ));
        }
        log::info!(
            "game {}: {} (white) vs {} (black), {}, {} moves so far; the bot plays {}",
            self.id,
            full.white.name,
            full.black.name,
            full.variant.name,
            moves,
            if self.me == Color::White { "white" } else { "black" }
        );
    }

    /// The greeting, once the opponent has made its first move (so that its page is open);
    /// a game picked up later is not greeted again.
    fn greet(&mut self, plies: usize) {
        if self.greeted {
            return;
        }
        let opponent_moves = match self.me {
            Color::White => plies / 2,
            Color::Black => plies.div_ceil(2),
        };
        if opponent_moves == 0 {
            return;
        }
        self.greeted = true;
        let greeting = self.shared.chat.greeting.clone();
        if opponent_moves == 1 && !greeting.is_empty() {
            self.chat(&format!("{greeting} ({})", self.shared.engine.level_words()));
        }
    }

    /// A state: replay it; move when it is the bot's turn.
    fn on_state(&mut self, state: GameState) {
        let Some(full) = &self.full else { return };
        if self.aborted.is_some() {
            return;
        }
        if full.variant.name != "alice" {
            let why = format!("variant '{}' is not played", full.variant.name);
            self.abort(&why);
            return;
        }
        let moves = state.move_list();
        let game = match replay(&full.initial_fen, &moves) {
            Ok(game) => game,
            Err(e) => {
                log::error!("game {}: the moves do not replay: {e}", self.id);
                self.abort(&format!("the moves do not replay ({e})"));
                return;
            }
        };
        let plies = moves.len();
        let previous = moves.last().map(|s| s.to_string());
        self.state = Some((state, Instant::now()));
        self.game = Some(game.clone());
        if let Some(sent) = self.sent.take_if(|s| plies > s.ply) {
            if sent.sends == 1 {
                self.shared.overhead.record(sent.first.elapsed());
            }
        }
        self.greet(plies);
        let pos = *game.position();
        if pos.count_legal() == 0 {
            log::info!(
                "game {}: no legal move after {plies} plies; waiting for the end",
                self.id
            );
            return;
        }
        if pos.side_to_move() != self.me {
            self.ponder(&game);
            return;
        }
        if self.sent.as_ref().is_some_and(|s| s.ply == plies) {
            return;
        }
        let start = Instant::now();
        let (player, pondered) = self.engine.take(&game);
        let mut player = match player.map_or_else(|| self.shared.engine.player(), Ok) {
            Ok(player) => player,
            Err(e) => {
                log::error!("game {}: no engine: {e}", self.id);
                self.abort(&format!("no engine ({e})"));
                return;
            }
        };
        self.think_and_move(&game, previous.as_deref(), player.as_mut(), (start, pondered));
        self.engine.put(player);
    }

    /// On the opponent's turn, right after the bot's move: ponders on the reply its search
    /// expected (`ponder = true`), once.
    fn ponder(&mut self, game: &Game) {
        if !self.shared.engine.ponders() || self.engine.pondering_after(game) {
            return;
        }
        let Some((_, reply)) = self.expect.take_if(|(after, _)| after.moves() == game.moves()) else {
            return;
        };
        let Some((state, _)) = &self.state else { return };
        let overhead = self.shared.overhead.estimate();
        let (limits, _) = bot_limits(state, self.shared.time, self.me, overhead, game.moves().len() + 1);
        if self.engine.ponder(game, reply, limits, &self.control) {
            log::info!(
                "game {}: pondering on {} (the reply expected)",
                self.id,
                game.position().move_to_san(reply)
            );
        }
    }

    /// Searches the position (or takes a pondering search's choice, on a hit) and sends the
    /// move; `start` is when the bot's turn came.
    fn think_and_move(
        &mut self,
        game: &Game,
        previous: Option<&str>,
        engine: &mut dyn Player,
        (start, pondered): (Instant, Pondered),
    ) {
        let pos = *game.position();
        let (ok, held) = sendable_moves(&pos, previous);
        for &mv in &held {
            log::info!(
                "game {}: {} is held back: its text equals the opponent's last move, which the site would drop",
                self.id,
                pos.move_to_uci(mv)
            );
        }
        if ok.is_empty() {
            self.abort("the only legal move has the text of the opponent's last move, which the site drops");
            return;
        }
        let Some((state, at)) = &self.state else { return };
        let mut state = state.clone();
        let waited = at.elapsed().as_millis() as f64;
        match self.me {
            Color::White => state.wtime -= waited,
            Color::Black => state.btime -= waited,
        }
        let overhead = self.shared.overhead.estimate();
        let (mut limits, reserve) = bot_limits(&state, self.shared.time, self.me, overhead, game.moves().len());
        if !held.is_empty() {
            limits.search_moves = ok.clone();
        }
        let (chosen, hit) = match pondered {
            Pondered::Hit { choice, pondered } => {
                self.ponder_hits.0 += 1;
                (choice, format!(", ponder hit (pondered {} ms)", pondered.as_millis()))
            }
            other => {
                if let Pondered::Miss { expected, pondered } = other {
                    self.ponder_hits.1 += 1;
                    log::info!(
                        "game {}: ponder miss: it expected {}, the opponent played {} (pondered {} ms)",
                        self.id,
                        expected,
                        previous.unwrap_or("?"),
                        pondered.as_millis()
                    );
                }
                self.control.reset(false);
                (engine.best_move(game, &limits, &self.control), String::new())
            }
        };
        let chosen = chosen.unwrap_or_else(|e| {
            log::error!("game {}: the engine failed: {e}; playing the first legal move", self.id);
            Choice {
                best: None,
                ponder: None,
                depth: 0,
            }
        });
        if self.shared.abort_all.load(Ordering::SeqCst) {
            log::info!("game {}: the search was stopped (shutting down); no move sent", self.id);
            return;
        }
        let mv = chosen.best.filter(|mv| ok.contains(mv)).unwrap_or(ok[0]);
        self.expect = chosen.ponder.filter(|_| chosen.best == Some(mv)).map(|reply| {
            let mut after = game.clone();
            after.play(mv);
            (after, reply)
        });
        let text = pos.move_to_uci(mv);
        let clock = match self.me {
            Color::White => state.wtime,
            Color::Black => state.btime,
        };
        log::info!(
            "game {}: ply {}: {} ({text}) after {} ms, {} ms left before it (overhead {} ms, {} ms kept back), depth {}{hit}",
            self.id,
            game.moves().len() + 1,
            pos.move_to_san(mv),
            start.elapsed().as_millis(),
            clock.max(0.0) as u64,
            overhead.as_millis(),
            reserve.as_millis(),
            chosen.depth
        );
        let now = Instant::now();
        self.sent = Some(Sent {
            ply: game.moves().len(),
            mv,
            text,
            first: now,
            at: now,
            sends: 0,
            delivered: false,
        });
        self.send();
    }

    /// Sends the pending move (again).
    pub(super) fn send(&mut self) {
        let Some(sent) = self.sent.as_mut() else { return };
        sent.sends += 1;
        sent.at = Instant::now();
        if let Err(e) = self.shared.site.send_move(&self.id, &sent.text) {
            log::warn!("game {}: sending {} failed: {e}", self.id, sent.text);
        }
    }

    /// Aborts the game (the site allows a BOT to at any move); its `gameEnd` follows.
    fn abort(&mut self, why: &str) {
        if self.aborted.is_some() {
            return;
        }
        log::warn!("game {}: aborting: {why}", self.id);
        self.aborted = Some((why.to_string(), Instant::now()));
        self.sent = None;
        if let Err(e) = self.shared.site.abort(&self.id) {
            log::error!("game {}: abort failed: {e}", self.id);
        }
    }

    pub(super) fn chat(&self, text: &str) {
        if let Err(e) = self.shared.site.chat(&self.id, text) {
            log::warn!("game {}: chat failed: {e}", self.id);
        }
    }
}

#[cfg(test)]
#[path = "game_tests.rs"]
mod tests;
