//! The Alice evaluation terms, each checked on a hand-made position through the evaluation
//! trace (the same trace the tuner reads), plus symmetry and consistency checks.

use vorpal_engine::eval::params::{self as p, NUM_PARAMS};
use vorpal_engine::eval::{breakdown, evaluate, evaluate_traced, CoefficientTrace, EvalParams};
use vorpal_engine::{Position, Rules};

fn trace(fen: &str) -> CoefficientTrace {
    let pos = Position::from_fen(fen, Rules::default()).unwrap();
    let mut t = CoefficientTrace::default();
    evaluate_traced(&pos, &EvalParams::default(), &mut t);
    t
}

fn coefficient(fen: &str, index: usize) -> i32 {
    trace(fen).coefficients[index]
}

/// Mirrors a pipe FEN (ranks reversed, colours swapped), keeping every piece's board.
fn mirror(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let ranks: Vec<String> = fields[0]
        .split('/')
        .rev()
        .map(|r| {
            r.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    let side = if fields[1] == "w" { "b" } else { "w" };
    format!("{} {side} - - 0 1", ranks.join("/"))
}

#[test]
fn material_counts_pieces_on_both_boards() {
    let t = trace("4k3/8/8/8/8/8/8/|N2QK3 w - - 0 1");
    assert_eq!(t.coefficients[p::MATERIAL + 1], 1, "knight on board B counts");
    assert_eq!(t.coefficients[p::MATERIAL + 4], 1);
}

#[test]
fn piece_square_tables_are_per_board() {
    let on_a = trace("4k3/8/8/8/3N4/8/8/4K3 w - - 0 1");
    let on_b = trace("4k3/8/8/8/3|N4/8/8/4K3 w - - 0 1");
    let a_index = p::PST + 64 + 27; // board A, knight, d4
    let b_index = p::PST + (6 + 1) * 64 + 27; // board B, knight, d4
    assert_eq!((on_a.coefficients[a_index], on_a.coefficients[b_index]), (1, 0));
    assert_eq!((on_b.coefficients[a_index], on_b.coefficients[b_index]), (0, 1));
}

#[test]
fn mobility_counts_own_board_and_empty_landing_cells() {
    // Rook a1 on A; pieces on B never block it, but its landing cells must be empty on B.
    // a-file a2..a8 (7) + b1..d1 (3, e1 holds the king) = 10, minus a4 and a6 occupied on B.
    let fen = "4k3/8/|p7/8/|P7/8/8/R3K3 w - - 0 1";
    assert_eq!(coefficient(fen, p::MOBILITY_ROOK + 8), 1);
}

#[test]
fn hanging_piece_is_one_no_piece_on_the_other_board_can_recapture() {
    // Black knight d5 (A) attacked by the rook d1 (A). A black pawn e6 on A "defends" d5 only
    // on A, but the rook would land on d5 of B: the knight is hanging.
    let fen = "4k3/8/4p3/3n4/8/8/8/3RK3 b - - 0 1";
    assert_eq!(coefficient(fen, p::HANGING + 1), -1, "black knight hanging");
    // With the defending pawn on board B the recapture exists: not hanging.
    let fen = "4k3/8/4|p3/3n4/8/8/8/3RK3 b - - 0 1";
    assert_eq!(coefficient(fen, p::HANGING + 1), 0);
}

#[test]
fn threat_by_lesser_piece() {
    // White pawn e4 (A) attacks the black rook d5 (A).
    let fen = "4k3/8/8/3r4/4P3/8/8/4K3 w - - 0 1";
    assert_eq!(coefficient(fen, p::THREAT_BY_LESSER + 3), -1);
}

#[test]
fn landing_check_from_the_other_board() {
    // Black king e8 on A; a white rook on h1 of board B can move to h8? No: it must land on
    // A with check: Rh1-e1 on B lands on e1 of A, checking along the open e-file of A.
    let fen = "4k3/8/8/8/8/8/8/K6|R b - - 0 1";
    assert_eq!(
        coefficient(fen, p::LANDING_CHECK + 3),
        -1,
        "black king faces a landing check"
    );
    // A white rook on board A cannot land on A: no landing check.
    let fen = "4k3/8/8/8/8/8/8/K6R b - - 0 1";
    assert_eq!(coefficient(fen, p::LANDING_CHECK + 3), 0);
}

#[test]
fn unsafe_flight_squares_on_either_board() {
    // White king e1 (A). A black rook on d8 of board B attacks d1 and d2 on B: the king
    // would land there on B, so those flights are unsafe. A black rook on f8 of A attacks f1, f2
    // on A (the board the king leaves): unsafe too.
    let fen = "k2|r1r2/8/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(coefficient(fen, p::UNSAFE_FLIGHT), 4);
}

#[test]
fn passed_pawns_and_blockade_look_at_both_boards() {
    // White pawn d5 (A); a black pawn e7 on board B still stops it from being passed.
    assert_eq!(coefficient("4k3/4|p3/8/3P4/8/8/8/4K3 w - - 0 1", p::PASSED + 4), 0);
    assert_eq!(coefficient("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1", p::PASSED + 4), 1);
    // Blocked by a piece on d6 of board B.
    assert_eq!(coefficient("4k3/8/3|n4/3P4/8/8/8/4K3 w - - 0 1", p::PASSED_BLOCKED), 1);
}

#[test]
fn interposers_on_the_other_board() {
    // White bishop on B can land next to the white king on A.
    assert_eq!(coefficient("4k3/8/8/8/8/8/2|B5/4K3 w - - 0 1", p::INTERPOSER), 1);
}

#[test]
fn evaluation_is_colour_symmetric() {
    for fen in [
        "rnbqk1nr/pppp1|Npp/4|p3/2|b5/8/8/PPPPPPPP/RNBQKB1R b KQkq - 0 3",
        "r1b1k1nr/p1p2ppp/2|n5/1P|b|p|p3/4q3/8/1PPPBPPP/RNBQK1NR w Kkq - 4 8",
        "8/|R7/3|k4/8/3K4/8/P6p/8 w - - 0 1",
    ] {
        let a = Position::from_fen(fen, Rules::default()).unwrap();
        let b = Position::from_fen(&mirror(fen), Rules::default()).unwrap();
        let params = EvalParams::default();
        assert_eq!(evaluate(&a, &params), evaluate(&b, &params), "{fen}");
    }
}

#[test]
fn trace_reproduces_the_evaluation() {
    let params = EvalParams::default();
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1b1k1nr/p1p2ppp/2|n5/1P|b|p|p3/4q3/8/1PPPBPPP/RNBQK1NR w Kkq - 4 8",
    ] {
        let pos = Position::from_fen(fen, Rules::default()).unwrap();
        let mut t = CoefficientTrace::default();
        let v = evaluate_traced(&pos, &params, &mut t);
        assert_eq!(t.coefficients.len(), NUM_PARAMS);
        let (mut mg, mut eg) = (0, 0);
        for (i, &c) in t.coefficients.iter().enumerate() {
            mg += params.get(i).0 * c;
            eg += params.get(i).1 * c;
        }
        let white = (mg * t.phase + eg * (24 - t.phase)) / 24;
        let stm = if pos.side_to_move() == vorpal_engine::Color::White {
            white
        } else {
            -white
        };
        assert_eq!(v, stm, "{fen}");
        assert_eq!(breakdown(&pos).total(), v);
    }
}
