//! The generation by verification against the counting generator (identical files), its
//! checkpoints, and the five-man index and file code on sampled positions.

use super::checkpoint;
use super::disk::{self, DiskTable};
use super::file::{self, Metric};
use super::index::Layout;
use super::large;
use super::material::Material;
use super::probe::Table;
use super::setup::Setup;
use super::tests::{position, random_setup, temp_dir, Rng};
use super::verify::{self, Checkpoints};
use super::*;
use crate::types::Color;
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::atomic::AtomicU8;
use std::sync::Arc;
use std::time::Duration;

/// The smaller tables of `m`, loaded from `dir` (made there by the counting generator).
fn subs_of(m: &Material, tb: &Tablebases) -> Vec<(Material, Arc<Table>)> {
    m.successors()
        .into_iter()
        .map(|s| {
            let t = tb.table(&s).unwrap().expect("successor made");
            (s, t)
        })
        .collect()
}

fn plain(val: [Vec<AtomicU8>; 2]) -> [Vec<u8>; 2] {
    val.map(|v| v.into_iter().map(|a| a.into_inner()).collect())
}

fn no_checkpoints() -> Checkpoints {
    Checkpoints {
        path: None,
        every: Duration::ZERO,
        stop_after: None,
        init_segment: verify::INIT_SEGMENT,
    }
}

/// Makes `names` (and what they need) with the counting generator in `dir`, then each of
/// `names` again by verification, and compares the `.vtb` files byte for byte.
fn verification_equals_counting(names: &[&str], tag: &str) {
    let dir = temp_dir(tag);
    let list: Vec<Material> = names.iter().map(|n| Material::parse(n).unwrap()).collect();
    generate_all(&Material::with_successors(&list), &dir, &mut |_| {}).unwrap();
    let tb = Tablebases::open(&dir).unwrap();
    for m in &list {
        let layout = Layout::new(m);
        let subs = subs_of(m, &tb);
        let (val, _) = verify::solve(m, &layout, &subs, &no_checkpoints(), &mut |_| {}).unwrap();
        let out = dir.join(format!("{m}.verified"));
        file::write(&out, m, &plain(val), Metric::Dtm).unwrap();
        let counted = std::fs::read(file::path_in(&dir, m)).unwrap();
        assert!(
            std::fs::read(&out).unwrap() == counted,
            "{m}: the two generators differ"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn verification_gives_the_counting_files_for_three_men() {
    verification_equals_counting(&["KQvK", "KRvK", "KBvK", "KNvK", "KPvK"], "verify3");
}

#[test]
#[ignore = "four-man tables, a few minutes"]
fn verification_gives_the_counting_files_for_four_men() {
    // Pawnless, as the five-man tables: captures into tables with wins and losses, mates
    // beyond 50 moves (KRvKN). Pawns are covered by KPvK above.
    verification_equals_counting(&["KBNvK", "KRvKN", "KNNvK", "KQvKR"], "verify4");
}

/// Stops the generation after `k` checkpoints, resumes it, and checks the result.
fn resume_after(m: &Material, dir: &Path, k: u32, expected: &[Vec<u8>; 2]) {
    let tb = Tablebases::open(dir).unwrap();
    let subs = subs_of(m, &tb);
    let layout = Layout::new(m);
    let path = checkpoint::path_of(&file::path_in(dir, m));
    let _ = std::fs::remove_file(&path);
    let mut cp = Checkpoints {
        path: Some(path.clone()),
        every: Duration::ZERO,
        stop_after: Some(k),
        init_segment: 1,
    };
    let stopped = verify::solve(m, &layout, &subs, &cp, &mut |_| {});
    assert!(stopped.is_err(), "{m}: the hook stops after checkpoint {k}");
    assert!(path.exists());
    cp.stop_after = None;
    let mut lines = Vec::new();
    let (val, _) = verify::solve(m, &layout, &subs, &cp, &mut |l| lines.push(l.to_string())).unwrap();
    assert!(lines[0].contains("resuming"), "{lines:?}");
    assert!(
        plain(val) == *expected,
        "{m}: resumed after checkpoint {k}, values differ"
    );
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_stopped_generation_resumes_from_its_checkpoint() {
    let dir = temp_dir("resume");
    let m = Material::parse("KRvK").unwrap();
    generate_all(&Material::with_successors(std::slice::from_ref(&m)), &dir, &mut |_| {}).unwrap();
    let tb = Tablebases::open(&dir).unwrap();
    let subs = subs_of(&m, &tb);
    let layout = Layout::new(&m);
    let (val, _) = verify::solve(&m, &layout, &subs, &no_checkpoints(), &mut |_| {}).unwrap();
    let expected = plain(val);
    // Checkpoints 1-2 fall in the first pass (3 chunks), then one before every ply.
    for k in [1, 2, 3, 7, 20] {
        resume_after(&m, &dir, k, &expected);
    }
    // A checkpoint of another material is refused, not used.
    let other = Material::parse("KQvK").unwrap();
    let val: [Vec<AtomicU8>; 2] = [0, 1].map(|_| (0..layout.file_size()).map(|_| AtomicU8::new(0)).collect());
    let path = dir.join("x.ckpt");
    checkpoint::save(&path, &other, checkpoint::Stage::Ply(3), &val).unwrap();
    assert!(checkpoint::load(&path, &m, &val).is_err());
    assert_eq!(
        checkpoint::load(&path, &other, &val).unwrap(),
        Some(checkpoint::Stage::Ply(3))
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The images of `s` under the 16 symmetries of pawnless tables, each normalized.
fn images(s: &Setup) -> Vec<Setup> {
    let mut out = Vec::new();
    for g in 0..16u8 {
        let mut t = *s;
        for i in 0..t.men {
            let mut c = t.cells[i];
            if g & 1 != 0 {
                c ^= 64;
            }
            if g & 2 != 0 {
                c ^= 7;
            }
            if g & 4 != 0 {
                c ^= 56;
            }
            if g & 8 != 0 {
                c = (c & 64) | (c & 7) << 3 | (c & 63) >> 3;
            }
            t.cells[i] = c;
        }
        t.normalize();
        out.push(t);
    }
    out
}

#[test]
fn five_man_index_folds_the_symmetries_and_decodes() {
    let mut rng = Rng(0x5eed_5a11);
    for name in ["KNNvKN", "KRBvKR", "KQvKRN", "KBBvKB"] {
        let m = Material::parse(name).unwrap();
        let layout = Layout::new(&m);
        assert_eq!(layout.file_size(), 10 << 28);
        let mut twins = 0;
        for i in 0..3000 {
            let stm = if i % 2 == 0 { Color::White } else { Color::Black };
            let s = random_setup(&m, stm, &mut rng);
            let mut rep = s;
            let idx = layout.file_index(&mut rep);
            assert!(idx < layout.file_size());
            assert_eq!(layout.decode_file(idx, stm), Some(rep), "{name} {}", s.to_fen());
            let mut expected = BTreeSet::from([idx]);
            if let Some(t) = layout.diagonal_twin(&rep, idx) {
                twins += 1;
                expected.insert(t);
                let mut back = layout.decode_file(t, stm).unwrap();
                assert_eq!(layout.diagonal_twin(&back, t), Some(idx));
                assert_eq!(layout.file_index(&mut back), t);
            }
            let got: BTreeSet<usize> = images(&s).iter().map(|im| layout.file_index(&mut im.clone())).collect();
            assert_eq!(got, expected, "{name} {}", s.to_fen());
            let w = layout.file_entry_positions(idx);
            assert_eq!(
                w,
                if expected.len() == 2 || sq_on_diagonal(&rep) {
                    8
                } else {
                    16
                }
            );
        }
        assert!(twins > 0, "{name}: setups with the king on the diagonal sampled");
    }
}

fn sq_on_diagonal(s: &Setup) -> bool {
    let k = s.cells[0] & 63;
    k >> 3 == (k & 7)
}

#[test]
fn plain_files_stream_and_read_entry_by_entry() {
    let dir = temp_dir("plain");
    let m = Material::parse("KRvK").unwrap();
    generate_all(std::slice::from_ref(&m), &dir, &mut |_| {}).unwrap();
    let entries = Layout::new(&m).file_size();
    let values = file::read(&file::path_in(&dir, &m), &m, entries, Metric::Dtm).unwrap();
    let val: [Vec<AtomicU8>; 2] = [0, 1].map(|s| values[s].iter().map(|&v| AtomicU8::new(v)).collect());
    let path = dir.join("plain.vtb");
    let bytes = large::write(&path, &m, &val).unwrap();
    assert_eq!(bytes, std::fs::metadata(&path).unwrap().len());
    // The plain file is a valid file of the common format, and reads entry by entry.
    assert!(file::read(&path, &m, entries, Metric::Dtm).unwrap() == values);
    assert!(disk::checksum_ok(&path).unwrap());
    let d = DiskTable::open(&path, &m, entries, Metric::Dtm).unwrap();
    for idx in (0..entries).step_by(97) {
        assert_eq!(d.entry(0, idx), values[0][idx]);
        assert_eq!(d.entry(1, idx), values[1][idx]);
    }
    assert_eq!(d.entry(0, entries), INVALID);
    assert!(DiskTable::open(&path, &Material::parse("KQvK").unwrap(), entries, Metric::Dtm).is_err());
    // A damaged byte fails the checksum; a cut file is refused at once.
    let mut raw = std::fs::read(&path).unwrap();
    let mid = raw.len() / 2;
    raw[mid] ^= 1;
    std::fs::write(&path, &raw).unwrap();
    assert!(!disk::checksum_ok(&path).unwrap());
    std::fs::write(&path, &raw[..raw.len() - 1]).unwrap();
    assert!(DiskTable::open(&path, &m, entries, Metric::Dtm).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A sparse five-man file (5.4 GB long, a few entries written): the prober reads the entries
/// of sampled positions from it, under every symmetry, without loading it.
#[test]
fn five_man_positions_are_probed_from_the_file() {
    let dir = temp_dir("five");
    let m = Material::parse("KNNvKN").unwrap();
    let layout = Layout::new(&m);
    let entries = layout.file_size();
    let path = file::path_in(&dir, &m);
    let header = file::header_text(&m, entries, Metric::Dtm);
    let at = 16 + header.len() as u64;
    {
        use std::io::{Seek, SeekFrom, Write};
        let mut f = std::fs::File::create(&path).unwrap();
        let mut head = Vec::new();
        head.extend_from_slice(file::MAGIC);
        head.extend_from_slice(&file::VERSION.to_le_bytes());
        head.extend_from_slice(&(header.len() as u32).to_le_bytes());
        head.extend_from_slice(header.as_bytes());
        f.write_all(&head).unwrap();
        for side in 0..2u64 {
            f.seek(SeekFrom::Start(at + side * (9 + entries as u64))).unwrap();
            f.write_all(&[0]).unwrap();
            f.write_all(&(entries as u64).to_le_bytes()).unwrap();
        }
        f.set_len(at + 2 * (9 + entries as u64) + 8).unwrap();
        let mut rng = Rng(77);
        let mut written = Vec::new();
        for i in 0..200u64 {
            let stm = if i % 2 == 0 { Color::White } else { Color::Black };
            let s = random_setup(&m, stm, &mut rng);
            let mut rep = s;
            let idx = layout.file_index(&mut rep);
            let v = (1 + i % 60) as u8;
            let side = stm.index() as u64;
            for j in std::iter::once(idx).chain(layout.diagonal_twin(&rep, idx)) {
                f.seek(SeekFrom::Start(at + side * (9 + entries as u64) + 9 + j as u64))
                    .unwrap();
                f.write_all(&[v]).unwrap();
            }
            written.push((s, v));
        }
        drop(f);
        let tb = Tablebases::open(&dir).unwrap();
        let mut last = std::collections::HashMap::new();
        for (s, v) in &written {
            last.insert(position(s).to_fen(), *v);
        }
        for (s, _) in &written {
            let want = Probe::from_entry(last[&position(s).to_fen()]);
            for im in images(s) {
                assert_eq!(tb.probe(&position(&im)).unwrap(), Some(want), "{}", im.to_fen());
            }
            assert_eq!(tb.probe(&position(&s.color_flipped())).unwrap(), Some(want));
        }
    }
    // Without a five-man file, five-man positions are not in the tables.
    std::fs::remove_file(&path).unwrap();
    let tb = Tablebases::open(&dir).unwrap();
    let s = random_setup(&m, Color::White, &mut Rng(5));
    assert_eq!(tb.probe(&position(&s)).unwrap(), None);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A generated five-man table (full tier, when `VORPAL_TB5_DIR` names a directory with one and
/// its smaller tables): on sampled positions the table's value is the best of its moves'
/// values (a mate 0, a stalemate a draw), and from sampled decided positions the table's line
/// falls by one ply a move down to a mate.
#[test]
#[ignore = "needs a five-man table in VORPAL_TB5_DIR (made in about half an hour)"]
fn a_five_man_table_agrees_with_its_moves() {
    let Some(dir) = std::env::var_os("VORPAL_TB5_DIR") else {
        eprintln!("VORPAL_TB5_DIR not set: nothing checked");
        return;
    };
    let tb = Tablebases::open(Path::new(&dir)).unwrap();
    let five: Vec<Material> = tb.available().into_iter().filter(|m| m.men() == 5).collect();
    assert!(!five.is_empty(), "no five-man table in {dir:?}");
    let mut rng = Rng(0x0f1f_e5ed);
    for m in &five {
        let (mut decided, mut lines) = (0, 0);
        for i in 0..200_000 {
            if decided >= 300 && i >= 3000 {
                break;
            }
            let stm = if i % 2 == 0 { Color::White } else { Color::Black };
            let pos = position(&random_setup(m, stm, &mut rng));
            let p = tb.probe(&pos).unwrap().unwrap();
            let moves = tb.probe_moves(&pos).unwrap().unwrap();
            let best = match moves.first() {
                Some(b) => b.result,
                None if pos.in_check() => Probe::from_entry(1),
                None => Probe::from_entry(DRAW),
            };
            assert_eq!(p, best, "{m}: {}", pos.to_fen());
            if p.wdl == Wdl::Draw {
                continue;
            }
            decided += 1;
            if lines < 20 {
                lines += 1;
                // Down the table's line: each best move one ply nearer, a mate at the end.
                let (mut q, mut plies) = (pos, p.plies.unwrap());
                while plies > 0 {
                    let moves = tb.probe_moves(&q).unwrap().unwrap();
                    q = q.after(moves[0].mv);
                    plies -= 1;
                    assert_eq!(tb.probe(&q).unwrap().unwrap().plies, Some(plies), "{}", q.to_fen());
                }
                assert!(q.in_check() && q.legal_moves().is_empty(), "{}", q.to_fen());
            }
        }
        assert!(decided >= 300, "{m}: only {decided} decided positions sampled");
    }
}

#[test]
fn damaged_checkpoints_are_refused() {
    let dir = temp_dir("ckpt");
    let m = Material::parse("KQvK").unwrap();
    let n = Layout::new(&m).file_size();
    let val: [Vec<AtomicU8>; 2] = [0, 1].map(|s| (0..n).map(|i| AtomicU8::new((i * 7 + s) as u8)).collect());
    let path = dir.join("KQvK.vtb.ckpt");
    checkpoint::save(&path, &m, checkpoint::Stage::Init(2), &val).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(check_checkpoint_bytes(&bytes, &m).unwrap(), (false, 2));
    let back: [Vec<AtomicU8>; 2] = [0, 1].map(|_| (0..n).map(|_| AtomicU8::new(0)).collect());
    assert_eq!(
        checkpoint::load(&path, &m, &back).unwrap(),
        Some(checkpoint::Stage::Init(2))
    );
    assert!(plain(back) == plain(val));
    assert!(check_checkpoint_bytes(&[], &m).is_err());
    assert!(check_checkpoint_bytes(&bytes[..bytes.len() - 1], &m).is_err());
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(check_checkpoint_bytes(&longer, &m).is_err());
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 4;
    assert!(check_checkpoint_bytes(&flipped, &m).is_err());
    assert!(check_checkpoint_bytes(&bytes, &Material::parse("KRvK").unwrap()).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}
