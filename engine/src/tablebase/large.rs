//! Making a five-man table: the retrograde analysis by verification (`verify.rs`) with
//! checkpoints, the counts, and the file written as a stream (`disk.rs`); the table is then
//! read from its file, entry by entry.

use super::checkpoint;
use super::disk::{self, DiskTable};
use super::file::{self, Metric};
use super::index::Layout;
use super::material::Material;
use super::probe::{Table, Tablebases};
use super::stats::{GenStats, SideStats};
use super::verify::{self, Checkpoints};
use super::{TbError, DRAW, INVALID};
use crate::clock::Instant;
use crate::types::Color;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;

/// The least time between two checkpoints of a five-man generation.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(15 * 60);

/// Generates the five-man `material` (canonical, pawnless) into the directory of `tables`,
/// with the smaller tables `subs`. Mates beyond fifty moves get no distance-to-zeroing file.
pub(super) fn generate(
    material: &Material,
    tables: &Tablebases,
    subs: &[(Material, Arc<Table>)],
    progress: &mut dyn FnMut(&str),
) -> Result<GenStats, TbError> {
    let start = Instant::now();
    let layout = Layout::new(material);
    let path = file::path_in(tables.dir(), material);
    let checkpoints = Checkpoints {
        path: Some(checkpoint::path_of(&path)),
        every: CHECKPOINT_EVERY,
        stop_after: None,
        init_segment: verify::INIT_SEGMENT,
    };
    let (val, rounds) = verify::solve(material, &layout, subs, &checkpoints, progress)?;
    let sides = [0, 1].map(|side| stats(&layout, &val[side], side));
    progress(&format!("{material}: writing {}", path.display()));
    let file_bytes = write(&path, material, &val)?;
    drop(val);
    let entries = layout.file_size();
    let disk = DiskTable::open(&path, material, entries, Metric::Dtm)?;
    tables.insert(material, Table::on_disk(material, disk));
    if let Some(p) = &checkpoints.path {
        let _ = std::fs::remove_file(p);
    }
    Ok(GenStats {
        material: material.clone(),
        sides,
        seconds: start.elapsed().as_secs_f64(),
        file_bytes,
        rounds,
        dtz: None,
    })
}

/// Writes the arrays (file layout, 0 for a draw) as a plain table file.
pub(super) fn write(path: &std::path::Path, material: &Material, val: &[Vec<AtomicU8>; 2]) -> Result<u64, TbError> {
    let entries = val[0].len();
    disk::write_plain(path, material, entries, Metric::Dtm, &|side, from, buf| {
        for (b, v) in buf.iter_mut().zip(&val[side][from..]) {
            *b = v.load(Relaxed);
        }
    })
}

/// The counts of one side (file layout, each entry weighed by the positions it stands for).
pub(super) fn stats(layout: &Layout, values: &[AtomicU8], side: usize) -> SideStats {
    const PART: usize = 1 << 20;
    // (wins, draws, losses, longest win (value, index), longest loss)
    type Acc = (u64, u64, u64, (u8, usize), (u8, usize));
    let add = |a: Acc, b: Acc| -> Acc { (a.0 + b.0, a.1 + b.1, a.2 + b.2, a.3.max(b.3), a.4.max(b.4)) };
    let zero: Acc = (0, 0, 0, (0, 0), (0, 0));
    let acc = values
        .par_chunks(PART)
        .enumerate()
        .map(|(part, vs)| {
            let mut a = zero;
            for (i, v) in vs.iter().enumerate() {
                let idx = part * PART + i;
                match v.load(Relaxed) {
                    INVALID => {}
                    DRAW => a.1 += layout.file_entry_positions(idx),
                    v if (v - 1) % 2 == 1 => {
                        a.0 += layout.file_entry_positions(idx);
                        a.3 = a.3.max((v, idx));
                    }
                    v => {
                        a.2 += layout.file_entry_positions(idx);
                        a.4 = a.4.max((v, idx));
                    }
                }
            }
            a
        })
        .reduce(|| zero, add);
    let stm = if side == 0 { Color::White } else { Color::Black };
    let fen = |i: usize| layout.decode_file(i, stm).map(|s| s.to_fen()).unwrap_or_default();
    SideStats {
        wins: acc.0,
        draws: acc.1,
        losses: acc.2,
        longest_win: (acc.3 .0 > 0).then(|| (acc.3 .0 as u32 - 1, fen(acc.3 .1))),
        longest_loss: (acc.4 .0 > 0).then(|| (acc.4 .0 as u32 - 1, fen(acc.4 .1))),
    }
}
