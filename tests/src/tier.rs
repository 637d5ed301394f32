//! Test tiers. The default tier (`cargo test --workspace`, the README's test command) checks
//! every rule and behaviour on a budget that keeps the run to a few minutes; the full tier
//! (`cargo test --workspace -- --ignored`, which CI runs after the default tier) checks the
//! rest: the deep perft counts, the long random walks, the long runs.
//! A suite split between the tiers checks each of its cases in exactly one of them.

/// Perft counts of at most this many leaves belong to the default tier, larger ones to the full tier.
pub const QUICK_LEAVES: u64 = 2_000_000;

/// The part of a suite that a test checks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Tier {
    /// The default tier: cheap cases.
    Quick,
    /// The full tier: the expensive cases (tests marked `#[ignore]`).
    Full,
}

impl Tier {
    /// Whether a perft count of `leaves` leaves is checked in this tier.
    pub fn holds_perft(self, leaves: u64) -> bool {
        (leaves <= QUICK_LEAVES) == (self == Tier::Quick)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_count_belongs_to_exactly_one_tier() {
        for leaves in [0, 1, QUICK_LEAVES - 1, QUICK_LEAVES, QUICK_LEAVES + 1, u64::MAX] {
            assert_ne!(
                Tier::Quick.holds_perft(leaves),
                Tier::Full.holds_perft(leaves),
                "{leaves}"
            );
        }
        assert!(Tier::Quick.holds_perft(QUICK_LEAVES));
        assert!(Tier::Full.holds_perft(QUICK_LEAVES + 1));
    }
}
