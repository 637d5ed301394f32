//! The match arbiter agrees with the rules: on every position of the reference data (legal move
//! lists, perft suites with and without en passant) the move texts the arbiter accepts are
//! exactly the legal moves of the independent reference generator, perft through the arbiter's
//! text interface gives the published counts, and on thousands of random-game positions the
//! arbiter's end-of-game verdicts equal verdicts computed independently (reference generator
//! for mate and stalemate, FEN fields for repetition, the fifty-move rule and bare kings).

use crate::common::arbiter_perft;
use std::collections::BTreeSet;
use vorpal_client::arbiter::Arbiter;
use vorpal_engine::{EnPassant, EndReason, Position, Rules, Square};
use vorpal_tests::data::{perft_cases, tsv_rows};
use vorpal_tests::reference::{EpMode, RefPosition};
use vorpal_tuning::matches::openings::SplitMix64;

fn arbiter(fen: &str, rules: Rules) -> Arbiter {
    Arbiter::new(Position::from_fen(fen, rules).unwrap_or_else(|e| panic!("{fen}: {e}")))
}

fn ep_mode(rules: Rules) -> EpMode {
    match rules.en_passant {
        EnPassant::Off => EpMode::Off,
        EnPassant::Normal => EpMode::Normal,
        EnPassant::Double => EpMode::Double,
    }
}

/// Texts the arbiter accepts among every from-to (and promotion) text starting on a square of
/// the side to move: a cheaper, still complete, variant of `Arbiter::accepted_moves`.
fn accepted_from_own_squares(a: &Arbiter) -> Vec<String> {
    let pos = a.position();
    let mut out = BTreeSet::new();
    for from in Square::all() {
        if !pos.piece_at(from).is_some_and(|(p, _)| p.color() == pos.side_to_move()) {
            continue;
        }
        for to in Square::all() {
            // Promotion letters only where a promotion can land (elsewhere they are rejected
            // like any other unparsable text; `accepted_moves` checks those too).
            let promos: &[&str] = if to.rank() == 0 || to.rank() == 7 {
                &["", "q", "r", "b", "n"]
            } else {
                &[""]
            };
            for promo in promos {
                let text = format!("{from}{to}{promo}");
                if let Ok(mv) = a.check(&text) {
                    out.insert(pos.move_to_uci(mv));
                }
            }
        }
    }
    out.into_iter().collect()
}

#[test]
fn legal_tsv_move_lists_are_exactly_what_the_arbiter_accepts() {
    let rows = tsv_rows("legal.tsv");
    assert!(!rows.is_empty());
    for row in rows {
        let (name, fen) = (&row["name"], &row["fen"]);
        let expected: Vec<String> = row["moves"].split_whitespace().map(String::from).collect();
        let a = arbiter(fen, Rules::default());
        assert_eq!(a.accepted_moves(), expected, "{name}");
        let reference = RefPosition::from_fen(fen).unwrap();
        assert_eq!(reference.legal_moves(EpMode::Off), expected, "{name} (reference)");
        match a.outcome() {
            Some((_, EndReason::Checkmate)) => assert!(expected.is_empty() && reference.in_check(), "{name}"),
            Some((_, EndReason::Stalemate)) => assert!(expected.is_empty() && !reference.in_check(), "{name}"),
            _ => assert!(!expected.is_empty(), "{name}: no legal move but no verdict"),
        }
    }
}

#[test]
fn perft_epd_positions_agree_through_the_arbiter() {
    let cases = perft_cases();
    assert!(cases.len() >= 20);
    for case in cases {
        let a = arbiter(&case.fen, Rules::default());
        let reference = RefPosition::from_fen(&case.fen).unwrap();
        assert_eq!(a.accepted_moves(), reference.legal_moves(EpMode::Off), "{}", case.name);
        // Every child: the accepted set equals the reference's.
        for text in reference.legal_moves(EpMode::Off) {
            let mut child = a.clone();
            child.play_text(&text).unwrap();
            let ref_child = reference.play(&text, EpMode::Off).unwrap();
            assert_eq!(
                accepted_from_own_squares(&child),
                ref_child.legal_moves(EpMode::Off),
                "{} after {text}",
                case.name
            );
        }
        for &(depth, nodes) in case.counts.iter().filter(|&&(d, n)| d <= 3 && n <= 300_000) {
            assert_eq!(arbiter_perft(&a, depth), nodes, "{} depth {depth}", case.name);
        }
    }
}

#[test]
fn en_passant_suite_agrees_through_the_arbiter() {
    let mut checked = 0;
    for row in tsv_rows("perft-ep.tsv") {
        let mode: EnPassant = row["mode"].parse().unwrap();
        let rules = Rules::with_en_passant(mode);
        let depth: u32 = row["depth"].parse().unwrap();
        let nodes: u64 = row["nodes"].parse().unwrap();
        let a = arbiter(&row["fen"], rules);
        if depth == 1 {
            let reference = RefPosition::from_fen(&row["fen"]).unwrap();
            assert_eq!(
                a.accepted_moves(),
                reference.legal_moves(ep_mode(rules)),
                "{}",
                row["name"]
            );
        }
        if nodes <= 100_000 {
            assert_eq!(arbiter_perft(&a, depth), nodes, "{} {mode} depth {depth}", row["name"]);
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} rows checked");
}

/// The verdict computed without the engine's game module: mate and stalemate from the
/// reference generator, bare kings from the piece letters, the fifty-move rule from the clock
/// field, repetition from the placement, side and castling fields of earlier FENs (the pipe
/// form names the board of every piece).
fn independent_verdict(reference: &RefPosition, fen: &str, earlier: &[String]) -> Option<EndReason> {
    if reference.legal_moves(EpMode::Off).is_empty() {
        return Some(if reference.in_check() {
            EndReason::Checkmate
        } else {
            EndReason::Stalemate
        });
    }
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields[0].chars().filter(|c| c.is_ascii_alphabetic()).count() == 2 {
        return Some(EndReason::BareKings);
    }
    if fields[4].parse::<u32>().unwrap() >= 100 {
        return Some(EndReason::FiftyMoves);
    }
    let key = fields[..3].join(" ");
    let seen = earlier
        .iter()
        .filter(|f| f.split_whitespace().take(3).collect::<Vec<_>>().join(" ") == key)
        .count();
    (seen >= 2).then_some(EndReason::Threefold)
}

#[test]
fn random_game_verdicts_agree_with_independent_ones() {
    let mut starts: Vec<String> = vec![
        Position::startpos().to_fen(),
        "4k3/8/8/8/8/8/8/4K2N w - - 0 1".into(),
        "4k3/8/8/3n4/8/8/8/4K2R w K - 80 60".into(),
        "r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1".into(),
        "4k3/8/2|n5/8/8/5|B2/8/4K3 b - - 0 1".into(),
    ];
    starts.extend(perft_cases().into_iter().map(|c| c.fen));
    let mut rng = SplitMix64::new(2024);
    let mut verdicts = std::collections::HashMap::new();
    let (mut positions, mut exhaustive) = (0, 0);
    for game_no in 0..200 {
        let fen = &starts[game_no % starts.len()];
        let mut a = arbiter(fen, Rules::default());
        let mut reference = RefPosition::from_fen(fen).unwrap();
        let mut fens = vec![a.position().to_fen()];
        let mut last_own: [Option<String>; 2] = [None, None];
        for ply in 0..250 {
            let fen_now = a.position().to_fen();
            let verdict = independent_verdict(&reference, &fen_now, &fens[..fens.len() - 1]);
            assert_eq!(
                a.outcome().map(|(_, r)| r),
                verdict,
                "game {game_no} ply {ply}: {fen_now}"
            );
            positions += 1;
            if positions % 8 == 0 {
                assert_eq!(
                    accepted_from_own_squares(&a),
                    reference.legal_moves(EpMode::Off),
                    "{fen_now}"
                );
                exhaustive += 1;
            }
            if let Some(v) = verdict {
                *verdicts.entry(format!("{v:?}")).or_insert(0) += 1;
                break;
            }
            let legal = reference.legal_moves(EpMode::Off);
            let side = a.side_to_move().index();
            // Often undo our own last move (a piece going back to its square and board), so
            // repetitions happen.
            let back = last_own[side]
                .as_ref()
                .map(|m: &String| format!("{}{}", &m[2..4], &m[0..2]));
            let text = match back {
                Some(b) if legal.contains(&b) && rng.below(10) < 3 => b,
                _ => legal[rng.below(legal.len())].clone(),
            };
            a.play_text(&text).unwrap_or_else(|e| panic!("{e}"));
            reference = reference.play(&text, EpMode::Off).unwrap();
            let (ours, theirs) = (a.position().to_fen(), reference.to_fen());
            let head = |f: &str| f.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
            assert_eq!(head(&ours), head(&theirs), "after {text}");
            last_own[side] = Some(text);
            fens.push(ours);
        }
    }
    eprintln!("{positions} positions, {exhaustive} with exhaustive move checks, verdicts {verdicts:?}");
    assert!(positions > 10_000 && exhaustive > 1_500);
    for reason in ["Checkmate", "Threefold", "FiftyMoves", "BareKings"] {
        assert!(
            verdicts.get(reason).is_some_and(|&n| n > 0),
            "no {reason} seen: {verdicts:?}"
        );
    }
}
