//! `vorpal annotate` reviews whole games: a move that allows mate in one is marked `??` with
//! the engine's better line, every move gets an `[%eval]`, the original tags and comments
//! stay, `--json` says what the PGN says, and a bad game among good ones is named (game and
//! ply) while the others are still reviewed, with exit status 1.

use crate::support::harness::{run_cli, vorpal_binary, Run};
use serde_json::Value;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Nodes per position: enough to see a mate in one, small enough for the default tier.
const NODES: &str = "5000";
const LIMIT: Duration = Duration::from_secs(120);

/// The documented example game: Black's `8... h5??` allows `9. Rxh8#`.
fn blunder_game() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/examples/blunder.pgn")
}

fn annotate(extra: &[&str]) -> Run {
    let game = blunder_game();
    let mut args = vec!["annotate", game.to_str().unwrap(), "--nodes", NODES];
    args.extend(extra);
    run_cli(&args, LIMIT)
}

/// Runs `vorpal annotate - ARGS` with `text` on stdin: (status, stdout, stderr).
fn annotate_stdin(text: &str, args: &[&str]) -> (Option<i32>, String, String) {
    let mut child = Command::new(vorpal_binary())
        .arg("annotate")
        .arg("-")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting vorpal");
    child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    let out = child.wait_with_output().expect("vorpal annotate ends");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The movetext of the PGN games in `pgn` (the lines after each game's tags) as one line;
/// no line of it starts with `[` (which simple readers take for a tag).
fn movetext(pgn: &str) -> String {
    let mut lines = Vec::new();
    // Whether the line before was blank or a tag (where a tag may follow).
    let mut tag_may_follow = true;
    for line in pgn.lines() {
        let tag = line.starts_with('[');
        assert!(!tag || tag_may_follow, "a movetext line starts with '[': {line}");
        if !tag && !line.is_empty() {
            lines.push(line);
        }
        tag_may_follow = tag || line.is_empty();
    }
    lines.join(" ")
}

/// The `[%eval X]` values in order.
fn evals(movetext: &str) -> Vec<String> {
    movetext
        .split("[%eval ")
        .skip(1)
        .map(|rest| rest.split(']').next().unwrap().to_string())
        .collect()
}

#[test]
fn a_move_allowing_mate_in_one_is_a_blunder_with_a_better_line() {
    let run = annotate(&[]);
    assert!(run.status.success(), "{}", run.stderr);
    let pgn = run.stdout;
    // The original tags and comments are kept.
    for kept in [
        "[Event \"Review example\"]",
        "[White \"Tweedledum\"]",
        "[Variant \"Alice\"]",
        "[Result \"1-0\"]",
    ] {
        assert!(pgn.contains(kept), "{kept} lost:\n{pgn}");
    }
    let text = movetext(&pgn);
    assert!(
        text.contains("{ Black's king walks, then one careless pawn move opens the h-file. }"),
        "{text}"
    );
    assert!(text.contains("{ the h-pawn leaves board A }"), "{text}");
    // The blunder, its judgement and the engine's line (a variation from Black's 8th move).
    let at = text
        .find("8... h5??")
        .unwrap_or_else(|| panic!("8... h5 not marked ??:\n{text}"));
    let after = &text[at..];
    assert!(after.contains("Blunder."), "{after}");
    let variation = &after[after.find('(').expect("a variation")..];
    assert!(variation.starts_with("(8... "), "{variation}");
    assert!(after.find('(') < after.find("9. Rxh8#"), "{after}");
    // Every one of the 17 moves has an evaluation; after 8... h5 White mates in one, and the
    // mating move leaves Black mated (#0).
    let values = evals(&text);
    assert_eq!(values.len(), 17, "{text}");
    assert_eq!(values[15], "#1");
    assert_eq!(values[16], "#0");
    // The totals, as tags and in the closing comment.
    for tag in [
        "[WhiteAccuracy \"",
        "[BlackAccuracy \"",
        "[WhiteACPL \"",
        "[BlackACPL \"",
        "[Annotator \"Vorpal",
    ] {
        assert!(pgn.contains(tag), "{tag} missing:\n{pgn}");
    }
    assert!(text.contains("Black: accuracy "), "{text}");
    assert!(text.trim_end().ends_with("1-0"), "{text}");
    // No `!` is ever guessed.
    assert!(
        text.split_whitespace().all(|w| !w.ends_with('!') || w.ends_with("?!")),
        "{text}"
    );
}

#[test]
fn json_says_what_the_pgn_says() {
    let pgn = annotate(&[]);
    let json = annotate(&["--json"]);
    assert!(json.status.success(), "{}", json.stderr);
    let objects: Vec<Value> = json
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(objects.len(), 18, "{}", json.stdout);
    let text = movetext(&pgn.stdout);
    let values = evals(&text);
    for (i, m) in objects[..17].iter().enumerate() {
        assert_eq!(m["type"], "move");
        assert_eq!((m["game"].as_u64(), m["ply"].as_u64()), (Some(1), Some(i as u64 + 1)));
        // The same evaluation: {"cp":N} is N/100 pawns, {"mate":N} is #N.
        let eval = &m["eval"];
        let shown = match (eval["cp"].as_i64(), eval["mate"].as_i64()) {
            (Some(cp), None) => format!(
                "{}{}.{:02}",
                if cp < 0 { "-" } else { "" },
                cp.abs() / 100,
                cp.abs() % 100
            ),
            (None, Some(n)) => format!("#{n}"),
            _ => panic!("bad eval {eval}"),
        };
        assert_eq!(shown, values[i], "ply {}", i + 1);
        // The same mark on the same move.
        let san = m["san"].as_str().unwrap();
        let mark = match m["judgement"].as_str() {
            None => "",
            Some("inaccuracy") => "?!",
            Some("mistake") => "?",
            Some("blunder") => "??",
            Some(other) => panic!("judgement {other}"),
        };
        let number = i / 2 + 1;
        let numbered = if i % 2 == 0 {
            format!("{number}. {san}{mark} {{")
        } else {
            format!("{number}... {san}{mark} {{")
        };
        assert!(text.contains(&numbered), "{numbered} not in the PGN:\n{text}");
        let loss = m["loss"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&loss), "{m}");
        // The line starts with the best move.
        let line = m["line"].as_array().unwrap();
        assert_eq!(line.first(), Some(&m["best"]), "{m}");
    }
    let blunder = &objects[15];
    assert_eq!(
        (blunder["san"].as_str(), blunder["judgement"].as_str()),
        (Some("h5"), Some("blunder"))
    );
    assert_ne!(blunder["best"], "h7h5");
    assert!(blunder["loss"].as_f64().unwrap() >= 0.15);
    assert_eq!(objects[16]["eval"]["mate"], 0);
    let summary = &objects[17];
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["game"], 1);
    assert!(summary["black"]["blunders"].as_u64().unwrap() >= 1, "{summary}");
    assert_eq!(summary["white"]["moves"], 9);
    assert_eq!(summary["black"]["moves"], 8);
    let acc = summary["black"]["accuracy"].as_f64().unwrap();
    assert!(
        pgn.stdout.contains(&format!("[BlackAccuracy \"{acc:.1}\"]")),
        "{acc}: {}",
        pgn.stdout
    );
}

const THREE_GAMES: &str = "\
[Event \"one\"]
[White \"A\"]
[Black \"B\"]
[Result \"*\"]

1. Nf3 e6 2. Ne5/A {a comment} Bc5 *

[Event \"two\"]
[White \"C\"]
[Black \"D\"]
[Result \"*\"]

1. e4 e5 2. Ke3 Nc6 *

[Event \"three\"]
[White \"E\"]
[Black \"F\"]
[Result \"*\"]

1. d4 d5 *
";

#[test]
fn a_bad_game_among_three_is_named_and_the_others_reviewed() {
    let (status, out, err) = annotate_stdin(THREE_GAMES, &["--nodes", "2000"]);
    assert_eq!(status, Some(1), "{err}");
    assert!(err.contains("game 2 (C - D), ply 3:"), "{err}");
    assert!(err.contains("Ke3"), "{err}");
    assert_eq!(out.matches("[Annotator ").count(), 2, "{out}");
    assert!(
        out.contains("[Event \"one\"]") && out.contains("[Event \"three\"]"),
        "{out}"
    );
    assert!(!out.contains("[Event \"two\"]"), "{out}");
    assert!(movetext(&out).contains(" { a comment } { [%eval "), "{out}");
    assert_eq!(evals(&movetext(&out)).len(), 6, "{out}");
    // In JSON the failed game is an error object in its place.
    let (status, out, _) = annotate_stdin(THREE_GAMES, &["--nodes", "2000", "--json"]);
    assert_eq!(status, Some(1));
    let objects: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let kinds: Vec<(&str, u64)> = objects
        .iter()
        .map(|o| (o["type"].as_str().unwrap(), o["game"].as_u64().unwrap()))
        .collect();
    assert_eq!(kinds.iter().filter(|k| k.0 == "move").count(), 6, "{kinds:?}");
    assert!(kinds.contains(&("error", 2)) && kinds.contains(&("summary", 1)) && kinds.contains(&("summary", 3)));
    let error = objects.iter().find(|o| o["type"] == "error").unwrap();
    assert_eq!(error["ply"], 3);
}

#[test]
fn output_file_unreadable_input_and_usage() {
    let dir = std::env::temp_dir().join(format!("vorpal-annotate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("out.pgn");
    let run = annotate(&["-o", file.to_str().unwrap()]);
    assert!(run.status.success(), "{}", run.stderr);
    assert!(run.stdout.is_empty());
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(written.contains("h5??"), "{written}");
    std::fs::remove_dir_all(&dir).ok();

    let run = run_cli(&["annotate", "/no/such/file.pgn"], LIMIT);
    assert_eq!(run.status.code(), Some(1));
    assert!(run.stderr.contains("cannot read /no/such/file.pgn"), "{}", run.stderr);
    let (status, _, err) = annotate_stdin("", &[]);
    assert_eq!(status, Some(1));
    assert!(err.contains("no game found"), "{err}");
    for bad in [
        &["annotate"][..],
        &["annotate", "x.pgn", "--nodes", "0"],
        &["annotate", "x.pgn", "--frob"],
    ] {
        let run = run_cli(bad, LIMIT);
        assert_eq!(run.status.code(), Some(2), "{bad:?}");
        assert!(
            run.stderr.starts_with("error: ") && run.stderr.contains("'--help'"),
            "{}",
            run.stderr
        );
    }
    let run = run_cli(&["annotate", "--help"], LIMIT);
    assert!(
        run.status.success() && run.stdout.contains("--movetime"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_closed_stdout_ends_the_review_quietly() {
    for args in [&["annotate", "--help"][..], &["annotate", "-", "--nodes", "500"]] {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let mut child = Command::new(vorpal_binary())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::from(writer))
            .stderr(Stdio::piped())
            .spawn()
            .expect("starting vorpal");
        // `--help` may end before it reads its input.
        let _ = child.stdin.take().unwrap().write_all(b"1. e4 e5 *\n");
        let mut stderr = child.stderr.take().unwrap();
        let status = child.wait().unwrap();
        let mut said = String::new();
        stderr.read_to_string(&mut said).unwrap();
        assert_eq!(status.code(), Some(141), "{args:?}: {said}");
        assert!(!said.contains("panicked"), "{said}");
    }
}

/// Issue 32: `annotate -` never ended on a stray `]` or `}`. Each such input, and every PGN
/// file of `shared/data/pgn`, now ends with status 0, 1 or 2 and no signal.
#[test]
fn stray_brackets_and_the_shared_pgn_files_end_in_time() {
    for text in [
        "]",
        "}",
        "1. e4 ] e5 *",
        "1. e4 e5 } 2. Nf3 *",
        "[Event \"Casual game [Alice]\"]\n\n1. e4 *",
    ] {
        let (status, _, err) = annotate_stdin(text, &["--nodes", "100"]);
        assert!(matches!(status, Some(0..=2)), "{text:?}: {status:?} {err}");
    }
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/pgn");
    for file in std::fs::read_dir(&shared).expect("shared/data/pgn") {
        let path = file.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let (status, out, err) = annotate_stdin(&text, &["--nodes", "100"]);
        assert_eq!(status, Some(0), "{}: {err}", path.display());
        assert!(out.contains("[%eval"), "{}: {out}", path.display());
    }
}
