//! `vorpal-datagen relabel`: every position of a packed file searched again with other (deeper)
//! limits, its score replaced by the new search's and its game result kept. This makes the
//! held-out set that decides between two networks and the hand-crafted evaluation: labels from
//! deeper searches than any training set had, so no candidate is judged against its own
//! teacher's scores (docs/nnue.md, "Choosing a network").
//!
//! Each position is searched from a cleared hash (the same score whatever the thread count or
//! the order), one search thread per worker. The score is that of the last completed
//! iteration (as in generation); a position whose search completes no iteration, or that has
//! no legal move, is dropped and counted. The output keeps the input's order and is written
//! through `OUT.tmp`, renamed at the end; an existing `OUT` is never overwritten.

use crate::datagen::packed::{record_offset, PackedReader, PackedRecord};
use crate::datagen::tools::write_atomically;
use crate::datagen::{search_move, worker_searcher};
use rayon::prelude::*;
use std::fs::File;
use std::io::{self, BufReader};
use std::path::Path;
use std::time::Instant;
use vorpal_engine::search::{Limits, SearchControl, Searcher};
use vorpal_engine::Game;

/// Positions handed to the workers at a time (the progress callback runs after each batch).
const BATCH: usize = 256;

/// How to search each position.
#[derive(Clone, Debug)]
pub struct RelabelConfig {
    /// The limits of each search (a soft node limit with a hard cap, or a depth).
    pub limits: Limits,
    /// Worker threads, one search thread each.
    pub threads: usize,
    /// Hash per worker in MB.
    pub hash_mb: usize,
    /// Search with the hand-crafted evaluation instead of the built-in network.
    pub hand_crafted: bool,
}

/// What a relabelling did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RelabelSummary {
    /// Records read.
    pub records: u64,
    /// Records written with their new score.
    pub written: u64,
    /// Positions dropped (no legal move, or no iteration completed within the limits).
    pub dropped: u64,
    /// Nodes searched in all.
    pub nodes: u64,
    /// Wall seconds.
    pub seconds: f64,
}

/// The new record of `record`: its position and result with the score of a search within
/// `limits` (White's view, as datagen writes it); `None` when the search gives no score.
fn relabel_one(
    searcher: &mut Searcher,
    record: &PackedRecord,
    limits: &Limits,
) -> Result<Option<(PackedRecord, u64)>, String> {
    let (pos, _, result) = record.decode().map_err(|e| e.to_string())?;
    searcher.clear();
    let game = Game::new(pos);
    let control = SearchControl::new();
    let Some(searched) = search_move(searcher, &game, limits, &control, &mut |_| {}) else {
        return Ok(None);
    };
    if searched.depth == 0 {
        return Ok(None);
    }
    let new = PackedRecord::encode(&pos, searched.score, result).map_err(|e| e.to_string())?;
    Ok(Some((new, searched.nodes)))
}

/// Relabels the packed file `input` into `out`; `progress(done, total)` after each batch.
pub fn relabel(
    input: &Path,
    out: &Path,
    cfg: &RelabelConfig,
    progress: &mut dyn FnMut(u64, u64),
) -> io::Result<RelabelSummary> {
    let named = |msg: String| io::Error::new(io::ErrorKind::InvalidData, format!("{}: {msg}", input.display()));
    let reader = PackedReader::new(BufReader::new(File::open(input)?)).map_err(|e| named(e.to_string()))?;
    let records: Vec<PackedRecord> = reader.collect::<io::Result<_>>().map_err(|e| named(e.to_string()))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads.max(1))
        .build()
        .map_err(io::Error::other)?;
    let start = Instant::now();
    let new_searcher = || worker_searcher(cfg.hash_mb, cfg.hand_crafted);
    write_atomically(out, |writer| {
        let mut summary = RelabelSummary {
            records: records.len() as u64,
            ..RelabelSummary::default()
        };
        for (batch_index, batch) in records.chunks(BATCH).enumerate() {
            let first = batch_index * BATCH;
            let results: Vec<Result<Option<(PackedRecord, u64)>, String>> = pool.install(|| {
                batch
                    .par_iter()
                    .map_init(new_searcher, |searcher, record| {
                        relabel_one(searcher, record, &cfg.limits)
                    })
                    .collect()
            });
            for (i, result) in results.into_iter().enumerate() {
                let index = (first + i) as u64;
                match result.map_err(|e| named(format!("record {index} at byte {}: {e}", record_offset(index))))? {
                    Some((record, nodes)) => {
                        writer.write(&record)?;
                        summary.written += 1;
                        summary.nodes += nodes;
                    }
                    None => summary.dropped += 1,
                }
            }
            progress((first + batch.len()) as u64, summary.records);
        }
        summary.seconds = start.elapsed().as_secs_f64();
        Ok(summary)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::packed::PackedWriter;
    use std::io::BufWriter;
    use vorpal_engine::{GameResult, Position, Rules};

    const FENS: [&str; 3] = [
        "rnbqkbnr/pppp1ppp/8/4|p3/4|P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        "4k3/8/8/8/8/8/3|Q4/4K3 b - - 0 1",
        "r3k2r/ppp2ppp/2n|b1n2/3|q4/3|Q4/2N|B1N2/PPP2PPP/R3K2R w KQkq - 0 1",
    ];

    fn temp(name: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("vorpal-relabel-{name}-{}", std::process::id()))
    }

    fn write_input(path: &Path) -> Vec<Position> {
        let mut w = PackedWriter::new(BufWriter::new(File::create(path).unwrap())).unwrap();
        let positions: Vec<Position> = FENS
            .iter()
            .map(|f| Position::from_fen(f, Rules::default()).unwrap())
            .collect();
        for (i, pos) in positions.iter().enumerate() {
            let result = [GameResult::WhiteWins, GameResult::Draw, GameResult::BlackWins][i];
            w.write(&PackedRecord::encode(pos, 7, result).unwrap()).unwrap();
        }
        w.finish().unwrap();
        positions
    }

    /// Every record comes back in order with its position and result and the score of a
    /// fresh search at the new depth (White's view), whatever the thread count; the output
    /// is never written over.
    #[test]
    fn relabelled_scores_are_fresh_searches_and_the_rest_is_kept() {
        let (input, out1, out2) = (temp("in"), temp("out1"), temp("out2"));
        let _ = [&input, &out1, &out2].map(std::fs::remove_file);
        let positions = write_input(&input);
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let cfg = |threads| RelabelConfig {
            limits: limits.clone(),
            threads,
            hash_mb: 1,
            hand_crafted: false,
        };
        let mut calls = 0;
        let s1 = relabel(&input, &out1, &cfg(1), &mut |done, total| {
            calls += 1;
            assert_eq!((done, total), (3, 3));
        })
        .unwrap();
        assert_eq!((s1.records, s1.written, s1.dropped, calls), (3, 3, 0, 1));
        relabel(&input, &out2, &cfg(3), &mut |_, _| {}).unwrap();
        assert_eq!(std::fs::read(&out1).unwrap(), std::fs::read(&out2).unwrap());
        let before: Vec<PackedRecord> = PackedReader::new(File::open(&input).unwrap())
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let after: Vec<PackedRecord> = PackedReader::new(File::open(&out1).unwrap())
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let mut searcher = worker_searcher(1, false);
        for ((old, new), pos) in before.iter().zip(&after).zip(&positions) {
            let (p_old, _, r_old) = old.decode().unwrap();
            let (p_new, score, r_new) = new.decode().unwrap();
            assert_eq!((p_new.to_fen(), r_new), (p_old.to_fen(), r_old));
            searcher.clear();
            let fresh = search_move(
                &mut searcher,
                &Game::new(*pos),
                &limits,
                &SearchControl::new(),
                &mut |_| {},
            )
            .unwrap();
            assert_eq!(
                i32::from(score),
                fresh.score.clamp(i16::MIN.into(), i16::MAX.into()),
                "{}",
                pos.to_fen()
            );
        }
        assert!(relabel(&input, &out1, &cfg(1), &mut |_, _| {})
            .unwrap_err()
            .to_string()
            .contains("refusing"));
        // A damaged input names the record and its byte offset.
        let mut bytes = std::fs::read(&input).unwrap();
        let last = bytes.len() - 32;
        bytes[last..last + 8].copy_from_slice(&[0xFF; 8]);
        std::fs::write(&input, &bytes).unwrap();
        let err = relabel(&input, &out2.with_extension("x"), &cfg(1), &mut |_, _| {})
            .unwrap_err()
            .to_string();
        assert!(err.contains("record 2 at byte"), "{err}");
        let _ = [&input, &out1, &out2].map(std::fs::remove_file);
    }
}
