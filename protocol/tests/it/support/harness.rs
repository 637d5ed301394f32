//! Driving the built `vorpal` binary over real pipes: start it, send lines, wait for lines
//! with timeouts (a reader thread feeds a channel, so a test never hangs), and check the
//! protocol's invariants on everything the engine prints.
//!
//! The binary is the one Cargo builds for the `vorpal` package's integration tests
//! (`CARGO_BIN_EXE_vorpal`), so it is never stale. Set `VORPAL_BIN=/path/to/vorpal` to test
//! another build.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};
use vorpal_engine::{Game, Move, Position, Rules};

/// Generous limit for things that should happen quickly (CI machines can be slow).
pub const SOON: Duration = Duration::from_secs(10);

/// The `vorpal` binary Cargo built for these tests (`VORPAL_BIN` names another build).
pub fn vorpal_binary() -> PathBuf {
    std::env::var_os("VORPAL_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_vorpal")))
}

/// A running engine in the UCI loop (or, from [`Engine::start_xboard`], the CECP loop).
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line sent (`>> `) and received (`<< `), for failure messages.
    pub transcript: Vec<String>,
    gos: usize,
    bestmoves: usize,
    /// CECP: `go` is not answered by `bestmove`, so the one-bestmove-per-go check is off.
    xboard: bool,
}

impl Engine {
    /// Starts `vorpal` with no arguments (the UCI loop; its banner line is read and checked).
    pub fn start() -> Engine {
        let mut engine = Engine::spawn(&[]);
        // The one banner line the protocol allows at start-up.
        let banner = engine.recv(SOON).expect("a banner line at start-up");
        assert!(banner.starts_with("Vorpal "), "banner: {banner}");
        engine
    }

    /// Starts `vorpal xboard` (the CECP loop; it prints nothing before `protover`).
    pub fn start_xboard() -> Engine {
        let mut engine = Engine::spawn(&["xboard"]);
        engine.xboard = true;
        engine
    }

    /// Starts `vorpal <args>` with piped stdin and stdout.
    fn spawn(args: &[&str]) -> Engine {
        let mut child = Command::new(vorpal_binary())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting vorpal");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
            transcript: Vec::new(),
            gos: 0,
            bestmoves: 0,
            xboard: false,
        }
    }

    /// The process id (to watch its memory).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends a `go` line of raw bytes (e.g. with invalid UTF-8 in it): it owes a `bestmove`.
    pub fn send_go_bytes(&mut self, bytes: &[u8]) {
        self.send_bytes(bytes);
        self.gos += 1;
    }

    /// The transcript so far, for assertion messages.
    pub fn dump(&self) -> String {
        self.transcript.join("\n")
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.send_bytes(line.as_bytes());
        let words: Vec<&str> = line.split_whitespace().collect();
        if !self.xboard && words.first() == Some(&"go") && words.get(1) != Some(&"perft") {
            self.gos += 1;
        }
    }

    /// Sends raw bytes followed by a newline (for garbage input).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.transcript.push(format!(
            ">> {}",
            String::from_utf8_lossy(&bytes[..bytes.len().min(200)])
        ));
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("writing to vorpal");
        stdin.write_all(b"\n").expect("writing to vorpal");
        stdin.flush().expect("flushing to vorpal");
    }

    /// The next line within `timeout`, or None. Checks the invariants every line must keep.
    pub fn recv(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.transcript.push(format!("<< {line}"));
                assert!(
                    line == line.trim_end(),
                    "trailing whitespace in {line:?}\n{}",
                    self.dump()
                );
                if line.starts_with("bestmove") {
                    self.bestmoves += 1;
                    assert!(self.bestmoves <= self.gos, "more bestmoves than gos\n{}", self.dump());
                }
                Some(line)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Every line up to and including the first one for which `done` holds; panics after
    /// `timeout`.
    pub fn read_until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv(left) {
                Some(line) => {
                    let stop = done(&line);
                    got.push(line);
                    if stop {
                        return got;
                    }
                }
                None => panic!("timed out after {timeout:?} waiting for a line\n{}", self.dump()),
            }
        }
    }

    /// Lines up to and including the one starting with `prefix`.
    pub fn until_prefix(&mut self, prefix: &str) -> Vec<String> {
        self.read_until(SOON, |l| l.starts_with(prefix))
    }

    /// Sends `isready` and returns the lines before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until_prefix("readyok");
        lines.pop();
        lines
    }

    /// Lines arriving within `wait` (none expected to end the wait early).
    pub fn collect_for(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut got = Vec::new();
        while let Some(line) = self.recv(deadline.saturating_duration_since(Instant::now())) {
            got.push(line);
        }
        got
    }

    /// Waits for `bestmove` and returns (all lines including it, the move text or `(none)`).
    pub fn bestmove(&mut self, timeout: Duration) -> (Vec<String>, String) {
        let lines = self.read_until(timeout, |l| l.starts_with("bestmove"));
        let mv = lines
            .last()
            .and_then(|l| l.split_whitespace().nth(1))
            .unwrap_or("")
            .to_string();
        (lines, mv)
    }

    /// Closes stdin and waits (at most `timeout`) for the process to end.
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Waits for the process to end, reading what is left; panics after `timeout`.
    pub fn wait_exit(&mut self, timeout: Duration) -> (ExitStatus, Vec<String>) {
        let deadline = Instant::now() + timeout;
        let mut rest = Vec::new();
        loop {
            if let Some(status) = self.child.try_wait().expect("waiting for vorpal") {
                rest.extend(self.collect_for(Duration::from_millis(100)));
                return (status, rest);
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("vorpal did not exit within {timeout:?}\n{}", self.dump());
            }
            while let Ok(line) = self.lines.try_recv() {
                self.transcript.push(format!("<< {line}"));
                if line.starts_with("bestmove") {
                    self.bestmoves += 1;
                }
                rest.push(line);
            }
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// Sends `quit`, checks a clean exit and (UCI) exactly one `bestmove` per `go`.
    pub fn finish(mut self) {
        self.send("quit");
        let (status, _) = self.wait_exit(SOON);
        assert!(status.success(), "exit status {status}\n{}", self.dump());
        assert_eq!(self.gos, self.bestmoves, "one bestmove per go\n{}", self.dump());
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The game described by a `position` command's words (startpos or a pipe/split/wide FEN and
/// moves), under the default rules, for checking moves the engine plays.
pub fn game_of(position: &str) -> Game {
    game_with_rules(position, Rules::default())
}

/// Like [`game_of`] under `rules`.
pub fn game_with_rules(position: &str, rules: Rules) -> Game {
    let words: Vec<&str> = position.split_whitespace().collect();
    let words = words.strip_prefix(&["position"]).unwrap_or(&words);
    let (start, rest) = match words {
        ["startpos", rest @ ..] => (Position::from_fen(rules.variant.start_fen(), rules).unwrap(), rest),
        ["fen", rest @ ..] => {
            let end = rest.iter().position(|w| *w == "moves").unwrap_or(rest.len());
            (Position::from_fen(&rest[..end].join(" "), rules).unwrap(), &rest[end..])
        }
        _ => panic!("not a position command: {position}"),
    };
    let mut game = Game::new(start);
    for text in rest.iter().skip(1) {
        let mv = game.position().parse_move(text).unwrap();
        assert!(game.play(mv));
    }
    game
}

/// Asserts that `mv` (UCI text) is legal in `game`'s current position and returns it.
pub fn assert_legal(game: &Game, mv: &str) -> Move {
    let pos = game.position();
    match pos.parse_uci(mv) {
        Ok(m) if pos.is_legal(m) => m,
        other => panic!("bestmove '{mv}' is not legal in {}: {other:?}", pos.to_fen()),
    }
}

/// Output of a one-shot run of the binary.
pub struct Run {
    /// Exit status.
    pub status: ExitStatus,
    /// Stdout.
    pub stdout: String,
    /// Stderr.
    pub stderr: String,
}

/// Runs `vorpal <args>` with empty stdin; panics after `timeout`.
pub fn run_cli(args: &[&str], timeout: Duration) -> Run {
    run_cli_env(args, &[], timeout)
}

/// [`run_cli`] with `env` (name, value) added to the environment.
pub fn run_cli_env(args: &[&str], env: &[(&str, &str)], timeout: Duration) -> Run {
    let binary = vorpal_binary();
    let start = Instant::now();
    let mut child = Command::new(binary)
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting vorpal");
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err = thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > timeout {
            let _ = child.kill();
            panic!("vorpal {args:?} did not finish within {timeout:?}");
        }
        thread::sleep(Duration::from_millis(10));
    };
    Run {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// The fields of a UCI `info` line with a score, checked for Stockfish's order:
/// `depth seldepth multipv score (cp|mate) N [lowerbound|upperbound] [wdl w d l] nodes nps
/// hashfull tbhits time [pv ...]`. Returns (depth, multipv, pv) or panics with the line.
pub fn parse_info(line: &str) -> (u32, u32, Vec<String>) {
    let w: Vec<&str> = line.split_whitespace().collect();
    let fail = |why: &str| -> ! { panic!("bad info line ({why}): {line}") };
    let num = |i: usize| -> i64 { w.get(i).and_then(|s| s.parse().ok()).unwrap_or_else(|| fail("number")) };
    let expect = |i: usize, key: &str| {
        if w.get(i) != Some(&key) {
            fail(&format!("expected '{key}' at word {i}"))
        }
    };
    expect(0, "info");
    expect(1, "depth");
    let depth = num(2) as u32;
    expect(3, "seldepth");
    num(4);
    expect(5, "multipv");
    let multipv = num(6) as u32;
    expect(7, "score");
    if !matches!(w.get(8), Some(&"cp") | Some(&"mate")) {
        fail("score cp|mate");
    }
    num(9);
    let mut i = 10;
    if matches!(w.get(i), Some(&"lowerbound") | Some(&"upperbound")) {
        i += 1;
    }
    if w.get(i) == Some(&"wdl") {
        let sum = num(i + 1) + num(i + 2) + num(i + 3);
        assert_eq!(sum, 1000, "wdl sums to 1000: {line}");
        i += 4;
    }
    for key in ["nodes", "nps", "hashfull", "tbhits", "time"] {
        expect(i, key);
        num(i + 1);
        i += 2;
    }
    let pv = match w.get(i) {
        None => Vec::new(),
        Some(&"pv") if w.len() > i + 1 => w[i + 1..].iter().map(|s| s.to_string()).collect(),
        _ => fail("pv"),
    };
    (depth, multipv, pv)
}
