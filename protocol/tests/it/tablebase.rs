//! The endgame tables end to end: `vorpal tb generate` and `tb probe`, every row of
//! `tb-examples.tsv` (Popeye's mate lengths), a damaged file, the tables in play and in the
//! solver (`solve --tb`). The 3-man set is made in the default tier; the whole 4-man set in
//! the full tier (or taken from `VORPAL_TB_DIR`).

use crate::support::harness::{run_cli, Engine};
use std::path::{Path, PathBuf};
use std::time::Duration;
use vorpal_engine::tablebase::{Material, Tablebases, Wdl};
use vorpal_engine::{Position, Rules};
use vorpal_tests::data::read_data;

const LONG: Duration = Duration::from_secs(600);

pub(crate) fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("vorpal-tbtest-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// (material, FEN, Popeye's mate length or None for ">4").
pub(crate) fn reference_rows() -> Vec<(String, String, Option<u32>)> {
    read_data("tb-examples.tsv")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_string(), f[1].to_string(), f[2].parse().ok())
        })
        .collect()
}

/// Checks every reference row of the materials present in `dir`; returns how many.
pub(crate) fn check_reference_rows(dir: &Path, materials: &[Material]) -> usize {
    let tb = Tablebases::open(dir).unwrap();
    let mut checked = 0;
    for (material, fen, popeye) in reference_rows() {
        if !materials.iter().any(|m| m.to_string() == material) {
            continue;
        }
        let pos = Position::from_fen(&fen, Rules::default()).unwrap();
        let p = tb.probe(&pos).unwrap().expect("in the tables");
        match popeye {
            Some(n) => assert_eq!((p.wdl, p.dtm()), (Wdl::Win, Some(n)), "{material} {fen}"),
            None => assert!(p.wdl != Wdl::Win || p.dtm().unwrap() > 4, "{material} {fen}: {p:?}"),
        }
        checked += 1;
    }
    checked
}

fn three_man_dir(name: &str) -> PathBuf {
    let dir = temp_dir(name);
    let run = run_cli(
        &["tb", "generate", "--all", "3", "--dir", dir.to_str().unwrap(), "--json"],
        LONG,
    );
    assert!(run.status.success(), "{}", run.stderr);
    assert_eq!(run.stdout.lines().count(), 5, "one JSON line per table: {}", run.stdout);
    assert!(
        run.stderr.contains("left about"),
        "a progress line with the time left: {}",
        run.stderr
    );
    dir
}

#[test]
fn three_man_tables_agree_with_every_reference_row() {
    let dir = three_man_dir("rows3");
    let n = check_reference_rows(&dir, &Material::all_up_to(3));
    assert_eq!(n, 15);
    // A second run keeps the sound files.
    let run = run_cli(&["tb", "generate", "KRvK", "--dir", dir.to_str().unwrap()], LONG);
    assert!(
        run.status.success() && run.stderr.contains("KRvK: present, kept"),
        "{}",
        run.stderr
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn probe_prints_the_value_and_every_move() {
    let dir = three_man_dir("probe");
    let fen = "8/6|Q1/8/8/8/4|k1K1/8/8 w - - 0 1";
    let run = run_cli(
        &["tb", "probe", "--dir", dir.to_str().unwrap(), "--fen", fen, "--json"],
        LONG,
    );
    assert!(run.status.success(), "{}", run.stderr);
    let line = run.stdout.trim();
    assert!(
        line.starts_with("{\"") && line.contains("\"wdl\":\"win\"") && line.contains("\"dtm\":4"),
        "{line}"
    );
    let pos = Position::from_fen(fen, Rules::default()).unwrap();
    assert_eq!(line.matches("\"uci\"").count(), pos.legal_moves().len(), "{line}");
    let text = run_cli(&["tb", "probe", "--dir", dir.to_str().unwrap(), "--fen", fen], LONG);
    assert!(
        text.stdout.starts_with("KQvK, White to move: win, mate in 4\n"),
        "{}",
        text.stdout
    );
    // A draw has no dtm.
    let draw = run_cli(
        &[
            "tb",
            "probe",
            "--dir",
            dir.to_str().unwrap(),
            "--fen",
            "8/8/8/8/8/8/8/KB5k w - - 0 1",
            "--json",
        ],
        LONG,
    );
    assert!(
        draw.stdout.contains("\"wdl\":\"draw\"") && !draw.stdout.contains("\"dtm\""),
        "{}",
        draw.stdout
    );
    // Too many men, a bad FEN, a missing directory: errors, status 1.
    for fen in [
        "8/8/8/8/8/8/PPPP4/K6k w - - 0 1",
        "8/8/8/8/8/8/PPP5/K6k w - - 0 1",
        "not a fen",
    ] {
        let r = run_cli(&["tb", "probe", "--dir", dir.to_str().unwrap(), "--fen", fen], LONG);
        assert_eq!(r.status.code(), Some(1), "{fen}: {}", r.stderr);
        assert!(r.stderr.starts_with("error: "), "{}", r.stderr);
    }
    let r = run_cli(&["tb", "probe", "--dir", "/nonexistent/tables", "--fen", fen], LONG);
    assert_eq!(r.status.code(), Some(1));
    let r = run_cli(&["tb", "generate", "KXvK", "--dir", dir.to_str().unwrap()], LONG);
    assert_eq!(r.status.code(), Some(2), "{}", r.stderr);
    // Five men with pawns are refused before any work (pawnless five-man tables are made).
    let r = run_cli(&["tb", "generate", "KRPvKN", "--dir", dir.to_str().unwrap()], LONG);
    assert_eq!(r.status.code(), Some(1), "{}", r.stderr);
    assert!(
        r.stderr.contains("five-man tables with pawns are not made"),
        "{}",
        r.stderr
    );
    let r = run_cli(&["tb", "generate", "--all", "5", "--dir", dir.to_str().unwrap()], LONG);
    assert_eq!(r.status.code(), Some(2), "{}", r.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_engine_plays_the_table_move_and_survives_a_damaged_file() {
    let dir = three_man_dir("play");
    let d = dir.to_str().unwrap();
    let mut engine = Engine::start();
    engine.send(&format!("setoption name AliceTbPath value {d}"));
    engine.send("position fen 8/6|Q1/8/8/8/4|k1K1/8/8 w - - 0 1");
    engine.send("go depth 3");
    let (lines, best) = engine.bestmove(LONG);
    assert!(
        lines.iter().any(|l| l == "info string tablebase: mate in 4"),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.contains(" score mate 4 ")), "{lines:?}");
    // The move played keeps the mate in 4.
    let tb = Tablebases::open(&dir).unwrap();
    let pos = Position::from_fen("8/6|Q1/8/8/8/4|k1K1/8/8 w - - 0 1", Rules::default()).unwrap();
    let moves = tb.probe_moves(&pos).unwrap().unwrap();
    let played = moves
        .iter()
        .find(|m| pos.move_to_uci(m.mv) == best)
        .expect("a legal move");
    assert_eq!(played.result.dtm(), Some(4));

    // A damaged KRvK file: the error is reported and the search still answers.
    let path = dir.join("KRvK.vtb");
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0xff;
    std::fs::write(&path, &bytes).unwrap();
    let mut engine = Engine::start();
    engine.send(&format!("setoption name AliceTbPath value {d}"));
    engine.send("position fen 8/3R4/8/8/3|K4/8/8/4k3 w - - 0 1");
    engine.send("go depth 6");
    let (lines, best) = engine.bestmove(LONG);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string tablebase file refused") && l.contains("checksum")),
        "{lines:?}"
    );
    assert_ne!(best, "(none)");
    assert!(lines.iter().any(|l| l.starts_with("info depth 6 ")), "{lines:?}");
    let r = run_cli(
        &["tb", "probe", "--dir", d, "--fen", "8/3R4/8/8/3|K4/8/8/4k3 w - - 0 1"],
        LONG,
    );
    assert_eq!(r.status.code(), Some(1));
    assert!(r.stderr.contains("checksum"), "{}", r.stderr);
    // A directory that does not exist is refused; CECP's egtpath sets the same.
    let mut engine = Engine::start();
    engine.send("setoption name AliceTbPath value /nonexistent/tables");
    let lines = engine.sync();
    assert!(
        lines.iter().any(|l| l.contains("AliceTbPath '/nonexistent/tables'")),
        "{lines:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `vorpal solve --stip #n --tries --json` on `fen`, with the tables of `tb` when given: the
/// output without its node count and time, and the node count.
fn solve_direct(fen: &str, n: u32, tb: Option<&Path>) -> (String, u64) {
    let stip = format!("#{n}");
    let mut args = vec!["solve", "--fen", fen, "--stip", &stip, "--tries", "--json"];
    if let Some(dir) = tb {
        args.extend(["--tb", dir.to_str().unwrap()]);
    }
    let run = run_cli(&args, LONG);
    assert!(run.status.success(), "{fen} {stip}: {}", run.stderr);
    let mut v: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    let nodes = v["nodes"].as_u64().unwrap();
    let obj = v.as_object_mut().unwrap();
    obj.remove("nodes");
    obj.remove("ms");
    assert_eq!(obj["complete"], true, "{fen} {stip}");
    (v.to_string(), nodes)
}

/// The solver with the tables of `dir` gives exactly the keys and tries of the plain search
/// (`#n`, `--tries`) on random positions of each of `materials` (FEN letters, White's first):
/// those the tables call won in 2 to `max_n` moves (solved as `#dtm`) and some others (as
/// `#3`: no key, but tries), or, for a material one man beyond the tables, `#2` and `#3`
/// (the tables then decide the positions after captures). Returns (positions, nodes without
/// the tables, nodes with them).
pub(crate) fn solver_with_tables_is_exact(
    dir: &Path,
    materials: &[&str],
    each: usize,
    max_n: u32,
    seed: u64,
) -> (usize, u64, u64) {
    let tb = Tablebases::open(dir).unwrap();
    let mut rng = Rng(seed);
    let (mut count, mut plain_nodes, mut tb_nodes) = (0, 0, 0);
    for pieces in materials {
        let (mut won, mut other) = (0, 0);
        for fen in random_positions(pieces, 3000, &mut rng) {
            if won >= each && other >= each / 2 {
                break;
            }
            let pos = Position::from_fen(&fen, Rules::default()).unwrap();
            let n = match tb.probe(&pos).unwrap() {
                Some(p) if p.wdl == Wdl::Win && (2..=max_n).contains(&p.dtm().unwrap()) && won < each => {
                    won += 1;
                    p.dtm().unwrap()
                }
                Some(p) if p.wdl != Wdl::Win && other < each / 2 => {
                    other += 1;
                    3
                }
                None if won < each => {
                    won += 1;
                    2 + (won % 2) as u32
                }
                _ => continue,
            };
            let (plain, plain_n) = solve_direct(&fen, n, None);
            let (with_tables, tb_n) = solve_direct(&fen, n, Some(dir));
            assert_eq!(plain, with_tables, "{fen} #{n}: the tables changed the solution");
            assert!(
                tb_n <= plain_n,
                "{fen} #{n}: {tb_n} nodes with the tables, {plain_n} without"
            );
            (count, plain_nodes, tb_nodes) = (count + 1, plain_nodes + plain_n, tb_nodes + tb_n);
        }
        assert!(won >= each, "{pieces}: only {won} positions");
    }
    (count, plain_nodes, tb_nodes)
}

#[test]
fn the_solver_with_three_man_tables_finds_exactly_the_same_solutions() {
    let dir = three_man_dir("solve");
    // Positions of the tables' materials, and 4-man positions whose captures lead into them.
    let (count, plain, with_tables) =
        solver_with_tables_is_exact(&dir, &["KQk", "KRk", "KPk", "KQkn", "KRkp"], 4, 4, 7);
    println!("solve --tb: {count} positions, {plain} nodes without the tables, {with_tables} with them");
    assert!(count >= 20, "{count} positions");
    assert!(
        with_tables * 2 < plain,
        "the tables save nodes: {with_tables} against {plain}"
    );
    // Tables that do not exist are refused before anything is solved.
    let run = run_cli(
        &[
            "solve",
            "--fen",
            "8/8/8/8/8/8/8/K1k4Q w - - 0 1",
            "--stip",
            "#1",
            "--tb",
            "/nonexistent/tables",
        ],
        LONG,
    );
    assert_eq!(run.status.code(), Some(1));
    assert!(run.stderr.contains("--tb /nonexistent/tables"), "{}", run.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A small deterministic generator (xorshift) for the sampled positions.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// Up to `tries` random legal positions of `pieces` (FEN letters, White's first), White to move.
pub(crate) fn random_positions(pieces: &str, tries: usize, rng: &mut Rng) -> Vec<String> {
    let mut out = Vec::new();
    for _ in 0..tries {
        let mut cells: Vec<(u64, char)> = Vec::new();
        for letter in pieces.chars() {
            let cell = rng.below(128);
            let rank = (cell % 64) / 8;
            if cells.iter().any(|&(c, _)| c % 64 == cell % 64)
                || (letter.eq_ignore_ascii_case(&'p') && (rank == 0 || rank == 7))
            {
                break;
            }
            cells.push((cell, letter));
        }
        if cells.len() != pieces.len() {
            continue;
        }
        let mut rows = Vec::new();
        for rank in (0..8u64).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for file in 0..8u64 {
                match cells.iter().find(|&&(c, _)| c % 64 == rank * 8 + file) {
                    Some(&(c, letter)) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        if c >= 64 {
                            row.push('|');
                        }
                        row.push(letter);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            rows.push(row);
        }
        let fen = format!("{} w - - 0 1", rows.join("/"));
        if Position::from_fen(&fen, Rules::default()).is_ok() {
            out.push(fen);
        }
    }
    out
}

/// The pawnless 4-man tables the full tier (CI) makes and checks against their reference rows
/// (20 of the 45): a queen against a rook and a rook against a knight (about 25 and 50 s of two
/// cores in release). The long tier (`tablebase_long`) makes every table the checks read.
const QUICK_SET: [&str; 2] = ["KQvKR", "KRvKN"];

/// The full tier's share of the 4-man tables: [`QUICK_SET`] with what it converts into, made by
/// the binary as a user makes them, against every reference row of those materials, and the
/// solver's direct mates decided from them equal to its own search.
#[test]
#[ignore = "full tier: makes two pawnless 4-man tables and their successors (about 2 minutes of two cores)"]
fn quick_four_man_tables_agree_with_their_reference_rows() {
    let dir = temp_dir("quick4");
    let mut args = vec!["tb", "generate", "--dir", dir.to_str().unwrap()];
    args.extend(QUICK_SET);
    let run = run_cli(&args, LONG);
    assert!(run.status.success(), "{}", run.stderr);
    let quick: Vec<Material> = QUICK_SET.iter().map(|t| Material::parse(t).unwrap()).collect();
    let made = Material::with_successors(&quick);
    let expected = reference_rows()
        .iter()
        .filter(|(m, _, _)| made.iter().any(|x| &x.to_string() == m))
        .count();
    assert!(expected >= 20, "the quick set covers {expected} reference rows");
    assert_eq!(check_reference_rows(&dir, &made), expected);
    let (count, plain, with_tables) = solver_with_tables_is_exact(&dir, &["KQkr", "KRkn"], 4, 4, 11);
    println!("solve --tb: {count} positions, {plain} nodes without the tables, {with_tables} with them");
    std::fs::remove_dir_all(&dir).unwrap();
}
