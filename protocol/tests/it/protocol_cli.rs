//! The command line: `vorpal <command> [args]` runs one command and exits; `vorpal analyze`
//! prints a diagram and one readable line per depth (or JSON); progress goes to stderr.

use crate::support::harness::{run_cli, run_cli_env, SOON};
use std::time::Duration;
use vorpal_engine::nnue::SimdPath;
use vorpal_engine::{perft, Position, Rules};

const LONG: Duration = Duration::from_secs(120);

#[test]
fn one_command_perft_with_a_fen() {
    let fen = "rnbqk1nr/pppp1|Npp/4|p3/2|b5/8/8/PPPPPPPP/RNBQKB1R b KQkq - 0 3";
    let run = run_cli(&["perft", "3", fen], LONG);
    assert!(run.status.success(), "{}", run.stderr);
    let expected = perft::perft(&Position::from_fen(fen, Rules::default()).unwrap(), 3);
    assert!(
        run.stdout.ends_with(&format!("\n\nNodes searched: {expected}\n")),
        "{}",
        run.stdout
    );
    // No banner in command-line mode: the first line is a move count.
    assert!(run.stdout.lines().next().unwrap().contains(": "), "{}", run.stdout);
}

#[test]
fn one_command_bench() {
    let run = run_cli(&["bench", "2"], LONG);
    assert!(run.status.success(), "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{}", run.stdout);
    assert!(lines[0].starts_with("Nodes searched  : "));
    assert!(lines[1].starts_with("Nodes/second    : "));
    assert!(lines[2].starts_with("Total time (ms) : "));
    assert!(run.stderr.contains("Position"), "progress on stderr: {}", run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "Evaluation: network of 128 hidden neurons, {} kernels",
            SimdPath::automatic()
        )),
        "the kernels' path on stderr: {}",
        run.stderr
    );
    let again = run_cli(&["bench", "2"], LONG);
    assert_eq!(again.stdout.lines().next(), Some(lines[0]), "same node count every run");
}

#[test]
fn bench_with_the_portable_kernels_searches_the_same_nodes() {
    let dispatched = run_cli(&["bench", "2"], LONG);
    let portable = run_cli_env(&["bench", "2"], &[("VORPAL_SIMD", "portable")], LONG);
    assert!(portable.status.success(), "{}", portable.stderr);
    assert!(
        portable
            .stderr
            .contains("Evaluation: network of 128 hidden neurons, portable kernels"),
        "{}",
        portable.stderr
    );
    assert_eq!(portable.stdout.lines().next(), dispatched.stdout.lines().next());
    let hce = run_cli_env(&["bench", "2", "hce"], &[("VORPAL_SIMD", "portable")], LONG);
    assert!(hce.stderr.contains("Evaluation: hand-crafted"), "{}", hce.stderr);
}

#[test]
fn one_command_go_and_errors() {
    let run = run_cli(&["go", "depth", "3"], LONG);
    assert!(run.status.success(), "{}", run.stderr);
    let last = run.stdout.lines().last().unwrap();
    let mv = last
        .strip_prefix("bestmove ")
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    assert!(Position::startpos().parse_uci(mv).is_ok(), "{last}");

    let run = run_cli(&["frobnicate"], SOON);
    assert_eq!(run.status.code(), Some(1));
    assert!(
        run.stdout.starts_with("info string error unknown command 'frobnicate'"),
        "{}",
        run.stdout
    );

    let run = run_cli(&["go", "infinite"], SOON);
    assert_eq!(
        run.status.code(),
        Some(1),
        "an endless search is refused on the command line"
    );

    let run = run_cli(&["--version"], SOON);
    assert!(run.status.success() && run.stdout.starts_with("Vorpal "));
    let run = run_cli(&["--help"], SOON);
    assert!(run.status.success() && run.stdout.contains("analyze"));
}

#[test]
fn analyze_prints_a_diagram_and_a_line_per_depth() {
    let run = run_cli(&["analyze", "--depth", "4", "--progress"], LONG);
    assert!(run.status.success(), "{}", run.stderr);
    let out = &run.stdout;
    assert!(out.contains("Board A") && out.contains("Board B"), "{out}");
    assert!(
        out.contains("Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        "{out}"
    );
    let depth_lines: Vec<&str> = out.lines().filter(|l| l.starts_with("depth ")).collect();
    assert!(!depth_lines.is_empty(), "{out}");
    for (i, line) in depth_lines.iter().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[1], (i + 1).to_string(), "one line per depth: {out}");
        assert!(
            words[2].starts_with('+') || words[2].starts_with('-') || words[2] == "mate",
            "{line}"
        );
        assert_eq!(words[3], "1.", "numbered SAN: {line}");
    }
    assert!(depth_lines.last().unwrap().starts_with("depth  4"), "{out}");
    assert!(out.contains("\nBest move: "), "{out}");
    assert!(run.stderr.contains("thinking"), "progress on stderr: {}", run.stderr);
    assert!(out.lines().all(|l| l == l.trim_end()));
}

#[test]
fn analyze_with_fen_moves_multipv_and_json() {
    let run = run_cli(
        &[
            "analyze",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "--moves",
            "Nf3",
            "e5",
            "--nodes",
            "20000",
            "--multipv",
            "2",
            "--json",
        ],
        LONG,
    );
    assert!(run.status.success(), "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(
        lines.iter().all(|l| l.starts_with('{') && l.ends_with('}')),
        "{}",
        run.stdout
    );
    assert!(
        lines[0].contains(r#""type":"position""#) && lines[0].contains(r#""fen":"rnbqkbnr/pppp1ppp/8/4|p3/8/5|N2/"#)
    );
    assert!(lines.iter().any(|l| l.contains(r#""multipv":2"#)), "{}", run.stdout);
    assert!(lines.iter().any(|l| l.contains(r#""pv_san":["#)));
    let last = lines.last().unwrap();
    assert!(last.contains(r#""type":"bestmove""#), "{last}");

    let run = run_cli(&["analyze", "--moves", "e4", "e4"], SOON);
    assert_eq!(run.status.code(), Some(2));
    assert!(run.stderr.contains("move 2"), "{}", run.stderr);
    let run = run_cli(&["analyze", "--frob"], SOON);
    assert_eq!(run.status.code(), Some(2));
}

#[test]
fn analyze_a_finished_game() {
    let run = run_cli(
        &[
            "analyze",
            "--fen",
            "rnbqkbnr/ppp1pppp/8/8/4p3/8/PPPP|BPPP/RNBQK1NR w KQkq - 0 3",
            "--moves",
            "Bb5",
        ],
        SOON,
    );
    assert!(run.status.success(), "{}", run.stderr);
    assert!(run.stdout.contains("No legal move: checkmate (1-0)"), "{}", run.stdout);
}
