//! Seeded random walks through games of every variant (and Chess960 and the en passant modes),
//! comparing at every ply the engine's legal moves (wide form) with the independent variant
//! reference (`vorpal_tests::variant_reference`), and checking the engine's own invariants:
//! the generator agrees with `is_legal` and with the noisy/quiet split, every child passes
//! `check_consistency`, the FEN round-trips, and UCI (automatic form) and SAN parse back.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use vorpal_engine::{EnPassant, GenType, MoveList, MoveStyle, Position, Rules, Variant};
use vorpal_tests::variant_reference::{RefRules, VPos};

/// The reference rules for engine rules.
fn reference_rules(rules: Rules) -> RefRules {
    RefRules::from_names(rules.variant.name(), rules.en_passant.name(), rules.chess960).unwrap()
}

fn engine_moves(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves().iter().map(|&m| pos.move_to_wide(m)).collect();
    v.sort();
    v
}

/// Checks one position against the reference and its own invariants; returns its moves.
fn check(pos: &Position, reference: &VPos) -> MoveList {
    let fen = pos.to_fen();
    let moves = pos.legal_moves();
    assert_eq!(
        engine_moves(pos),
        reference.legal_moves(),
        "move lists differ in {fen} ({:?})",
        pos.rules()
    );
    assert_eq!(pos.in_check(), reference.in_check(), "check differs in {fen}");
    let (mut noisy, mut quiet) = (MoveList::new(), MoveList::new());
    pos.generate(GenType::Noisy, &mut noisy);
    pos.generate(GenType::Quiet, &mut quiet);
    assert_eq!(noisy.len() + quiet.len(), moves.len(), "{fen}");
    let back = Position::from_fen(&fen, pos.rules()).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(back, *pos, "FEN round trip of {fen}");
    for &mv in &moves {
        assert!(pos.is_legal(mv), "is_legal rejects {mv:?} in {fen}");
        assert!(noisy.contains(&mv) == mv.is_noisy() && quiet.contains(&mv) != mv.is_noisy());
        let child = pos.after(mv);
        assert_eq!(child.check_consistency(), Ok(()), "{fen} {mv:?}");
        let auto = pos.move_to_text(mv, MoveStyle::Auto);
        assert_eq!(pos.parse_uci(&auto), Ok(mv), "UCI {auto} in {fen}");
        let wide = pos.move_to_text(mv, MoveStyle::Wide);
        assert_eq!(pos.parse_uci(&wide), Ok(mv), "wide {wide} in {fen}");
        let san = pos.move_to_san(mv);
        assert_eq!(pos.parse_san(&san), Ok(mv), "SAN {san} in {fen}");
    }
    moves
}

/// Plays `plies` random plies under `rules` from the start (restarting at the end of a game or
/// after 120 plies); returns the number of positions checked.
fn walk(rules: Rules, seed: u64, plies: usize) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    let start = |rng: &mut StdRng| match rules.variant.chess960_fen(rng.gen_range(0..960)) {
        Some(fen) if rules.chess960 => fen,
        _ => rules.variant.start_fen().to_string(),
    };
    let mut fen = start(&mut rng);
    let mut pos = Position::from_fen(&fen, rules).unwrap();
    let mut reference = VPos::from_fen(&fen, reference_rules(rules)).unwrap();
    let mut game_plies = 0;
    for _ in 0..plies {
        let moves = check(&pos, &reference);
        if moves.is_empty() || game_plies >= 120 || pos.halfmove_clock() >= 100 {
            fen = start(&mut rng);
            pos = Position::from_fen(&fen, rules).unwrap();
            reference = VPos::from_fen(&fen, reference_rules(rules)).unwrap();
            game_plies = 0;
            continue;
        }
        let mv = moves[rng.gen_range(0..moves.len())];
        let wide = pos.move_to_wide(mv);
        reference = reference
            .play(&wide)
            .unwrap_or_else(|e| panic!("{e} in {}", pos.to_fen()));
        pos = pos.after(mv);
        game_plies += 1;
    }
    plies
}

/// Every rule set a variant walk covers: each variant with each en passant mode, and Chess960
/// where the variant castles.
fn rule_sets() -> Vec<Rules> {
    let mut jobs = Vec::new();
    for variant in Variant::ALL {
        for ep in EnPassant::ALL {
            for chess960 in [false, true] {
                if chess960 && !variant.has_castling() {
                    continue;
                }
                jobs.push(Rules::for_variant(variant).with_ep(ep).with_chess960(chess960));
            }
        }
    }
    jobs
}

/// Walks `plies` plies under every rule set, seeded by `seed`; returns the positions checked.
fn walk_every_rule_set(seed: u64, plies: usize) -> usize {
    let jobs = rule_sets();
    let total: usize = jobs
        .par_iter()
        .enumerate()
        .map(|(i, &rules)| walk(rules, seed + i as u64, plies))
        .sum();
    assert!(total >= 30 * plies);
    total
}

#[test]
fn every_variant_agrees_with_the_reference_along_random_games() {
    walk_every_rule_set(0x5EED_7A41, 150);
}

#[test]
#[ignore = "full tier: long random walks"]
fn every_variant_agrees_with_the_reference_along_long_random_games() {
    walk_every_rule_set(0x5EED_9B00, 400);
}
