//! The documented examples are true: every example of `docs/protocol.md` (sessions with the UCI
//! and CECP loops, one-shot command lines) is run against the built binary and its output
//! compared with the document, apart from the values that vary (see
//! `vorpal_tests::doc_examples::mask`); the command lines of the README (and of
//! `docs/nnue.md`, where some of them moved) run and exit 0.

use crate::support::harness::{run_cli, Engine, SOON};
use std::path::Path;
use std::time::Duration;
use vorpal_tests::doc_examples::{examples, matches, Example, Protocol, Step};

/// A document of the repository.
fn document(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

/// Long enough for the slowest example (the bench) in the test profile on a loaded machine.
const SLOW: Duration = Duration::from_secs(120);

/// Sends one session line and returns what the engine answers to it.
fn uci_step(e: &mut Engine, input: &str, searching: &mut bool) -> Vec<String> {
    e.send(input);
    let word = input.split_whitespace().next().unwrap_or("");
    let open_ended = input.contains("infinite") || input.contains("ponder");
    match word {
        "go" if open_ended => {
            *searching = true;
            // The first line of the search; the rest belongs to what follows.
            vec![e.recv(SOON).expect("the search's first line")]
        }
        "go" => e.bestmove(SLOW).0,
        "stop" | "ponderhit" if *searching => {
            *searching = false;
            e.bestmove(SOON).0
        }
        "isready" => e.until_prefix("readyok"),
        "quit" => e.wait_exit(SOON).1,
        _ => {
            let mut lines = Vec::new();
            e.send("isready");
            // perft and bench run on the input thread: `readyok` comes after them.
            lines.extend(e.read_until(SLOW, |l| l == "readyok"));
            lines.pop();
            lines
        }
    }
}

/// Sends one CECP line and returns what the engine answers to it (up to a `pong`).
fn cecp_step(e: &mut Engine, input: &str, n: usize) -> Vec<String> {
    e.send(input);
    if input == "quit" {
        return e.wait_exit(SOON).1;
    }
    e.send(&format!("ping {n}"));
    let pong = format!("pong {n}");
    let mut lines = e.read_until(SLOW, |l| l == pong);
    lines.pop();
    lines
}

/// Runs a session example; returns the output of each step.
fn run_session(protocol: Protocol, steps: &[Step]) -> Vec<Vec<String>> {
    let mut e = match protocol {
        Protocol::Uci => Engine::start(),
        Protocol::Cecp => Engine::start_xboard(),
    };
    let mut searching = false;
    steps
        .iter()
        .enumerate()
        .map(|(i, s)| match protocol {
            Protocol::Uci => uci_step(&mut e, &s.input, &mut searching),
            Protocol::Cecp => cecp_step(&mut e, &s.input, i + 1),
        })
        .collect()
}

/// Splits a command line into words, keeping double-quoted words whole.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any || !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                any = false;
            }
            c => word.push(c),
        }
    }
    if any || !word.is_empty() {
        words.push(word);
    }
    words
}

/// A file named in an example is relative to the repository's root (`docs/examples/blunder.pgn`):
/// such a word becomes the file's full path; other words are kept.
fn from_root(word: String) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(&word);
    if word.contains('/') && !word.starts_with('/') && path.is_file() {
        path.to_string_lossy().into_owned()
    } else {
        word
    }
}

/// Runs a command-line example; returns the output of each step: its stdout lines, then, when
/// it failed, its stderr lines (where the refusal is). A command shown without output must
/// succeed; one shown with output may fail, and the output then shows why.
fn run_commands(ex: &Example) -> Vec<Vec<String>> {
    ex.steps
        .iter()
        .map(|s| {
            let words: Vec<String> = shell_words(&s.input).into_iter().map(from_root).collect();
            let args: Vec<&str> = words.iter().map(String::as_str).collect();
            let run = run_cli(&args, SLOW);
            assert!(
                run.status.success() || !s.output.is_empty(),
                "line {}: vorpal {}: {}\n{}",
                ex.line,
                s.input,
                run.status,
                run.stderr
            );
            let mut lines: Vec<String> = run.stdout.lines().map(str::to_string).collect();
            if !run.status.success() {
                lines.extend(run.stderr.lines().map(str::to_string));
            }
            lines
        })
        .collect()
}

/// Checks every example of a document; returns how many there were.
fn check_document(path: &str) -> usize {
    let all = examples(&document(path));
    let mut failures = Vec::new();
    for ex in &all {
        let got = match ex.session {
            Some(protocol) => run_session(protocol, &ex.steps),
            None => run_commands(ex),
        };
        for (step, actual) in ex.steps.iter().zip(&got) {
            // A command line shown without output is only run (its output is described in prose).
            let shown = ex.session.is_some() || !step.output.is_empty();
            if shown && !matches(&step.output, actual) {
                failures.push(format!(
                    "{path}:{} `{}`\n  document:\n    {}\n  program:\n    {}",
                    ex.line,
                    step.input,
                    step.output.join("\n    "),
                    actual.join("\n    ")
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} examples differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    all.len()
}

#[test]
fn every_protocol_example_prints_what_the_document_shows() {
    let n = check_document("docs/protocol.md");
    assert!(n >= 20, "only {n} examples found in docs/protocol.md");
}

#[test]
fn every_annotate_example_prints_what_the_document_shows() {
    let n = check_document("docs/annotate.md");
    assert!(n >= 2, "only {n} examples found in docs/annotate.md");
}

#[test]
fn shell_words_keep_quoted_fens_whole() {
    assert_eq!(
        shell_words(r#"perft 2 "4k3/8/8/8/8/8/8/4K2R w K - 0 1" x"#),
        vec!["perft", "2", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "x"]
    );
    assert_eq!(shell_words(r#"a "" b"#), vec!["a", "", "b"]);
}

/// The command lines (`target/release/vorpal ...` in shell blocks) of the README and of
/// `docs/nnue.md` (where the README's network commands moved), without the comments; lines
/// with a placeholder (`<FEN>`, `PROBLEM.inp`) and the GUI server are skipped. (The other
/// pages' examples are checked with their output, or are too long to run here, such as
/// generating every 4-man tablebase.)
fn readme_commands() -> Vec<String> {
    let pages = ["README.md", "docs/nnue.md"];
    let mut out = Vec::new();
    for page in &pages {
        let mut in_block = false;
        for line in document(page).lines() {
            if line.starts_with("```") {
                in_block = !in_block;
                continue;
            }
            let Some(rest) = line.strip_prefix("target/release/vorpal ").filter(|_| in_block) else {
                continue;
            };
            let command = rest.split("  #").next().unwrap_or(rest).trim();
            if command.contains('<') || command.contains("PROBLEM.inp") || command.starts_with("gui") {
                continue;
            }
            out.push(command.to_string());
        }
    }
    out
}

#[test]
#[ignore = "full tier: runs every README command as written (bench, a 3 s search: about 30 s)"]
fn every_readme_command_line_runs() {
    let commands = readme_commands();
    assert!(commands.len() >= 8, "{commands:?}");
    for command in &commands {
        let words: Vec<String> = shell_words(command).into_iter().map(from_root).collect();
        let args: Vec<&str> = words.iter().map(String::as_str).collect();
        let run = run_cli(&args, SLOW);
        assert!(run.status.success(), "vorpal {command}: {}\n{}", run.status, run.stderr);
        assert!(!run.stdout.trim().is_empty(), "vorpal {command} printed nothing");
    }
}
