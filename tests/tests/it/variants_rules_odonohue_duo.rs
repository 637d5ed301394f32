//! Named rule tests for docs/rules.md §3.4 (O'Donohue Alice) and §3.5 (Duo chess), one test per
//! sentence of the rules text. Positions with a square occupied on two boards are written in the
//! joined FEN form `placementA|placementB`; moves in the wide form (a-h = board A, i-p = B).

use vorpal_engine::game::outcome;
use vorpal_engine::{
    BoardId, Color, EndReason, FenStyle, MoveKind, MoveParseError, MoveStyle, Position, Rules, Variant,
};
use vorpal_tests::variant_check::{legal_move, no_move, not_legal, on, play, vpos, wide_from, wide_moves};

const OD: Variant = Variant::ODonohue;
const DUO: Variant = Variant::Duo;

// ------------------------------------------------------------------ 3.4 O'Donohue Alice

#[test]
fn odonohue_move_onto_an_occupied_transfer_square_stays_on_its_board() {
    // f3 is occupied on B (black pawn): Ng1-f3 is still allowed and the knight stays on A.
    let p = vpos(OD, "4k3/8/8/8/8/5|p2/8/4K1N1 w - - 0 1");
    assert_eq!(wide_from(&p, "g1"), vec!["g1f3", "g1m2", "g1p3"]);
    let q = play(&p, "g1f3");
    assert_eq!(
        (on(&q, BoardId::A, "f3"), on(&q, BoardId::B, "f3")),
        (Some('N'), Some('p'))
    );
    assert_eq!(q.to_fen(), "4k3/8/8/8/8/5N2/8/4K3|8/8/8/8/8/5p2/8/8 b - - 1 1");
    // In standard Alice the same move is illegal.
    let alice = Position::from_fen("4k3/8/8/8/8/5|p2/8/4K1N1 w - - 0 1", Rules::default()).unwrap();
    assert!(alice.parse_uci("g1f3").is_err());
}

#[test]
fn odonohue_move_onto_an_empty_transfer_square_transfers_without_choice() {
    let p = vpos(OD, "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1");
    legal_move(&p, "g1n3");
    not_legal(&p, "g1f3");
}

#[test]
fn odonohue_capture_with_occupied_transfer_square_stays_on_its_board() {
    // The rook takes the knight on d5 of A; d5 of B holds a black pawn, so the rook stays on A.
    let p = vpos(OD, "4k3/8/8/3n4/8/8/8/3RK3|8/8/8/3p4/8/8/8/8 w - - 0 1");
    let mv = legal_move(&p, "d1d5");
    assert!(mv.is_capture() && mv.to_board() == BoardId::A);
    let q = p.after(mv);
    assert_eq!(
        (on(&q, BoardId::A, "d5"), on(&q, BoardId::B, "d5")),
        (Some('R'), Some('p'))
    );
}

#[test]
fn odonohue_squares_can_be_occupied_on_both_boards() {
    let p = vpos(OD, "4k3/8/8/8/4N3/8/8/4K3|8/8/8/8/4N3/8/8/8 w - - 0 1");
    assert!(!p.pipe_representable());
    assert_eq!(p.to_fen(), p.to_fen_style(FenStyle::Joined));
    assert_eq!(Position::from_fen(&p.to_fen(), p.rules()).unwrap(), p);
    assert_eq!(p.check_consistency(), Ok(()));
}

#[test]
fn odonohue_moves_need_the_wide_form_when_the_plain_form_is_ambiguous() {
    // Knights on e4 of A and of B: "e4f6" names two moves; each is written wide.
    let p = vpos(OD, "4k3/8/8/8/4N3/8/8/4K3|8/8/8/8/4N3/8/8/8 w - - 0 1");
    assert_eq!(p.parse_uci("e4f6"), Err(MoveParseError::Ambiguous("e4f6".into())));
    let from_a = legal_move(&p, "e4n6");
    let from_b = legal_move(&p, "m4f6");
    assert_eq!(p.move_to_uci(from_a), "e4n6");
    assert_eq!(p.move_to_uci(from_b), "m4f6");
    // A move only one piece can make keeps the plain form.
    let king = legal_move(&p, "e1d1");
    assert_eq!(p.move_to_uci(king), "e1d1");
    assert_eq!(p.move_to_text(king, MoveStyle::Wide), "e1l1");
}

#[test]
fn odonohue_king_staying_on_its_board_must_not_stand_in_check() {
    // d1 of B is occupied, so Kd1 stays on A, where the rook on d8 (A) attacks d1.
    let p = vpos(OD, "k2r4/8/8/8/8/8/8/4K3|8/8/8/8/8/8/8/3N4 w - - 0 1");
    no_move(&p, "e1d1");
}

#[test]
fn odonohue_castling_stays_on_its_board_when_a_destination_is_occupied_on_the_other() {
    let p = vpos(OD, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(wide_from(&p, "e1").iter().filter(|m| m.ends_with("o1")).count(), 1);
    legal_move(&p, "e1o1");
    let p = vpos(OD, "r3k2r/8/8/8/8/8/8/R3K2R|8/8/8/8/8/8/8/6n1 w KQkq - 0 1");
    let q = play(&p, "e1g1");
    assert_eq!(
        (on(&q, BoardId::A, "g1"), on(&q, BoardId::A, "f1")),
        (Some('K'), Some('R'))
    );
    assert_eq!(on(&q, BoardId::B, "g1"), Some('n'));
}

#[test]
fn odonohue_a_piece_landing_on_a_rook_square_of_the_other_board_leaves_castling_alone() {
    // The black knight lands on h1 of B (h1 of A holds the rook): White keeps K.
    let p = vpos(OD, "4k3/8/8/8/8/6|n1/8/4K2R b K - 0 1");
    let q = play(&p, "g3h1");
    assert_eq!(on(&q, BoardId::A, "h1"), Some('R'));
    assert!(q.castling().has(Color::White, vorpal_engine::CastleSide::King));
}

// ------------------------------------------------------------------ 3.5 Duo chess

#[test]
fn duo_black_army_starts_on_board_b() {
    let p = Position::start(Rules::for_variant(DUO));
    assert_eq!(p.to_fen(), Variant::LookingGlass.start_fen());
    assert_eq!(p.color_on(BoardId::B, Color::Black).count(), 16);
    assert_eq!(p.count_legal(), 48);
}

#[test]
fn duo_transferring_is_optional() {
    let p = Position::start(Rules::for_variant(DUO));
    assert_eq!(wide_from(&p, "g1"), vec!["g1f3", "g1h3", "g1n3", "g1o1", "g1p3"]);
    let stay = legal_move(&p, "g1f3");
    let go = legal_move(&p, "g1n3");
    assert_eq!((stay.to_board(), go.to_board()), (BoardId::A, BoardId::B));
    // The plain form names both; "g1f3" is read as the wide form (both cells on A).
    assert_eq!(p.move_to_uci(stay), "g1f3");
    assert_eq!(p.move_to_uci(go), "g1n3");
}

#[test]
fn duo_landing_board_must_be_empty_only_if_the_piece_transfers() {
    // f3 is occupied on B: the knight may go to f3 and stay on A, not transfer.
    let p = vpos(DUO, "4k3/8/8/8/8/5|p2/8/4K1N1 w - - 0 1");
    legal_move(&p, "g1f3");
    not_legal(&p, "g1n3");
    // A capture on A may stay or transfer.
    let p = vpos(DUO, "4k3/8/8/8/8/5p2/8/4K1N1 w - - 0 1");
    assert!(legal_move(&p, "g1f3").is_capture() && legal_move(&p, "g1n3").is_capture());
}

#[test]
fn duo_pieces_other_than_pawns_may_make_zero_moves() {
    let p = Position::start(Rules::for_variant(DUO));
    let zero: Vec<String> = p
        .legal_moves()
        .into_iter()
        .filter(|m| m.kind() == MoveKind::Null)
        .map(|m| p.move_to_uci(m))
        .collect();
    assert_eq!(
        zero,
        vec!["a1a1", "b1b1", "c1c1", "d1d1", "e1e1", "f1f1", "g1g1", "h1h1"]
    );
    no_move(&p, "e2e2");
    // The king included.
    let q = play(&p, "e1e1");
    assert_eq!(q.king_board(Color::White), BoardId::B);
}

#[test]
fn duo_zero_move_onto_an_enemy_piece_captures_it() {
    let p = vpos(DUO, "4k3/8/8/8/3N4/8/8/4K3|8/8/8/8/3b4/8/8/8 w - - 0 1");
    let mv = legal_move(&p, "d4d4");
    assert!(mv.is_capture() && mv.kind() == MoveKind::Null);
    assert_eq!(p.captured_piece(mv).map(|c| c.letter()), Some('b'));
    let q = p.after(mv);
    assert_eq!((on(&q, BoardId::A, "d4"), on(&q, BoardId::B, "d4")), (None, Some('N')));
    assert_eq!((q.piece_count(), q.halfmove_clock()), (3, 0));
    assert_eq!(p.move_to_san(mv), "Nd4xd4");
    // Never onto an own piece.
    let p = vpos(DUO, "4k3/8/8/8/4N3/8/8/4K3|8/8/8/8/4B3/8/8/8 w - - 0 1");
    no_move(&p, "e4e4");
}

#[test]
fn a_duo_king_is_in_check_from_an_enemy_piece_on_its_zero_square() {
    let p = vpos(DUO, "4k3/8/8/8/8/8/8/4K3|8/8/8/8/8/8/8/4n3 w - - 0 1");
    assert!(p.in_check());
    assert!(p.checkers().has(vorpal_engine::Square::parse("e1").unwrap()));
    // Any enemy piece, a pawn too.
    let p = vpos(DUO, "4k3/8/8/8/8/8/8/4K3|8/8/8/8/8/8/4p3/8 w - - 0 1");
    assert!(!p.in_check());
    let p = vpos(DUO, "4k3/8/8/8/8/8/4K3/8|8/8/8/8/8/8/4p3/8 w - - 0 1");
    assert!(p.in_check());
    // So a king may not move to a square whose zero square holds an enemy piece, and the side
    // not to move may not be left in such a check.
    let p = vpos(DUO, "4k3/8/8/8/8/8/8/4K3|8/8/8/8/8/8/8/3n4 w - - 0 1");
    not_legal(&p, "e1d1");
    assert!(Position::from_fen(
        "4k3/8/8/8/8/8/8/4K3|4N3/8/8/8/8/8/8/8 w - - 0 1",
        Rules::for_variant(DUO)
    )
    .is_err());
}

#[test]
fn duo_a_king_may_escape_check_by_a_zero_move() {
    // The rook on e8 (A) checks; e1 of B is free and safe.
    let p = vpos(DUO, "k3r3/8/8/8/8/8/3P1P2/3RKR2 w - - 0 1");
    assert!(p.in_check());
    let mv = legal_move(&p, "e1e1");
    assert!(!p.after(mv).king_in_check(Color::White));
    assert_eq!(outcome(&p, &[]), None);
}

#[test]
fn duo_a_mate_must_also_stop_the_zero_move() {
    // With e1 of B attacked as well (rook on e8 of B) nothing helps: mate.
    let p = vpos(DUO, "k3r3/8/8/8/8/8/3P1P2/3RKR2|4r3/8/8/8/8/8/8/8 w - - 0 1");
    assert!(p.in_check());
    assert_eq!(wide_moves(&p), Vec::<String>::new());
    assert_eq!(outcome(&p, &[]).map(|(_, r)| r), Some(EndReason::Checkmate));
}

#[test]
fn duo_castling_may_stay_or_transfer() {
    let p = vpos(DUO, "|r3|k2|r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let stay = legal_move(&p, "e1g1");
    let go = legal_move(&p, "e1o1");
    assert_eq!((stay.to_board(), go.to_board()), (BoardId::A, BoardId::B));
    let q = p.after(stay);
    assert_eq!(
        (on(&q, BoardId::A, "g1"), on(&q, BoardId::A, "f1")),
        (Some('K'), Some('R'))
    );
    // Black castles on B, staying there or transferring to A.
    let q = play(&q, "m8o8");
    assert_eq!(
        (on(&q, BoardId::B, "g8"), on(&q, BoardId::B, "f8")),
        (Some('k'), Some('r'))
    );
}
