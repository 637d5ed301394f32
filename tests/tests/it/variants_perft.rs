//! Perft of every variant (start position and middlegame positions, Chess960 and en passant
//! cases) from `tests/data/variants.epd`, computed by the engine and, independently, by the
//! deliberately simple variant reference generator; both must give the recorded counts (the
//! reference re-checks the counts above 100,000 leaves in the full tier).
//! The engine and the reference also list the same legal moves (wide form) in every case, and
//! in standard Alice the engine's generic generator gives exactly the fast generator's moves.

use vorpal_engine::{perft, Position, Rules};
use vorpal_tests::tier::Tier;
use vorpal_tests::variant_data::{variant_cases, VariantCase};
use vorpal_tests::variant_reference::{self as reference, RefRules, VPos};

fn rules_of(case: &VariantCase) -> Rules {
    Rules::for_variant(case.variant.parse().unwrap())
        .with_ep(case.ep.parse().unwrap())
        .with_chess960(case.chess960)
}

fn reference_of(case: &VariantCase) -> VPos {
    let rules = RefRules::from_names(&case.variant, &case.ep, case.chess960).unwrap();
    VPos::from_fen(&case.fen, rules).unwrap_or_else(|e| panic!("{}: {e}", case.name))
}

#[test]
fn suite_covers_every_variant_with_start_and_two_middlegames_to_depth_4() {
    let cases = variant_cases();
    for variant in vorpal_engine::Variant::ALL {
        let mine: Vec<&VariantCase> = cases.iter().filter(|c| c.variant == variant.name()).collect();
        assert!(mine
            .iter()
            .any(|c| c.fen == Position::start(Rules::for_variant(variant)).to_fen()));
        let deep = mine.iter().filter(|c| c.counts.iter().any(|&(d, _)| d >= 4)).count();
        assert!(deep >= 3, "{variant}: {deep} positions to depth 4");
    }
}

#[test]
fn engine_perft_matches_the_suite() {
    for case in variant_cases() {
        let pos = Position::from_fen(&case.fen, rules_of(&case)).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        assert_eq!(pos.to_fen(), case.fen, "{} {}", case.variant, case.name);
        for &(depth, expected) in &case.counts {
            let got = perft::perft_parallel(&pos, depth);
            assert_eq!(got, expected, "{} {} depth {depth}", case.variant, case.name);
        }
    }
}

#[test]
fn engine_and_reference_list_the_same_moves() {
    for case in variant_cases() {
        let pos = Position::from_fen(&case.fen, rules_of(&case)).unwrap();
        let reference = reference_of(&case);
        let mut mine: Vec<String> = pos.legal_moves().iter().map(|&m| pos.move_to_wide(m)).collect();
        mine.sort();
        assert_eq!(mine, reference.legal_moves(), "{} {}", case.variant, case.name);
    }
}

/// Counts the (slow, generic) reference generator re-checks in the default tier; the larger
/// ones it checks in the full tier. The engine checks every count in the default tier.
const REFERENCE_QUICK_LEAVES: u64 = 100_000;

/// The reference's counts of `tier` for the cases of `variants`.
fn reference_counts(variants: &[&str], tier: Tier) {
    for case in variant_cases()
        .iter()
        .filter(|c| variants.contains(&c.variant.as_str()))
    {
        let pos = reference_of(case);
        for &(depth, expected) in &case.counts {
            if (expected <= REFERENCE_QUICK_LEAVES) != (tier == Tier::Quick) {
                continue;
            }
            let got = reference::perft_parallel(&pos, depth);
            assert_eq!(got, expected, "reference: {} {} depth {depth}", case.variant, case.name);
        }
    }
}

#[test]
fn reference_agrees_alice_and_lookingglass() {
    reference_counts(&["alice", "lookingglass"], Tier::Quick);
}

#[test]
fn reference_agrees_ladyalice_and_odonohue() {
    reference_counts(&["ladyalice", "odonohue"], Tier::Quick);
}

#[test]
fn reference_agrees_duo() {
    reference_counts(&["duo"], Tier::Quick);
}

#[test]
#[ignore = "full tier: the reference's large counts"]
fn reference_agrees_on_the_large_counts() {
    let all = [
        "alice",
        "lookingglass",
        "ladyalice",
        "odonohue",
        "duo",
        "minialice",
        "alice3",
    ];
    reference_counts(&all, Tier::Full);
}

#[test]
fn reference_agrees_minialice_and_alice3() {
    reference_counts(&["minialice", "alice3"], Tier::Quick);
}

/// Sorted moves of both generators of `pos` (the fast one and the generic one).
fn both_generators(pos: &Position) -> (Vec<vorpal_engine::Move>, Vec<vorpal_engine::Move>) {
    let mut fast: Vec<_> = pos.legal_moves().into_iter().collect();
    let mut generic: Vec<_> = pos.generic_legal_moves().into_iter().collect();
    fast.sort_by_key(|m| m.raw());
    generic.sort_by_key(|m| m.raw());
    (fast, generic)
}

#[test]
fn generic_generator_agrees_with_the_fast_one_in_standard_alice() {
    // Every reference position of standard Alice (and the en passant suite under its mode), and
    // the Alice, Looking-glass and Chess960 cases of the variant suite, two plies deep.
    let mut positions: Vec<Position> = vorpal_tests::data::perft_cases()
        .iter()
        .map(|c| Position::from_fen(&c.fen, Rules::default()).unwrap())
        .collect();
    for row in vorpal_tests::data::tsv_rows("perft-ep.tsv") {
        let rules = Rules::with_en_passant(row["mode"].parse().unwrap());
        positions.push(Position::from_fen(&row["fen"], rules).unwrap());
    }
    for case in variant_cases()
        .iter()
        .filter(|c| c.variant == "alice" || c.variant == "lookingglass")
    {
        positions.push(Position::from_fen(&case.fen, rules_of(case)).unwrap());
    }
    let mut checked = 0;
    for pos in &positions {
        let (fast, generic) = both_generators(pos);
        assert_eq!(fast, generic, "{}", pos.to_fen());
        for &mv in &fast {
            let child = pos.after(mv);
            let (fast, generic) = both_generators(&child);
            assert_eq!(fast, generic, "{}", child.to_fen());
            checked += 1;
        }
    }
    assert!(checked > 1_000, "{checked}");
}
