//! The bot's main loop: the token checked, the games of a previous run picked up, the event
//! stream kept open (reconnecting with backoff; a refused token or a refused capabilities
//! header ends the program instead), each challenge accepted or declined by the policy, each
//! game played on its own thread, and on SIGINT/SIGTERM a clean stop.

use super::args::OnStop;
use super::backoff::Backoff;
use super::config::Settings;
use super::engine::EngineSpec;
use super::game::{self, GameContext};
use super::http::{is_id, Api, ApiError, Stream};
use super::ndjson::Next;
use super::overhead::Overhead;
use super::policy::Decline;
use super::record::Recorder;
use super::registry::Registry;
use super::signals::{self, Termination};
use super::wire::{Challenge, Event};
use crate::status;
use crate::uci::output::to_stdout;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::Duration;

/// The exit status when the bot cannot run (wrong token, not a BOT, server unreachable).
pub const FAILED: i32 = 1;

/// Runs the bot until a termination signal (or, with `--dry-run`, after the checks).
pub fn run(settings: Settings) -> i32 {
    let api = Arc::new(Api::new(&settings.server, &settings.token));
    let login = std::time::Instant::now();
    let account = api.account();
    // The login's round trip: the first estimate of a move's network overhead.
    let overhead = Arc::new(Overhead::new(login.elapsed()));
    let me = match account {
        Ok(account) if account.title.as_deref() == Some("BOT") => account.username,
        Ok(account) => {
            log::error!(
                "{} is not a BOT account on {}: upgrade it first (docs/bot.md, POST /api/bot/account/upgrade)",
                account.username,
                settings.server
            );
            return FAILED;
        }
        Err(e @ ApiError::Refused { .. }) => {
            log::error!("{}: {e}: check {}", settings.server, super::config::TOKEN_VAR);
            return FAILED;
        }
        Err(e) => {
            log::error!("cannot use {}: {e}", settings.server);
            return FAILED;
        }
    };
    let engine = match EngineSpec::load(&settings.engine).and_then(|spec| spec.player().map(|_| spec)) {
        Ok(spec) => Arc::new(spec),
        Err(e) => {
            log::error!("{e}");
            return status::USAGE;
        }
    };
    log::info!("logged in to {} as {me}; {}", settings.server, engine.describe());
    log::info!("accepting {}", settings.policy.describe());
    if settings.dry_run {
        return dry_run(&api, &settings, &me, &engine);
    }
    let termination = match signals::watch() {
        Ok(t) => t,
        Err(e) => {
            log::error!("{e}");
            return FAILED;
        }
    };
    let context = Arc::new(GameContext {
        site: api.clone(),
        server: settings.server.clone(),
        me,
        engine,
        time: settings.engine.time(),
        overhead,
        chat: settings.chat.clone(),
        recorder: Arc::new(Recorder::new(&settings.pgn)),
        abort_all: Arc::new(AtomicBool::new(false)),
    });
    let registry = Arc::new(Registry::new(&settings.state_file));
    let mut bot = Bot {
        api,
        settings,
        context,
        registry,
        termination,
    };
    for id in bot.registry.saved() {
        log::info!("game {id}: in progress at the last stop; picking it up");
        bot.start_game(&id);
    }
    bot.serve()
}

/// Opens the event stream once (the site checks the capabilities header), says what would
/// be accepted, and ends.
fn dry_run(api: &Api, settings: &Settings, me: &str, engine: &EngineSpec) -> i32 {
    match api.event_stream(&settings.policy.variants) {
        Ok(_) => {}
        Err(e) => {
            log::error!("the event stream was refused: {e}");
            return FAILED;
        }
    }
    to_stdout(&format!(
        "dry run: logged in to {} as {me}, the event stream opens (variants {}).\nWould accept {}.\nWould play as {} ({}); finished games go to {}, the games in progress to {}, the log to {}.\n",
        settings.server,
        settings.policy.variants.join(", "),
        settings.policy.describe(),
        engine.level_words(),
        engine.describe(),
        settings.pgn.display(),
        settings.state_file.display(),
        settings
            .log
            .as_ref()
            .map_or_else(|| "stderr".to_string(), |p| format!("{} (errors on stderr too)", p.display()))
    ));
    status::SUCCESS
}

/// What the event stream's reader thread passes on.
enum Incoming {
    /// An event.
    Event(Event),
    /// The stream is open.
    Open,
    /// The stream closed or broke (it is reopened after a wait).
    Closed(String),
    /// The site refused the stream for good.
    Fatal(String),
}

struct Bot {
    api: Arc<Api>,
    settings: Settings,
    context: Arc<GameContext>,
    registry: Arc<Registry>,
    termination: Termination,
}

impl Bot {
    /// The loop on the event stream's messages and the signals.
    fn serve(&mut self) -> i32 {
        let (tx, rx) = mpsc::channel();
        let (api, variants) = (self.api.clone(), self.settings.policy.variants.clone());
        let spawned = std::thread::Builder::new()
            .name("bot-events".into())
            .spawn(move || read_events(&api, &variants, &tx, Backoff::new()));
        if let Err(e) = spawned {
            log::error!("cannot start the event thread: {e}");
            return FAILED;
        }
        self.handle_events(&rx)
    }

    fn handle_events(&mut self, rx: &Receiver<Incoming>) -> i32 {
        let mut stopping = false;
        loop {
            let signals = self.termination.count();
            if signals >= 1 && !stopping {
                stopping = true;
                log::info!(
                    "stopping: no new games; {} running game(s) will be {}",
                    self.registry.len(),
                    match self.settings.on_stop {
                        OnStop::Finish => "played to the end (a second signal aborts them)",
                        OnStop::Abort => "aborted",
                    }
                );
                if self.settings.on_stop == OnStop::Abort {
                    self.context.abort_all.store(true, Ordering::SeqCst);
                }
            }
            if signals >= 2 && !self.context.abort_all.swap(true, Ordering::SeqCst) {
                log::info!("second signal: aborting the running games");
            }
            if stopping && self.registry.len() == 0 {
                log::info!("stopped");
                return status::SUCCESS;
            }
            match rx.recv_timeout(Duration::from_millis(200)) {
                Ok(Incoming::Event(Event::Challenge { challenge })) => self.on_challenge(&challenge, stopping),
                Ok(Incoming::Event(Event::GameStart { game })) => self.on_game_start(&game.id, stopping),
                Ok(Incoming::Event(_)) => {}
                Ok(Incoming::Open) => log::info!("event stream open"),
                Ok(Incoming::Closed(why)) => log::warn!("event stream: {why}"),
                Ok(Incoming::Fatal(why)) => {
                    log::error!("{why}");
                    self.context.abort_all.store(true, Ordering::SeqCst);
                    return FAILED;
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return FAILED,
            }
        }
    }

    /// Accepts or declines `challenge`.
    fn on_challenge(&mut self, challenge: &Challenge, stopping: bool) {
        let id = &challenge.id;
        if !is_id(id) {
            log::warn!("challenge with an unusable id '{id}' ignored");
            return;
        }
        let decision = if stopping {
            Err(Decline::Shutdown)
        } else {
            self.settings.policy.decide(challenge, self.registry.len())
        };
        let from = &challenge.challenger.name;
        match decision {
            Ok(()) => match self.api.accept(id) {
                Ok(()) => {
                    log::info!("challenge {id} from {from} ({}) accepted", challenge.variant.key);
                    self.start_game(id);
                }
                Err(e) => log::warn!("challenge {id} from {from}: accepting failed: {e}"),
            },
            Err(reason) => match self.api.decline(id, reason.key()) {
                Ok(()) => log::info!("challenge {id} from {from} declined: {}", reason.key()),
                Err(e) => log::warn!("challenge {id} from {from}: declining failed: {e}"),
            },
        }
    }

    /// A game the site started: one the bot accepted (already followed), one in progress
    /// after a reconnect, or one it never accepted (a rematch the site starts by itself):
    /// followed while there is room, refused (aborted before its first move) beyond
    /// `max_games` or while stopping. A game already under way is always followed.
    fn on_game_start(&mut self, id: &str, stopping: bool) {
        if !is_id(id) || self.registry.contains(id) {
            return;
        }
        if !stopping && self.registry.len() < self.settings.policy.max_games {
            log::info!("game {id}: started by the site (a rematch or a game in progress); following it");
            self.start_game(id);
            return;
        }
        let (site, api, registry, chat) = (
            self.context.site.clone(),
            self.api.clone(),
            self.registry.clone(),
            self.context.clone(),
        );
        let game_id = id.to_string();
        let spawned = std::thread::Builder::new()
            .name(format!("bot-refuse-{id}"))
            .spawn(move || match site.page(&game_id) {
                Ok(Some(record)) if !record.ended() && record.moves.is_empty() => {
                    log::info!("game {game_id}: started by the site beyond max_games (a rematch?); aborting it");
                    if let Err(e) = site.chat(
                        &game_id,
                        "Sorry, I am playing as many games as I may; challenge me again later.",
                    ) {
                        log::warn!("game {game_id}: chat failed: {e}");
                    }
                    if let Err(e) = site.abort(&game_id) {
                        log::warn!("game {game_id}: abort failed: {e}");
                    }
                }
                Ok(Some(record)) if !record.ended() => {
                    log::info!("game {game_id}: in progress beyond max_games; following it all the same");
                    if registry.insert(&game_id) {
                        game::play(chat, api, game_id.clone());
                        registry.remove(&game_id);
                    }
                }
                Ok(_) => log::info!("game {game_id}: started by the site and already over"),
                Err(e) => log::warn!("game {game_id}: the site's page cannot be read: {e}"),
            });
        if let Err(e) = spawned {
            log::error!("game {id}: cannot start a thread: {e}");
        }
    }

    /// Plays game `id` on a thread of its own (once).
    fn start_game(&mut self, id: &str) {
        if !is_id(id) || !self.registry.insert(id) {
            return;
        }
        let (context, api, registry, game_id) = (
            self.context.clone(),
            self.api.clone(),
            self.registry.clone(),
            id.to_string(),
        );
        let spawned = std::thread::Builder::new()
            .name(format!("bot-game-{id}"))
            .spawn(move || {
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    game::play(context, api, game_id.clone())
                }));
                if outcome.is_err() {
                    log::error!("game {game_id}: its thread failed; the other games go on");
                }
                registry.remove(&game_id);
            });
        if let Err(e) = spawned {
            log::error!("game {id}: cannot start its thread: {e}");
            self.registry.remove(id);
        }
    }
}

/// Keeps the event stream open and passes its events on, until the receiver is gone, waiting
/// by `backoff` between connections.
fn read_events(api: &Api, variants: &[String], tx: &Sender<Incoming>, mut backoff: Backoff) {
    loop {
        let wait = match api.event_stream(variants) {
            Ok(mut stream) => {
                if tx.send(Incoming::Open).is_err() {
                    return;
                }
                let why = match pass_events(&mut stream, tx, &mut backoff) {
                    Some(why) => why,
                    None => return,
                };
                let wait = backoff.next_wait(None);
                if tx
                    .send(Incoming::Closed(format!("{why}; reopening in {} ms", wait.as_millis())))
                    .is_err()
                {
                    return;
                }
                wait
            }
            Err(e @ ApiError::Refused { .. }) => {
                let _ = tx.send(Incoming::Fatal(format!("the event stream was refused: {e}")));
                return;
            }
            Err(ApiError::Rejected { status: 400, body }) => {
                let _ = tx.send(Incoming::Fatal(format!(
                    "the site refused the event stream (HTTP 400): {body}"
                )));
                return;
            }
            Err(e) => {
                let retry_after = match e {
                    ApiError::RateLimited { retry_after } => retry_after,
                    _ => None,
                };
                let wait = backoff.next_wait(retry_after);
                if tx
                    .send(Incoming::Closed(format!("{e}; again in {} ms", wait.as_millis())))
                    .is_err()
                {
                    return;
                }
                wait
            }
        };
        std::thread::sleep(wait);
    }
}

/// Passes the events of one connection on; `Some(why)` when it closed, `None` when the
/// receiver is gone.
fn pass_events(stream: &mut Stream, tx: &Sender<Incoming>, backoff: &mut Backoff) -> Option<String> {
    loop {
        match stream.next::<Event>() {
            Ok(Next::Message(event)) => {
                backoff.reset();
                tx.send(Incoming::Event(event)).ok()?;
            }
            Ok(Next::Unreadable(line, e)) => log::warn!("event stream: unreadable line skipped ({e}): {line}"),
            Ok(Next::End) => return Some("closed by the site".into()),
            Err(e) => return Some(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::test_server::{serve, Answer};
    use std::time::Instant;

    /// What `read_events` passes on, as short words.
    fn words(rx: &Receiver<Incoming>, n: usize) -> Vec<String> {
        (0..n)
            .map(|_| match rx.recv_timeout(Duration::from_secs(10)).expect("a message") {
                Incoming::Event(Event::Challenge { challenge }) => format!("challenge {}", challenge.id),
                Incoming::Event(e) => format!("{e:?}"),
                Incoming::Open => "open".into(),
                Incoming::Closed(why) => format!("closed: {why}"),
                Incoming::Fatal(why) => format!("fatal: {why}"),
            })
            .collect()
    }

    #[test]
    fn the_event_stream_reconnects_and_stops_on_a_refusal() {
        let challenge = r#"{"type":"challenge","challenge":{"id":"iqSgPqOc","challenger":{"name":"tester"},"variant":{"key":"alice"},"rated":false,"timeControl":{"type":"clock","limit":60,"increment":2},"color":"white"}}"#;
        let mut limited = Answer::new("429 Too Many Requests", "");
        limited.headers.push("Retry-After: 1".into());
        let server = serve(vec![
            Answer::new("503 Service Unavailable", ""),
            limited,
            Answer::new("200 OK", &format!("{challenge}\n")),
            Answer::new("400 Bad Request", "Missing required X-PyChess-Bot-Capabilities header."),
        ]);
        let api = Api::new(&server.base, "secret");
        let (tx, rx) = mpsc::channel();
        let start = Instant::now();
        std::thread::spawn(move || {
            read_events(
                &api,
                &["alice".into()],
                &tx,
                Backoff::starting_at(Duration::from_millis(10)),
            )
        });
        let seen = words(&rx, 4);
        assert!(seen[0].starts_with("closed: HTTP 503: server error"), "{seen:?}");
        assert!(
            seen[1].starts_with("closed: HTTP 429: too many requests (retry after 1 s); again in 1000 ms"),
            "{seen:?}"
        );
        assert_eq!(seen[2..], ["open", "challenge iqSgPqOc"]);
        assert!(start.elapsed() >= Duration::from_secs(1), "Retry-After not honoured");
        let seen = words(&rx, 2);
        assert!(seen[0].starts_with("closed: closed by the site"), "{seen:?}");
        assert!(
            seen[1].starts_with("fatal: the site refused the event stream (HTTP 400): Missing required"),
            "{seen:?}"
        );
    }

    #[test]
    fn a_refused_token_on_the_event_stream_is_fatal() {
        let server = serve(vec![Answer::new("401 Unauthorized", "")]);
        let api = Api::new(&server.base, "secret");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || read_events(&api, &["alice".into()], &tx, Backoff::new()));
        let seen = words(&rx, 1);
        assert!(
            seen[0].starts_with("fatal: the event stream was refused: HTTP 401"),
            "{seen:?}"
        );
    }
}
