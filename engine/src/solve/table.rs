//! The proof table: proven facts about positions, shared by the threads of one solve.
//!
//! Each entry is one `AtomicU64`: the key's upper 48 bits as a tag and a 16-bit payload whose
//! meaning the prover decides (bounds of a proven result for direct and self play, a set of
//! failing lengths for help play). The index takes the key's low bits, and the table has at
//! least 2^16 entries, so tag and index together hold the whole 64-bit key: an entry is used
//! only for the position it was written for (barring a 64-bit key collision). Only proven
//! facts are stored, so a lost or overwritten entry costs time, never a solution.

use std::sync::atomic::{AtomicU64, Ordering};

const TAG_MASK: u64 = !0xFFFF;

/// A fixed-size table of proven facts, safe to share between threads.
pub(crate) struct ProofTable {
    entries: Vec<AtomicU64>,
    mask: u64,
}

impl ProofTable {
    /// A table of `2^bits` entries (`bits` is clamped to 16..=28).
    pub(crate) fn new(bits: u32) -> ProofTable {
        let bits = bits.clamp(16, 28);
        let entries = (0..1u64 << bits).map(|_| AtomicU64::new(0)).collect();
        ProofTable {
            entries,
            mask: (1u64 << bits) - 1,
        }
    }

    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.entries[(key & self.mask) as usize]
    }

    /// The payload stored for `key`, if any.
    pub(crate) fn probe(&self, key: u64) -> Option<u16> {
        let entry = self.slot(key).load(Ordering::Relaxed);
        // A zero entry is empty; a real entry always has a non-zero payload.
        (entry != 0 && entry & TAG_MASK == key & TAG_MASK).then_some(entry as u16)
    }

    /// Stores `merge(old payload)` for `key` (replacing another key's entry). `merge` must
    /// return a non-zero payload.
    pub(crate) fn update(&self, key: u64, merge: impl Fn(Option<u16>) -> u16) {
        let old = self.probe(key);
        let payload = merge(old);
        if old != Some(payload) {
            self.slot(key)
                .store((key & TAG_MASK) | u64::from(payload), Ordering::Relaxed);
        }
    }

    /// Failure memo: true when `key` was proven to have no line of `length` (one bit a length).
    pub(crate) fn failed(&self, key: u64, length: u32) -> bool {
        self.probe(key).is_some_and(|failed| failed & (1 << length) != 0)
    }

    /// Failure memo: records that `key` has no line of `length`.
    pub(crate) fn mark_failed(&self, key: u64, length: u32) {
        self.update(key, |old| old.unwrap_or(0) | 1 << length);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_merges_per_key() {
        let table = ProofTable::new(16);
        let key = 0xDEAD_BEEF_0000_1234;
        assert_eq!(table.probe(key), None);
        table.update(key, |old| old.unwrap_or(0) | 1);
        table.update(key, |old| old.unwrap_or(0) | 4);
        assert_eq!(table.probe(key), Some(5));
        // Same index, other tag: not found, and it replaces the entry.
        let other = 0x1111_2222_0000_1234;
        assert_eq!(table.probe(other), None);
        table.update(other, |_| 2);
        assert_eq!(table.probe(other), Some(2));
        assert_eq!(table.probe(key), None);
    }
}
