//! Transposition table shared by all search threads without locks.
//!
//! Each entry is two atomic words: `key ^ data` and `data`. A reader accepts an entry only
//! when the two words still combine to its key, so a torn write (two threads storing at
//! once) is seen as a miss instead of as wrong data. Moves read from the table are checked
//! with `Position::is_legal` before use anyway.
//!
//! Position keys do not encode the rules (the start positions of several variants share a
//! key), so the table mixes a key of the rules in use into every key it stores and probes:
//! results under one rule set are never seen under another.

use crate::error::OptionsError;
use crate::rules::Rules;
use crate::search::{MATE_BOUND, MAX_PLY};
use crate::types::Move;
use std::sync::atomic::{AtomicU64, Ordering};

/// Kind of bound a stored score is.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum TtBound {
    /// No entry.
    None = 0,
    /// The score is an upper bound (fail low).
    Upper = 1,
    /// The score is a lower bound (fail high).
    Lower = 2,
    /// Exact score.
    Exact = 3,
}

impl TtBound {
    /// The bound a fail-soft search result `best` is, for the window (`alpha`, `beta`).
    pub fn classify(best: i32, alpha: i32, beta: i32) -> TtBound {
        if best >= beta {
            TtBound::Lower
        } else if best > alpha {
            TtBound::Exact
        } else {
            TtBound::Upper
        }
    }
}

/// A decoded table entry.
#[derive(Copy, Clone, Debug)]
pub struct TtEntry {
    /// Best or refutation move (unchecked: may be illegal after a collision).
    pub mv: Move,
    /// Score, already converted to be relative to the probing node.
    pub score: i32,
    /// Static evaluation of the position.
    pub eval: i32,
    /// Search depth of the stored result.
    pub depth: i32,
    /// Bound kind.
    pub bound: TtBound,
}

const ENTRIES_PER_BUCKET: usize = 4;

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// Four entries in one 64-byte cache line: a probe touches one line, not two.
#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    slots: [Slot; ENTRIES_PER_BUCKET],
}

/// Packs an entry: move 21 bits, score 16, eval 16, depth 6, bound 2, age 3.
fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: TtBound, age: u8) -> u64 {
    (mv.raw() as u64 & 0x1F_FFFF)
        | ((score as i16 as u16 as u64) << 21)
        | ((eval as i16 as u16 as u64) << 37)
        | ((depth.clamp(0, 63) as u64) << 53)
        | ((bound as u64) << 59)
        | ((age as u64 & 7) << 61)
}

fn unpack(data: u64) -> (Move, i32, i32, i32, TtBound, u8) {
    let bound = match (data >> 59) & 3 {
        1 => TtBound::Upper,
        2 => TtBound::Lower,
        3 => TtBound::Exact,
        _ => TtBound::None,
    };
    (
        Move::from_raw((data & 0x1F_FFFF) as u32),
        ((data >> 21) & 0xFFFF) as u16 as i16 as i32,
        ((data >> 37) & 0xFFFF) as u16 as i16 as i32,
        ((data >> 53) & 63) as i32,
        bound,
        ((data >> 61) & 7) as u8,
    )
}

/// Mate scores are stored relative to the node (distance from it), not to the root.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// splitmix64 finaliser: spreads a small number over all 64 bits.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The key of a rule set: variant, en passant mode and Chess960 flag (zero for the default
/// rules, so standard Alice keys are the positions' own).
pub fn rules_key(rules: Rules) -> u64 {
    let code = |r: Rules| (r.variant as u64) << 8 | (r.en_passant as u64) << 1 | r.chess960 as u64;
    mix(code(rules)) ^ mix(code(Rules::default()))
}

/// The shared transposition table.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    age: AtomicU64,
    /// [`rules_key`] of the rules searched now, mixed into every key.
    rules_key: u64,
}

impl TranspositionTable {
    /// A table of `mb` megabytes (at least one bucket). Fails instead of aborting when the
    /// memory cannot be had.
    pub fn new(mb: usize) -> Result<TranspositionTable, OptionsError> {
        let bytes = mb.max(1).checked_mul(1 << 20).ok_or("hash size overflows")?;
        let len = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(len)
            .map_err(|_| format!("cannot allocate {mb} MB for the hash table"))?;
        buckets.resize_with(len, Bucket::default);
        Ok(TranspositionTable {
            buckets,
            age: AtomicU64::new(0),
            rules_key: 0,
        })
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        for slot in self.buckets.iter_mut().flat_map(|b| b.slots.iter_mut()) {
            *slot.check.get_mut() = 0;
            *slot.data.get_mut() = 0;
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Sets the rules of the coming searches: entries stored under other rules become misses.
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules_key = rules_key(rules);
    }

    /// Starts a new search generation (older entries become preferred victims).
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn current_age(&self) -> u8 {
        (self.age.load(Ordering::Relaxed) & 7) as u8
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &[Slot; ENTRIES_PER_BUCKET] {
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index].slots
    }

    /// Asks the processor to fetch the bucket of `key` into the cache, so that the probe of
    /// the position a moment later finds it there (a hint; nothing changes).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        crate::nnue::simd::prefetch(self.bucket(key ^ self.rules_key));
    }

    /// Looks up `key` at distance `ply` from the root.
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtEntry> {
        let key = key ^ self.rules_key;
        for slot in self.bucket(key) {
            let data = slot.data.load(Ordering::Relaxed);
            if slot.check.load(Ordering::Relaxed) ^ data == key && data != 0 {
                let (mv, score, eval, depth, bound, _) = unpack(data);
                if bound == TtBound::None {
                    return None;
                }
                return Some(TtEntry {
                    mv,
                    score: score_from_tt(score, ply),
                    eval,
                    depth,
                    bound,
                });
            }
        }
        None
    }

    /// Stores a result. Replaces the same position's entry (keeping its move when the new
    /// result has none) unless that entry is worth more (see below), else the entry of least
    /// value (shallow and old).
    #[allow(clippy::too_many_arguments)]
    pub fn store(&self, key: u64, ply: usize, mv: Move, score: i32, eval: i32, depth: i32, bound: TtBound) {
        debug_assert!(ply <= MAX_PLY);
        let key = key ^ self.rules_key;
        let age = self.current_age();
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, slot) in bucket.iter().enumerate() {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if check ^ data == key || data == 0 {
                victim = i;
                if check ^ data == key {
                    let (old_mv, _, _, old_depth, old_bound, _) = unpack(data);
                    // A quiescence result (depth 0) never replaces a searched one of the same
                    // position, and a deeper exact result stays unless this one is exact.
                    let quiescence_over_search = depth == 0 && old_depth > 0;
                    let over_deeper_exact =
                        bound != TtBound::Exact && old_depth > depth + 3 && old_bound == TtBound::Exact;
                    if quiescence_over_search || over_deeper_exact {
                        return;
                    }
                    let mv = if mv.is_none() { old_mv } else { mv };
                    self.write(slot, key, mv, score, eval, depth, bound, ply, age);
                    return;
                }
                break;
            }
            let (_, _, _, d, _, a) = unpack(data);
            let age_gap = (age.wrapping_sub(a) & 7) as i32;
            let value = d - 8 * age_gap;
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        self.write(&bucket[victim], key, mv, score, eval, depth, bound, ply, age);
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn write(
        &self,
        slot: &Slot,
        key: u64,
        mv: Move,
        score: i32,
        eval: i32,
        depth: i32,
        bound: TtBound,
        ply: usize,
        age: u8,
    ) {
        let data = pack(mv, score_to_tt(score, ply), eval, depth, bound, age);
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Per-mille fill of the table among the first 1000 entries, counting this generation.
    pub fn hashfull(&self) -> u32 {
        let age = self.current_age();
        let entries = self.buckets.len() * ENTRIES_PER_BUCKET;
        self.buckets
            .iter()
            .flat_map(|b| b.slots.iter())
            .take(1000)
            .filter(|s| {
                let data = s.data.load(Ordering::Relaxed);
                data != 0 && unpack(data).5 == age
            })
            .count() as u32
            * 1000
            / entries.min(1000) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;
    use crate::types::{BoardId, MoveKind, Square};

    #[test]
    fn store_and_probe_round_trip_with_mate_adjustment() {
        let tt = TranspositionTable::new(1).unwrap();
        let mv = Move::new(
            Square::new(12),
            BoardId::A,
            Square::new(28),
            BoardId::B,
            MoveKind::DoublePush,
            false,
        );
        tt.store(0xDEAD_BEEF, 3, mv, MATE - 10, -50, 7, TtBound::Exact);
        let e = tt.probe(0xDEAD_BEEF, 5).unwrap();
        assert_eq!(e.mv, mv);
        assert_eq!(e.score, MATE - 12, "mate distance is re-based to the probing ply");
        assert_eq!((e.eval, e.depth, e.bound), (-50, 7, TtBound::Exact));
        assert!(tt.probe(0xDEAD_BEF0, 5).is_none());
    }

    #[test]
    fn negative_scores_survive_packing() {
        let tt = TranspositionTable::new(1).unwrap();
        tt.store(42, 0, Move::NONE, -1234, 777, 0, TtBound::Upper);
        let e = tt.probe(42, 0).unwrap();
        assert_eq!((e.score, e.eval, e.bound), (-1234, 777, TtBound::Upper));
    }

    #[test]
    fn rule_sets_do_not_share_entries() {
        use crate::rules::{EnPassant, Variant};
        use crate::Position;
        let alice = Rules::default();
        let lady = Rules {
            variant: Variant::LadyAlice,
            ..alice
        };
        let key = Position::start(alice).key();
        assert_eq!(
            key,
            Position::start(lady).key(),
            "the position keys alone do not tell them apart"
        );
        let mut tt = TranspositionTable::new(1).unwrap();
        tt.store(key, 0, Move::NONE, 55, 55, 9, TtBound::Exact);
        assert!(tt.probe(key, 0).is_some());
        let others = [
            lady,
            Rules {
                variant: Variant::ODonohue,
                ..alice
            },
            Rules {
                variant: Variant::Alice3,
                ..alice
            },
            Rules {
                en_passant: EnPassant::Normal,
                ..alice
            },
            Rules {
                en_passant: EnPassant::Double,
                ..alice
            },
            Rules {
                chess960: true,
                ..alice
            },
        ];
        for rules in others {
            tt.set_rules(rules);
            assert!(tt.probe(key, 0).is_none(), "{rules:?} sees the standard entry");
        }
        tt.set_rules(alice);
        assert_eq!(tt.probe(key, 0).map(|e| e.score), Some(55));
        let keys: std::collections::HashSet<u64> = others.iter().map(|&r| rules_key(r)).collect();
        assert_eq!(keys.len(), others.len());
        assert_eq!(rules_key(alice), 0);
    }

    #[test]
    fn a_quiescence_store_keeps_a_searched_entry() {
        let tt = TranspositionTable::new(1).unwrap();
        tt.store(77, 0, Move::NONE, 30, 10, 7, TtBound::Lower);
        tt.store(77, 0, Move::NONE, -5, 10, 0, TtBound::Upper);
        let e = tt.probe(77, 0).unwrap();
        assert_eq!((e.depth, e.score, e.bound), (7, 30, TtBound::Lower));
        // Searched results replace each other as before.
        tt.store(77, 0, Move::NONE, 12, 10, 2, TtBound::Upper);
        assert_eq!(tt.probe(77, 0).unwrap().depth, 2);
        // And quiescence results replace quiescence results.
        tt.store(78, 0, Move::NONE, 1, 1, 0, TtBound::Upper);
        tt.store(78, 0, Move::NONE, 2, 1, 0, TtBound::Lower);
        assert_eq!(tt.probe(78, 0).unwrap().score, 2);
    }

    #[test]
    fn buckets_fill_cache_lines() {
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(std::mem::align_of::<Bucket>(), 64);
        let tt = TranspositionTable::new(1).unwrap();
        assert_eq!(tt.buckets.len(), (1 << 20) / 64);
        assert_eq!(tt.buckets.as_ptr() as usize % 64, 0);
    }

    #[test]
    fn huge_allocation_fails_cleanly() {
        assert!(TranspositionTable::new(usize::MAX / 2).is_err());
    }
}
