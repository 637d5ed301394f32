//! One engine child process, driven from its own thread.
//!
//! The thread starts the engine with the match runner's UCI client (handshake, `UCI_Variant`
//! and the other rule options, the configured options), then runs searches on request. A new
//! search while one is running first sends `stop` and waits for that `bestmove`, so the engine
//! always sees one search at a time. Everything the engine says is passed to a callback; an
//! engine that crashes, or does not answer in time, is reported and the thread ends.
//!
//! The engine's output is not trusted: lines beyond the asked-for MultiPV count are dropped,
//! overlong or non-UTF-8 output is reported once (the client cuts and decodes it), and an engine
//! that ends infinite analysis on its own is reported once and left idle, never restarted in a
//! loop. Each worker holds a place in the server's [`EnginePool`]; dropping the worker kills its
//! engine at once, even in the middle of the handshake.

use super::engine_pool::{EnginePool, EngineSlot};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};
use vorpal_client::engine_child::ChildHandle;
use vorpal_client::engine_process::{EngineConfig, EngineProcess};
use vorpal_engine::Rules;

/// Time allowed for the handshake and `isready`.
const STARTUP: Duration = Duration::from_secs(10);
/// Time allowed beyond a search's expected length before the engine counts as hung.
const HANG_GRACE: Duration = Duration::from_secs(10);
/// Time allowed for the `bestmove` that answers `stop`.
const STOP_GRACE: Duration = Duration::from_secs(5);
/// How long one wait for output lasts before requests are looked at again.
const POLL: Duration = Duration::from_millis(15);

/// What the engine was asked to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Job {
    /// Search: the `position` command, the `go` command, and the longest the search should take
    /// (None for infinite analysis).
    Go {
        /// Search number, returned with its output.
        id: u64,
        /// `position ...`.
        position: String,
        /// `go ...`.
        go: String,
        /// Expected longest duration (hang detection).
        expected: Option<Duration>,
    },
    /// Stop the running search (its `bestmove` is still reported).
    Stop,
}

/// What the engine said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// The handshake is done.
    Ready {
        /// The engine's `id name`, or the configured name.
        name: String,
        /// The values of its `UCI_Variant` option.
        variants: Vec<String>,
        /// The options it lists, of those the page can set.
        options: Vec<String>,
        /// The range of its `UCI_Elo`, when it lists one.
        elo_range: Option<(i64, i64)>,
    },
    /// An `info` line of search `id`.
    Info(u64, String),
    /// The `bestmove` of search `id` (the move text).
    BestMove(u64, String),
    /// Something the person should know about the engine (it keeps running).
    Notice(String),
    /// The engine failed (could not start, crashed, hung); the thread has ended.
    Failed(String),
}

/// The options the page may set, when an engine lists them.
const PAGE_OPTIONS: [&str; 5] = [
    "MultiPV",
    "UCI_AnalyseMode",
    "Skill Level",
    "UCI_Elo",
    "UCI_LimitStrength",
];

/// The requests side of a running worker. Dropping it kills the engine at once.
pub struct EngineWorker {
    jobs: Sender<Job>,
    // Dropped after `jobs`: kills the process and frees its place in the pool.
    _slot: EngineSlot,
}

impl EngineWorker {
    /// Starts `config` under `rules` with `extra` options (set after the configured ones) on a
    /// new thread; `on_event` receives everything it reports. Fails when `pool` is full.
    pub fn spawn(
        pool: &Arc<EnginePool>,
        mut config: EngineConfig,
        rules: Rules,
        extra: Vec<(String, String)>,
        on_event: impl Fn(Event) + Send + 'static,
    ) -> Result<EngineWorker, String> {
        let slot = pool.reserve()?;
        let (tx, rx) = mpsc::channel();
        for (k, v) in extra {
            config.options.retain(|(n, _)| !n.eq_ignore_ascii_case(&k));
            config.options.push((k, v));
        }
        let child = slot.child.clone();
        thread::Builder::new()
            .name(format!("gui-engine-{}", config.name))
            .spawn(move || run(child, config, rules, rx, &on_event))
            .map_err(|e| format!("cannot start an engine thread: {e}"))?;
        Ok(EngineWorker { jobs: tx, _slot: slot })
    }

    /// Sends a request; a worker that has ended ignores it (it already reported why).
    pub fn send(&self, job: Job) {
        let _ = self.jobs.send(job);
    }
}

/// The search being run.
struct Running {
    id: u64,
    deadline: Option<Instant>,
    stop_deadline: Option<Instant>,
}

/// The MultiPV count asked for in `options` (1 when not set).
fn multipv_asked(options: &[(String, String)]) -> u32 {
    options
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("MultiPV"))
        .and_then(|(_, v)| v.trim().parse().ok())
        .unwrap_or(1)
        .max(1)
}

/// The MultiPV number of an `info` line (1 when it names none; 0 when it is not a number).
fn multipv_of(line: &str) -> u32 {
    let mut words = line.split_whitespace();
    while let Some(w) = words.next() {
        if w == "multipv" {
            return words.next().and_then(|n| n.parse().ok()).unwrap_or(0);
        }
        if w == "pv" || w == "string" {
            break;
        }
    }
    1
}

fn run(child: Arc<ChildHandle>, config: EngineConfig, rules: Rules, jobs: Receiver<Job>, on_event: &dyn Fn(Event)) {
    // Only the options the engine lists are sent: the page's choices may not exist everywhere.
    let mut probe = config.clone();
    let wanted: Vec<(String, String)> = probe
        .options
        .iter()
        .filter(|(k, _)| PAGE_OPTIONS.iter().any(|p| p.eq_ignore_ascii_case(k)))
        .cloned()
        .collect();
    probe
        .options
        .retain(|(k, _)| !PAGE_OPTIONS.iter().any(|p| p.eq_ignore_ascii_case(k)));
    let multipv = multipv_asked(&config.options);
    let mut engine = match EngineProcess::start_in(child, &probe, rules, STARTUP) {
        Ok(e) => e,
        Err(e) => return on_event(Event::Failed(format!("{}: {e}", config.name))),
    };
    let listed: Vec<&(String, String)> = wanted.iter().filter(|(k, _)| engine.has_option(k)).collect();
    for (k, v) in listed {
        if let Err(e) = engine.send(&format!("setoption name {k} value {v}")) {
            return on_event(Event::Failed(format!("{}: {e}", config.name)));
        }
    }
    if let Err(e) = engine.new_game(STARTUP) {
        return on_event(Event::Failed(format!("{}: {e}", config.name)));
    }
    on_event(Event::Ready {
        name: engine.id_name().unwrap_or(&config.name).to_string(),
        variants: engine.combo_values("UCI_Variant"),
        options: PAGE_OPTIONS
            .iter()
            .filter(|o| engine.has_option(o))
            .map(|o| o.to_string())
            .collect(),
        elo_range: engine.spin_range("UCI_Elo"),
    });
    let mut running: Option<Running> = None;
    let mut queued: Option<Job> = None;
    let mut told_early_end = false;
    let fail = |engine: EngineProcess, why: String| {
        engine.kill();
        on_event(Event::Failed(format!("{}: {why}", config.name)));
    };
    loop {
        loop {
            match jobs.try_recv() {
                Ok(job @ Job::Go { .. }) => queued = Some(job),
                Ok(Job::Stop) => queued = None,
                Err(TryRecvError::Empty) => break,
                // The session dropped this worker: quit the engine.
                Err(TryRecvError::Disconnected) => return engine.shutdown(Duration::from_millis(500)),
            }
            if let Some(r) = running.as_mut().filter(|r| r.stop_deadline.is_none()) {
                if let Err(e) = engine.send("stop") {
                    return fail(engine, e.to_string());
                }
                r.stop_deadline = Some(Instant::now() + STOP_GRACE);
            }
        }
        if running.is_none() {
            if let Some(Job::Go {
                id,
                position,
                go,
                expected,
            }) = queued.take()
            {
                if let Err(e) = engine.send(&position).and_then(|_| engine.send(&go)) {
                    return fail(engine, e.to_string());
                }
                running = Some(Running {
                    id,
                    deadline: expected.map(|d| Instant::now() + d + HANG_GRACE),
                    stop_deadline: None,
                });
            }
        }
        let next = engine.next_line(Instant::now() + POLL);
        for warning in engine.take_warnings() {
            on_event(Event::Notice(warning));
        }
        match next {
            Ok(Some(line)) => {
                let mut words = line.split_whitespace();
                match (words.next(), &running) {
                    (Some("info"), Some(r)) if (1..=multipv).contains(&multipv_of(&line)) => {
                        on_event(Event::Info(r.id, line.clone()))
                    }
                    // Infinite analysis ends only on `stop`: an engine that ends it by itself
                    // is told about once and left idle until the next request (a new search
                    // would only end the same way, over and over).
                    (Some("bestmove"), Some(r)) if r.deadline.is_none() && r.stop_deadline.is_none() => {
                        if !told_early_end {
                            told_early_end = true;
                            on_event(Event::Notice(format!(
                                "{} ended its infinite analysis by itself (bestmove {}); \
                                 analysis waits for the next position",
                                config.name,
                                words.next().unwrap_or("")
                            )));
                        }
                        running = None;
                    }
                    (Some("bestmove"), Some(r)) => {
                        on_event(Event::BestMove(r.id, words.next().unwrap_or("").to_string()));
                        running = None;
                    }
                    _ => {}
                }
            }
            Ok(None) => {}
            Err(e) => return fail(engine, e.to_string()),
        }
        if let Some(r) = &running {
            let now = Instant::now();
            if r.deadline.is_some_and(|d| now > d) {
                return fail(engine, "no bestmove in time (the engine hangs)".into());
            }
            if r.stop_deadline.is_some_and(|d| now > d) {
                return fail(engine, "no bestmove after stop (the engine hangs)".into());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multipv_numbers() {
        assert_eq!(multipv_asked(&[("multipv".into(), "3".into())]), 3);
        assert_eq!(multipv_asked(&[("MultiPV".into(), "0".into())]), 1);
        assert_eq!(multipv_asked(&[]), 1);
        assert_eq!(multipv_of("info depth 3 multipv 2 score cp 1 pv e2e4"), 2);
        assert_eq!(multipv_of("info depth 3 score cp 1 pv e2e4 multipv 9"), 1);
        assert_eq!(multipv_of("info multipv x pv e2e4"), 0);
    }

    /// An engine that does the handshake and then never answers a search.
    fn silent_engine() -> EngineConfig {
        let script = "while read l; do case $l in uci) echo uciok;; isready) echo readyok;; quit) exit 0;; esac; done";
        EngineConfig {
            name: "silent".into(),
            cmd: "sh".into(),
            args: vec!["-c".into(), script.into()],
            ..EngineConfig::default()
        }
    }

    #[test]
    #[ignore = "full tier: waits for the 10 s hang grace"]
    fn a_hung_engine_is_reported() {
        let (tx, rx) = mpsc::channel();
        let pool = EnginePool::new(1);
        let worker = EngineWorker::spawn(&pool, silent_engine(), Rules::default(), Vec::new(), move |e| {
            let _ = tx.send(e);
        })
        .unwrap();
        let ready = rx.recv_timeout(Duration::from_secs(20)).unwrap();
        assert!(matches!(ready, Event::Ready { .. }), "{ready:?}");
        worker.send(Job::Go {
            id: 1,
            position: "position startpos".into(),
            go: "go movetime 10".into(),
            expected: Some(Duration::from_millis(10)),
        });
        match rx.recv_timeout(HANG_GRACE + Duration::from_secs(20)).unwrap() {
            Event::Failed(why) => assert!(why.contains("hangs"), "{why}"),
            other => panic!("expected a failure, got {other:?}"),
        }
    }
}
