//! Named rule tests for docs/rules.md §3.8 (Alice Chess960: a Chess960 array on A, Chess960 castling,
//! castling written king takes rook, X-FEN and Shredder castling letters) and for the en passant
//! options of §3.1 in the variants: off by default everywhere; where pawns double-step, the passed
//! pawn is taken on the board it landed on, by an enemy pawn of that board.

use vorpal_engine::{chess960_back_rank, BoardId, CastleSide, Color, EnPassant, MoveKind, Position, Rules, Variant};
use vorpal_tests::variant_check::{legal_move, no_move, not_legal, on, play, vpos_with, wide_from, with_ep};

fn c960(variant: Variant) -> Rules {
    Rules::for_variant(variant).with_chess960(true)
}

// ------------------------------------------------------------------ 3.8 Alice Chess960

#[test]
fn chess960_array_on_board_a() {
    assert_eq!(Variant::Alice.chess960_fen(518).unwrap(), Variant::Alice.start_fen());
    assert_eq!(
        Variant::Alice.chess960_fen(0).unwrap(),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
    );
    // Looking-glass and Duo put Black's array on B.
    assert_eq!(
        Variant::Duo.chess960_fen(0).unwrap(),
        "|b|b|q|n|n|r|k|r/|p|p|p|p|p|p|p|p/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
    );
    for n in [0, 100, 517, 959] {
        let back = chess960_back_rank(n).unwrap();
        let king = back.iter().position(|&k| k == vorpal_engine::PieceKind::King).unwrap();
        let rooks: Vec<usize> = (0..8).filter(|&f| back[f] == vorpal_engine::PieceKind::Rook).collect();
        assert!(rooks[0] < king && king < rooks[1], "{n}");
        let p = Position::from_fen(&Variant::Alice.chess960_fen(n).unwrap(), c960(Variant::Alice)).unwrap();
        assert!(p.count_legal() >= 16, "{n}");
        assert_eq!(p.to_fen(), Variant::Alice.chess960_fen(n).unwrap());
    }
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    // King on b1, rooks on a1 and g1 (X-FEN KQkq).
    let p = vpos_with(c960(Variant::Alice), "|r|k2|r3/8/8/8/8/8/8/RK4R1 w KQkq - 0 1");
    let short = legal_move(&p, "b1g1");
    let long = legal_move(&p, "b1a1");
    assert!(short.is_castle() && long.is_castle());
    assert_eq!(
        (p.move_to_uci(short), p.move_to_uci(long)),
        ("b1g1".to_string(), "b1a1".to_string())
    );
    assert_eq!(p.move_to_san(short), "O-O");
    let q = p.after(short);
    assert_eq!(
        (on(&q, BoardId::B, "g1"), on(&q, BoardId::B, "f1")),
        (Some('K'), Some('R'))
    );
    let q = p.after(long);
    assert_eq!(
        (on(&q, BoardId::B, "c1"), on(&q, BoardId::B, "d1")),
        (Some('K'), Some('R'))
    );
    // The king's destination form is not castling in Chess960 (b1c1 is an ordinary king move).
    assert_eq!(p.parse_uci("b1c1").map(|m| m.kind()), Ok(MoveKind::Normal));
    // Without Chess960 the standard array castles e1g1 (and accepts e1h1).
    let p = vpos_with(Rules::default(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let mv = legal_move(&p, "e1g1");
    assert_eq!(p.parse_uci("e1h1"), Ok(mv));
}

#[test]
fn chess960_castling_needs_the_squares_between_empty_and_the_path_unattacked() {
    // Kingside: b1 to g1 passes c1..g1; a piece on e1 of A blocks it, one on e1 of B does not.
    let p = vpos_with(c960(Variant::Alice), "rk4r1/8/8/8/8/8/8/RK2N1R1 w KQkq - 0 1");
    not_legal(&p, "b1o1");
    let p = vpos_with(c960(Variant::Alice), "|r|k2|r3/8/8/8/8/8/8/RK2|N1R1 w KQkq - 0 1");
    legal_move(&p, "b1g1");
    // A black rook on e8 of A attacks e1, a square the king passes: no castling.
    let p = vpos_with(c960(Variant::Alice), "1k2r3/8/8/8/8/8/8/RK4R1 w KQ - 0 1");
    not_legal(&p, "b1o1");
    legal_move(&p, "b1a1");
}

#[test]
fn chess960_king_already_on_its_destination_still_transfers() {
    // King g1, rook h1: O-O leaves the king on g1 (of B) and brings the rook to f1 of B.
    let p = vpos_with(c960(Variant::Alice), "6kr/8/8/8/8/8/8/6KR w Kk - 0 1");
    let q = play(&p, "g1h1");
    assert_eq!(
        (on(&q, BoardId::B, "g1"), on(&q, BoardId::B, "f1")),
        (Some('K'), Some('R'))
    );
}

#[test]
fn chess960_castling_letters_x_fen_and_shredder() {
    let rules = c960(Variant::Alice);
    let xfen = Position::from_fen("|r|k2|r3/8/8/8/8/8/8/RK4R1 w KQkq - 0 1", rules).unwrap();
    let shredder = Position::from_fen("|r|k2|r3/8/8/8/8/8/8/RK4R1 w GAea - 0 1", rules).unwrap();
    assert_eq!(xfen, shredder);
    assert_eq!(shredder.to_fen(), "|r|k2|r3/8/8/8/8/8/8/RK4R1 w KQkq - 0 1");
    // A second rook further out: the inner one is named by its file.
    let p = Position::from_fen("1k6/8/8/8/8/8/8/1K4RR w G - 0 1", rules).unwrap();
    assert_eq!(p.to_fen(), "1k6/8/8/8/8/8/8/1K4RR w G - 0 1");
    let q = play(&p, "b1g1");
    assert_eq!(
        (on(&q, BoardId::B, "g1"), on(&q, BoardId::B, "f1")),
        (Some('K'), Some('R'))
    );
    // Without Chess960 only the a- and h-rooks can be named.
    assert!(Position::from_fen("1k6/8/8/8/8/8/8/1K4RR w G - 0 1", Rules::default()).is_err());
}

#[test]
fn chess960_rights_follow_the_castling_rook() {
    let p = vpos_with(c960(Variant::Alice), "|r|k2|r3/8/8/8/8/8/8/RK4R1 w KQkq - 0 1");
    let q = play(&p, "g1g4");
    assert!(!q.castling().has(Color::White, CastleSide::King));
    assert!(q.castling().has(Color::White, CastleSide::Queen));
    assert_eq!(q.to_fen(), "|r|k2|r3/8/8/8/6|R1/8/8/RK6 b Qkq - 1 1");
}

#[test]
fn chess960_castling_in_the_generic_variants() {
    // Lady Alice and O'Donohue castle as Alice does; three-board Alice picks the landing board.
    for variant in [Variant::LadyAlice, Variant::ODonohue] {
        let p = vpos_with(c960(variant), "|r|k2|r3/8/8/8/8/8/8/RK4R1 w KQkq - 0 1");
        let q = play(&p, "b1g1");
        assert_eq!(on(&q, BoardId::B, "g1"), Some('K'), "{variant}");
    }
    let p = vpos_with(c960(Variant::Alice3), "|r|k2|r3/8/8/8/8/8/8/RK4R1 w KQkq - 0 1");
    assert_eq!(
        wide_from(&p, "b1")
            .iter()
            .filter(|m| m.ends_with("o1") || m.ends_with("w1"))
            .count(),
        2
    );
    let q = play(&p, "b1w1");
    assert_eq!(
        (on(&q, BoardId::C, "g1"), on(&q, BoardId::C, "f1")),
        (Some('K'), Some('R'))
    );
    // Duo: stay or transfer.
    let p = vpos_with(c960(Variant::Duo), "|r|k2|r3/8/8/8/8/8/8/RK4R1 w KQkq - 0 1");
    legal_move(&p, "b1g1");
    legal_move(&p, "b1o1");
}

// ------------------------------------------------------------------ 3.1 en passant in the variants

#[test]
fn en_passant_is_off_by_default_in_every_variant() {
    for variant in Variant::ALL {
        let rules = Rules::for_variant(variant);
        assert_eq!(rules.en_passant, EnPassant::Off);
        assert_eq!(Position::start(rules).rules().ep_mode(), EnPassant::Off);
    }
    // Off: a double step leaves no en passant square (the FEN's field is `-`), and no capture.
    let p = vpos_with(Rules::for_variant(Variant::Alice3), "4k3/8/8/8/1|p6/8/P7/4K3 w - - 0 1");
    let q = play(&p, "a2i4");
    assert_eq!(q.ep_square(), None);
    not_legal(&q, "j4i3");
    not_legal(&q, "j4q3");
}

#[test]
fn en_passant_applies_where_pawns_double_step() {
    for variant in Variant::ALL {
        let expected = if variant == Variant::MiniAlice {
            EnPassant::Off
        } else {
            EnPassant::Double
        };
        assert_eq!(with_ep(variant, EnPassant::Double).ep_mode(), expected, "{variant}");
    }
}

#[test]
fn three_board_en_passant_takes_the_pawn_on_the_board_it_landed_on() {
    let rules = with_ep(Variant::Alice3, EnPassant::Normal);
    let p = vpos_with(rules, "4k3/8/8/8/1|p6/8/P7/4K3 w - - 0 1");
    // Landing on B, beside the black pawn of B: taken en passant, the capturer lands on A or C.
    let q = play(&p, "a2i4");
    assert_eq!(wide_from(&q, "j4"), vec!["j4a3", "j4b3", "j4q3", "j4r3"]);
    let ep = legal_move(&q, "j4a3");
    assert_eq!(ep.kind(), MoveKind::EnPassant);
    let r = q.after(ep);
    assert_eq!((on(&r, BoardId::A, "a3"), on(&r, BoardId::B, "a4")), (Some('p'), None));
    // Landing on C, the pawn is out of reach of the pawn on B.
    let q = play(&p, "a2q4");
    not_legal(&q, "j4a3");
    not_legal(&q, "j4q3");
}

#[test]
fn three_board_double_en_passant_takes_the_piece_on_the_passed_square_too() {
    let p = vpos_with(
        with_ep(Variant::Alice3, EnPassant::Double),
        "4k3/8/8/8/1|p6/|N7/P7/4K3 w - - 0 1",
    );
    let q = play(&p, "a2i4");
    let ep = legal_move(&q, "j4q3");
    assert_eq!(ep.kind(), MoveKind::EnPassant);
    let r = q.after(ep);
    assert_eq!(r.piece_count(), 3);
    // In normal mode only the knight is taken.
    let p = vpos_with(
        with_ep(Variant::Alice3, EnPassant::Normal),
        "4k3/8/8/8/1|p6/|N7/P7/4K3 w - - 0 1",
    );
    let q = play(&p, "a2i4");
    let r = play(&q, "j4q3");
    assert_eq!((r.piece_count(), on(&r, BoardId::B, "a4")), (4, Some('P')));
}

#[test]
fn double_en_passant_is_one_move_that_may_end_a_check() {
    // Three boards: the white king on a4 of B is checked by the knight on b6 and the pawn on b5
    // (both on B). c5xb6 in double mode takes both and ends the check; in normal mode it takes
    // only the knight, the pawn still gives check, so it is illegal.
    let fen = "7k/8/1|n6/1|p|P5/|K7/8/8/8 w - b6 0 1";
    let p = vpos_with(with_ep(Variant::Alice3, EnPassant::Double), fen);
    assert!(p.in_check());
    let ep = legal_move(&p, "k5b6");
    assert_eq!(ep.kind(), MoveKind::EnPassant);
    assert_eq!(p.after(ep).piece_count(), 3);
    legal_move(&p, "k5r6");
    let p = vpos_with(with_ep(Variant::Alice3, EnPassant::Normal), fen);
    no_move(&p, "c5b6");
}

#[test]
fn odonohue_en_passant_takes_a_pawn_that_stayed_on_its_board() {
    // a4 of B holds a rook, so a2-a4 stays on A; the black pawn on b4 of A takes it there and
    // lands on a3 of B.
    let p = vpos_with(
        with_ep(Variant::ODonohue, EnPassant::Normal),
        "4k3/8/8/8/|Rp6/8/P7/4K3 w - - 0 1",
    );
    let q = play(&p, "a2a4");
    assert_eq!((q.ep_board(), on(&q, BoardId::A, "a4")), (BoardId::A, Some('P')));
    let ep = legal_move(&q, "b4i3");
    assert_eq!(ep.kind(), MoveKind::EnPassant);
    assert_eq!(on(&q.after(ep), BoardId::A, "a4"), None);
}

#[test]
fn duo_en_passant_follows_the_board_the_pawn_chose() {
    let rules = with_ep(Variant::Duo, EnPassant::Normal);
    let p = vpos_with(rules, "4k3/8/8/8/1p6/8/P7/4K3 w - - 0 1");
    let stayed = play(&p, "a2a4");
    assert_eq!(
        wide_from(&stayed, "b4").len(),
        4,
        "b4b3, b4j3 and en passant staying or not"
    );
    legal_move(&stayed, "b4a3");
    legal_move(&stayed, "b4i3");
    let moved = play(&p, "a2i4");
    no_move(&moved, "b4a3");
}

#[test]
fn lady_alice_en_passant_as_in_alice() {
    let p = vpos_with(
        with_ep(Variant::LadyAlice, EnPassant::Normal),
        "4k3/8/8/8/1|p6/8/P7/4K3 w - - 0 1",
    );
    let q = play(&p, "a2a4");
    let ep = legal_move(&q, "b4a3");
    assert_eq!(ep.kind(), MoveKind::EnPassant);
    assert_eq!(on(&q.after(ep), BoardId::A, "a3"), Some('p'));
}

#[test]
fn en_passant_field_names_the_board_when_pawns_share_the_square() {
    // Black pawns on b5 of A and of B; the one on B just double-stepped (O'Donohue). White
    // pawns on c5 of both boards can take en passant, so the square is kept and written.
    let rules = with_ep(Variant::ODonohue, EnPassant::Normal);
    let fen = "4k3/8/8/1pP5/8/8/8/4K3|8/8/8/1pP5/8/8/8/8 w - j6 0 2";
    let p = vpos_with(rules, fen);
    assert_eq!(p.ep_board(), BoardId::B);
    assert_eq!(p.to_fen(), fen);
    // A plain square names board A.
    let p = vpos_with(rules, &fen.replace("j6", "b6"));
    assert_eq!(p.ep_board(), BoardId::A);
    assert!(Position::from_fen(&fen.replace("j6", "r6"), rules).is_err());
}
