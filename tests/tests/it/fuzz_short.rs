//! Regressions found by the seeded generators that came before the coverage-guided fuzz
//! targets of `tests/fuzz` (which found those of the PGN readers, in their own unit tests).

/// Found by `vorpal-fuzz fen`: an en passant field on the first or last rank made the parser
/// compute a square off the board.
#[test]
fn regression_en_passant_field_on_edge_rank_is_rejected() {
    use vorpal_engine::{Position, Rules};
    for fen in ["4k3/8/8/8/8/8/8/4K3 w - e8 0 1", "4k3/8/8/8/8/8/8/4K3 b - a1 0 1"] {
        let err = Position::from_fen(fen, Rules::default()).unwrap_err();
        assert!(err.to_string().contains("en passant"), "{err}");
    }
}

/// Found by `vorpal-fuzz moves`: SAN promotions written with '=' were not parsed back.
#[test]
fn regression_san_promotion_with_equals_sign() {
    use vorpal_engine::{Position, Rules};
    let pos = Position::from_fen("8/4P3/1|k6/8/8/3|K|n3/8/8 w - - 1 22", Rules::default()).unwrap();
    let mv = pos.parse_uci("e7e8b").unwrap();
    assert_eq!(pos.move_to_san(mv), "e8=B");
    assert_eq!(pos.parse_san("e8=B"), Ok(mv));
    assert_eq!(pos.parse_san("e8B"), Ok(mv));
}

/// Found by `vorpal-fuzz moves`: two pawns of one file on different boards can reach the
/// same square (h7 of A by a double step, h6 of B by a single step); the landing-board
/// suffix tells them apart, and no suffix means landing on board B.
#[test]
fn regression_pawn_san_told_apart_by_landing_board() {
    use vorpal_engine::{Position, Rules};
    let fen = "rnbqk|bnr/p1pp3p/7|p/1|p2p3/5|P|P1/4|P2|P/PPPP2B1/RNBQKR2 b Qkq - 1 12";
    let pos = Position::from_fen(fen, Rules::default()).unwrap();
    let double = pos.parse_uci("h7h5").unwrap();
    let single = pos.parse_uci("h6h5").unwrap();
    assert_eq!(
        (pos.move_to_san(double).as_str(), pos.move_to_san(single).as_str()),
        ("h5", "h5/A")
    );
    assert_eq!(pos.parse_san("h5"), Ok(double));
    assert_eq!(pos.parse_san("h5/A"), Ok(single));
}
