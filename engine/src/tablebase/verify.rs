//! Retrograde analysis by verification, for five-man tables: one byte per entry and side, in
//! the file layout itself (no counts, no floors, no lists), so a pawnless five-man table needs
//! 2 x 10 x 2^28 bytes = 5.4 GB. The counting generator (`generate.rs`) still makes the smaller
//! tables; a test proves both give the same files.
//!
//! Values are those of the files (plies + 1, odd plies: the side to move mates; 0 undecided,
//! a draw at the end). Every ply `d` scans both arrays for the entries of value `d + 1`:
//! 1. First pass over every entry: mates get 1; a position whose moves all capture gets its
//!    value from the smaller tables; a capture that wins stores its win as a provisional value
//!    (a quicker win may still replace it).
//! 2. Ply `d` even (the side to move is mated in `d`): each predecessor that is undecided, or
//!    holds a longer provisional win, is won in `d + 1`.
//! 3. Ply `d` odd (the side to move mates in `d`): each undecided predecessor is marked a
//!    candidate, then every candidate is verified: all its moves must lead to wins of the
//!    opponent that are final (in at most `d` plies, or through a capture); it is then lost in
//!    one ply more than its longest such move, otherwise undecided again.
//!
//! The layout folds the diagonal only when the white king is off it: an entry with the king on
//! the diagonal and the entry of its mirror image stand for the same positions, so a
//! predecessor reaches both ([`Layout::diagonal_twin`]). A checkpoint is written now and then
//! (`checkpoint.rs`) and a generation started again continues from it.

use super::checkpoint::{self, Stage};
use super::index::Layout;
use super::material::Material;
use super::probe::{entry_of, Table};
use super::setup::Setup;
use super::{TbError, DRAW, INVALID};
use crate::clock::Instant;
use crate::types::Color;
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;

/// An undecided entry marked for verification in this ply (never in a checkpoint).
const CANDIDATE: u8 = 254;
/// Entries of a chunk handled by one task.
const CHUNK: usize = 1 << 16;
/// Chunks of the first pass between two chances of a checkpoint (of 2^16 entries each).
pub(super) const INIT_SEGMENT: usize = 256;

/// When checkpoints are written.
pub(super) struct Checkpoints {
    /// The checkpoint file (`None`: none).
    pub path: Option<PathBuf>,
    /// The least time between two checkpoints.
    pub every: Duration,
    /// A test's hook: stop with an error after writing this many checkpoints.
    pub stop_after: Option<u32>,
    /// Chunks of the first pass between two chances of a checkpoint ([`INIT_SEGMENT`]).
    pub init_segment: usize,
}

/// One generation's arrays and what it looks up.
struct Solver<'a> {
    layout: &'a Layout,
    subs: &'a [(Material, Arc<Table>)],
    val: [Vec<AtomicU8>; 2],
    /// Set when a value does not fit a byte.
    overflow: AtomicBool,
}

fn color(side: usize) -> Color {
    if side == 0 {
        Color::White
    } else {
        Color::Black
    }
}

impl Solver<'_> {
    /// The value of a capture's child from the smaller tables.
    fn lookup(&self, child: &Setup) -> u8 {
        let r = entry_of(child, &mut |m| {
            Ok(self.subs.iter().find(|(x, _)| x == m).map(|(_, t)| t.clone()))
        });
        match r {
            Ok(Some(v)) => v,
            _ => INVALID,
        }
    }

    /// The entry of `plies`, or the overflow flag.
    fn value(&self, plies: u32) -> u8 {
        if plies + 1 >= CANDIDATE as u32 {
            self.overflow.store(true, Relaxed);
            return DRAW;
        }
        (plies + 1) as u8
    }

    /// Step 1 for one entry.
    fn first(&self, side: usize, idx: usize) -> u8 {
        let stm = color(side);
        let Some(s) = self.layout.decode_file(idx, stm).filter(|s| s.is_valid()) else {
            return INVALID;
        };
        let (mut any, mut inside, mut draw) = (false, false, false);
        let (mut best_win, mut worst) = (u32::MAX, 0u32);
        s.for_each_move(|mv, child| {
            any = true;
            if !mv.converts() {
                inside = true;
                return;
            }
            match self.lookup(child) {
                DRAW | INVALID => draw = true,
                v if (v as u32 - 1).is_multiple_of(2) => best_win = best_win.min(v as u32),
                v => worst = worst.max(v as u32),
            }
        });
        if !any {
            return if s.in_check(stm) { 1 } else { DRAW };
        }
        if best_win != u32::MAX {
            self.value(best_win)
        } else if !inside && !draw {
            self.value(worst)
        } else {
            DRAW
        }
    }

    /// Calls `f` with the entry of `pred` and, for a king on the diagonal, its twin.
    #[inline(always)]
    fn entries_of(&self, pred: &Setup, mut f: impl FnMut(usize, usize)) {
        let mut p = *pred;
        let j = self.layout.file_index(&mut p);
        f(p.stm.index(), j);
        if let Some(k) = self.layout.diagonal_twin(&p, j) {
            f(p.stm.index(), k);
        }
    }

    /// Step 3's test of the candidate `idx` of `side` at ply `d`: its value when lost.
    fn verify(&self, side: usize, idx: usize, d: u32) -> u8 {
        let Some(s) = self.layout.decode_file(idx, color(side)) else {
            return DRAW;
        };
        let (mut ok, mut worst) = (true, 0u32);
        s.for_each_move(|mv, child| {
            if !ok {
                return;
            }
            let v = if mv.converts() {
                self.lookup(child)
            } else {
                let mut c = *child;
                let j = self.layout.file_index(&mut c);
                let v = self.val[c.stm.index()][j].load(Relaxed);
                if v as u32 > d + 1 {
                    ok = false; // undecided, a candidate, or a win not yet final
                    return;
                }
                v
            };
            // The child must be a win for its side to move: an odd number of plies.
            if v == DRAW || v == INVALID || (v as u32 - 1).is_multiple_of(2) {
                ok = false;
                return;
            }
            worst = worst.max(v as u32);
        });
        if ok {
            self.value(worst)
        } else {
            DRAW
        }
    }

    /// Calls `f(side, idx)` for every entry of value `target` (both sides, in parallel);
    /// returns how many there are and whether any entry holds a later value.
    fn scan(&self, target: u8, f: &(dyn Fn(usize, usize) + Sync)) -> (u64, bool) {
        let n = self.val[0].len();
        let chunks = n.div_ceil(CHUNK);
        (0..chunks * 2)
            .into_par_iter()
            .map(|job| {
                let side = job % 2;
                let from = (job / 2) * CHUNK;
                let (mut count, mut later) = (0u64, false);
                for (i, v) in self.val[side][from..(from + CHUNK).min(n)].iter().enumerate() {
                    let v = v.load(Relaxed);
                    if v == target {
                        count += 1;
                        f(side, from + i);
                    } else if v > target && v < CANDIDATE {
                        later = true;
                    }
                }
                (count, later)
            })
            .reduce(|| (0, false), |a, b| (a.0 + b.0, a.1 || b.1))
    }

    /// Calls `f` with every entry (side, index) of a position one move before the decided
    /// entry `idx` of `side` (un-moves without captures or promotions: those lead into other
    /// tables).
    fn predecessors(&self, side: usize, idx: usize, mut f: impl FnMut(usize, usize)) {
        let s = self
            .layout
            .decode_file(idx, color(side))
            .expect("decided entries are positions");
        s.for_each_unmove(false, true, |pred| self.entries_of(pred, &mut f));
    }

    /// Ply `d`: returns the entries of value `d + 1` and whether any has a later value.
    fn ply(&self, d: u32) -> (u64, bool) {
        let target = (d + 1) as u8;
        if d.is_multiple_of(2) {
            let win = (d + 2) as u8;
            return self.scan(target, &|side, idx| {
                self.predecessors(side, idx, |ps, j| {
                    let _ = self.val[ps][j].fetch_update(Relaxed, Relaxed, |v| {
                        let longer_win = v != INVALID && v > win && v.is_multiple_of(2);
                        (v == DRAW || longer_win).then_some(win)
                    });
                });
            });
        }
        let found = self.scan(target, &|side, idx| {
            self.predecessors(side, idx, |ps, j| {
                let _ = self.val[ps][j].compare_exchange(DRAW, CANDIDATE, Relaxed, Relaxed);
            });
        });
        if found.0 == 0 {
            return found;
        }
        self.scan(CANDIDATE, &|side, idx| {
            let v = self.verify(side, idx, d);
            self.val[side][idx].store(v, Relaxed);
        });
        found
    }
}

/// Writes the checkpoints.
struct Saver<'a> {
    checkpoints: &'a Checkpoints,
    material: &'a Material,
    start: Instant,
    last: Instant,
    saved: u32,
}

impl Saver<'_> {
    /// Writes a checkpoint at `stage` when one is due (or `force`).
    fn save(
        &mut self,
        stage: Stage,
        force: bool,
        val: &[Vec<AtomicU8>; 2],
        progress: &mut dyn FnMut(&str),
    ) -> Result<(), TbError> {
        let Some(path) = &self.checkpoints.path else {
            return Ok(());
        };
        if !force && self.last.elapsed() < self.checkpoints.every {
            return Ok(());
        }
        let material = self.material;
        checkpoint::save(path, material, stage, val)?;
        self.last = Instant::now();
        self.saved += 1;
        progress(&format!(
            "{material}: checkpoint at {stage:?}, {:.1} s",
            self.start.elapsed().as_secs_f64()
        ));
        if self.checkpoints.stop_after.is_some_and(|m| self.saved >= m) {
            return Err(TbError::Generate(format!(
                "{material}: stopped after checkpoint {} (test hook)",
                self.saved
            )));
        }
        Ok(())
    }
}

/// The retrograde analysis of `material` by verification; returns the values in file layout
/// (as atomic bytes) and the plies processed. `progress` gets a line per ply.
pub(super) fn solve(
    material: &Material,
    layout: &Layout,
    subs: &[(Material, Arc<Table>)],
    checkpoints: &Checkpoints,
    progress: &mut dyn FnMut(&str),
) -> Result<([Vec<AtomicU8>; 2], u32), TbError> {
    let start = Instant::now();
    let n = layout.file_size();
    let new_array = || (0..n).into_par_iter().map(|_| AtomicU8::new(0)).collect::<Vec<_>>();
    let solver = Solver {
        layout,
        subs,
        val: [new_array(), new_array()],
        overflow: AtomicBool::new(false),
    };
    let mut stage = Stage::Init(0);
    if let Some(path) = &checkpoints.path {
        if let Some(s) = checkpoint::load(path, material, &solver.val)? {
            progress(&format!("{material}: resuming from {} at {s:?}", path.display()));
            stage = s;
        }
    }
    let mut saver = Saver {
        checkpoints,
        material,
        start,
        last: Instant::now(),
        saved: 0,
    };
    let chunks = n.div_ceil(CHUNK);
    if let Stage::Init(mut done) = stage {
        while done < chunks {
            let to = (done + checkpoints.init_segment.max(1)).min(chunks);
            (done * 2..to * 2).into_par_iter().for_each(|job| {
                let side = job % 2;
                let from = (job / 2) * CHUNK;
                for idx in from..(from + CHUNK).min(n) {
                    solver.val[side][idx].store(solver.first(side, idx), Relaxed);
                }
            });
            done = to;
            progress(&format!(
                "{material}: first pass {done}/{chunks} chunks, {:.1} s",
                start.elapsed().as_secs_f64()
            ));
            if done < chunks {
                saver.save(Stage::Init(done), false, &solver.val, progress)?;
            }
        }
        progress(&format!(
            "{material}: {n} entries per side, first pass {:.1} s",
            start.elapsed().as_secs_f64()
        ));
        stage = Stage::Ply(0);
        saver.save(stage, true, &solver.val, progress)?;
    }
    let Stage::Ply(mut d) = stage else {
        unreachable!("the first pass ends at ply 0")
    };
    loop {
        if d > 0 {
            saver.save(Stage::Ply(d), false, &solver.val, progress)?;
        }
        if d + 2 >= CANDIDATE as u32 {
            return Err(TbError::Generate(format!("{material}: a mate longer than {d} plies")));
        }
        let (count, later) = solver.ply(d);
        if solver.overflow.load(Relaxed) {
            return Err(TbError::Generate(format!("{material}: a distance does not fit a byte")));
        }
        progress(&format!(
            "{material}: ply {d}: {count} entries, {:.1} s",
            start.elapsed().as_secs_f64()
        ));
        if count == 0 && !later {
            break;
        }
        d += 1;
    }
    Ok((solver.val, d))
}
