//! Runs one command stream through the `vorpal` binary over real pipes and checks every answer
//! against the [`Model`]:
//!
//! - the banner comes first; every output line is UTF-8 without trailing whitespace, and
//!   nothing (stdout or stderr) reports a panic or an internal error;
//! - after the stream, `isready` is answered by `readyok`; then `stop` and `isready` again,
//!   and by then every `go` has had exactly one `bestmove`, none of them extra;
//! - every `bestmove` is legal in the game its `go` searched (where the model knows it), with
//!   a legal `ponder` move after it; `(none)` exactly when there is no legal move;
//! - a `bestmove` of `go infinite` (or `go ponder`) arrives only after the command that ends
//!   the wait was sent;
//! - the process exits with status 0 after `quit` or when its input is closed.
//!
//! A failed check panics with the merged transcript (the fuzz driver prints the stream).

use super::uci::{uci_stream, Model, Step};
use rand::rngs::StdRng;
use rand::Rng;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// Longest wait for an answer the engine owes (generous: the machine may be loaded).
const ANSWER: Duration = Duration::from_secs(30);
/// Longest wait for the process to exit after `quit` or the end of its input.
const EXIT: Duration = Duration::from_secs(10);

/// How a stream that did not `quit` itself ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Send `quit`.
    Quit,
    /// Close the engine's standard input.
    CloseInput,
}

/// A line the engine printed, with the time it arrived.
struct Received {
    at: Instant,
    bytes: Vec<u8>,
}

/// One engine process and everything exchanged with it.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Received>,
    got: Vec<Received>,
    sent: Vec<(Instant, Vec<u8>)>,
    stderr: Option<JoinHandle<Vec<u8>>>,
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Session {
    fn start(engine: &Path) -> Session {
        let mut child = Command::new(engine)
            .env_remove("RUST_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", engine.display()));
        let stdout = child.stdout.take().expect("piped stdout");
        let mut stderr = child.stderr.take().expect("piped stderr");
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut bytes = Vec::new();
                match reader.read_until(b'\n', &mut bytes) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if bytes.last() == Some(&b'\n') {
                            bytes.pop();
                        }
                        let line = Received {
                            at: Instant::now(),
                            bytes,
                        };
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stderr = thread::spawn(move || {
            let mut all = Vec::new();
            let _ = stderr.read_to_end(&mut all);
            all
        });
        Session {
            stdin: child.stdin.take(),
            child,
            lines,
            got: Vec::new(),
            sent: Vec::new(),
            stderr: Some(stderr),
        }
    }

    /// Sends one line; false when the engine no longer reads its input.
    fn send(&mut self, line: &[u8]) -> bool {
        // The time is taken before writing: an answer cannot arrive before it.
        self.sent.push((Instant::now(), line.to_vec()));
        let Some(stdin) = self.stdin.as_mut() else { return false };
        stdin.write_all(line).is_ok() && stdin.write_all(b"\n").is_ok() && stdin.flush().is_ok()
    }

    /// Lines starting with `prefix` received so far.
    fn count(&self, prefix: &str) -> usize {
        self.got
            .iter()
            .filter(|l| l.bytes.starts_with(prefix.as_bytes()))
            .count()
    }

    /// Receives until `count(prefix) >= n`; false on timeout or end of output.
    fn wait_for(&mut self, prefix: &str, n: usize, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while self.count(prefix) < n {
            match self
                .lines
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                Ok(line) => self.got.push(line),
                Err(_) => return false,
            }
        }
        true
    }

    /// Waits for the process to end and for the rest of its output.
    fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        let status = loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                break Some(status);
            }
            if Instant::now() > deadline {
                break None;
            }
            thread::sleep(Duration::from_millis(2));
        };
        if status.is_some() {
            // The reader thread ends at the end of the output.
            while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(5)) {
                self.got.push(line);
            }
        }
        status
    }

    /// Everything sent and received, in time order (long lines cut), the last `tail` lines.
    fn transcript(&self, tail: usize) -> String {
        let mut all: Vec<(Instant, String)> = self
            .sent
            .iter()
            .map(|(at, b)| (*at, format!(">> {}", show(b))))
            .chain(self.got.iter().map(|l| (l.at, format!("<< {}", show(&l.bytes)))))
            .collect();
        all.sort_by_key(|(at, _)| *at);
        let skip = all.len().saturating_sub(tail);
        all[skip..]
            .iter()
            .map(|(_, s)| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn fail(&mut self, why: &str) -> ! {
        let _ = self.child.kill();
        panic!("uci fuzz: {why}\n--- transcript (end) ---\n{}", self.transcript(80));
    }
}

/// A line for messages: escaped, cut after 300 bytes.
pub fn show(bytes: &[u8]) -> String {
    let cut = &bytes[..bytes.len().min(300)];
    let mut s = cut.escape_ascii().to_string();
    if bytes.len() > cut.len() {
        s.push_str(&format!("... ({} bytes)", bytes.len()));
    }
    s
}

/// The stream as text, one step a line (for failure reports).
pub fn render(steps: &[Step]) -> String {
    steps
        .iter()
        .map(|s| match s {
            Step::Line(b) => show(b),
            Step::Pause(ms) => format!("# pause {ms} ms"),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// What one stream did: lines sent, `go` commands, lines received.
#[derive(Clone, Copy, Debug, Default)]
pub struct Counts {
    /// Lines sent (stream and closing dialogue).
    pub sent: usize,
    /// `go` commands.
    pub gos: usize,
    /// Lines received.
    pub received: usize,
}

/// Runs `steps` through the engine at `engine`, ending as `ending` says (unless the stream
/// quits itself), and checks everything (see the module documentation).
pub fn run_stream(engine: &Path, steps: &[Step], ending: Ending) -> Counts {
    let mut s = Session::start(engine);
    let mut model = Model::default();
    if !s.wait_for("", 1, ANSWER) || !s.got[0].bytes.starts_with(b"Vorpal ") {
        s.fail("no banner line at start-up");
    }
    let send = |s: &mut Session, model: &mut Model, line: &[u8]| {
        model.feed(line);
        if !s.send(line) {
            let status = s.wait_exit(EXIT);
            s.fail(&format!(
                "the engine stopped reading its input (exit status {status:?})"
            ));
        }
    };
    for step in steps {
        match step {
            Step::Pause(ms) => thread::sleep(Duration::from_millis(*ms)),
            Step::Line(line) => send(&mut s, &mut model, line),
        }
        if model.quit {
            break;
        }
    }
    if !model.quit {
        send(&mut s, &mut model, b"isready");
        if !s.wait_for("readyok", model.isready, ANSWER) {
            s.fail("no readyok after the stream");
        }
        send(&mut s, &mut model, b"stop");
        send(&mut s, &mut model, b"isready");
        if !s.wait_for("readyok", model.isready, ANSWER) {
            s.fail("no readyok after stop");
        }
        if s.count("bestmove") != model.gos.len() {
            s.fail(&format!(
                "{} go commands but {} bestmoves after stop and isready",
                model.gos.len(),
                s.count("bestmove")
            ));
        }
        match ending {
            Ending::Quit => send(&mut s, &mut model, b"quit"),
            Ending::CloseInput => s.stdin = None,
        }
    }
    s.stdin = None;
    let status = s.wait_exit(EXIT);
    match status {
        Some(st) if st.success() => {}
        other => s.fail(&format!("exit status {other:?} after quit or end of input")),
    }
    let stderr = s.stderr.take().and_then(|h| h.join().ok()).unwrap_or_default();
    if let Some(why) = check_output(&s, &model, &stderr) {
        s.fail(&why);
    }
    Counts {
        sent: s.sent.len(),
        gos: model.gos.len(),
        received: s.got.len(),
    }
}

/// Every check on the complete output; the first problem found.
fn check_output(s: &Session, model: &Model, stderr: &[u8]) -> Option<String> {
    let stderr = String::from_utf8_lossy(stderr);
    if stderr.contains("panicked") {
        return Some(format!("panic on stderr: {stderr}"));
    }
    let mut bestmoves = Vec::new();
    for line in &s.got {
        let Ok(text) = std::str::from_utf8(&line.bytes) else {
            return Some(format!("output line is not UTF-8: {}", show(&line.bytes)));
        };
        if text != text.trim_end() {
            return Some(format!("trailing whitespace in {text:?}"));
        }
        if text.contains("panicked") || text.contains("internal error") {
            return Some(format!("the engine reports a failure: {text}"));
        }
        if text.starts_with("bestmove") {
            bestmoves.push((line.at, text));
        }
    }
    if s.count("readyok") != model.isready {
        return Some(format!("{} isready but {} readyok", model.isready, s.count("readyok")));
    }
    if bestmoves.len() != model.gos.len() {
        return Some(format!(
            "{} go commands but {} bestmoves",
            model.gos.len(),
            bestmoves.len()
        ));
    }
    for (k, (go, (at, line))) in model.gos.iter().zip(&bestmoves).enumerate() {
        if go.infinite || go.ponder {
            match go.released_by {
                Some(i) if *at >= s.sent[i].0 => {}
                Some(i) => {
                    return Some(format!(
                        "go #{k} (infinite/ponder) answered '{line}' before '{}' was sent",
                        show(&s.sent[i].1)
                    ))
                }
                None => {
                    return Some(format!(
                        "go #{k} (infinite/ponder) answered '{line}' though never released"
                    ))
                }
            }
        }
        if let Some(game) = &go.game {
            if let Some(why) = check_bestmove(game.position(), line) {
                return Some(format!("go #{k}: {why}"));
            }
            let best = line
                .split_whitespace()
                .nth(1)
                .and_then(|m| game.position().parse_uci(m).ok());
            if !go.search_moves.is_empty() && !best.is_some_and(|b| go.search_moves.contains(&b)) {
                return Some(format!(
                    "go #{k}: '{line}' is not one of the searchmoves {:?}",
                    go.search_moves
                ));
            }
        }
    }
    None
}

/// Checks `bestmove <m> [ponder <p>]` or `bestmove (none)` in `pos` with the rules core.
pub fn check_bestmove(pos: &vorpal_engine::Position, line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let legal = pos.legal_moves();
    match words.as_slice() {
        ["bestmove", "(none)"] if legal.is_empty() => None,
        ["bestmove", "(none)"] => Some(format!("'{line}' but {} has legal moves", pos.to_fen())),
        ["bestmove", best, rest @ ..] => {
            let mv = match pos.parse_uci(best) {
                Ok(mv) if pos.is_legal(mv) && legal.contains(&mv) => mv,
                other => {
                    return Some(format!(
                        "'{line}': '{best}' is not legal in {} ({other:?})",
                        pos.to_fen()
                    ))
                }
            };
            match rest {
                [] => None,
                ["ponder", p] => {
                    let next = pos.after(mv);
                    match next.parse_uci(p) {
                        Ok(pm) if next.is_legal(pm) => None,
                        other => Some(format!(
                            "'{line}': ponder '{p}' is not legal in {} ({other:?})",
                            next.to_fen()
                        )),
                    }
                }
                _ => Some(format!("malformed bestmove line '{line}'")),
            }
        }
        _ => Some(format!("malformed bestmove line '{line}'")),
    }
}

/// One `uci` fuzz case: a random stream through the engine at `engine`; `input` receives the
/// stream before it runs.
pub fn uci_case(engine: &Path, rng: &mut StdRng, input: &mut String) {
    let steps = uci_stream(rng);
    let ending = if rng.gen_bool(0.5) {
        Ending::Quit
    } else {
        Ending::CloseInput
    };
    *input = format!("stream ({ending:?} at the end):\n{}", render(&steps));
    run_stream(engine, &steps, ending);
}
