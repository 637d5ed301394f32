//! The endgame tables end to end: `vorpal tb generate` and `tb probe`, every row of
//! `tb-examples.tsv` (Popeye's mate lengths), a damaged file, the tables in play and in the
//! solver (`solve --tb`). The 3-man set is made in the default tier; the whole 4-man set in
//! the full tier (or taken from `VORPAL_TB_DIR`).

use crate::support::harness::{run_cli, Engine};
use std::path::{Path, PathBuf};
use std::time::Duration;
use vorpal_engine::search::{Limits, SearchControl, SearchOptions, Searcher};
use vorpal_engine::tablebase::{generate_all, Material, Tablebases, Wdl};
use vorpal_engine::{Game, Position, Rules};
use vorpal_tests::data::read_data;

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
fn solver_with_tables_is_exact(
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

/// The tables the checks below read: every reference row's material, the distance, conversion
/// and solver checks' materials.
const CHECKED: [&str; 16] = [
    "KBBvK", "KPvK", "KQvK", "KQvKB", "KQvKP", "KQvKR", "KRRvK", "KRvK", "KRvKN", "KRvKB", "KBvKP", "KRvKP", "KBNvK",
    "KPvKP", "KQvKQ", "KQvKN",
];

/// The materials a set is made of: the checked ones with every table they convert into, or,
/// with `VORPAL_TB_SET=all` (the long run of docs/tablebases.md), every 4-man table.
fn set_materials() -> Vec<Material> {
    if std::env::var("VORPAL_TB_SET").as_deref() == Ok("all") {
        return Material::all_up_to(4);
    }
    let checked: Vec<Material> = CHECKED.iter().map(|t| Material::parse(t).unwrap()).collect();
    Material::with_successors(&checked)
}

#[test]
fn the_checked_set_holds_every_checked_table_and_what_it_converts_into() {
    let set = set_materials();
    let names: Vec<String> = set.iter().map(|m| m.to_string()).collect();
    for (material, _, _) in reference_rows() {
        assert!(names.contains(&material), "{material} in {names:?}");
    }
    for m in &set {
        for next in m.successors() {
            let at = |x: &Material| set.iter().position(|y| y == x).unwrap();
            assert!(at(&next) < at(m), "{next} is made before {m}");
        }
    }
    let all = Material::all_up_to(4);
    let pawns = |l: &[Material]| l.iter().filter(|m| m.has_pawns()).count();
    println!(
        "{} of {} tables ({} of {} with pawns)",
        set.len(),
        all.len(),
        pawns(&set),
        pawns(&all)
    );
    assert!(set.len() < all.len());
}

/// The directory of a 4-man set ([`set_materials`]): `VORPAL_TB_DIR` when set (tables made
/// before, to rerun the checks), else a new one made here.
fn four_man_set() -> (PathBuf, bool) {
    if let Some(dir) = std::env::var_os("VORPAL_TB_DIR") {
        return (PathBuf::from(dir), false);
    }
    let dir = temp_dir("set4");
    let materials = set_materials();
    println!(
        "generating {} of the {} tables up to 4 men",
        materials.len(),
        Material::all_up_to(4).len()
    );
    generate_all(&materials, &dir, &mut |_| {}).unwrap();
    (dir, true)
}

#[test]
#[ignore = "full tier: generates the 4-man tables it checks (VORPAL_TB_SET=all: every one, about 35 minutes of CPU)"]
fn four_man_tables_agree_with_every_reference_row_and_convert_wins() {
    let (dir, made_here) = four_man_set();
    let n = check_reference_rows(&dir, &Material::all_up_to(4));
    assert_eq!(n, 45, "every row of tb-examples.tsv");
    distances_to_capture_are_consistent(&dir);
    tables_convert_wins(&dir);
    let materials = ["KQkr", "KRkn", "KRkb", "KBNk", "KQkp", "KQkq", "KRRkb"];
    let (count, plain, with_tables) = solver_with_tables_is_exact(&dir, &materials, 4, 4, 11);
    println!("solve --tb: {count} positions, {plain} nodes without the tables, {with_tables} with them");
    if made_here {
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// Plays `fen` out, the winner searching `nodes` per move with or without the tables, the
/// loser defending perfectly from the tables; returns the plies to mate (None: no mate in
/// 150 plies).
fn play_out(fen: &str, tb: &std::sync::Arc<Tablebases>, winner_uses_tables: bool, nodes: u64) -> Option<usize> {
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

/// A small deterministic generator (xorshift) for the sampled positions.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// `count` legal positions of `material` (pieces as FEN letters, White's first), White to
/// move, that the tables call won with a mate a number of `moves` away, and whose win
/// stands under the fifty-move rule (the mate within 50 moves, or the next capture within
/// 100 plies).
fn long_wins(
    tb: &Tablebases,
    pieces: &str,
    moves: std::ops::RangeInclusive<u32>,
    count: usize,
    rng: &mut Rng,
) -> Vec<String> {
    let mut out = Vec::new();
    for fen in random_positions(pieces, 200_000, rng) {
        if out.len() == count {
            break;
        }
        let pos = Position::from_fen(&fen, Rules::default()).unwrap();
        let Ok(Some(p)) = tb.probe(&pos) else { continue };
        let stands = p.dtm().unwrap_or(0) <= 50 || tb.probe_dtz(&pos).unwrap().is_some_and(|z| z <= 100);
        if p.wdl == Wdl::Win && moves.contains(&p.dtm().unwrap()) && stands {
            out.push(fen);
        }
    }
    out
}

/// Up to `tries` random legal positions of `pieces` (FEN letters, White's first), White to move.
fn random_positions(pieces: &str, tries: usize, rng: &mut Rng) -> Vec<String> {
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

/// The distance-to-zeroing files of the four materials with mates beyond fifty moves (KRvKB,
/// KRvKN, and the pawn tables KBvKP and KRvKP): on random positions of both sides to move,
/// never a win or loss where the mate distance has none, never longer than the mate distance
/// when the mate lies within fifty moves, and each value recomputed from the position's moves.
/// A capture or pawn move counts as decided after it only when the mate it leads to lies
/// within fifty moves (else as a draw): a win is one ply more than its best move's (0 after a
/// zeroing move), a loss one more than its longest non-zeroing move's and at least 2 with a
/// zeroing move, a mate 0; a loss with any move that is not surely lost is a draw here.
fn distances_to_capture_are_consistent(dir: &Path) {
    let tb = Tablebases::open(dir).unwrap();
    let mut rng = Rng(0xD72);
    // The longest mates of the report (long mates of the pawn tables are rare among random
    // positions), then random positions.
    let longest = [
        ("KRvKB", "8/8/2|R5/8/4|b3/8/2k5/K7 w - - 0 1"),
        ("KRvKN", "8/8/8/8/8/8/1|k1n4/K1R5 w - - 0 1"),
        ("KBvKP", "8/8/8/8/8/|B2p4/8/|kK6 w - - 0 1"),
        ("KRvKP", "8/8/8/8/2k5/8/KR|p5/8 w - - 0 1"),
    ];
    for (pieces, material) in [
        ("KRkb", "KRvKB"),
        ("KRkn", "KRvKN"),
        ("KBkp", "KBvKP"),
        ("KRkp", "KRvKP"),
    ] {
        assert!(dir.join(format!("{material}.vtz")).exists(), "{material}.vtz");
        let (mut checked, mut beyond, mut drawn_by_rule) = (0, 0, 0);
        let known = longest
            .iter()
            .filter(|(m, _)| *m == material)
            .map(|(_, f)| f.to_string());
        for fen in known.chain(random_positions(pieces, 1500, &mut rng)) {
            for fen in [fen.clone(), fen.replace(" w ", " b ")] {
                let Ok(pos) = Position::from_fen(&fen, Rules::default()) else {
                    continue;
                };
                let p = tb.probe(&pos).unwrap().unwrap();
                let z = tb.probe_dtz(&pos).unwrap();
                if p.wdl == Wdl::Draw {
                    assert_eq!(z, None, "{fen}");
                    continue;
                }
                let plies = p.plies.unwrap();
                if let Some(z) = z {
                    assert_eq!(z % 2, plies % 2, "{fen}: dtz {z}, {p:?}");
                }
                if plies <= 100 {
                    assert!(z.is_some_and(|z| z <= plies), "{fen}: dtz {z:?}, {p:?}");
                }
                // Recompute from the moves.
                let (mut win_best, mut loss_worst, mut loss_escapes) = (None::<u32>, 0, false);
                for &mv in pos.legal_moves().iter() {
                    let child = pos.after(mv);
                    let cp = tb.probe(&child).unwrap().unwrap();
                    let (child_lost, child_won) = if child.halfmove_clock() == 0 {
                        let sure = cp.plies.is_some_and(|x| x <= 100);
                        (sure && cp.wdl == Wdl::Loss, sure && cp.wdl == Wdl::Win)
                    } else {
                        let cz = tb.probe_dtz(&child).unwrap();
                        (cz.is_some() && cp.wdl == Wdl::Loss, cz.is_some() && cp.wdl == Wdl::Win)
                    };
                    let after = if child.halfmove_clock() == 0 {
                        0
                    } else {
                        tb.probe_dtz(&child).unwrap().unwrap_or(0)
                    };
                    if child_lost {
                        win_best = Some(win_best.map_or(after + 1, |b| b.min(after + 1)));
                    }
                    if child_won {
                        loss_worst = loss_worst.max(if child.halfmove_clock() == 0 { 2 } else { after + 1 });
                    } else {
                        loss_escapes = true;
                    }
                }
                let expected = match p.wdl {
                    Wdl::Win => win_best,
                    _ => (!loss_escapes).then_some(loss_worst),
                };
                assert_eq!(z, expected, "{fen}: {p:?}");
                checked += 1;
                beyond += usize::from(plies > 100);
                drawn_by_rule += usize::from(z.is_none_or(|z| z > 100));
            }
        }
        println!(
            "{material}: {checked} decided positions checked, {beyond} with the mate beyond fifty moves, {drawn_by_rule} not surely decided under the rule"
        );
        assert!(checked > 100);
    }
}

/// Long wins of several 4-man materials, played out by the search (2,000 nodes a move) with
/// and without the tables against perfect defence: with the tables every one is mated; the
/// counts without them are printed (and quoted in docs/tablebases.md).
fn tables_convert_wins(dir: &Path) {
    let tb = std::sync::Arc::new(Tablebases::open(dir).unwrap());
    let mut rng = Rng(0x5EED_2026);
    let (mut total, mut with, mut without) = (0, 0, 0);
    let cases = [
        ("KQkr", 20..=50),
        ("KRkn", 10..=50),
        ("KBNk", 15..=50),
        ("KBBk", 10..=50),
        ("KPkp", 10..=50),
        ("KQkp", 8..=50),
        // Mates beyond fifty moves whose next capture comes in time (distance-to-capture file).
        ("KRkn", 51..=80),
        ("KRkb", 51..=80),
    ];
    for (pieces, moves) in cases {
        let (mut w, mut wo) = (0, 0);
        let min_moves = *moves.start();
        let positions = long_wins(&tb, pieces, moves, 8, &mut rng);
        assert!(!positions.is_empty(), "{pieces}: no long win sampled");
        for fen in &positions {
            let a = play_out(fen, &tb, true, 2000);
            let b = play_out(fen, &tb, false, 2000);
            assert!(a.is_some(), "{fen}: the tables must convert");
            w += usize::from(a.is_some());
            wo += usize::from(b.is_some());
        }
        println!(
            "{pieces} (mate in {min_moves}+): {} positions, mated with tables {w}, without {wo}",
            positions.len()
        );
        total += positions.len();
        with += w;
        without += wo;
    }
    println!("all: {total} positions, mated with tables {with}, without {without}");
    assert_eq!(with, total);
    assert!(without < with, "the tables convert wins the search alone misses");
}
