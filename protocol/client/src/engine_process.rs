//! A UCI engine as a child process over pipes.
//!
//! A reader thread turns the engine's standard output into timestamped lines on a channel, so
//! every wait has a deadline: an engine that hangs is noticed, and one that crashes shows up as
//! the end of its output. The engine's standard error is forwarded to the log. Output is read as
//! bounded lines (see [`crate::engine_output`]): overlong lines are cut, bytes that are not
//! UTF-8 replaced, and both reported once through [`EngineProcess::take_warnings`]. Dropping an
//! [`EngineProcess`] sends `quit` and kills the process if it does not exit promptly.

use crate::engine_child::ChildHandle;
use crate::engine_output::{read_lines, send_lines, OutputLine, OutputProblems, QUEUE};
use crate::timecontrol::TimeControl;
use crate::uci_hello::UciHello;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};
use vorpal_engine::Rules;

/// How to start and configure one engine.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineConfig {
    /// Name used in the PGN and the statistics.
    pub name: String,
    /// Program to run.
    pub cmd: String,
    /// Command-line arguments.
    pub args: Vec<String>,
    /// Working directory.
    pub dir: Option<PathBuf>,
    /// UCI options sent with `setoption` after `uciok`, in order.
    pub options: Vec<(String, String)>,
    /// The engine's time control.
    pub tc: TimeControl,
}

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The process could not be started.
    Spawn(String),
    /// The process ended (its output closed or writing to it failed).
    Crashed(String),
    /// No expected answer within the time allowed.
    Timeout(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Spawn(m) => write!(f, "cannot start: {m}"),
            EngineError::Crashed(m) => write!(f, "crashed: {m}"),
            EngineError::Timeout(m) => write!(f, "timed out: {m}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// A score as reported in `info ... score`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UciScore {
    /// Centipawns from the engine's (side to move's) view.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

/// Largest centipawn score kept; engines' larger values are clamped to it.
pub const MAX_CP: i32 = 50_000;
/// Longest mate distance kept; engines' larger values are clamped to it.
pub const MAX_MATE: i32 = 10_000;

impl UciScore {
    /// The score after `score KIND VALUE` (`cp 35`, `mate -3`), clamped to [`MAX_CP`] and
    /// [`MAX_MATE`] so that no arithmetic on it can overflow; None for anything else.
    pub fn parse(kind: &str, value: &str) -> Option<UciScore> {
        let v: i64 = value.parse().ok()?;
        match kind {
            "cp" => Some(UciScore::Cp(v.clamp(-i64::from(MAX_CP), i64::from(MAX_CP)) as i32)),
            "mate" => Some(UciScore::Mate(v.clamp(-i64::from(MAX_MATE), i64::from(MAX_MATE)) as i32)),
            _ => None,
        }
    }

    /// Centipawns, with mates mapped beyond any real evaluation (±100000 minus the distance).
    pub fn centipawns(self) -> i32 {
        match self {
            UciScore::Cp(cp) => cp,
            UciScore::Mate(m) if m > 0 => 100_000 - m,
            UciScore::Mate(m) => -100_000 - m,
        }
    }

    /// PGN comment form from the engine's view: `+0.35`, `-1.20`, `+M5`, `-M3`.
    pub fn pgn(self) -> String {
        match self {
            UciScore::Cp(cp) => format!(
                "{}{:.2}",
                if cp >= 0 { '+' } else { '-' },
                cp.unsigned_abs() as f64 / 100.0
            ),
            UciScore::Mate(m) if m > 0 => format!("+M{m}"),
            UciScore::Mate(m) => format!("-M{}", m.unsigned_abs()),
        }
    }
}

/// What the engine reported about its last search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchReply {
    /// The move text after `bestmove`.
    pub bestmove: String,
    /// Last score seen (exact scores preferred over bounds).
    pub score: Option<UciScore>,
    /// Depth of the last `info` with a score.
    pub depth: Option<u32>,
    /// Nodes of the last `info`.
    pub nodes: Option<u64>,
    /// Time from sending `go` to receiving `bestmove`.
    pub elapsed: Duration,
}

/// Parses the fields of interest of an `info` line into `reply`.
pub fn parse_info(line: &str, reply: &mut SearchReply) {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let mut depth = None;
    let mut score = None;
    let mut bound = false;
    let mut i = 1;
    while i < tokens.len() {
        match tokens[i] {
            "depth" => depth = tokens.get(i + 1).and_then(|t| t.parse().ok()),
            "nodes" => {
                if let Some(n) = tokens.get(i + 1).and_then(|t| t.parse().ok()) {
                    reply.nodes = Some(n);
                }
            }
            "score" => {
                score = match (tokens.get(i + 1), tokens.get(i + 2)) {
                    (Some(kind), Some(value)) => UciScore::parse(kind, value),
                    _ => None,
                };
                i += 2;
            }
            // Only the best line of a MultiPV search tells the engine's score.
            "multipv" if tokens.get(i + 1).is_some_and(|n| *n != "1") => return,
            "lowerbound" | "upperbound" => bound = true,
            // Everything after `pv` or `string` is free text.
            "pv" | "string" => break,
            _ => {}
        }
        i += 1;
    }
    if let Some(s) = score {
        // A bound from a failed aspiration window replaces an earlier exact score only at a
        // greater depth.
        if !bound || reply.score.is_none() || depth > reply.depth {
            reply.score = Some(s);
            reply.depth = depth.or(reply.depth);
        }
    }
}

/// A running engine.
pub struct EngineProcess {
    name: String,
    child: Arc<ChildHandle>,
    lines: Receiver<OutputLine>,
    problems: OutputProblems,
    hello: UciHello,
}

impl EngineProcess {
    /// Starts the engine, runs the `uci` handshake within `timeout`, selects `rules` through the
    /// options the engine lists (`UCI_Variant`, `UCI_Chess960`, `AliceEnPassant`; unless the
    /// configuration sets them), then sends the configured options and waits for `readyok`.
    pub fn start(config: &EngineConfig, rules: Rules, timeout: Duration) -> Result<EngineProcess, EngineError> {
        EngineProcess::start_in(ChildHandle::new(), config, rules, timeout)
    }

    /// [`EngineProcess::start`] with the process kept in `child`, through which another thread
    /// can end it at any moment (even during the handshake, which then fails at once).
    pub fn start_in(
        child: Arc<ChildHandle>,
        config: &EngineConfig,
        rules: Rules,
        timeout: Duration,
    ) -> Result<EngineProcess, EngineError> {
        let mut cmd = Command::new(&config.cmd);
        cmd.args(&config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &config.dir {
            cmd.current_dir(dir);
        }
        let pipes = child
            .spawn(&mut cmd)
            .map_err(|e| EngineError::Spawn(format!("{}: {e}", config.cmd)))?;
        let stdout = pipes.stdout.expect("piped stdout");
        let stderr = pipes.stderr.expect("piped stderr");
        let (tx, rx) = mpsc::sync_channel(QUEUE);
        let name = config.name.clone();
        let spawned = thread::Builder::new()
            .name(format!("{name}-stdout"))
            .spawn(move || send_lines(stdout, tx));
        if let Err(e) = spawned {
            child.kill();
            return Err(EngineError::Spawn(e.to_string()));
        }
        let err_name = name.clone();
        let spawned = thread::Builder::new().name(format!("{name}-stderr")).spawn(move || {
            read_lines(stderr, |line| {
                log::warn!("{err_name} stderr: {}", line.text);
                true
            })
        });
        if let Err(e) = spawned {
            child.kill();
            return Err(EngineError::Spawn(e.to_string()));
        }
        let mut engine = EngineProcess {
            name,
            child,
            lines: rx,
            problems: OutputProblems::default(),
            hello: UciHello::default(),
        };
        engine.handshake(config, rules, timeout)?;
        Ok(engine)
    }

    fn handshake(&mut self, config: &EngineConfig, rules: Rules, timeout: Duration) -> Result<(), EngineError> {
        self.send("uci")?;
        let deadline = Instant::now() + timeout;
        loop {
            let (_, line) = self.recv(deadline, "uciok")?;
            if self.hello.read(&line) {
                break;
            }
        }
        let (commands, unlisted) = self.hello.setup(&config.options, rules);
        for k in unlisted {
            log::warn!("{}: the engine does not list option '{k}'", self.name);
        }
        for command in commands {
            self.send(&command)?;
        }
        self.is_ready(timeout)
    }

    /// The configured name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The engine's own name (`id name`), if it sent one.
    pub fn id_name(&self) -> Option<&str> {
        self.hello.id_name()
    }

    /// What the engine said in its handshake (name and options).
    pub fn hello(&self) -> &UciHello {
        &self.hello
    }

    /// True when the engine listed the option `name` (case-insensitive) during the handshake.
    pub fn has_option(&self, name: &str) -> bool {
        self.hello.has_option(name)
    }

    /// The `min` and `max` of the spin option `name`, when the engine lists it as a spin.
    pub fn spin_range(&self, name: &str) -> Option<(i64, i64)> {
        self.hello.spin_range(name)
    }

    /// The values of the combo option `name` (`var` entries of its `option` line), empty when
    /// the engine does not list it as a combo.
    pub fn combo_values(&self, name: &str) -> Vec<String> {
        self.hello.combo_values(name)
    }

    /// The next output line, waiting until `deadline`: `Ok(None)` when none came in time, an
    /// error when the engine's output closed (it crashed or quit). For clients that interleave
    /// reading with other work (the browser GUI).
    pub fn next_line(&mut self, deadline: Instant) -> Result<Option<String>, EngineError> {
        match self.recv(deadline, "output") {
            Ok((_, line)) => Ok(Some(line)),
            Err(EngineError::Timeout(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        log::trace!("{} < {line}", self.name);
        self.child
            .write_line(line)
            .map_err(|e| EngineError::Crashed(format!("writing '{line}': {e}")))
    }

    /// The next line, waiting until `deadline`; `what` names the awaited answer in errors.
    fn recv(&mut self, deadline: Instant, what: &str) -> Result<(Instant, String), EngineError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                log::trace!("{} > {}", self.name, line.text);
                self.problems.note(&self.name, &line);
                Ok((line.at, line.text))
            }
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout(format!("no '{what}'"))),
            Err(RecvTimeoutError::Disconnected) => Err(EngineError::Crashed(format!(
                "output closed while waiting for '{what}'{}",
                self.exit_status()
            ))),
        }
    }

    /// `, exit status ...` when the process has ended.
    fn exit_status(&mut self) -> String {
        // Give the OS a moment to reap the process after its output closed.
        for _ in 0..20 {
            if let Some(status) = self.child.try_wait() {
                return format!(", {status}");
            }
            thread::sleep(Duration::from_millis(5));
        }
        String::new()
    }

    /// Sends `isready` and waits for `readyok`.
    pub fn is_ready(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        while self.recv(deadline, "readyok")?.1.trim() != "readyok" {}
        Ok(())
    }

    /// `ucinewgame` followed by `isready`.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineError> {
        // Drop anything left over from an earlier game (a late bestmove after a stop).
        while self.lines.try_recv().is_ok() {}
        self.send("ucinewgame")?;
        self.is_ready(timeout)
    }

    /// Sends `position` and `go`, then collects `info` lines until `bestmove`. The time is
    /// measured from sending `go` to the arrival of `bestmove`. Waits until `deadline` at most.
    pub fn search(&mut self, position: &str, go: &str, deadline: Instant) -> Result<SearchReply, EngineError> {
        self.send(position)?;
        self.send(go)?;
        let start = Instant::now();
        let mut reply = SearchReply::default();
        self.collect(&mut reply, start, deadline)?;
        Ok(reply)
    }

    /// Sends `stop` after a search overran and waits up to `grace` for its `bestmove`.
    pub fn stop(&mut self, grace: Duration) -> Result<(), EngineError> {
        self.send("stop")?;
        let mut reply = SearchReply::default();
        self.collect(&mut reply, Instant::now(), Instant::now() + grace)
    }

    fn collect(&mut self, reply: &mut SearchReply, start: Instant, deadline: Instant) -> Result<(), EngineError> {
        loop {
            let (t, line) = self.recv(deadline, "bestmove")?;
            let mut tokens = line.split_whitespace();
            match tokens.next() {
                Some("info") => parse_info(&line, reply),
                Some("bestmove") => {
                    reply.bestmove = tokens.next().unwrap_or("").to_string();
                    reply.elapsed = t.saturating_duration_since(start);
                    return Ok(());
                }
                _ => {}
            }
        }
    }

    /// Asks the engine to quit and kills it if it is still running after `wait`.
    pub fn shutdown(mut self, wait: Duration) {
        self.quit(wait);
    }

    fn quit(&mut self, wait: Duration) {
        self.child.quit(wait);
    }

    /// Kills the process at once (for an engine that stopped answering).
    pub fn kill(self) {
        self.child.kill();
    }

    /// Warnings about the engine's output not yet taken: the first overlong line and the first
    /// bytes that were not UTF-8 (each kind once per process).
    pub fn take_warnings(&mut self) -> Vec<String> {
        self.problems.take()
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if self.child.is_running() {
            self.quit(Duration::from_millis(300));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_parsing() {
        let mut r = SearchReply::default();
        parse_info("info depth 5 seldepth 7 score cp 35 nodes 1234 pv e2e4 e7e5", &mut r);
        assert_eq!(
            (r.score, r.depth, r.nodes),
            (Some(UciScore::Cp(35)), Some(5), Some(1234))
        );
        parse_info("info depth 6 score cp 80 lowerbound nodes 2000", &mut r);
        assert_eq!((r.score, r.depth), (Some(UciScore::Cp(80)), Some(6)));
        parse_info("info depth 6 score mate -3 nodes 2500", &mut r);
        assert_eq!(r.score, Some(UciScore::Mate(-3)));
        parse_info("info string score cp 999", &mut r);
        assert_eq!(r.score, Some(UciScore::Mate(-3)));
        parse_info("info depth 3 currmove e2e4 currmovenumber 1", &mut r);
        assert_eq!(r.score, Some(UciScore::Mate(-3)));
        parse_info("info depth 9 multipv 2 score cp 12 pv e2e4", &mut r);
        assert_eq!(
            r.score,
            Some(UciScore::Mate(-3)),
            "a second line's score is not the engine's"
        );
        parse_info("info depth 9 multipv 1 score cp -2147483648 pv e2e4", &mut r);
        assert_eq!(r.score, Some(UciScore::Cp(-MAX_CP)), "clamped");
        assert_eq!(UciScore::parse("mate", "-99999999999"), Some(UciScore::Mate(-MAX_MATE)));
        assert_eq!(UciScore::parse("cp", "x"), None);
        assert!(UciScore::parse("mate", "-2147483648").unwrap().centipawns() < -MAX_CP);
    }

    #[test]
    fn combo_values_and_line_by_line_reading() {
        let script = "while read l; do case $l in \
            uci) echo 'option name UCI_Variant type combo default alice var alice var minialice'; \
                 echo 'option name Hash type spin default 16 min 1 max 64'; echo uciok;; \
            isready) echo readyok;; \
            go*) echo 'info depth 1 score cp 5 pv e2e4'; echo 'bestmove e2e4';; \
            quit) exit 0;; esac; done";
        let cfg = EngineConfig {
            name: "fake".into(),
            cmd: "sh".into(),
            args: vec!["-c".into(), script.into()],
            ..EngineConfig::default()
        };
        let mut e = EngineProcess::start(&cfg, Rules::default(), Duration::from_secs(10)).unwrap();
        assert_eq!(e.combo_values("uci_variant"), ["alice", "minialice"]);
        assert_eq!(e.spin_range("hash"), Some((1, 64)));
        assert_eq!(e.spin_range("UCI_Variant"), None);
        assert!(e.combo_values("Hash").is_empty());
        assert!(e.combo_values("Threads").is_empty());
        e.send("go depth 1").unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        assert_eq!(
            e.next_line(deadline).unwrap().as_deref(),
            Some("info depth 1 score cp 5 pv e2e4")
        );
        assert_eq!(e.next_line(deadline).unwrap().as_deref(), Some("bestmove e2e4"));
        assert_eq!(e.next_line(Instant::now() + Duration::from_millis(20)).unwrap(), None);
        e.send("quit").unwrap();
        assert!(matches!(e.next_line(deadline), Err(EngineError::Crashed(_))));
    }

    #[test]
    fn bad_output_is_read_and_reported_once() {
        let script = "while read l; do case $l in \
            uci) printf 'id name Bad\\377Bytes\\n'; head -c 200000 /dev/zero | tr '\\0' x; echo; \
                 head -c 70000 /dev/zero | tr '\\0' y; echo; echo uciok;; \
            isready) echo readyok;; quit) exit 0;; esac; done";
        let cfg = EngineConfig {
            name: "bad".into(),
            cmd: "sh".into(),
            args: vec!["-c".into(), script.into()],
            ..EngineConfig::default()
        };
        let mut e = EngineProcess::start(&cfg, Rules::default(), Duration::from_secs(10)).unwrap();
        assert_eq!(e.id_name(), Some("Bad\u{fffd}Bytes"));
        let warnings = e.take_warnings();
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(warnings.iter().any(|w| w.contains("200000 bytes")), "{warnings:?}");
        assert_eq!(e.problems.cut_lines, 2);
        assert!(e.take_warnings().is_empty());
    }

    #[test]
    fn a_handle_ends_a_hanging_handshake_at_once() {
        let cfg = EngineConfig {
            name: "mute".into(),
            cmd: "sleep".into(),
            args: vec!["30".into()],
            ..EngineConfig::default()
        };
        let child = ChildHandle::new();
        let killer = child.clone();
        let t = Instant::now();
        let start =
            thread::spawn(move || EngineProcess::start_in(child, &cfg, Rules::default(), Duration::from_secs(20)));
        thread::sleep(Duration::from_millis(100));
        killer.kill();
        let result = start.join().unwrap();
        assert!(matches!(result, Err(EngineError::Crashed(_))), "{:?}", result.err());
        assert!(t.elapsed() < Duration::from_secs(5));
        assert!(!killer.is_running());
        // A start through a killed handle never leaves a process.
        let cfg = EngineConfig {
            cmd: "sleep".into(),
            args: vec!["30".into()],
            ..EngineConfig::default()
        };
        assert!(EngineProcess::start_in(killer, &cfg, Rules::default(), Duration::from_secs(1)).is_err());
    }

    #[test]
    fn score_text() {
        assert_eq!(UciScore::Cp(35).pgn(), "+0.35");
        assert_eq!(UciScore::Cp(-120).pgn(), "-1.20");
        assert_eq!(UciScore::Cp(-5).pgn(), "-0.05");
        assert_eq!(UciScore::Mate(5).pgn(), "+M5");
        assert_eq!(UciScore::Mate(-3).pgn(), "-M3");
        assert!(UciScore::Mate(-3).centipawns() < -10_000);
    }
}
