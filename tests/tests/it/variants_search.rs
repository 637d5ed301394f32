//! Search and evaluation in every variant: searches from the suite positions return legal moves,
//! short self-play games stay legal to the end, the static exchange estimate of the variants
//! without alternating exchanges sees the obvious recaptures, and `is_legal` agrees with the
//! generator over every move encoding (any boards, kinds and capture flags).

use vorpal_engine::eval::{evaluate, EvalParams};
use vorpal_engine::search::{see_ge, Limits, SearchControl, SearchOptions, Searcher};
use vorpal_engine::{BoardId, Game, Move, Position, Rules, Square, Variant};
use vorpal_tests::rules_check::KINDS;
use vorpal_tests::variant_check::{legal_move, vpos};
use vorpal_tests::variant_data::variant_cases;

fn rules_of(case: &vorpal_tests::variant_data::VariantCase) -> Rules {
    Rules::for_variant(case.variant.parse().unwrap())
        .with_ep(case.ep.parse().unwrap())
        .with_chess960(case.chess960)
}

#[test]
fn search_returns_a_legal_move_in_every_suite_position() {
    let mut searcher = Searcher::new(SearchOptions::default());
    for case in variant_cases() {
        let pos = Position::from_fen(&case.fen, rules_of(&case)).unwrap();
        let game = Game::new(pos);
        searcher.clear();
        let result = searcher.search(&game, &Limits::depth(4), &SearchControl::new(), &mut |_| {});
        let best = result
            .best
            .unwrap_or_else(|| panic!("no move in {} {}", case.variant, case.name));
        assert!(pos.is_legal(best), "{} {}: {best:?}", case.variant, case.name);
        let eval = evaluate(&pos, &EvalParams::default());
        assert!(eval.abs() < 5_000, "{} {}: eval {eval}", case.variant, case.name);
    }
}

#[test]
fn short_self_play_games_stay_legal_in_every_variant() {
    let mut searcher = Searcher::new(SearchOptions::default());
    for variant in Variant::ALL {
        let mut game = Game::new(Position::start(Rules::for_variant(variant)));
        searcher.clear();
        for _ in 0..24 {
            if game.outcome().is_some() {
                break;
            }
            let result = searcher.search(&game, &Limits::nodes(3_000), &SearchControl::new(), &mut |_| {});
            let mv = result.best.expect("a move while the game is not over");
            let text = game.position().move_to_uci(mv);
            assert_eq!(game.position().parse_uci(&text), Ok(mv), "{variant}: {text}");
            assert!(
                game.play(mv),
                "{variant}: illegal {text} in {}",
                game.position().to_fen()
            );
        }
        assert!(game.moves().len() >= 10, "{variant}: {} plies", game.moves().len());
    }
}

#[test]
fn search_finds_the_zero_move_escape_and_the_mate_in_duo() {
    // Duo: the only move out of check is the king's zero move.
    let pos = vpos(Variant::Duo, "k3r3/8/8/8/8/8/3P1P2/3RKR2 w - - 0 1");
    let mut searcher = Searcher::new(SearchOptions::default());
    let result = searcher.search(&Game::new(pos), &Limits::depth(3), &SearchControl::new(), &mut |_| {});
    assert_eq!(result.best.map(|m| pos.move_to_uci(m)), Some("e1e1".into()));
}

#[test]
fn exchange_estimate_sees_recaptures_where_exchanges_do_not_alternate() {
    // Three-board Alice: the queen takes a pawn on d5 of A and lands on B or C; a black pawn on
    // e6 of C guards d5 there, nothing guards it on B.
    let pos = vpos(
        Variant::Alice3,
        "4k3/8/8/3p4/8/8/8/3QK3|8/8/8/8/8/8/8/8|8/8/4p3/8/8/8/8/8 w - - 0 1",
    );
    let to_b = legal_move(&pos, "d1l5");
    let to_c = legal_move(&pos, "d1t5");
    assert!(see_ge(&pos, to_b, 100));
    assert!(!see_ge(&pos, to_c, 0));
    // Duo: a knight staying on A next to an enemy piece on the same square of B can be taken by
    // a zero move.
    let pos = vpos(Variant::Duo, "4k3/8/8/8/8/8/8/4K1N1|8/8/8/8/8/5r2/8/8 w - - 0 1");
    let stay = legal_move(&pos, "g1f3");
    assert!(!see_ge(&pos, stay, 0));
    // Where exchanges alternate between two boards (standard Alice) the full model is used.
    let pos = Position::from_fen("4k3/8/4|p3/3n4/8/8/8/3RK3 w - - 0 1", Rules::default()).unwrap();
    assert!(!see_ge(&pos, pos.parse_uci("d1d5").unwrap(), 0));
}

#[test]
fn is_legal_agrees_with_the_generator_over_every_encoding() {
    let cases = variant_cases();
    for variant in Variant::ALL {
        for case in cases.iter().filter(|c| c.variant == variant.name()).take(3) {
            let pos = Position::from_fen(&case.fen, rules_of(case)).unwrap();
            let legal = pos.legal_moves();
            let mut accepted = 0;
            for from in Square::all() {
                if pos.piece_at(from).is_none() && BoardId::ALL.iter().all(|&b| pos.piece_on(b, from).is_none()) {
                    continue;
                }
                for to in Square::all() {
                    for fb in BoardId::ALL {
                        for tb in BoardId::ALL {
                            for kind in KINDS {
                                for capture in [false, true] {
                                    let mv = Move::new(from, fb, to, tb, kind, capture);
                                    let ok = pos.is_legal(mv);
                                    assert_eq!(ok, legal.contains(&mv), "{} {}: {mv:?}", case.variant, case.name);
                                    accepted += ok as usize;
                                }
                            }
                        }
                    }
                }
            }
            assert_eq!(accepted, legal.len(), "{} {}", case.variant, case.name);
        }
    }
}
