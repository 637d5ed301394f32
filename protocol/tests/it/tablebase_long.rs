//! The long tier's tablebase checks (`--features long-tier`; not in CI: 14 minutes of two
//! cores for the checked set, about 35 for every table; docs/testing.md): the 4-man tables the
//! checks read made in the test against all 45 reference rows, distances to the next capture
//! consistent, the tables converting won positions, and the solver exact with them.

use super::tablebase::{
    check_reference_rows, random_positions, reference_rows, solver_with_tables_is_exact, temp_dir, Rng,
};
use std::path::{Path, PathBuf};
use vorpal_engine::search::{Limits, SearchControl, SearchOptions, Searcher};
use vorpal_engine::tablebase::{generate_all, Material, Tablebases, Wdl};
use vorpal_engine::{Game, Position, Rules};

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
#[ignore = "long tier: generates the 4-man tables it checks (VORPAL_TB_SET=all: every one, about 35 minutes of CPU)"]
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
