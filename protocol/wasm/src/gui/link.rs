//! The UCI conversation of a page's engine in the browser build with its Web Worker, as the
//! native worker thread runs it with a process: the handshake
//! with the game's rules and the page's options, one search at a time (a new one first stops
//! the old and waits for its `bestmove`), `info` lines beyond the asked-for MultiPV dropped,
//! and an infinite analysis that ends by itself told once.

use vorpal_client::engine_process::EngineConfig;
use vorpal_client::uci_hello::UciHello;
use vorpal_engine::Rules;
use vorpal_page::engine_talk::{listed_page_options, multipv_asked, multipv_of, split_page_options, Event, Job};

/// Where a link's conversation is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// `uci` sent; reading the name and options until `uciok`.
    Hello,
    /// Set up; waiting for `readyok`.
    Setup,
    /// Ready for searches.
    Ready,
}

/// The search being run: its number, whether it is an infinite analysis, and whether
/// `stop` was sent.
#[derive(Clone, Copy, Debug)]
struct Running {
    id: u64,
    infinite: bool,
    stopping: bool,
}

/// The UCI conversation with one engine Worker.
pub struct Link {
    name: String,
    probe: EngineConfig,
    wanted: Vec<(String, String)>,
    rules: Rules,
    multipv: u32,
    hello: UciHello,
    phase: Phase,
    running: Option<Running>,
    queued: Option<Job>,
    told_early_end: bool,
    out: Vec<String>,
}

impl Link {
    /// A link for `config` under `rules`; its first line (`uci`) is queued.
    pub fn new(config: &EngineConfig, rules: Rules) -> Link {
        let (probe, wanted) = split_page_options(config);
        Link {
            name: config.name.clone(),
            probe,
            wanted,
            rules,
            multipv: multipv_asked(&config.options),
            hello: UciHello::default(),
            phase: Phase::Hello,
            running: None,
            queued: None,
            told_early_end: false,
            out: vec!["uci".into()],
        }
    }

    /// The lines to send, in order, since the last call.
    pub fn take_lines(&mut self) -> Vec<String> {
        std::mem::take(&mut self.out)
    }

    /// A request of the session.
    pub fn job(&mut self, job: Job) {
        match job {
            Job::Go { .. } => self.queued = Some(job),
            Job::Stop => self.queued = None,
        }
        if let Some(r) = self.running.as_mut().filter(|r| !r.stopping) {
            r.stopping = true;
            self.out.push("stop".into());
        }
        self.start_queued();
    }

    fn start_queued(&mut self) {
        if self.phase != Phase::Ready || self.running.is_some() {
            return;
        }
        if let Some(Job::Go {
            id,
            position,
            go,
            expected,
        }) = self.queued.take()
        {
            self.out.push(position);
            self.out.push(go);
            self.running = Some(Running {
                id,
                infinite: expected.is_none(),
                stopping: false,
            });
        }
    }

    /// A line the engine printed; the reports it makes.
    pub fn read(&mut self, line: &str) -> Vec<Event> {
        let mut events = Vec::new();
        match self.phase {
            Phase::Hello => {
                if self.hello.read(line) {
                    let (commands, _unlisted) = self.hello.setup(&self.probe.options, self.rules);
                    self.out.extend(commands);
                    self.out.extend(listed_page_options(&self.hello, &self.wanted));
                    self.out.push("ucinewgame".into());
                    self.out.push("isready".into());
                    self.phase = Phase::Setup;
                }
            }
            Phase::Setup => {
                if line.trim() == "readyok" {
                    self.phase = Phase::Ready;
                    events.push(Event::ready(&self.hello, &self.name));
                    self.start_queued();
                }
            }
            Phase::Ready => {
                let mut words = line.split_whitespace();
                match (words.next(), self.running) {
                    (Some("info"), Some(r)) if (1..=self.multipv).contains(&multipv_of(line)) => {
                        events.push(Event::Info(r.id, line.to_string()));
                    }
                    (Some("bestmove"), Some(r)) if r.infinite && !r.stopping => {
                        if !self.told_early_end {
                            self.told_early_end = true;
                            events.push(Event::Notice(format!(
                                "{} ended its infinite analysis by itself (bestmove {}); analysis \
                                 waits for the next position",
                                self.name,
                                words.next().unwrap_or("")
                            )));
                        }
                        self.running = None;
                    }
                    (Some("bestmove"), Some(r)) => {
                        events.push(Event::BestMove(r.id, words.next().unwrap_or("").to_string()));
                        self.running = None;
                        self.start_queued();
                    }
                    _ => {}
                }
            }
        }
        events
    }

    /// The report of a Worker that failed.
    pub fn failure(&self, why: &str) -> Event {
        Event::Failed(format!("{}: {why}", self.name))
    }
}
