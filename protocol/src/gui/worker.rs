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
use vorpal_page::engine_talk::{
    listed_page_options, multipv_asked, multipv_of, split_page_options, with_extra, Event, Job,
};

/// Time allowed for the handshake and `isready`.
const STARTUP: Duration = Duration::from_secs(10);
/// Time allowed beyond a search's expected length before the engine counts as hung.
const HANG_GRACE: Duration = Duration::from_secs(10);
/// Time allowed for the `bestmove` that answers `stop`.
const STOP_GRACE: Duration = Duration::from_secs(5);
/// How long one wait for output lasts before requests are looked at again.
const POLL: Duration = Duration::from_millis(15);

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
        config: EngineConfig,
        rules: Rules,
        extra: Vec<(String, String)>,
        on_event: impl Fn(Event) + Send + 'static,
    ) -> Result<EngineWorker, String> {
        let slot = pool.reserve()?;
        let (tx, rx) = mpsc::channel();
        let config = with_extra(config, extra);
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

fn run(child: Arc<ChildHandle>, config: EngineConfig, rules: Rules, jobs: Receiver<Job>, on_event: &dyn Fn(Event)) {
    // Only the options the engine lists are sent: the page's choices may not exist everywhere.
    let (probe, wanted) = split_page_options(&config);
    let multipv = multipv_asked(&config.options);
    let mut engine = match EngineProcess::start_in(child, &probe, rules, STARTUP) {
        Ok(e) => e,
        Err(e) => return on_event(Event::Failed(format!("{}: {e}", config.name))),
    };
    for command in listed_page_options(engine.hello(), &wanted) {
        if let Err(e) = engine.send(&command) {
            return on_event(Event::Failed(format!("{}: {e}", config.name)));
        }
    }
    if let Err(e) = engine.new_game(STARTUP) {
        return on_event(Event::Failed(format!("{}: {e}", config.name)));
    }
    on_event(Event::ready(engine.hello(), &config.name));
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
