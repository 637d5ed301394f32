//! The tables' own move generation against the engine's, the symmetries against the rules,
//! and the 3-man tables against the exact solver.

use super::material::Material;
use super::probe::setup_of;
use super::setup::Setup;
use super::*;
use crate::solve::{solve, Solution, SolveControl, SolveOptions};
use crate::types::{Color, Piece};
use crate::{Position, Rules};
use std::collections::BTreeSet;
use std::path::PathBuf;

/// A small deterministic generator (xorshift).
pub(crate) struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A random valid setup of `material` with `stm` to move.
pub(crate) fn random_setup(material: &Material, stm: Color, rng: &mut Rng) -> Setup {
    let pieces: Vec<Piece> = material.pieces();
    loop {
        let mut s = Setup::empty(stm);
        s.men = pieces.len();
        for (i, &p) in pieces.iter().enumerate() {
            s.pieces[i] = p;
            s.cells[i] = (rng.next() % 128) as u8;
        }
        s.normalize();
        if s.is_valid() {
            return s;
        }
    }
}

pub(crate) fn position(s: &Setup) -> Position {
    Position::from_fen(&s.to_fen(), Rules::default()).expect("valid setup gives a legal FEN")
}

fn normalized(mut s: Setup) -> Setup {
    s.normalize();
    s
}

fn key(s: &Setup) -> String {
    normalized(*s).to_fen()
}

fn materials_for_moves() -> Vec<Material> {
    [
        "KQvK", "KRvKB", "KNNvK", "KPvK", "KPvKP", "KQvKP", "KBPvK", "KRvKN", "KBvKB",
    ]
    .iter()
    .map(|m| Material::parse(m).unwrap())
    .collect()
}

#[test]
fn moves_agree_with_the_engine() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for m in materials_for_moves() {
        for i in 0..400 {
            let stm = if i % 2 == 0 { Color::White } else { Color::Black };
            let s = random_setup(&m, stm, &mut rng);
            let pos = position(&s);
            let mut ours = BTreeSet::new();
            s.for_each_move(|_, child| {
                ours.insert(key(child));
            });
            let theirs: BTreeSet<String> = pos
                .legal_moves()
                .iter()
                .map(|&mv| key(&setup_of(&pos.after(mv)).unwrap().unwrap()))
                .collect();
            assert_eq!(ours, theirs, "{m} {}", s.to_fen());
            assert_eq!(s.in_check(stm), pos.in_check(), "{}", s.to_fen());
        }
    }
}

#[test]
fn unmoves_are_the_moves_backwards() {
    let mut rng = Rng(12345);
    for m in materials_for_moves() {
        for i in 0..300 {
            let stm = if i % 2 == 0 { Color::White } else { Color::Black };
            let s = random_setup(&m, stm, &mut rng);
            // Every predecessor is legal and has a move to `s`.
            s.for_each_unmove(true, true, |pred| {
                assert!(pred.is_valid(), "{} from {}", pred.to_fen(), s.to_fen());
                let mut found = false;
                pred.for_each_move(|mv, child| found |= !mv.converts() && key(child) == key(&s));
                assert!(found, "{} does not reach {}", pred.to_fen(), s.to_fen());
            });
            // Every quiet move of `s` is found back from its child.
            s.for_each_move(|mv, child| {
                if mv.converts() {
                    return;
                }
                let mut found = false;
                child.for_each_unmove(true, true, |pred| found |= key(pred) == key(&s));
                assert!(found, "{} not found back from {}", s.to_fen(), child.to_fen());
            });
        }
    }
}

/// The position under a map of cells, as the engine sees it.
fn mapped(s: &Setup, f: impl Fn(u8) -> u8) -> Setup {
    let mut t = *s;
    for i in 0..t.men {
        t.cells[i] = f(t.cells[i]);
    }
    normalized(t)
}

fn legal_children(s: &Setup) -> BTreeSet<String> {
    let pos = position(s);
    pos.legal_moves()
        .iter()
        .map(|&mv| key(&setup_of(&pos.after(mv)).unwrap().unwrap()))
        .collect()
}

#[test]
fn board_exchange_and_reflections_are_symmetries_of_the_rules() {
    // Proof by the engine's own rules: the legal moves of a mapped position are the mapped
    // moves. Board exchange and the file mirror for every material (pawns included); the rank
    // mirror and the diagonal only without pawns.
    let swap = |c: u8| c ^ 64;
    let files = |c: u8| c ^ 7;
    let ranks = |c: u8| c ^ 56;
    let diag = |c: u8| (c & 64) | (c & 7) << 3 | (c & 63) >> 3;
    let mut rng = Rng(777);
    for m in materials_for_moves() {
        let maps: Vec<&dyn Fn(u8) -> u8> = if m.has_pawns() {
            vec![&swap, &files]
        } else {
            vec![&swap, &files, &ranks, &diag]
        };
        for i in 0..200 {
            let stm = if i % 2 == 0 { Color::White } else { Color::Black };
            let s = random_setup(&m, stm, &mut rng);
            for f in &maps {
                let image = mapped(&s, f);
                let expected: BTreeSet<String> = legal_children(&s)
                    .iter()
                    .map(|fen| {
                        let c = setup_of(&Position::from_fen(fen, Rules::default()).unwrap())
                            .unwrap()
                            .unwrap();
                        key(&mapped(&c, f))
                    })
                    .collect();
                assert_eq!(legal_children(&image), expected, "{m} {}", s.to_fen());
            }
        }
    }
    // The rank mirror is not a symmetry with pawns: a pawn's direction is part of the rules.
    let pawn = Position::from_fen("8/8/8/8/8/8/4P3/K6k w - - 0 1", Rules::default()).unwrap();
    let mirrored = Position::from_fen("K6k/4P3/8/8/8/8/8/8 w - - 0 1", Rules::default()).unwrap();
    assert_ne!(pawn.legal_moves().len(), mirrored.legal_moves().len());
}

/// A fresh directory under the system's temporary directory.
pub(crate) fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("vorpal-tb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The smallest n <= max with a forced mate in n by the exact solver, if any.
fn solver_mate(pos: &Position, max: u32) -> Option<u32> {
    (1..=max).find(|n| {
        let stip = format!("#{n}").parse().unwrap();
        let solved = solve(pos, &stip, &SolveOptions::default(), &SolveControl::new(None));
        matches!(solved.solution, Solution::Direct(d) if !d.keys.is_empty())
    })
}

#[test]
fn three_man_tables_agree_with_the_solver_and_their_symmetries() {
    let dir = temp_dir("three");
    let list = Material::all_up_to(3);
    let stats = generate_all(&list, &dir, &mut |_| {}).unwrap();
    assert_eq!(stats.len(), 5);
    let tb = Tablebases::open(&dir).unwrap();
    let mut rng = Rng(4242);
    let (mut won, mut not_won) = (0, 0);
    for m in &list {
        // Per material: positions won in at most 4, won in more, and not won, sampled at random.
        let mut quota = [6, 3, 6];
        for attempt in 0..20_000 {
            if quota == [0, 0, 0] {
                break;
            }
            let stm = if attempt % 2 == 0 { Color::White } else { Color::Black };
            let s = random_setup(m, stm, &mut rng);
            let pos = position(&s);
            let p = tb.probe(&pos).unwrap().unwrap();
            let kind = match (p.wdl, p.dtm()) {
                (Wdl::Win, Some(n)) if n <= 4 => 0,
                (Wdl::Win, _) => 1,
                _ => 2,
            };
            if quota[kind] == 0 {
                continue;
            }
            quota[kind] -= 1;
            let tb_mate = (kind == 0).then(|| p.dtm().unwrap());
            assert_eq!(solver_mate(&pos, 4), tb_mate, "{m} {}", s.to_fen());
            if kind == 0 {
                won += 1;
            } else {
                not_won += 1;
            }
            // Every image under the symmetries (and the colour flip) has the same value.
            let maps: [fn(u8) -> u8; 4] = [
                |c| c ^ 64,
                |c| c ^ 7,
                |c| c ^ 56,
                |c| (c & 64) | (c & 7) << 3 | (c & 63) >> 3,
            ];
            for f in &maps[..if m.has_pawns() { 2 } else { 4 }] {
                let image = position(&mapped(&s, f));
                assert_eq!(tb.probe(&image).unwrap(), Some(p), "{}", s.to_fen());
            }
            let flipped = position(&s.color_flipped());
            assert_eq!(tb.probe(&flipped).unwrap(), Some(p), "{}", s.to_fen());
        }
    }
    assert!(
        won >= 12 && not_won >= 20,
        "both kinds tested: {won} won, {not_won} not"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_damaged_or_foreign_file_is_refused() {
    let dir = temp_dir("damaged");
    let list = Material::all_up_to(3);
    generate_all(&list[..1], &dir, &mut |_| {}).unwrap();
    let m = &list[0];
    let path = dir.join(file_name(m));
    let pos = Position::from_fen("8/8/8/8/8/8/8/K6k w - - 0 1", Rules::default()).unwrap();
    assert!(Tablebases::open(&dir).unwrap().probe(&pos).unwrap().is_some() || m.men() != 2);
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x55;
    std::fs::write(&path, &bytes).unwrap();
    let tb = Tablebases::open(&dir).unwrap();
    let mut rng = Rng(9);
    let s = random_setup(m, Color::White, &mut rng);
    let err = tb.probe(&position(&s)).unwrap_err();
    assert!(err.to_string().contains("checksum"), "{err}");
    // Another version.
    bytes[mid] ^= 0x55;
    bytes[8] = 99;
    std::fs::write(&path, &bytes).unwrap();
    let err = Tablebases::open(&dir).unwrap().probe(&position(&s)).unwrap_err();
    assert!(err.to_string().contains("version 99"), "{err}");
    // Truncated.
    std::fs::write(&path, &bytes[..20]).unwrap();
    assert!(Tablebases::open(&dir).unwrap().probe(&position(&s)).is_err());
    // Other rules are refused.
    let ep = Position::from_fen(&s.to_fen(), Rules::with_en_passant(crate::EnPassant::Normal)).unwrap();
    assert!(matches!(tb.probe(&ep), Err(TbError::Rules(_))));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn distance_to_capture_is_distance_to_mate_where_no_capture_wins() {
    // In KQvK the winner has nothing to capture and the defender's capture draws: the
    // distance to the next capture or mate is the distance to mate, entry for entry.
    let dir = temp_dir("dtz");
    let kqk = Material::parse("KQvK").unwrap();
    generate_all(&Material::all_up_to(3), &dir, &mut |_| {}).unwrap();
    let tables = Tablebases::open(&dir).unwrap();
    let subs: Vec<_> = kqk
        .successors()
        .into_iter()
        .filter_map(|m| tables.table(&m).unwrap().map(|t| (m, t)))
        .collect();
    let layout = super::index::Layout::new(&kqk);
    let start = std::time::Instant::now();
    let (dtm, _) = super::generate::retrograde(&kqk, &layout, &subs, None, start, &mut |_| {}).unwrap();
    let (dtz, _) = super::generate::retrograde(&kqk, &layout, &subs, Some(&dtm), start, &mut |_| {}).unwrap();
    assert_eq!(dtm, dtz);
    // A 3-man table's mates stay within fifty moves: no distance-to-capture file is written.
    assert!(!dir.join("KQvK.vtz").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_of_the_other_metric_is_refused() {
    let dir = temp_dir("metric");
    generate_all(&Material::all_up_to(3), &dir, &mut |_| {}).unwrap();
    // A distance-to-mate file put where the distance-to-capture file belongs.
    std::fs::copy(dir.join("KQvK.vtb"), dir.join("KQvK.vtz")).unwrap();
    let tb = Tablebases::open(&dir).unwrap();
    let pos = Position::from_fen("8/8/8/8/4k3/Q7/8/K7 w - - 0 1", Rules::default()).unwrap();
    let err = tb.probe_dtz(&pos).unwrap_err();
    assert!(err.to_string().contains("metric"), "{err}");
    assert!(tb.probe(&pos).unwrap().is_some());
    std::fs::remove_dir_all(&dir).unwrap();
}
