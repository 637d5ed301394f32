//! The arbiter referees every variant (docs/rules.md §3) and Chess960: on seeded random games of each,
//! the move texts it accepts (every from-to text in every fourth position, the generated moves'
//! texts in the others) are exactly the legal moves of the independent
//! variant reference generator (`vorpal_tests::variant_reference`), the texts engines send
//! (`move_to_uci`, automatically wide where the plain form is ambiguous) are accepted, games end
//! with the verdict the reference implies, and relaying moves as text through the arbiter gives
//! the perft counts of `variants.epd`.

use crate::common::arbiter_perft;
use rayon::prelude::*;
use std::collections::BTreeSet;
use vorpal_client::arbiter::Arbiter;
use vorpal_engine::{BoardId, EnPassant, EndReason, PieceKind, Position, Rules, Square, Variant};
use vorpal_tests::variant_data::variant_cases;
use vorpal_tests::variant_reference::{RefRules, VPos};
use vorpal_tuning::matches::openings::{chess960_start, SplitMix64};

/// Wide cell name: files a-h are board A, i-p board B, q-x board C.
fn cell(board: BoardId, sq: Square) -> String {
    let file = (b'a' + 8 * board as u8 + sq.file()) as char;
    format!("{file}{}", sq.rank() + 1)
}

/// Every wide text (from a cell holding a piece of the side to move, to any cell, with every
/// promotion letter where a pawn could promote) that the arbiter accepts, in wide form.
fn accepted_wide(a: &Arbiter) -> Vec<String> {
    let pos = a.position();
    let boards = &BoardId::ALL[..pos.rules().boards()];
    let mut out = BTreeSet::new();
    for &fb in boards {
        for from in Square::all() {
            let Some(piece) = pos.piece_on(fb, from).filter(|p| p.color() == pos.side_to_move()) else {
                continue;
            };
            let pawn = piece.kind() == PieceKind::Pawn;
            for &tb in boards {
                for to in Square::all() {
                    // Promotion letters on a pawn's move to the last rank; elsewhere they are
                    // rejected as unparsable or illegal like any other text.
                    let promos: &[&str] = if pawn && (to.rank() == 0 || to.rank() == 7) {
                        &["", "q", "r", "b", "n"]
                    } else {
                        &[""]
                    };
                    for promo in promos {
                        let text = format!("{}{}{promo}", cell(fb, from), cell(tb, to));
                        if let Ok(mv) = a.check(&text) {
                            out.insert(pos.move_to_wide(mv));
                        }
                    }
                }
            }
        }
    }
    out.into_iter().collect()
}

fn ref_rules(rules: Rules) -> RefRules {
    RefRules::from_names(rules.variant.name(), rules.en_passant.name(), rules.chess960).unwrap()
}

/// Plays the seeded random games numbered `games` under `rules` through the arbiter and checks
/// every position against the reference generator; returns the number of positions checked.
fn random_games(rules: Rules, games: std::ops::Range<u64>, max_plies: usize) -> usize {
    let mut checked = 0;
    for g in games {
        let mut rng = SplitMix64::new(0xA11CE ^ (g * 7919) ^ rules.variant as u64);
        let start = if rules.is_chess960() {
            chess960_start(rules, rng.below(960) as u32).unwrap()
        } else {
            Position::start(rules)
        };
        let mut reference = VPos::from_fen(&start.to_fen(), ref_rules(rules)).unwrap();
        let mut a = Arbiter::new(start);
        for ply in 0..max_plies {
            let fen = a.position().to_fen();
            let expected = reference.legal_moves();
            // Every fourth position: every from-to text; otherwise the generated moves' texts.
            let accepted = if ply % 4 == 0 {
                accepted_wide(&a)
            } else {
                let pos = a.position();
                let mut texts: Vec<String> = pos.legal_moves().iter().map(|&m| pos.move_to_wide(m)).collect();
                texts.retain(|t| a.check(t).is_ok());
                texts.sort();
                texts
            };
            assert_eq!(accepted, expected, "{} {fen}", rules.variant.name());
            checked += 1;
            if let Some((_, reason)) = a.outcome() {
                match reason {
                    EndReason::Checkmate => assert!(expected.is_empty() && reference.in_check(), "{fen}"),
                    EndReason::Stalemate => assert!(expected.is_empty() && !reference.in_check(), "{fen}"),
                    _ => assert!(!expected.is_empty(), "{fen}: {}", reason.text()),
                }
                break;
            }
            assert!(!expected.is_empty(), "no legal move but no verdict in {fen}");
            let legal = a.position().legal_moves();
            let mv = legal[rng.below(legal.len())];
            // Relay the text an engine would send; the arbiter must take it as the same move.
            let text = a.position().move_to_uci(mv);
            let wide = a.position().move_to_wide(mv);
            assert_eq!(a.play_text(&text).unwrap(), mv, "{text} in {fen}");
            reference = reference.play(&wide).unwrap();
        }
    }
    checked
}

fn all_rules() -> Vec<Rules> {
    let mut out: Vec<Rules> = Variant::ALL.iter().map(|&v| Rules::for_variant(v)).collect();
    for v in Variant::ALL {
        if v.has_castling() {
            out.push(Rules::for_variant(v).with_chess960(true));
        }
        if v.supports_en_passant() {
            out.push(Rules::for_variant(v).with_ep(EnPassant::Normal));
            out.push(Rules::for_variant(v).with_ep(EnPassant::Double));
        }
    }
    out
}

#[test]
fn arbiter_agrees_with_the_reference_on_random_games_of_every_variant() {
    all_rules().into_par_iter().for_each(|rules| {
        let n = random_games(rules, 0..1, 100);
        assert!(n > 20, "{rules:?}: only {n} positions");
    });
}

#[test]
#[ignore = "full tier: more random games"]
fn arbiter_agrees_with_the_reference_on_more_random_games_of_every_variant() {
    all_rules().into_par_iter().for_each(|rules| {
        let n = random_games(rules, 1..4, 100);
        assert!(n > 60, "{rules:?}: only {n} positions");
    });
}

#[test]
fn perft_through_the_arbiter_matches_the_variant_suite() {
    let cases = variant_cases();
    assert!(cases.len() >= 21, "variants.epd has {} cases", cases.len());
    for case in cases {
        let rules = Rules::for_variant(case.variant.parse().unwrap())
            .with_ep(case.ep.parse().unwrap())
            .with_chess960(case.chess960);
        let a = Arbiter::new(Position::from_fen(&case.fen, rules).unwrap());
        for &(depth, nodes) in case.counts.iter().filter(|&&(_, n)| n <= 60_000) {
            assert_eq!(arbiter_perft(&a, depth), nodes, "{} depth {depth}", case.name);
        }
    }
}
