//! The endgame tables end to end: `vorpal tb generate` and `tb probe`, every row of
//! `tb-examples.tsv` (Popeye's mate lengths), a damaged file, and the tables in play. The
//! 3-man set is made in the default tier; a subset of the 4-man set in the full tier (the
//! whole 4-man set takes too long for CI; its recipe and time are in docs/tablebases.md).

use std::path::{Path, PathBuf};
use std::time::Duration;
use vorpal_engine::search::{Limits, SearchControl, SearchOptions, Searcher};
use vorpal_engine::tablebase::{generate_all, Material, Tablebases, Wdl};
use vorpal_engine::{Game, Position, Rules};
use vorpal_tests::data::read_data;
use vorpal_tests::harness::{run_cli, Engine};

const LONG: Duration = Duration::from_secs(600);

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("vorpal-tbtest-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// (material, FEN, Popeye's mate length or None for ">4").
fn reference_rows() -> Vec<(String, String, Option<u32>)> {
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
fn check_reference_rows(dir: &Path, materials: &[Material]) -> usize {
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
    for fen in ["8/8/8/8/8/8/PPP5/K6k w - - 0 1", "not a fen"] {
        let r = run_cli(&["tb", "probe", "--dir", dir.to_str().unwrap(), "--fen", fen], LONG);
        assert_eq!(r.status.code(), Some(1), "{fen}: {}", r.stderr);
        assert!(r.stderr.starts_with("error: "), "{}", r.stderr);
    }
    let r = run_cli(&["tb", "probe", "--dir", "/nonexistent/tables", "--fen", fen], LONG);
    assert_eq!(r.status.code(), Some(1));
    let r = run_cli(&["tb", "generate", "KXvK", "--dir", dir.to_str().unwrap()], LONG);
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

/// The 4-man materials of the full tier: every reference row's material but KQvKP (whose
/// table needs KQvKQ, KQvKN and a pawn table: the whole set is the recipe of the docs).
fn four_man_subset() -> Vec<Material> {
    let mut list: Vec<Material> = ["KQvKR", "KQvKB", "KRvKN", "KBBvK", "KRRvK"]
        .iter()
        .map(|m| Material::parse(m).unwrap())
        .collect();
    list.extend(Material::all_up_to(3));
    Material::sort_for_generation(&mut list);
    list
}

#[test]
#[ignore = "full tier: generates five 4-man tables (about a minute of CPU each)"]
fn four_man_tables_agree_with_every_reference_row() {
    let dir = temp_dir("rows4");
    generate_all(&four_man_subset(), &dir, &mut |_| {}).unwrap();
    let n = check_reference_rows(&dir, &four_man_subset());
    assert_eq!(n, 40);
    tables_convert_wins(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Plays `fen` out, the winner searching `nodes` per move with or without the tables, the
/// loser defending perfectly from the tables; returns the plies to mate (None: no mate in
/// 150 plies).
fn play_out(fen: &str, tables: &Path, winner_uses_tables: bool, nodes: u64) -> Option<usize> {
    let tb = std::sync::Arc::new(Tablebases::open(tables).unwrap());
    let mut searcher = Searcher::new(SearchOptions::default());
    if winner_uses_tables {
        searcher.set_tablebases(Some(tb.clone()));
    }
    let mut game = Game::new(Position::from_fen(fen, Rules::default()).unwrap());
    let winner = game.position().side_to_move();
    for ply in 0..150 {
        let pos = *game.position();
        if pos.legal_moves().is_empty() {
            return pos.in_check().then_some(ply);
        }
        let mv = if pos.side_to_move() == winner {
            let result = searcher.search(&game, &Limits::nodes(nodes), &SearchControl::new(), &mut |_| {});
            result.best.unwrap()
        } else {
            tb.probe_moves(&pos).unwrap().unwrap()[0].mv
        };
        assert!(game.play(mv));
    }
    None
}

/// Won positions of the subset, far from mate: the search with the tables mates in every
/// one; the counts without them are printed for the docs.
fn tables_convert_wins(dir: &Path) {
    let positions = [
        "8/8/8/8/8/2k5/8/K2|R4 w - - 0 1",
        "8/8/8/5Q2/2r4|K/8/8/2k5 w - - 0 1",
        "8/8/|K1|k5/8/3|r4/6Q1/8/8 w - - 0 1",
        "8/8/3|k3|n/|R7/8/8/8/7|K w - - 0 1",
        "8/6|R1/8/4K3/|k7/8/6|n1/8 w - - 0 1",
    ];
    let tb = Tablebases::open(dir).unwrap();
    let (mut with, mut without) = (0, 0);
    for fen in positions {
        let pos = Position::from_fen(fen, Rules::default()).unwrap();
        if tb.probe(&pos).unwrap().unwrap().wdl != Wdl::Win {
            continue;
        }
        let a = play_out(fen, dir, true, 2000);
        let b = play_out(fen, dir, false, 2000);
        println!("{fen}: with tables {a:?} plies, without {b:?}");
        assert!(a.is_some(), "{fen}: the tables must convert");
        with += a.is_some() as u32;
        without += b.is_some() as u32;
    }
    println!("converted with tables {with}, without {without}");
    assert!(with >= without);
}
