//! Named rule tests for docs/rules.md §3.2 (Looking-glass Alice) and §3.3 (Lady Alice), one test per
//! sentence of the rules text, on hand-made positions (pipe FEN: `|p` = a piece on board B; wide
//! moves: files a-h = board A, i-p = board B).

use vorpal_engine::game::outcome;
use vorpal_engine::{BoardId, CastleSide, Color, EndReason, MoveKind, MoveStyle, Position, Rules, Variant};
use vorpal_tests::variant_check::{legal_move, no_move, not_legal, on, play, vpos, wide_from, wide_moves};

const LG: Variant = Variant::LookingGlass;
const LADY: Variant = Variant::LadyAlice;

// ------------------------------------------------------------------ 3.2 Looking-glass Alice

#[test]
fn lookingglass_black_army_starts_on_board_b() {
    let fen = "|r|n|b|q|k|b|n|r/|p|p|p|p|p|p|p|p/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(LG.start_fen(), fen);
    let p = Position::start(Rules::for_variant(LG));
    assert_eq!(p.to_fen(), fen);
    assert_eq!(p.color_on(BoardId::B, Color::Black).count(), 16);
    assert_eq!(p.color_on(BoardId::A, Color::White).count(), 16);
    assert!(p.color_on(BoardId::A, Color::Black).is_empty());
    assert_eq!(p.king_board(Color::Black), BoardId::B);
    // Black's pieces move on B and transfer to A: 1.e4 (A to B) e5 (B to A).
    let p = play(&p, "e2e4");
    let p = play(&p, "e7e5");
    assert_eq!(on(&p, BoardId::A, "e5"), Some('p'));
    assert_eq!(on(&p, BoardId::B, "e4"), Some('P'));
}

#[test]
fn lookingglass_black_castles_on_b() {
    let p = vpos(LG, "|r3|k2|r/|p|p|p|p|p|p|p|p/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1");
    // Both black castlings start on B and transfer king and rook to A.
    let q = play(&p, "e8g8");
    assert_eq!(
        (on(&q, BoardId::A, "g8"), on(&q, BoardId::A, "f8")),
        (Some('k'), Some('r'))
    );
    let q = play(&p, "e8c8");
    assert_eq!(
        (on(&q, BoardId::A, "c8"), on(&q, BoardId::A, "d8")),
        (Some('k'), Some('r'))
    );
    // A piece between king and rook on B prevents it; one on A between them does not, one on A
    // on a destination square does.
    let p = vpos(LG, "|r3|k|n1|r/8/8/8/8/8/8/4K3 b kq - 0 1");
    no_move(&p, "e8g8");
    let p = vpos(LG, "|r3|k1n|r/8/8/8/8/8/8/4K3 b kq - 0 1");
    no_move(&p, "e8g8");
    let p = vpos(LG, "|rn2|k2|r/8/8/8/8/8/8/4K3 b kq - 0 1");
    legal_move(&p, "e8c8");
}

// ------------------------------------------------------------------ 3.3 Lady Alice

#[test]
fn ladyalice_a_piece_may_move_to_its_empty_square_of_the_other_board() {
    let p = Position::start(Rules::for_variant(LADY));
    assert_eq!(p.to_fen(), Variant::Alice.start_fen());
    // 20 ordinary moves and a null move for each of the 16 pieces (pawns included).
    let nulls: Vec<String> = wide_moves(&p)
        .into_iter()
        .filter(|m| m[..1] == m[2..3] || (m.as_bytes()[0] + 8 == m.as_bytes()[2] && m[1..2] == m[3..4]))
        .collect();
    assert_eq!(nulls.len(), 16, "{nulls:?}");
    assert_eq!(p.count_legal(), 36);
    let mv = legal_move(&p, "g1g1");
    assert_eq!(mv.kind(), MoveKind::Null);
    let q = p.after(mv);
    assert_eq!((on(&q, BoardId::A, "g1"), on(&q, BoardId::B, "g1")), (None, Some('N')));
    // The knight comes back by a null move from B.
    let q = play(&q, "e7e7");
    let back = play(&q, "g1g1");
    assert_eq!(on(&back, BoardId::A, "g1"), Some('N'));
}

#[test]
fn ladyalice_null_move_square_is_always_empty_there_and_never_shared() {
    // Every move transfers to an empty square or null-moves to one: a square is never occupied
    // on both boards, so Lady Alice positions with a shared square are rejected.
    let err = Position::from_fen(
        "4k3/8/8/8/4N3/8/8/4K3|8/8/8/8/4n3/8/8/8 w - - 0 1",
        Rules::for_variant(LADY),
    )
    .unwrap_err();
    assert!(err.0.contains("both boards"), "{err}");
}

#[test]
fn ladyalice_pawn_null_move_keeps_its_double_step() {
    let p = vpos(LADY, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    let q = play(&p, "e2e2");
    assert_eq!(on(&q, BoardId::B, "e2"), Some('P'));
    let q = play(&q, "e8d8");
    // From B, the pawn still stands on its initial rank: the double step lands on A.
    let r = play(&q, "e2e4");
    assert_eq!(on(&r, BoardId::A, "e4"), Some('P'));
}

#[test]
fn ladyalice_king_may_not_escape_check_by_a_null_move() {
    // Black rook e8 (A) checks the king on e1 (A); e1 of B is not attacked, still no null move.
    let p = vpos(LADY, "k3r3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert!(p.in_check());
    no_move(&p, "e1e1");
    assert_eq!(wide_from(&p, "e1"), vec!["e1l1", "e1l2", "e1n1", "e1n2"]);
    // Not in check, the king may null-move.
    let p = vpos(LADY, "k2r4/8/8/8/8/8/8/4K3 w - - 0 1");
    legal_move(&p, "e1e1");
}

#[test]
fn ladyalice_king_null_move_may_not_land_in_check() {
    // The rook on e8 of B attacks e1 of B.
    let p = vpos(LADY, "k3|r3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert!(!p.in_check());
    no_move(&p, "e1e1");
}

#[test]
fn ladyalice_other_pieces_may_block_a_check_by_a_null_move() {
    // The knight on e4 of B null-moves to e4 of A, between the rook and the king.
    let p = vpos(LADY, "k3r3/8/8/8/4|N3/8/8/4K3 w - - 0 1");
    assert!(p.in_check());
    let q = play(&p, "e4e4");
    assert!(!q.king_in_check(Color::White));
    // A pinned piece may not null-move away from its line.
    let p = vpos(LADY, "4r2k/8/8/8/4B3/8/8/4K3 w - - 0 1");
    no_move(&p, "e4e4");
}

#[test]
fn ladyalice_king_or_rook_that_made_a_null_move_loses_castling_rights() {
    let p = vpos(LADY, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let rook = play(&p, "h1h1");
    assert!(!rook.castling().has(Color::White, CastleSide::King));
    assert!(rook.castling().has(Color::White, CastleSide::Queen));
    // The rook returning to h1 of A does not bring the right back.
    let back = play(&play(&rook, "a8b8"), "h1h1");
    assert_eq!(on(&back, BoardId::A, "h1"), Some('R'));
    assert!(!back.castling().has(Color::White, CastleSide::King));
    not_legal(&back, "e1o1");
    let king = play(&p, "e1e1");
    assert!(!king.castling().has(Color::White, CastleSide::King));
    assert!(!king.castling().has(Color::White, CastleSide::Queen));
    let back = play(&play(&king, "a8b8"), "e1e1");
    assert_eq!(back.to_fen(), "1|r2k2r/8/8/8/8/8/8/R3K2R b k - 3 2");
}

#[test]
fn ladyalice_castling_is_otherwise_standard() {
    let p = vpos(LADY, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let q = play(&p, "e1g1");
    assert_eq!(
        (on(&q, BoardId::B, "g1"), on(&q, BoardId::B, "f1")),
        (Some('K'), Some('R'))
    );
}

#[test]
fn ladyalice_null_move_is_written_e4e4_plain_and_e4m4_wide() {
    let p = vpos(LADY, "4k3/8/8/8/4N3/8/8/4K3 w - - 0 1");
    let mv = p.parse_uci("e4e4").unwrap();
    assert_eq!(p.move_to_uci(mv), "e4e4");
    assert_eq!(p.move_to_text(mv, MoveStyle::Wide), "e4m4");
    assert_eq!(p.parse_uci("e4m4"), Ok(mv));
    assert_eq!(p.move_to_san(mv), "Ne4e4");
    assert_eq!(p.parse_san("Ne4e4"), Ok(mv));
    // From B the null move lands on A: `m4e4` wide, `Nm4e4/A` in SAN.
    let q = play(&play(&p, "e4e4"), "e8d8");
    let back = q.parse_uci("e4e4").unwrap();
    assert_eq!(q.move_to_text(back, MoveStyle::Wide), "m4e4");
    assert_eq!(q.move_to_san(back), "Nm4e4/A");
    assert_eq!(q.parse_san("Nm4e4/A"), Ok(back));
}

#[test]
fn ladyalice_pawn_null_move_keeps_the_fifty_move_clock_running() {
    let p = vpos(LADY, "4k3/8/8/8/8/8/4P3/4K3 w - - 7 30");
    assert_eq!(play(&p, "e2e2").halfmove_clock(), 8);
    assert_eq!(play(&p, "e2e3").halfmove_clock(), 0);
}

#[test]
fn ladyalice_null_moves_count_for_mate_and_stalemate() {
    // Mate in standard Alice would need all flights covered; here the knight can interpose by a
    // null move, so it is not mate.
    let p = vpos(LADY, "k3r3/8/8/8/4|N3/8/3P1P2/3RKR2 w - - 0 1");
    assert!(p.in_check());
    assert_eq!(wide_moves(&p), vec!["m4e4"]);
    assert_eq!(outcome(&p, &[]), None);
    let p = vpos(LADY, "k3r3/8/8/8/8/8/3P1P2/3RKR2 w - - 0 1");
    assert_eq!(outcome(&p, &[]).map(|(_, r)| r), Some(EndReason::Checkmate));
}
