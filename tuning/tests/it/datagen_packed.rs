//! `vorpal-datagen` packed output: both formats agree, resuming cuts partial records, convert
//! and merge, shard seeds, the score bound, balanced openings, and the command line's errors.

use crate::common::datagen::{quick, records, scratch};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use vorpal_engine::search::{Score, SearchControl, SearchOptions, Searcher};
use vorpal_engine::{GameResult, Position, Rules};
use vorpal_tuning::datagen::packed::{header, HEADER_BYTES, RECORD_BYTES};
use vorpal_tuning::datagen::tools::{convert, merge};
use vorpal_tuning::datagen::{self, game_seed, parse_line, random_opening, read_progress, OutputFormat};

const DATAGEN: &str = env!("CARGO_BIN_EXE_vorpal-datagen");

fn datagen_cli(args: &[&str]) -> Output {
    Command::new(DATAGEN).args(args).output().unwrap()
}

#[test]
fn both_formats_hold_the_same_positions() {
    let dir = scratch("both");
    let out = dir.join("a");
    let cfg = quick(&out, 2);
    let s = datagen::run(&cfg).unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    let recs = records(&cfg.packed_path());
    assert!(s.positions > 0);
    assert_eq!(recs.len() as u64, s.positions);
    assert_eq!(text.lines().count() as u64, s.positions);
    for (line, rec) in text.lines().zip(&recs) {
        let l = parse_line(line).unwrap();
        let pos = Position::from_fen(&l.fen, Rules::default()).unwrap();
        let (back, score, result) = rec.decode().unwrap();
        assert!(back.same_placement(&pos) && back.side_to_move() == pos.side_to_move());
        assert_eq!(back.castling(), pos.castling());
        assert_eq!(i32::from(score), l.score);
        let expected = [
            (1.0, GameResult::WhiteWins),
            (0.5, GameResult::Draw),
            (0.0, GameResult::BlackWins),
        ];
        assert!(expected.contains(&(l.result, result)), "{line}");
        assert!(l.score.abs() <= cfg.max_score, "score bound: {line}");
    }
    // The sidecar's offsets cover both files exactly.
    let last = *read_progress(&cfg.progress_path()).unwrap().entries.last().unwrap();
    assert_eq!(last.text_end, text.len() as u64);
    assert_eq!(last.packed_end, std::fs::metadata(cfg.packed_path()).unwrap().len());

    // `convert` of the text gives the very bytes written by the run.
    let converted = dir.join("converted.bin");
    let c = convert(&out, &converted).unwrap();
    assert_eq!((c.converted, c.skipped), (s.positions, 0));
    assert_eq!(
        std::fs::read(&converted).unwrap(),
        std::fs::read(cfg.packed_path()).unwrap()
    );

    // `dump` gives the text back, but for the clocks the packed form does not keep.
    let without_clocks = |t: &str| -> Vec<String> {
        t.lines()
            .map(|l| {
                let d = parse_line(l).unwrap();
                let fields: Vec<&str> = d.fen.split_whitespace().collect();
                format!(
                    "{} {} | {} | {}",
                    fields[..4].join(" "),
                    fields.len(),
                    d.score,
                    d.result
                )
            })
            .collect()
    };
    let dumped = datagen_cli(&["dump", cfg.packed_path().to_str().unwrap()]);
    assert_eq!(dumped.status.code(), Some(0));
    let dumped = String::from_utf8(dumped.stdout).unwrap();
    assert!(dumped.lines().all(|l| l.contains(" - 0 1 | ")), "clocks 0 1");
    assert_eq!(without_clocks(&dumped), without_clocks(&text));
    assert_eq!(
        datagen_cli(&["dump", out.to_str().unwrap()]).status.code(),
        Some(1),
        "text is no packed file"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn interrupted_packed_run_resumes_without_partial_records() {
    let dir = scratch("resume");
    let out = dir.join("a");
    let cfg = quick(&out, 1);
    datagen::run(&cfg).unwrap();
    // A run killed while writing its second game: a partial line and a partial record.
    let mut text = std::fs::read(&out).unwrap();
    text.extend_from_slice(b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 1");
    std::fs::write(&out, text).unwrap();
    let mut bin = std::fs::read(cfg.packed_path()).unwrap();
    bin.extend_from_slice(&[1, 2, 3, 4, 5, 6, 7]);
    std::fs::write(cfg.packed_path(), bin).unwrap();
    let s = datagen::run(&quick(&out, 3)).unwrap();
    assert_eq!((s.games, s.games_total), (2, 3));
    // Equal to one uninterrupted run.
    let fresh = dir.join("b");
    datagen::run(&quick(&fresh, 3)).unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&fresh).unwrap());
    assert_eq!(
        std::fs::read(cfg.packed_path()).unwrap(),
        std::fs::read(quick(&fresh, 0).packed_path()).unwrap()
    );
    // Another format on resume is refused.
    let mut text_only = quick(&out, 4);
    text_only.format = OutputFormat::Text;
    let err = datagen::run(&text_only).unwrap_err().to_string();
    assert!(err.contains("--format both"), "{err}");
    // A packed-only run writes no text file.
    let packed_only_out = dir.join("p");
    let mut packed_only = quick(&packed_only_out, 1);
    packed_only.format = OutputFormat::Packed;
    datagen::run(&packed_only).unwrap();
    assert!(!packed_only_out.exists());
    assert_eq!(
        std::fs::read(packed_only.packed_path()).unwrap()[..],
        std::fs::read(cfg.packed_path()).unwrap()
            [..std::fs::metadata(packed_only.packed_path()).unwrap().len() as usize]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shards_merge_and_bad_shards_are_refused() {
    let dir = scratch("merge");
    let mut bodies = Vec::new();
    let mut shards = Vec::new();
    for seed in [1, 2] {
        let mut cfg = quick(&dir.join(format!("shard-{seed}")), 2);
        cfg.seed = seed;
        cfg.format = OutputFormat::Packed;
        datagen::run(&cfg).unwrap();
        bodies.push(std::fs::read(cfg.packed_path()).unwrap()[HEADER_BYTES..].to_vec());
        shards.push(cfg.packed_path());
    }
    assert_ne!(bodies[0], bodies[1], "different seeds, different games");
    let merged = dir.join("all.bin");
    let paths: Vec<&Path> = shards.iter().map(PathBuf::as_path).collect();
    let m = merge(&merged, &paths).unwrap();
    assert_eq!(m.shards, 2);
    assert_eq!(m.records as usize, (bodies[0].len() + bodies[1].len()) / RECORD_BYTES);
    assert_eq!(
        std::fs::read(&merged).unwrap(),
        [&header()[..], &bodies[0], &bodies[1]].concat()
    );
    // The output exists: refused.
    assert!(merge(&merged, &paths).is_err());

    // A truncated shard and a shard without the header: errors naming them, no output left.
    let torn = dir.join("torn.bin");
    let whole = std::fs::read(&shards[0]).unwrap();
    std::fs::write(&torn, &whole[..whole.len() - 3]).unwrap();
    let not_packed = dir.join("text.bin");
    std::fs::write(
        &not_packed,
        b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 0 | 0.5\n",
    )
    .unwrap();
    for bad in [&torn, &not_packed] {
        let out = dir.join("bad-merge.bin");
        let err = merge(&out, &[shards[1].as_path(), bad.as_path()])
            .unwrap_err()
            .to_string();
        assert!(err.contains(bad.to_str().unwrap()), "{err}");
        assert!(!out.exists() && !dir.join("bad-merge.bin.tmp").exists());
    }
    let out = dir.join("cli.bin");
    let cli = datagen_cli(&[out.to_str().unwrap(), torn.to_str().unwrap()]);
    assert_eq!(cli.status.code(), Some(2), "no subcommand: an unknown argument");
    let cli = datagen_cli(&["merge", out.to_str().unwrap(), torn.to_str().unwrap()]);
    assert_eq!(cli.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&cli.stderr).contains("truncated"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn convert_skips_malformed_lines_and_reports_them() {
    let dir = scratch("convert");
    let input = dir.join("in.txt");
    std::fs::write(
        &input,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 20 | 0.5\n\
         not a line\n\
         \n\
         # a comment\n\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1 | 20 | 1.0\n\
         4k3/8/8/8/8/8/|P7/4K3 w - - 0 1 | -35 | 0.0\n\
         4k3/8/8/8/8/8/|P7/4K3 w - - 0 1 | -35 | 0.7\n",
    )
    .unwrap();
    let out = dir.join("out.bin");
    let cli = datagen_cli(&["convert", input.to_str().unwrap(), out.to_str().unwrap()]);
    assert_eq!(cli.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&cli.stdout);
    let stderr = String::from_utf8_lossy(&cli.stderr);
    assert!(stdout.contains("converted 2 of 5 lines"), "{stdout}");
    assert!(stdout.contains("skipped 3"), "{stdout}");
    for n in [2, 5, 7] {
        assert!(stderr.contains(&format!("skipped line {n}:")), "{stderr}");
    }
    let recs = records(&out);
    assert_eq!(recs.len(), 2);
    let (pos, score, result) = recs[1].decode().unwrap();
    assert_eq!(pos.to_fen(), "4k3/8/8/8/8/8/|P7/4K3 w - - 0 1");
    assert_eq!((score, result), (-35, GameResult::BlackWins));
    // Existing output, missing input, missing arguments.
    assert_eq!(
        datagen_cli(&["convert", input.to_str().unwrap(), out.to_str().unwrap()])
            .status
            .code(),
        Some(1)
    );
    let missing = dir.join("missing.txt");
    let other = dir.join("other.bin");
    assert_eq!(
        datagen_cli(&["convert", missing.to_str().unwrap(), other.to_str().unwrap()])
            .status
            .code(),
        Some(1)
    );
    assert_eq!(
        datagen_cli(&["convert", input.to_str().unwrap()]).status.code(),
        Some(2)
    );
    assert_eq!(datagen_cli(&["merge", other.to_str().unwrap()]).status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn usage_errors_exit_2_and_progress_goes_to_stderr() {
    let dir = scratch("cli");
    for args in [
        &["--out", "x", "--bogus"][..],
        &["--out", "x", "--format", "xml"],
        &["--out", "x", "--max-score", "lots"],
        &["--out", "x", "--progress-seconds", "-1"],
        &["--games", "3"],
    ] {
        let o = datagen_cli(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(!o.stderr.is_empty(), "{args:?}: a message");
    }
    let out = dir.join("run");
    let o = datagen_cli(&[
        "--out",
        out.to_str().unwrap(),
        "--games",
        "2",
        "--nodes",
        "300",
        "--max-plies",
        "60",
        "--progress-seconds",
        "0.01",
        "--format",
        "packed",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&o.stderr);
    let line = stderr
        .lines()
        .find(|l| l.contains("ETA"))
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!(
        line.contains("games ") && line.contains("positions ") && line.contains("/s"),
        "{line}"
    );
    assert!(
        stderr.contains("games 2/2"),
        "the last line counts every game: {stderr}"
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("positions/s"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn per_game_seeds_differ_between_shards() {
    // Shards are runs with different --seed: every (seed, game index) pair gets its own stream.
    let mut seen = HashSet::new();
    for seed in 1..=16 {
        for index in 0..20_000 {
            assert!(seen.insert(game_seed(seed, index)), "seed {seed} game {index}");
        }
    }
}

#[test]
fn max_score_bounds_the_kept_positions() {
    let dir = scratch("maxscore");
    let out = dir.join("a");
    let mut cfg = quick(&out, 2);
    cfg.max_score = 40;
    cfg.format = OutputFormat::Text;
    datagen::run(&cfg).unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    for line in text.lines() {
        assert!(parse_line(line).unwrap().score.abs() <= 40, "{line}");
    }
    // The bound is part of the settings: resuming with another bound is refused.
    cfg.max_score = 41;
    assert!(datagen::run(&cfg).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn openings_are_balanced_within_the_window() {
    let mut cfg = quick(Path::new("unused"), 0);
    cfg.opening_window = 40;
    let control = SearchControl::new();
    let mut searcher = Searcher::new(SearchOptions {
        threads: 1,
        hash_mb: cfg.hash_mb,
        ..SearchOptions::default()
    });
    for index in 0..4 {
        let mut rng = StdRng::seed_from_u64(game_seed(cfg.seed, index));
        let game = random_opening(&cfg, &mut rng, &mut searcher, &control);
        assert_eq!(game.moves().len(), cfg.random_plies as usize);
        // The same search as the check (fresh hash, same limits) finds it balanced.
        searcher.clear();
        let r = searcher.search(&game, &cfg.limits(), &control, &mut |_| {});
        assert!(
            matches!(r.score, Score::Cp(cp) if cp.abs() <= 40),
            "game {index}: {:?}",
            r.score
        );
    }
}

/// `--eval hce` searches with the hand-crafted evaluation (the data of the first network),
/// the default with the built-in network; the two play different games, and the choice is
/// part of the settings a resumed run must match.
#[test]
fn the_evaluation_searched_with_is_a_setting() {
    let dir = scratch("eval");
    let (net_out, hce_out) = (dir.join("net"), dir.join("hce"));
    let mut net_cfg = quick(&net_out, 2);
    net_cfg.format = OutputFormat::Text;
    let mut hce_cfg = quick(&hce_out, 2);
    hce_cfg.format = OutputFormat::Text;
    hce_cfg.hand_crafted = true;
    datagen::run(&net_cfg).unwrap();
    datagen::run(&hce_cfg).unwrap();
    let (a, b) = (
        std::fs::read_to_string(&net_out).unwrap(),
        std::fs::read_to_string(&hce_out).unwrap(),
    );
    assert!(!a.is_empty() && !b.is_empty());
    assert_ne!(
        a, b,
        "the network and the hand-crafted evaluation played the same games"
    );
    let sidecar = std::fs::read_to_string(dir.join("hce.progress")).unwrap();
    assert!(sidecar.contains("eval=hce"), "{sidecar}");
    hce_cfg.hand_crafted = false;
    assert!(datagen::run(&hce_cfg).is_err(), "resumed with another evaluation");
    let bad = datagen_cli(&["--out", dir.join("x").to_str().unwrap(), "--eval", "both"]);
    assert_eq!(bad.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}
