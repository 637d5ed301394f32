//! The command line's mistakes and failures: values `vorpal analyze` cannot honour are refused
//! with status 2 (never silently changed), an unknown `-option` gets the usage on stderr and
//! status 2, every subcommand answers `--help`, and a closed stdout or stderr (a pipe whose
//! reader went away) ends the program quietly with status 141 instead of a panic (an abort,
//! status 134, in release builds).

use crate::support::harness::{run_cli, vorpal_binary, SOON};
use std::io::{Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// What a shell reports for a program ended by SIGPIPE; vorpal's status for a closed output.
const CLOSED_OUTPUT: i32 = 141;
/// Runs of each closed-pipe case (the defect showed in 2 of 5 runs).
const RUNS: usize = 3;

#[test]
fn analyze_refuses_values_it_cannot_honour() {
    for args in [
        ["--hash", "10000000"],
        ["--hash", "0"],
        ["--depth", "0"],
        ["--depth", "1000"],
        ["--threads", "0"],
        ["--threads", "2000"],
        ["--multipv", "0"],
        ["--multipv", "1000"],
        ["--nodes", "0"],
    ] {
        let mut words = vec!["analyze"];
        words.extend(args);
        if args[0] != "--depth" {
            words.extend(["--depth", "1"]);
        }
        let run = run_cli(&words, SOON);
        assert_eq!(run.status.code(), Some(2), "{words:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{words:?} searched anyway: {}", run.stdout);
        let first = run.stderr.lines().next().unwrap_or("");
        assert!(
            first.starts_with(&format!("error: invalid value '{}' for '{} ", args[1], args[0]))
                && first.ends_with(&format!(": {} {}", args[1], range(args[0]))),
            "{words:?}: {first}"
        );
    }
}

fn range(flag: &str) -> &'static str {
    match flag {
        "--hash" => "is not in 1..=65536",
        "--depth" => "is not in 1..=127",
        "--threads" => "is not in 1..=1024",
        "--multipv" => "is not in 1..=256",
        _ => "is not at least 1",
    }
}

#[test]
fn analyze_refuses_a_position_no_game_reaches_and_solve_accepts_it() {
    // Nine white pawns: refused by `analyze` with the reason, status 2 or 1, nothing analysed.
    let fen = "k7/8/8/8/8/P7/PPPPPPPP/K7 w - - 0 1";
    let run = run_cli(&["analyze", "--fen", fen, "--depth", "1"], SOON);
    assert!(!run.status.success(), "{}", run.stdout);
    assert!(
        run.stderr
            .contains("White has 9 pawns; a game of alice has at most 8 a side"),
        "{}",
        run.stderr
    );
    // Problem positions stay solvable: `solve` reads the same men and searches them.
    let problem = "1k6/8/1K6/8/8/P7/PPPPPPPP/7R w - - 0 1";
    let run = run_cli(&["solve", "--fen", problem, "--stip", "#2"], SOON);
    assert!(run.status.success(), "{}", run.stderr);
    assert!(run.stdout.contains("0 solutions"), "{}", run.stdout);
}

#[test]
fn analyze_states_the_values_it_uses() {
    // Three legal moves: five lines asked, three shown, and the header says so.
    let run = run_cli(
        &[
            "analyze",
            "--fen",
            "7k/8/8/8/8/8/8/K7 w - - 0 1",
            "--multipv",
            "5",
            "--depth",
            "2",
            "--threads",
            "2",
            "--hash",
            "4",
        ],
        SOON,
    );
    assert!(run.status.success(), "{}", run.stderr);
    assert!(
        run.stdout.contains(
            "\nAnalysing with 2 threads, 4 MB hash, 3 lines (--multipv 5, but only 3 legal moves); scores in pawns from White's side\n"
        ),
        "{}",
        run.stdout
    );
    let depth2: Vec<&str> = run.stdout.lines().filter(|l| l.starts_with("depth  2 #")).collect();
    assert_eq!(depth2.len(), 3, "{}", run.stdout);
}

#[test]
fn command_line_mistakes_get_the_usage_on_stderr() {
    for word in ["--versoin", "-x", "--hash"] {
        let run = run_cli(&[word], SOON);
        assert_eq!(run.status.code(), Some(2), "{word}");
        assert!(run.stdout.is_empty(), "{word}: {}", run.stdout);
        assert!(
            run.stderr
                .starts_with(&format!("error: unexpected argument '{word}' found\n"))
                && run.stderr.contains("Usage: vorpal "),
            "{word}: {}",
            run.stderr
        );
        assert!(!run.stderr.contains("info string"), "{}", run.stderr);
    }
    let run = run_cli(&["xboard", "extra"], SOON);
    assert_eq!(run.status.code(), Some(2));
    assert!(
        run.stderr.starts_with("error: unexpected argument 'extra' found"),
        "{}",
        run.stderr
    );
    let run = run_cli(&["frobnicate", "--help"], SOON);
    assert_eq!(run.status.code(), Some(2));
    assert!(
        run.stderr.starts_with("error: unknown command 'frobnicate'"),
        "{}",
        run.stderr
    );
}

#[test]
fn version_and_help_work_as_everywhere() {
    let version = format!("Vorpal {}\n", vorpal_build_id::VERSION);
    for word in ["--version", "-V"] {
        let run = run_cli(&[word], SOON);
        assert!(run.status.success(), "{word}");
        assert_eq!(run.stdout, version, "{word}");
    }
    for word in ["--help", "-h"] {
        let run = run_cli(&[word], SOON);
        assert!(run.status.success(), "{word}");
        assert!(run.stdout.contains("\nUsage: vorpal "), "{word}: {}", run.stdout);
        assert!(run.stdout.contains("--version"), "{}", run.stdout);
        assert!(run.stderr.is_empty(), "{}", run.stderr);
    }
}

#[test]
fn every_subcommand_has_help() {
    let run = run_cli(&["xboard", "--help"], SOON);
    assert!(run.status.success());
    assert!(run.stdout.contains("\nUsage: vorpal xboard\n"), "{}", run.stdout);
    assert!(run.stdout.contains("-xlegal"), "{}", run.stdout);
    let run = run_cli(&["analyze", "--help"], SOON);
    assert!(run.status.success());
    assert!(run.stdout.contains("\nUsage: vorpal analyze"), "{}", run.stdout);
    // Every command `help` lists answers `vorpal <command> --help` with its own entry.
    let help = run_cli(&["help"], SOON).stdout;
    let commands = help_commands(&help);
    assert!(commands.len() >= 20, "{commands:?}");
    // (`xboard`, in `help` as the switch to CECP, has the usage above.)
    for command in commands.iter().filter(|c| *c != "xboard") {
        for flag in ["--help", "-h"] {
            let run = run_cli(&[command, flag], SOON);
            assert!(run.status.success(), "{command} {flag}: {}", run.stderr);
            let first = run.stdout.lines().next().unwrap_or("");
            assert!(
                first
                    .split(" | ")
                    .any(|part| part.split_whitespace().next() == Some(command)),
                "{command} {flag}: {}",
                run.stdout
            );
            assert!(
                run.stdout.contains(&format!("vorpal {command} [args]")),
                "{}",
                run.stdout
            );
        }
    }
}

/// The command words of the `help` text (entries are indented two spaces; alternatives are
/// separated by ` | `).
fn help_commands(help: &str) -> Vec<String> {
    help.lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .flat_map(|l| l.trim().split(" | ").map(str::to_string).collect::<Vec<_>>())
        .filter_map(|part| part.split_whitespace().next().map(str::to_string))
        .collect()
}

/// A write end of a pipe whose read end is already closed: every write fails (EPIPE), so the
/// program meets the closed pipe on its first write, every run.
fn closed_pipe() -> Stdio {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    Stdio::from(writer)
}

/// Stdin holding `text` and then the end of input.
fn input(text: &str) -> Stdio {
    let (reader, mut writer) = std::io::pipe().expect("a pipe");
    writer.write_all(text.as_bytes()).expect("writing the input");
    drop(writer);
    Stdio::from(reader)
}

/// Waits for `child`; kills it and panics after a minute (a hang guard, not a speed check).
fn wait(mut child: Child, what: &str) -> ExitStatus {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(status) = child.try_wait().expect("waiting for vorpal") {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{what} did not end");
        }
        thread::sleep(Duration::from_millis(10));
    }
}

/// Runs `vorpal <args>` with `stdin`, `stdout` and `stderr`, returning its status.
fn run_with(args: &[&str], env: &[(&str, &str)], stdin: Stdio, stdout: Stdio, stderr: Stdio) -> ExitStatus {
    let child = Command::new(vorpal_binary())
        .args(args)
        .envs(env.iter().copied())
        .stdin(stdin)
        .stdout(stdout)
        .stderr(stderr)
        .spawn()
        .expect("starting vorpal");
    wait(child, &format!("vorpal {args:?}"))
}

#[test]
fn a_closed_stderr_ends_the_program_quietly() {
    // Each case writes to stderr: an argument error, the usage, bench and perft progress.
    let cases: [&[&str]; 5] = [
        &["analyze", "--dept", "5"],
        &["--versoin"],
        &["frobnicate", "--help"],
        &["bench", "1"],
        &["perft", "2"],
    ];
    for args in cases {
        for _ in 0..RUNS {
            let status = run_with(args, &[], Stdio::null(), Stdio::null(), closed_pipe());
            assert_eq!(status.code(), Some(CLOSED_OUTPUT), "vorpal {args:?}: {status}");
        }
    }
}

#[test]
fn logging_to_a_closed_stderr_ends_the_program_quietly() {
    for _ in 0..RUNS {
        let status = run_with(
            &[],
            &[("RUST_LOG", "debug")],
            input("isready\nquit\n"),
            Stdio::null(),
            closed_pipe(),
        );
        assert_eq!(status.code(), Some(CLOSED_OUTPUT), "{status}");
    }
}

#[test]
fn a_closed_stdout_ends_the_program_quietly() {
    let cases: [(&[&str], &str); 9] = [
        (&[], "uci\nisready\n"),
        (&["xboard"], "protover 2\n"),
        (&["go", "depth", "3"], ""),
        (&["analyze", "--depth", "2"], ""),
        (&["analyze", "--depth", "2", "--json"], ""),
        (&["analyze", "--help"], ""),
        (&["xboard", "--help"], ""),
        (&["--version"], ""),
        (&["help"], ""),
    ];
    for (args, text) in cases {
        for _ in 0..RUNS {
            let mut child = Command::new(vorpal_binary())
                .args(args)
                .stdin(input(text))
                .stdout(closed_pipe())
                .stderr(Stdio::piped())
                .spawn()
                .expect("starting vorpal");
            let mut stderr = child.stderr.take().expect("piped stderr");
            let status = wait(child, &format!("vorpal {args:?}"));
            let mut said = String::new();
            let _ = stderr.read_to_string(&mut said);
            assert_eq!(status.code(), Some(CLOSED_OUTPUT), "vorpal {args:?}: {status} {said}");
            assert!(!said.contains("panicked"), "vorpal {args:?}: {said}");
        }
    }
}

#[test]
fn a_pipe_closed_while_the_program_writes_ends_it_quietly() {
    // As `vorpal analyze ... | head -c 10`: the reader takes a few bytes and goes away while
    // the analysis goes on printing (stdout), or while bench prints its progress (stderr).
    for stream in ["stdout", "stderr"] {
        for _ in 0..RUNS {
            let (args, to_stdout): (&[&str], bool) = match stream {
                "stdout" => (&["analyze", "--depth", "60", "--movetime", "30000", "--json"], true),
                _ => (&["bench", "6"], false),
            };
            let mut command = Command::new(vorpal_binary());
            command.args(args).stdin(Stdio::null());
            if to_stdout {
                command.stdout(Stdio::piped()).stderr(Stdio::null());
            } else {
                command.stdout(Stdio::null()).stderr(Stdio::piped());
            }
            let mut child = command.spawn().expect("starting vorpal");
            let mut reader: Box<dyn Read> = if to_stdout {
                Box::new(child.stdout.take().expect("piped stdout"))
            } else {
                Box::new(child.stderr.take().expect("piped stderr"))
            };
            let mut first = [0u8; 10];
            reader.read_exact(&mut first).expect("the first bytes");
            drop(reader);
            let status = wait(child, &format!("vorpal {args:?}"));
            assert_eq!(
                status.code(),
                Some(CLOSED_OUTPUT),
                "vorpal {args:?} ({stream}): {status}"
            );
        }
    }
}
