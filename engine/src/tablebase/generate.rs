//! Retrograde analysis of one material.
//!
//! 1. One forward pass over every entry of both sides to move: illegal entries are marked, the
//!    moves that stay in the table are counted, and the moves that capture or promote are
//!    looked up in the tables already made (a win through them is scheduled at its distance;
//!    the longest loss through them is kept as a floor; a draw through them means the position
//!    can never be lost). Mates are scheduled at distance 0.
//! 2. Distance by distance (in plies): every position decided at distance `d` is un-moved.
//!    When it is lost, each predecessor is won at `d + 1` (if not already won sooner); when it
//!    is won, each predecessor's count of undecided moves drops by one, and a predecessor with
//!    none left is lost at `max(d + 1, floor)`.
//!
//! What is left undecided is a draw. Both steps run on all threads (rayon) over shared
//! atomic byte arrays: two bytes per entry and side during generation (value and count) and
//! one for the floor.

use super::file::{self, Metric};
use super::index::Layout;
use super::material::{Material, MAX_SET_MEN};
use super::probe::{entry_of, Table, Tablebases};
use super::setup::Setup;
use super::stats::{DtzStats, GenStats, SideStats};
use super::{TbError, DRAW, INVALID, MAX_PLIES};
use crate::clock::Instant;
use crate::types::Color;
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
use std::sync::Arc;

/// What one task of a round finds: positions decided now (side, index), and losses decided
/// for a later distance (distance, side, index).
type RoundResult = (Vec<(u8, u32)>, Vec<(u8, u8, u32)>);

/// Entries of a chunk handled by one task.
const CHUNK: usize = 1 << 14;

/// Generates `material` (canonical), looking up the smaller tables in `tables` (whose
/// directory receives the new file), and makes the new table available there.
/// `progress` receives a line now and then.
pub fn generate(material: &Material, tables: &Tablebases, progress: &mut dyn FnMut(&str)) -> Result<GenStats, TbError> {
    if !material.is_canonical() {
        return Err(TbError::Generate(format!("{material}: name the stronger side first")));
    }
    material.check_generable().map_err(TbError::Generate)?;
    let start = Instant::now();
    // Every table a capture or promotion leads to must exist.
    let mut subs: Vec<(Material, Arc<Table>)> = Vec::new();
    for m in material.successors() {
        match tables.table(&m)? {
            Some(t) => subs.push((m, t)),
            None => {
                return Err(TbError::Generate(format!(
                    "{material} needs the table {m}: generate it first"
                )));
            }
        }
    }
    if material.men() > MAX_SET_MEN {
        return super::large::generate(material, tables, &subs, progress);
    }
    let layout = Layout::new(material);
    let (gen_values, rounds) = retrograde(material, &layout, &subs, None, start, progress)?;
    let sides = [
        stats(&layout, &gen_values[0], Color::White),
        stats(&layout, &gen_values[1], Color::Black),
    ];
    let file_values = to_file_layout(&layout, &gen_values);
    let path = file::path_in(tables.dir(), material);
    let file_bytes = file::write(&path, material, &file_values, Metric::Dtm)?;
    tables.insert(material, Table::new(material, file_values));
    // A material whose mates can outlast the fifty-move rule also gets the distance to the
    // next capture or pawn move, which tells the wins the rule lets stand.
    let beyond_fifty = sides
        .iter()
        .any(|st| st.longest_win.as_ref().is_some_and(|(plies, _)| *plies > 100));
    let dtz = if beyond_fifty {
        progress(&format!(
            "{material}: distance to the next capture or pawn move (mates beyond fifty moves)"
        ));
        let (dtz_values, _) = retrograde(material, &layout, &subs, Some(&gen_values), start, progress)?;
        drop(gen_values);
        let dtz_sides = [
            dtz_stats(&layout, &dtz_values[0], Color::White),
            dtz_stats(&layout, &dtz_values[1], Color::Black),
        ];
        let file_values = to_file_layout(&layout, &dtz_values);
        drop(dtz_values);
        let path = file::path_for(tables.dir(), material, Metric::Dtz);
        let bytes = file::write(&path, material, &file_values, Metric::Dtz)?;
        tables.insert_dtz(material, Table::new(material, file_values));
        Some((dtz_sides, bytes))
    } else {
        None
    };
    Ok(GenStats {
        material: material.clone(),
        sides,
        seconds: start.elapsed().as_secs_f64(),
        file_bytes: file_bytes + dtz.as_ref().map_or(0, |d| d.1),
        rounds,
        dtz: dtz.map(|d| d.0),
    })
}

/// The generation arrays in file layout.
fn to_file_layout(layout: &Layout, gen_values: &[Vec<u8>; 2]) -> [Vec<u8>; 2] {
    [0, 1].map(|side| {
        (0..layout.file_size())
            .into_par_iter()
            .map(|f| gen_values[side][layout.file_to_gen(f)])
            .collect()
    })
}

/// The retrograde analysis of `material` (steps 1 and 2 above); returns the values (generation
/// layout) and the plies processed. With `zeroing` (this table's distances to mate, generation
/// layout), a capture, promotion or pawn move ends the count: its distance is that of the
/// smallest win or loss (one ply for the mover's win through it, two for a loss), and one that
/// leads to a mate more than fifty moves away counts as a draw, so the values are a safe
/// distance to the next zeroing move (or mate): never shorter than the truth, and a draw where
/// the rule may make one.
pub(super) fn retrograde(
    material: &Material,
    layout: &Layout,
    subs: &[(Material, Arc<Table>)],
    zeroing: Option<&[Vec<u8>; 2]>,
    start: Instant,
    progress: &mut dyn FnMut(&str),
) -> Result<([Vec<u8>; 2], u32), TbError> {
    let n = layout.gen_size();
    let new_array = || (0..n).map(|_| AtomicU8::new(0)).collect::<Vec<_>>();
    let val = [new_array(), new_array()];
    let cnt = [new_array(), new_array()];
    let floor = [new_array(), new_array()];
    let lookup = |child: &Setup| -> u8 {
        let r = entry_of(child, &mut |m| {
            Ok(subs.iter().find(|(x, _)| x == m).map(|(_, t)| t.clone()))
        });
        match r {
            Ok(Some(v)) => v,
            _ => INVALID,
        }
    };

    // Step 1: the forward pass.
    let chunks = n.div_ceil(CHUNK);
    let scheduled: Vec<Vec<(u8, u8, u32)>> = (0..chunks * 2)
        .into_par_iter()
        .map(|job| {
            let side = job % 2;
            let stm = if side == 0 { Color::White } else { Color::Black };
            let mut out = Vec::new();
            let from = (job / 2) * CHUNK;
            for idx in from..(from + CHUNK).min(n) {
                let valid = layout.decode_gen(idx, stm).filter(|s| s.is_valid());
                let Some(s) = valid else {
                    val[side][idx].store(INVALID, Relaxed);
                    continue;
                };
                let (mut count, mut any, mut draw) = (0u32, false, false);
                let (mut best_win, mut worst) = (u32::MAX, 0u32);
                s.for_each_move(|mv, child| {
                    any = true;
                    // The moves that leave the count: captures and promotions (another
                    // table); with `zeroing`, every pawn move too (this table's own distances
                    // to mate tell where it leads).
                    let exit = mv.converts() || (zeroing.is_some() && s.zeroes(&mv));
                    if !exit {
                        count += 1;
                        return;
                    }
                    let value = match zeroing {
                        Some(own) if !mv.converts() => {
                            let mut c = *child;
                            let j = layout.gen_index(&mut c);
                            own[c.stm.index()][j]
                        }
                        _ => lookup(child),
                    };
                    match value {
                        DRAW => draw = true,
                        INVALID => draw = true, // cannot happen: the child is legal and its table exists
                        v => {
                            let plies = match zeroing {
                                None => v as u32 - 1,
                                // Past a zeroing move only a mate within fifty moves surely
                                // stands; a longer one may be a draw under the rule, so it
                                // counts as one (the distances stay on the safe side).
                                Some(_) if v as u32 - 1 > 100 => {
                                    draw = true;
                                    return;
                                }
                                Some(_) => (v as u32 - 1) % 2,
                            };
                            if plies.is_multiple_of(2) {
                                best_win = best_win.min(plies + 1);
                            } else {
                                worst = worst.max(plies + 1);
                            }
                        }
                    }
                });
                if !any {
                    if s.in_check(stm) {
                        out.push((0, side as u8, idx as u32));
                    }
                    continue;
                }
                let blocked = draw || best_win != u32::MAX;
                cnt[side][idx].store((count + blocked as u32) as u8, Relaxed);
                floor[side][idx].store(worst as u8, Relaxed);
                if best_win != u32::MAX {
                    out.push((best_win as u8, side as u8, idx as u32));
                } else if count == 0 && !draw {
                    out.push((worst as u8, side as u8, idx as u32));
                }
            }
            out
        })
        .collect();
    let mut buckets: Vec<Vec<(u8, u32)>> = vec![Vec::new(); MAX_PLIES as usize + 2];
    for (ply, side, idx) in scheduled.into_iter().flatten() {
        buckets[ply as usize].push((side, idx));
    }
    progress(&format!(
        "{material}: {} entries per side, forward pass {:.1} s",
        n,
        start.elapsed().as_secs_f64()
    ));

    // Step 2: distance by distance.
    let mut next: Vec<(u8, u32)> = Vec::new();
    let mut d: u32 = 0;
    loop {
        let mut frontier = std::mem::take(&mut next);
        for (side, idx) in std::mem::take(&mut buckets[d as usize]) {
            if val[side as usize][idx as usize]
                .compare_exchange(0, (d + 1) as u8, Relaxed, Relaxed)
                .is_ok()
            {
                frontier.push((side, idx));
            }
        }
        if frontier.is_empty() && buckets[d as usize..].iter().all(|b| b.is_empty()) {
            break;
        }
        if d + 1 > MAX_PLIES {
            return Err(TbError::Generate(format!(
                "{material}: a mate longer than {MAX_PLIES} plies"
            )));
        }
        let lost = d.is_multiple_of(2);
        let results: Vec<RoundResult> = frontier
            .par_chunks(1024)
            .map(|part| {
                let (mut found, mut later) = (Vec::new(), Vec::new());
                for &(side, idx) in part {
                    let stm = if side == 0 { Color::White } else { Color::Black };
                    let s = layout
                        .decode_gen(idx as usize, stm)
                        .expect("decided entries are positions");
                    let ps = 1 - side as usize;
                    let mut visit = |pred: &Setup| {
                        let mut p = *pred;
                        let j = layout.gen_index(&mut p);
                        if lost {
                            if val[ps][j].compare_exchange(0, (d + 2) as u8, Relaxed, Relaxed).is_ok() {
                                found.push((ps as u8, j as u32));
                            }
                        } else if val[ps][j].load(Relaxed) == 0 && cnt[ps][j].fetch_sub(1, Relaxed) == 1 {
                            let at = (floor[ps][j].load(Relaxed) as u32).max(d + 1);
                            if at == d + 1 {
                                if val[ps][j].compare_exchange(0, (d + 2) as u8, Relaxed, Relaxed).is_ok() {
                                    found.push((ps as u8, j as u32));
                                }
                            } else {
                                later.push((at as u8, ps as u8, j as u32));
                            }
                        }
                    };
                    // With `zeroing`, pawn moves were taken as exits in the forward pass.
                    s.for_each_unmove(false, zeroing.is_none(), &mut visit);
                }
                (found, later)
            })
            .collect();
        for (found, later) in results {
            next.extend(found);
            for (at, side, idx) in later {
                buckets[at as usize].push((side, idx));
            }
        }
        if d % 8 == 7 {
            progress(&format!(
                "{material}: distance {} plies, {:.1} s",
                d + 1,
                start.elapsed().as_secs_f64()
            ));
        }
        d += 1;
    }
    drop((cnt, floor));
    let values: [Vec<u8>; 2] = val.map(|v| v.into_iter().map(|a| a.into_inner()).collect());
    Ok((values, d))
}

/// Counts of one side; each generation entry stands for [`positions_per_entry`] positions.
fn stats(layout: &Layout, values: &[u8], stm: Color) -> SideStats {
    let group = positions_per_entry(layout);
    let mut st = SideStats::default();
    let (mut win_at, mut loss_at) = ((0u8, 0usize), (0u8, 0usize));
    for (i, &v) in values.iter().enumerate() {
        match v {
            INVALID => {}
            DRAW => st.draws += group,
            v if (v - 1) % 2 == 1 => {
                st.wins += group;
                if v > win_at.0 {
                    win_at = (v, i);
                }
            }
            v => {
                st.losses += group;
                if v > loss_at.0 {
                    loss_at = (v, i);
                }
            }
        }
    }
    let fen = |i: usize| layout.decode_gen(i, stm).map(|s| s.to_fen()).unwrap_or_default();
    if win_at.0 > 0 {
        st.longest_win = Some((win_at.0 as u32 - 1, fen(win_at.1)));
    }
    if loss_at.0 > 0 {
        st.longest_loss = Some((loss_at.0 as u32 - 1, fen(loss_at.1)));
    }
    st
}

/// How many positions one generation entry stands for: its images under the symmetries the
/// generation index folds (board exchange and file mirror; the rank mirror too without pawns).
fn positions_per_entry(layout: &Layout) -> u64 {
    if layout.pawns {
        4
    } else {
        8
    }
}

/// Counts of one side's distances to the next zeroing move.
fn dtz_stats(layout: &Layout, values: &[u8], stm: Color) -> DtzStats {
    let group = positions_per_entry(layout);
    let mut st = DtzStats::default();
    let mut win_at = (0u8, 0usize);
    for (i, &v) in values.iter().enumerate() {
        if v == INVALID || v == DRAW {
            continue;
        }
        let plies = v as u32 - 1;
        if plies % 2 == 1 {
            if plies <= 100 {
                st.wins_within_fifty += group;
            } else {
                st.wins_beyond_fifty += group;
            }
            if v > win_at.0 {
                win_at = (v, i);
            }
        } else if plies > 100 {
            st.losses_beyond_fifty += group;
        }
    }
    if win_at.0 > 0 {
        let fen = layout.decode_gen(win_at.1, stm).map(|s| s.to_fen()).unwrap_or_default();
        st.longest_win = Some((win_at.0 as u32 - 1, fen));
    }
    st
}

/// Generates every material of `list` (in the order given) into `dir`, skipping those whose
/// file is already there and sound. Returns the stats of the tables made.
pub fn generate_all(list: &[Material], dir: &Path, progress: &mut dyn FnMut(&str)) -> Result<Vec<GenStats>, TbError> {
    let tables = Tablebases::open(dir)?;
    let mut out = Vec::new();
    for m in list {
        out.push(generate(m, &tables, progress)?);
    }
    Ok(out)
}
