//! Helpers shared by the `vorpal-match` integration tests: scratch directories, running the
//! binary, reading a match's PGN and results back and checking them against each other and
//! against the printed summary.
#![allow(dead_code)]

pub mod datagen;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use vorpal_client::arbiter::Arbiter;
use vorpal_client::pgn::{parse_pgn, PgnGame};
use vorpal_client::variant_tag::variant_tag;
use vorpal_engine::game::Game;
use vorpal_engine::{Position, Rules};
use vorpal_tuning::matches::elo_report::reportable_estimate;
use vorpal_tuning::matches::results::{parse_result, parse_results, GameSummary, ResultsHeader, Tally, Termination};
use vorpal_tuning::matches::stats::Sprt;

pub const MATCH: &str = env!("CARGO_BIN_EXE_vorpal-match");
pub const FAKE: &str = env!("CARGO_BIN_EXE_vorpal-fake-engine");

/// A scratch directory, removed at the end of the test.
pub struct Scratch(PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let p = std::env::temp_dir().join(format!("vorpal-match-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        Scratch(p)
    }
    pub fn path(&self, f: &str) -> PathBuf {
        self.0.join(f)
    }
    pub fn arg(&self, f: &str) -> String {
        self.path(f).to_string_lossy().into_owned()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `--engine` arguments for the fake engine.
pub fn fake(name: &str, args: &[&str]) -> Vec<String> {
    let mut v = vec!["--engine".to_string(), format!("cmd={FAKE}"), format!("name={name}")];
    v.extend(args.iter().map(|a| format!("arg={a}")));
    v
}

pub fn run(args: &[String]) -> Output {
    let out = Command::new(MATCH).args(args).output().expect("vorpal-match runs");
    eprintln!(
        "$ vorpal-match {}\n{}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    println!("{}", String::from_utf8_lossy(&out.stdout));
    out
}

pub fn args(parts: &[&[String]], rest: &str) -> Vec<String> {
    let mut v: Vec<String> = parts.iter().flat_map(|p| p.iter().cloned()).collect();
    v.extend(rest.split_whitespace().map(String::from));
    v
}

/// Reads the PGN and results of a standard Alice match, checks them against each other and
/// returns them.
pub fn load(pgn: &Path) -> (Vec<PgnGame>, ResultsHeader, Vec<GameSummary>) {
    load_under(pgn, Rules::default())
}

/// [`load`] for a match played under `rules`.
pub fn load_under(pgn: &Path, rules: Rules) -> (Vec<PgnGame>, ResultsHeader, Vec<GameSummary>) {
    let games = parse_pgn(&std::fs::read_to_string(pgn).unwrap());
    let text = std::fs::read_to_string(pgn.with_extension("results")).unwrap();
    let (header, mut lines) = parse_results(&text).unwrap();
    lines.sort_by_key(|g| g.id);
    assert_eq!(
        games.len(),
        lines.len(),
        "PGN and results disagree on the number of games"
    );
    for g in &games {
        let id: u64 = g.tag("GameId").unwrap().parse().unwrap();
        let line = lines
            .iter()
            .find(|l| l.id == id)
            .expect("every PGN game has a results line");
        verify_game_under(g, line, rules);
    }
    let mut ids: Vec<u64> = lines.iter().map(|l| l.id).collect();
    ids.dedup();
    assert_eq!(ids.len(), lines.len(), "duplicate game ids");
    (games, header, lines)
}

/// A PGN game replays legally, its result tag, result token and results line agree, and a game
/// that ended by the rules really is over by the rules (and any other is not).
pub fn verify_game(g: &PgnGame, line: &GameSummary) {
    verify_game_under(g, line, Rules::default())
}

/// [`verify_game`] for a game played under `rules`.
pub fn verify_game_under(g: &PgnGame, line: &GameSummary, rules: Rules) {
    assert_eq!(g.tag("Variant"), Some(variant_tag(rules).as_str()));
    assert_eq!(g.tag("Result"), g.result.as_deref());
    let result = parse_result(g.result.as_deref().unwrap()).unwrap();
    assert_eq!(result, line.result);
    assert_eq!(g.tag("White"), Some(line.white.as_str()));
    assert_eq!(
        Termination::parse(g.tag("Termination").unwrap()),
        Some(line.termination)
    );
    let (start, moves) = g.replay(rules).unwrap_or_else(|e| panic!("game {}: {e}", line.id));
    if let Some(fen) = g.tag("FEN") {
        assert_eq!(fen, start.to_fen(), "FEN tag in the position's FEN form");
        assert_ne!(start, Position::start(rules));
    }
    assert_eq!(g.tag("PlyCount").unwrap().parse::<usize>().unwrap(), moves.len());
    let engine_moves = g.moves.iter().filter(|m| m.comment.as_deref() != Some("book")).count();
    assert_eq!(engine_moves as u32, line.plies);
    assert_eq!(g.final_comment.as_deref(), Some(line.reason.as_str()));
    let mut game = Game::new(start);
    for m in moves {
        assert!(game.play(m));
    }
    match line.termination {
        Termination::Normal => assert_eq!(game.outcome().map(|o| o.0), Some(result), "game {}", line.id),
        _ => assert_eq!(game.outcome(), None, "game {} was over by the rules", line.id),
    }
}

/// The value after `label` in the summary output, up to the next `delimiter`.
pub fn field<'a>(out: &'a str, label: &str, delimiter: char) -> &'a str {
    let start = out.find(label).unwrap_or_else(|| panic!("no '{label}' in {out}")) + label.len();
    out[start..].split(delimiter).next().unwrap().trim()
}

/// The printed summary equals the statistics recomputed from the results lines.
pub fn check_summary(stdout: &str, names: [&str; 2], lines: &[GameSummary], sprt: Option<&Sprt>) -> Tally {
    let mut tally = Tally::new(names.iter().map(|s| s.to_string()).collect());
    for l in lines {
        tally.add(l.clone());
    }
    let t = tally.trinomial(names[0], names[1]);
    let p = tally.pentanomial(names[0], names[1]);
    let games = format!(
        "Games: {}, Wins: {}, Losses: {}, Draws: {}",
        t.games(),
        t.wins,
        t.losses,
        t.draws
    );
    assert!(stdout.contains(&games), "{games} not in\n{stdout}");
    let ptnml = format!(
        "Ptnml(0-2): [{}, {}, {}, {}, {}]",
        p.0[0], p.0[1], p.0[2], p.0[3], p.0[4]
    );
    assert!(stdout.contains(&ptnml), "{ptnml} not in\n{stdout}");
    let e = match reportable_estimate(&t, Some(&p)) {
        Ok(e) => e,
        Err(why) => {
            // Too few pairs (or no spread): the summary says so instead of an estimate.
            let line = format!("Elo: {why}, LOS: n/a");
            assert!(stdout.contains(&line), "{line} not in\n{stdout}");
            if let Some(s) = sprt {
                assert_eq!(field(stdout, "LLR: ", ' '), format!("{:.2}", s.llr(&p)));
            }
            return tally;
        }
    };
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("Elo")).count(),
        1,
        "one Elo line:\n{stdout}"
    );
    assert_eq!(field(stdout, "Elo: ", ' '), format!("{:.2}", e.elo));
    assert_eq!(
        field(stdout, "Elo: ", ',').split("+/-").nth(1).unwrap().trim(),
        format!("{:.2}", e.elo_error)
    );
    assert_eq!(field(stdout, "LOS: ", '%'), format!("{:.2}", 100.0 * e.los));
    if let Some(s) = sprt {
        assert_eq!(field(stdout, "LLR: ", ' '), format!("{:.2}", s.llr(&p)));
    }
    tally
}

/// Finished games in a results file (0 when it does not exist yet).
pub fn games_in(results: &Path) -> usize {
    std::fs::read_to_string(results).map_or(0, |t| parse_results(&t).map_or(0, |r| r.1.len()))
}

/// Starts `vorpal-match args`, waits until `results` holds at least `games` games and kills
/// the runner (SIGKILL: no chance to clean up). Returns the games in the file afterwards.
pub fn run_and_kill_after(args: &[String], results: &Path, games: usize) -> usize {
    let mut child = Command::new(MATCH)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("vorpal-match starts");
    let start = std::time::Instant::now();
    while games_in(results) < games {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(300),
            "the match does not progress"
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "the match ended before it could be killed"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    games_in(results)
}

/// The `vorpal` binary: `VORPAL_BIN`, or the one `cargo test --workspace` builds for the
/// `vorpal` package's own tests (`target/<profile>/vorpal`, beside this test's `deps/`): Cargo
/// names a binary only to its own package's tests, and these tests never run cargo themselves.
pub fn vorpal() -> &'static str {
    static BIN: OnceLock<String> = OnceLock::new();
    BIN.get_or_init(|| {
        if let Ok(bin) = std::env::var("VORPAL_BIN") {
            return bin;
        }
        // The test executable is <target>/<profile>/deps/<name>.
        let exe = std::env::current_exe().expect("the test executable's path");
        let bin = exe.ancestors().nth(2).expect("tests run from <target>/<profile>/deps");
        let bin = bin.join(format!("vorpal{}", std::env::consts::EXE_SUFFIX));
        assert!(
            bin.is_file(),
            "{} is missing: run these tests with `cargo test --workspace` (which builds it), \
             or build it with `cargo build -p vorpal --profile test`, or set VORPAL_BIN",
            bin.display()
        );
        bin.to_string_lossy().into_owned()
    })
}

/// A `vorpal` built with the `tune` feature, from `VORPAL_TUNE_BIN` (the full tier's command
/// in docs/testing.md builds it first: a build with other features is no test's own binary).
/// A relative `VORPAL_TUNE_BIN` is read from the workspace root (tests run in their crate's
/// folder, so `target/tune/debug/vorpal` as CI writes it would not be found from there).
pub fn tune_vorpal() -> String {
    let given = std::env::var("VORPAL_TUNE_BIN").unwrap_or_else(|_| {
        panic!(
            "set VORPAL_TUNE_BIN to a `--features tune` build: cargo build -p vorpal \
             --features tune --target-dir target/tune && VORPAL_TUNE_BIN=target/tune/debug/vorpal"
        )
    });
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(&given);
    assert!(path.is_file(), "VORPAL_TUNE_BIN: no file at {}", path.display());
    path.to_string_lossy().into_owned()
}

/// Leaves of the move tree to `depth`, every move relayed as the text an engine would send.
pub fn arbiter_perft(a: &Arbiter, depth: u32) -> u64 {
    let pos = *a.position();
    let texts: Vec<String> = pos.legal_moves().iter().map(|&m| pos.move_to_uci(m)).collect();
    if depth == 1 {
        return texts.iter().filter(|t| a.check(t).is_ok()).count() as u64;
    }
    texts
        .iter()
        .map(|t| {
            let mut child = a.clone();
            child.play_text(t).unwrap_or_else(|e| panic!("{e}"));
            arbiter_perft(&child, depth - 1)
        })
        .sum()
}
