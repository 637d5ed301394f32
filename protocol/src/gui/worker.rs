//! One engine child process, driven from its own thread.
//!
//! The thread starts the engine with the match runner's UCI client (handshake, `UCI_Variant`
//! and the other rule options, the configured options), then runs searches on request. A new
//! search while one is running first sends `stop` and waits for that `bestmove`, so the engine
//! always sees one search at a time. Everything the engine says is passed to a callback; an
//! engine that crashes, or does not answer in time, is reported and the thread ends.

use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::thread;
use std::time::{Duration, Instant};
use vorpal_engine::Rules;
use vorpal_tuning::arena::engine_process::{EngineConfig, EngineProcess};

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
    },
    /// An `info` line of search `id`.
    Info(u64, String),
    /// The `bestmove` of search `id` (the move text).
    BestMove(u64, String),
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

/// The requests side of a running worker. Dropping it ends the engine.
pub struct Worker {
    jobs: Sender<Job>,
}

impl Worker {
    /// Starts `config` under `rules` with `extra` options (set after the configured ones) on a
    /// new thread; `on_event` receives everything it reports.
    pub fn spawn(
        mut config: EngineConfig,
        rules: Rules,
        extra: Vec<(String, String)>,
        on_event: impl Fn(Event) + Send + 'static,
    ) -> Worker {
        let (tx, rx) = mpsc::channel();
        for (k, v) in extra {
            config.options.retain(|(n, _)| !n.eq_ignore_ascii_case(&k));
            config.options.push((k, v));
        }
        let spawned = thread::Builder::new()
            .name(format!("gui-engine-{}", config.name))
            .spawn(move || run(config, rules, rx, &on_event));
        if let Err(e) = spawned {
            log::error!("cannot start an engine thread: {e}");
        }
        Worker { jobs: tx }
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

fn run(config: EngineConfig, rules: Rules, jobs: Receiver<Job>, on_event: &dyn Fn(Event)) {
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
    let mut engine = match EngineProcess::start(&probe, rules, STARTUP) {
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
    });
    let mut running: Option<Running> = None;
    let mut queued: Option<Job> = None;
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
        match engine.next_line(Instant::now() + POLL) {
            Ok(Some(line)) => {
                let mut words = line.split_whitespace();
                match (words.next(), &running) {
                    (Some("info"), Some(r)) => on_event(Event::Info(r.id, line.clone())),
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
        let worker = Worker::spawn(silent_engine(), Rules::default(), Vec::new(), move |e| {
            let _ = tx.send(e);
        });
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
