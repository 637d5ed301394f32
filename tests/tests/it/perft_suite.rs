//! The reference perft suites of `shared/data`: every position at every depth it gives.

use vorpal_engine::{perft, EnPassant, Position, Rules};
use vorpal_tests::data::{perft_cases, tsv_rows};
use vorpal_tests::tier::Tier;

/// Checks every count of `perft.epd` that belongs to `tier`; returns how many it checked.
fn perft_epd_counts(tier: Tier) -> usize {
    let cases = perft_cases();
    assert!(cases.len() >= 22, "perft.epd should hold the reference positions");
    let mut checked = 0;
    for case in &cases {
        let pos = Position::from_fen(&case.fen, Rules::default()).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        for &(depth, expected) in case.counts.iter().filter(|(_, n)| tier.holds_perft(*n)) {
            let got = perft::perft_parallel(&pos, depth);
            assert_eq!(got, expected, "{} depth {depth}: {}", case.name, case.fen);
            checked += 1;
        }
    }
    checked
}

#[test]
fn perft_epd_every_position_shallow_depths() {
    assert!(perft_epd_counts(Tier::Quick) >= 98);
}

#[test]
#[ignore = "full tier: 1.3 billion leaves"]
fn perft_epd_every_position_deep_depths() {
    assert!(perft_epd_counts(Tier::Full) >= 29);
}

/// Checks every count of `perft-ep.tsv` that belongs to `tier`; returns how many it checked.
fn perft_en_passant_counts(tier: Tier) -> usize {
    let rows = tsv_rows("perft-ep.tsv");
    assert!(rows.len() > 100);
    let mut checked = 0;
    for row in rows
        .iter()
        .filter(|row| tier.holds_perft(row["nodes"].parse().unwrap()))
    {
        let mode: EnPassant = row["mode"].parse().unwrap();
        let pos = Position::from_fen(&row["fen"], Rules::with_en_passant(mode)).unwrap();
        let depth: u32 = row["depth"].parse().unwrap();
        let expected: u64 = row["nodes"].parse().unwrap();
        assert_eq!(
            perft::perft_parallel(&pos, depth),
            expected,
            "{} mode {mode} depth {depth}",
            row["name"]
        );
        checked += 1;
    }
    checked
}

#[test]
fn perft_with_en_passant_options_shallow_depths() {
    assert!(perft_en_passant_counts(Tier::Quick) >= 250);
}

#[test]
#[ignore = "full tier: 0.9 billion leaves"]
fn perft_with_en_passant_options_deep_depths() {
    assert!(perft_en_passant_counts(Tier::Full) >= 53);
}

#[test]
fn legal_move_lists_exactly() {
    let rows = tsv_rows("legal.tsv");
    assert!(rows.len() >= 17);
    for row in &rows {
        let pos = Position::from_fen(&row["fen"], Rules::default()).unwrap();
        let mut got: Vec<String> = pos.legal_moves().iter().map(|&m| pos.move_to_uci(m)).collect();
        got.sort();
        let mut expected: Vec<String> = row["moves"].split_whitespace().map(str::to_string).collect();
        expected.sort();
        assert_eq!(got, expected, "{}", row["name"]);
        assert_eq!(got.len(), row["count"].parse::<usize>().unwrap(), "{}", row["name"]);
    }
}

#[test]
fn divide_sums_to_perft_and_parallel_agrees() {
    let pos = Position::startpos();
    let total: u64 = perft::divide(&pos, 4).iter().map(|(_, n)| n).sum();
    assert_eq!(total, 219_236);
    let total: u64 = perft::divide_parallel(&pos, 4).iter().map(|(_, n)| n).sum();
    assert_eq!(total, 219_236);
    assert_eq!(perft::perft_parallel(&pos, 5), perft::perft(&pos, 5));
}
