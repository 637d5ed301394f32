//! One game, on its own thread: its stream read on a second thread (reconnecting as needed),
//! every state replayed under Alice rules, the engine asked when it is the bot's turn, the move
//! sent (again, if the site does not echo it: a repeat of the bot's own last move is dropped
//! by the site, so resending is harmless), and at the end the result worked out and recorded.
//! A game whose moves do not replay is aborted, never played on.

use super::backoff::Backoff;
use super::budget::{move_limits, TimeSettings};
use super::config::ChatConfig;
use super::ending::{conclude, EndFacts, Ending};
use super::engine::{EngineSpec, Player};
use super::http::{Api, ApiError};
use super::ndjson::Next;
use super::record::{Finished, Recorder};
use super::replay::{replay, sendable_moves};
use super::wire::{GameEvent, GameFull, GameState};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};
use vorpal_engine::search::{Limits, SearchControl};
use vorpal_engine::{Color, Game, Move};

/// A move not echoed within this long is sent again.
const RESEND_AFTER: Duration = Duration::from_secs(3);
/// Sends of one move before the bot stops waiting for its echo.
const MAX_SENDS: u32 = 6;
/// How long the game's stream may take to deliver its first `gameFull`.
const FIRST_STATE_LIMIT: Duration = Duration::from_secs(120);
/// How long the end may take to come after an abort.
const ABORT_ECHO_LIMIT: Duration = Duration::from_secs(15);
/// Slack beyond the opponent's clock before a silent game is given up.
const OPPONENT_SLACK: Duration = Duration::from_secs(60);

/// What a game does on the site (the HTTP client; a recording fake in tests).
pub trait GameSite: Send + Sync {
    /// Plays `uci` in game `id`.
    fn send_move(&self, id: &str, uci: &str) -> Result<(), ApiError>;
    /// Aborts game `id`.
    fn abort(&self, id: &str) -> Result<(), ApiError>;
    /// Says `text` in game `id`'s chat.
    fn chat(&self, id: &str, text: &str) -> Result<(), ApiError>;
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
    /// The chat lines.
    pub chat: ChatConfig,
    /// The PGN file.
    pub recorder: Arc<Recorder>,
    /// Set when the running games are to be aborted (shutting down).
    pub abort_all: Arc<AtomicBool>,
}

/// What the stream thread passes on.
enum Msg {
    /// A message of the game stream (boxed: a `gameFull` is large).
    Event(Box<GameEvent>),
    /// The stream cannot be had (the game is unknown, or not the bot's).
    Gone(String),
}

/// The bot's move sent and not yet seen in a state.
struct Sent {
    /// Its index in the move list.
    ply: usize,
    /// The move.
    mv: Move,
    /// Its text.
    text: String,
    /// When it was last sent.
    at: Instant,
    /// How often it was sent.
    sends: u32,
}

/// The state of one game being played.
struct GameRun {
    shared: Arc<GameContext>,
    id: String,
    full: Option<GameFull>,
    me: Color,
    game: Option<Game>,
    state: Option<(GameState, Instant)>,
    time_control: Option<String>,
    sent: Option<Sent>,
    aborted: Option<(String, Instant)>,
    gave_up: Option<String>,
    control: Arc<SearchControl>,
}

/// Plays game `id` to its end, reading its stream from `api`, and records it.
pub fn play(shared: Arc<GameContext>, api: Arc<Api>, id: String) {
    log::info!("game {id}: following");
    let (tx, rx) = mpsc::channel();
    let done = Arc::new(AtomicBool::new(false));
    let mut run = GameRun::new(shared, &id);
    {
        let (stream_id, done, control) = (id.clone(), done.clone(), run.control.clone());
        let spawned = std::thread::Builder::new()
            .name(format!("bot-stream-{id}"))
            .spawn(move || read_stream(&api, &stream_id, &tx, &done, &control));
        if let Err(e) = spawned {
            log::error!("game {id}: cannot start its stream thread: {e}");
        }
    }
    let ended = run.follow(&rx);
    done.store(true, Ordering::SeqCst);
    run.finish(ended);
}

impl GameRun {
    fn new(shared: Arc<GameContext>, id: &str) -> GameRun {
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
        }
    }

    /// Handles the stream's messages until the game ends (true) or cannot be followed (false).
    fn follow(&mut self, rx: &Receiver<Msg>) -> bool {
        let started = Instant::now();
        let mut player = None;
        loop {
            if self.shared.abort_all.load(Ordering::SeqCst) && self.aborted.is_none() && self.full.is_some() {
                self.abort("the bot is shutting down");
            }
            match rx.recv_timeout(Duration::from_millis(250)) {
                Ok(Msg::Event(event)) => match *event {
                    GameEvent::GameFull(full) => {
                        if self.full.is_none() {
                            self.start(&full);
                        }
                        self.full = Some(full.clone());
                        self.on_state(full.state, &mut player);
                    }
                    GameEvent::GameState(state) if self.full.is_some() => self.on_state(state, &mut player),
                    GameEvent::GameEnd { .. } => {
                        log::info!("game {}: gameEnd", self.id);
                        return true;
                    }
                    _ => {}
                },
                Ok(Msg::Gone(why)) => {
                    self.gave_up = Some(why);
                    return false;
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Some(why) = self.stuck(started) {
                        log::warn!("game {}: giving up: {why}", self.id);
                        self.gave_up = Some(why);
                        return false;
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.gave_up = Some("its stream ended".into());
                    return false;
                }
            }
        }
    }

    /// The first `gameFull`: the players, the bot's colour, the greeting.
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
        if moves < 2 && !self.shared.chat.greeting.is_empty() {
            self.chat(&self.shared.chat.greeting.clone());
        }
    }

    /// A state: replay it; move when it is the bot's turn.
    fn on_state(&mut self, state: GameState, player: &mut Option<Box<dyn Player>>) {
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
        if self.sent.as_ref().is_some_and(|s| plies > s.ply) {
            self.sent = None;
        }
        let pos = *game.position();
        if pos.count_legal() == 0 {
            log::info!(
                "game {}: no legal move after {plies} plies; waiting for the end",
                self.id
            );
            return;
        }
        if pos.side_to_move() != self.me || self.sent.as_ref().is_some_and(|s| s.ply == plies) {
            return;
        }
        if player.is_none() {
            match self.shared.engine.player() {
                Ok(p) => *player = Some(p),
                Err(e) => {
                    log::error!("game {}: no engine: {e}", self.id);
                    self.abort(&format!("no engine ({e})"));
                    return;
                }
            }
        }
        let Some(engine) = player.as_mut() else { return };
        self.think_and_move(&game, previous.as_deref(), engine.as_mut());
    }

    /// Searches the position and sends the move.
    fn think_and_move(&mut self, game: &Game, previous: Option<&str>, engine: &mut dyn Player) {
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
        let mut limits: Limits = move_limits(&state, self.shared.time);
        if !held.is_empty() {
            limits.search_moves = ok.clone();
        }
        self.control.reset(false);
        let start = Instant::now();
        let chosen = match engine.best_move(game, &limits, &self.control) {
            Ok(mv) => mv,
            Err(e) => {
                log::error!("game {}: the engine failed: {e}; playing the first legal move", self.id);
                None
            }
        };
        let mv = chosen.filter(|mv| ok.contains(mv)).unwrap_or(ok[0]);
        let text = pos.move_to_uci(mv);
        let clock = match self.me {
            Color::White => state.wtime,
            Color::Black => state.btime,
        };
        log::info!(
            "game {}: ply {}: {} ({text}) after {} ms, {} ms left before it",
            self.id,
            game.moves().len() + 1,
            pos.move_to_san(mv),
            start.elapsed().as_millis(),
            clock.max(0.0) as u64
        );
        self.sent = Some(Sent {
            ply: game.moves().len(),
            mv,
            text,
            at: Instant::now(),
            sends: 0,
        });
        self.send();
    }

    /// Sends the pending move (again).
    fn send(&mut self) {
        let Some(sent) = self.sent.as_mut() else { return };
        sent.sends += 1;
        sent.at = Instant::now();
        if let Err(e) = self.shared.site.send_move(&self.id, &sent.text) {
            log::warn!("game {}: sending {} failed: {e}", self.id, sent.text);
        }
    }

    /// Checks the waits; `Some(why)` when the game cannot be followed any longer.
    fn stuck(&mut self, started: Instant) -> Option<String> {
        if let Some((_, at)) = &self.aborted {
            return (at.elapsed() > ABORT_ECHO_LIMIT).then(|| "no end came after the abort".to_string());
        }
        if self.full.is_none() {
            return (started.elapsed() > FIRST_STATE_LIMIT).then(|| "its stream sent no game".to_string());
        }
        if let Some(sent) = &self.sent {
            if sent.at.elapsed() >= RESEND_AFTER {
                if sent.sends >= MAX_SENDS {
                    return Some(format!(
                        "the site took no notice of {} ({} sends)",
                        sent.text, sent.sends
                    ));
                }
                log::info!("game {}: {} not echoed yet; sending it again", self.id, sent.text);
                self.send();
            }
            return None;
        }
        let (state, at) = self.state.as_ref()?;
        let opponent_ms = match self.me {
            Color::White => state.btime,
            Color::Black => state.wtime,
        };
        let limit = Duration::from_millis(opponent_ms.max(0.0) as u64) + OPPONENT_SLACK;
        (at.elapsed() > limit).then(|| "neither a move nor the end came within the opponent's time".to_string())
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

    fn chat(&self, text: &str) {
        if let Err(e) = self.shared.site.chat(&self.id, text) {
            log::warn!("game {}: chat failed: {e}", self.id);
        }
    }

    /// Works out the end, says goodbye, appends the game to the PGN file.
    fn finish(&mut self, ended: bool) {
        // The bot's last move, sent but not echoed: the site sends no state after a move that
        // ends the game, so at a `gameEnd` it counts as played (in the result and the PGN).
        if let (true, Some(game), Some(sent)) = (ended, self.game.as_mut(), self.sent.take()) {
            if game.moves().len() == sent.ply {
                game.play(sent.mv);
            }
        }
        let pending = self.sent.as_ref().map(|s| s.mv);
        let clocks = self
            .state
            .as_ref()
            .map(|(s, at)| ([s.wtime, s.btime], at.elapsed().as_millis()));
        let ending: Ending = conclude(&EndFacts {
            game: self.game.as_ref(),
            me: self.me,
            pending,
            clocks_ms: if ended { clocks } else { None },
            aborted: self.aborted.as_ref().map(|(why, _)| why.as_str()),
            gave_up: self.gave_up.as_deref(),
        });
        log::info!("game {}: over: {} ({})", self.id, ending.result, ending.reason);
        if ended && self.full.is_some() && !self.shared.chat.goodbye.is_empty() {
            self.chat(&self.shared.chat.goodbye.clone());
        }
        let (white, black, fen) = match &self.full {
            Some(f) => (f.white.name.as_str(), f.black.name.as_str(), f.initial_fen.as_str()),
            None => ("?", "?", ""),
        };
        let finished = Finished {
            server: &self.shared.server,
            id: &self.id,
            white,
            black,
            initial_fen: fen,
            time_control: self.time_control.clone(),
            game: self.game.as_ref(),
            ending: &ending,
        };
        match self.shared.recorder.append(&finished) {
            Ok(()) => log::info!("game {}: recorded", self.id),
            Err(e) => log::error!("game {}: {e}", self.id),
        }
    }
}

/// Reads game `id`'s stream, reconnecting with backoff, until the game ends, the game thread
/// is done, or the stream cannot be had. A `gameEnd` also stops a running search.
fn read_stream(api: &Api, id: &str, tx: &Sender<Msg>, done: &AtomicBool, control: &SearchControl) {
    let mut backoff = Backoff::new();
    while !done.load(Ordering::SeqCst) {
        let mut stream = match api.game_stream(id) {
            Ok(stream) => stream,
            Err(e @ (ApiError::Refused { .. } | ApiError::Rejected { .. })) => {
                log::error!("game {id}: its stream is refused: {e}");
                let _ = tx.send(Msg::Gone(format!("its stream is refused: {e}")));
                return;
            }
            Err(e) => {
                let wait = backoff.next_wait(match e {
                    ApiError::RateLimited { retry_after } => retry_after,
                    _ => None,
                });
                log::warn!("game {id}: stream: {e}; again in {} ms", wait.as_millis());
                std::thread::sleep(wait);
                continue;
            }
        };
        loop {
            match stream.next::<GameEvent>() {
                Ok(Next::Message(event)) => {
                    backoff.reset();
                    let end = matches!(event, GameEvent::GameEnd { .. });
                    if end {
                        done.store(true, Ordering::SeqCst);
                        control.stop();
                    }
                    if tx.send(Msg::Event(Box::new(event))).is_err() || end {
                        return;
                    }
                }
                Ok(Next::Unreadable(line, e)) => log::warn!("game {id}: unreadable line skipped ({e}): {line}"),
                Ok(Next::End) => break,
                Err(e) => {
                    log::warn!("game {id}: {e}");
                    break;
                }
            }
            if done.load(Ordering::SeqCst) {
                return;
            }
        }
        if !done.load(Ordering::SeqCst) {
            let wait = backoff.next_wait(None);
            log::info!("game {id}: stream closed; reconnecting in {} ms", wait.as_millis());
            std::thread::sleep(wait);
        }
    }
}

#[cfg(test)]
#[path = "game_tests.rs"]
mod tests;
