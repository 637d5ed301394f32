//! The rules of standard Alice (docs/rules.md §1), one named test per rule, each on a hand-made
//! position whose expected legal and illegal moves were worked out by hand from the rules text.
//! FENs use the pipe form: `|N` = a knight standing on board B. The en passant option (§3.1) is
//! tested in `rules_en_passant.rs`; the assertions used here are in `vorpal_tests::rules_check`.

use vorpal_engine::game::outcome;
use vorpal_engine::{BoardId, CastleSide, Color, EndReason, GameResult, Move, MoveKind, Position, Rules};
use vorpal_tests::data::perft_cases;
use vorpal_tests::rules_check::{assert_illegal, assert_legal, cell, legal, list, moves_from, play_san, pos, sq};

// ---------------------------------------------------------------- §1: a move

#[test]
fn start_is_the_chess_array_on_board_a_with_board_b_empty() {
    let p = Position::startpos();
    assert!(p.occupied(BoardId::B).is_empty());
    assert_eq!(p.occupied(BoardId::A).count(), 32);
    assert_eq!(p.side_to_move(), Color::White);
    assert_eq!(p.to_fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(p, pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
}

#[test]
fn slider_blocked_only_by_pieces_on_its_own_board() {
    // Rook a1 (A): the white pawn on a4 stands on B, so it neither blocks nor can be landed on;
    // the black pawn on a6 stands on A, so it blocks (and can be captured).
    let p = pos("7k/8/p7/8/|P7/8/8/R6K w - - 0 1");
    assert_eq!(
        moves_from(&p, "a1"),
        list("a1a2 a1a3 a1a5 a1a6 a1b1 a1c1 a1d1 a1e1 a1f1 a1g1")
    );
    assert_illegal(&p, "a1a4");
    assert_illegal(&p, "a1a7");
    // Queen a1 on B: c3 (pawn on A) and e1 (king on A) are seen through but not landed on;
    // the own pawn on a4 of B blocks the file.
    let p = pos("7k/8/8/8/|P7/2p5/8/|Q3K3 w - - 0 1");
    assert_eq!(
        moves_from(&p, "a1"),
        list("a1a2 a1a3 a1b1 a1b2 a1c1 a1d1 a1d4 a1e5 a1f1 a1f6 a1g1 a1g7 a1h1")
    );
    for bad in ["a1a4", "a1a5", "a1c3", "a1e1", "a1h8"] {
        assert_illegal(&p, bad);
    }
}

#[test]
fn capture_only_on_own_board() {
    // Rook a1 and pawn e4 on A. Black pieces on A (a5, f5) can be taken; those on B (a3, d5)
    // cannot, and the rook passes under a3.
    let p = pos("7k/8/8/n2|n1b2/4P3/|n7/8/R6K w - - 0 1");
    assert_eq!(
        moves_from(&p, "a1"),
        list("a1a2 a1a4 a1a5 a1b1 a1c1 a1d1 a1e1 a1f1 a1g1")
    );
    assert_eq!(moves_from(&p, "e4"), list("e4e5 e4f5"));
    assert_illegal(&p, "a1a3");
    assert_illegal(&p, "e4d5");
    let mv = assert_legal(&p, "a1a5");
    assert!(mv.is_capture());
    let next = p.after(mv);
    assert_eq!(cell(&next, "a5"), Some(('R', 'B')));
    assert_eq!(next.piece_count(), p.piece_count() - 1);
}

#[test]
fn destination_must_be_empty_on_other_board() {
    // Knight g1 (A): f3 holds a white pawn on B and h3 a black pawn on B. Neither may be
    // landed on (the black pawn is not capturable: it is on the other board).
    let p = pos("4k3/8/8/8/8/5|P1|p/8/4K1N1 w - - 0 1");
    assert_eq!(moves_from(&p, "g1"), list("g1e2"));
    assert_illegal(&p, "g1f3");
    assert_illegal(&p, "g1h3");
}

#[test]
fn piece_transfers_to_other_board() {
    // 1.Nf3 e5 2.Nxe5/A: the knight goes A -> B -> A, the pawn A -> B.
    let game = play_san(Position::startpos(), &["Nf3", "e5", "Nxe5/A"]);
    let ps = game.positions();
    assert_eq!(cell(&ps[1], "f3"), Some(('N', 'B')));
    assert_eq!(cell(&ps[1], "g1"), None);
    assert_eq!(cell(&ps[2], "e5"), Some(('p', 'B')));
    assert_eq!(cell(&ps[3], "e5"), Some(('N', 'A')));
    assert_eq!(cell(&ps[3], "f3"), None);
    assert_eq!(
        ps[3].to_fen(),
        "rnbqkbnr/pppp1ppp/8/4N3/8/8/PPPPPPPP/RNBQKB1R b KQkq - 0 2"
    );
    // Every legal move of every suite position puts the piece on the other board.
    for case in perft_cases() {
        let p = pos(&case.fen);
        for mv in p.legal_moves() {
            let piece = p.moved_piece(mv).expect("a move moves a piece");
            let next = p.after(mv);
            assert_eq!(mv.to_board(), mv.from_board().other());
            let (dest, landed) = if mv.is_castle() {
                let king_to = sq(&p.move_to_uci(mv)[2..4]);
                (king_to, piece)
            } else {
                let kind = mv.promotion().unwrap_or(piece.kind());
                (mv.to(), vorpal_engine::Piece::new(piece.color(), kind))
            };
            assert_eq!(
                next.piece_on(mv.to_board(), dest),
                Some(landed),
                "{}: {mv:?}",
                case.name
            );
            assert_eq!(
                next.piece_at(mv.from()),
                None,
                "{}: {mv:?} leaves its square",
                case.name
            );
        }
    }
}

#[test]
fn square_never_occupied_on_both_boards() {
    let mut checked = 0;
    for case in perft_cases() {
        let p = pos(&case.fen);
        for mv in p.legal_moves() {
            let next = p.after(mv);
            for reply in next.legal_moves() {
                let last = next.after(reply);
                assert!((last.occupied(BoardId::A) & last.occupied(BoardId::B)).is_empty());
                assert_eq!(last.check_consistency(), Ok(()));
                checked += 1;
            }
        }
    }
    assert!(checked > 5_000);
}

// ---------------------------------------------------------------- §1: check

#[test]
fn check_only_from_pieces_on_kings_board() {
    // Rook and king on different boards: no check, in either direction.
    for fen in ["4k3/8/8/8/8/8/8/K3|R3 b - - 0 1", "4|k3/8/8/8/8/8/8/K3R3 b - - 0 1"] {
        let p = pos(fen);
        assert!(!p.in_check() && p.checkers().is_empty(), "{fen}");
    }
    // Same board: check, and a piece on the other board (|n on e4) does not block it.
    for fen in [
        "4k3/8/8/8/8/8/8/K3R3 b - - 0 1",
        "4|k3/8/8/8/8/8/8/K3|R3 b - - 0 1",
        "4k3/8/8/8/4|n3/8/8/K3R3 b - - 0 1",
    ] {
        let p = pos(fen);
        assert!(p.in_check(), "{fen}");
        assert_eq!(p.checkers().into_iter().collect::<Vec<_>>(), vec![sq("e1")], "{fen}");
    }
}

#[test]
fn king_cannot_transfer_out_of_check() {
    // Black king e8 (A) in check from Re1 (A): e7 is free and safe on B but attacked on A.
    let p = pos("4k3/8/8/8/8/8/8/K3R3 b - - 0 1");
    assert_eq!(legal(&p), list("e8d7 e8d8 e8f7 e8f8"));
    assert_illegal(&p, "e8e7");
    // Every flight square attacked on A while board B is empty: checkmate all the same.
    let p = pos("R6k/1R6/8/8/8/8/8/K7 b - - 0 1");
    assert!(p.in_check() && legal(&p).is_empty());
    assert_eq!(outcome(&p, &[]), Some((GameResult::WhiteWins, EndReason::Checkmate)));
}

#[test]
fn king_move_may_not_land_on_square_attacked_on_board_it_leaves() {
    // Black king e7 (A), in check from Re1 (A); Nc4 (A) covers d6. e8 is attacked on A only
    // through the king's own origin (x-ray); e6 and d6 directly. Board B is empty.
    let p = pos("8/4k3/8/8/2N5/8/8/K3R3 b - - 0 1");
    assert_eq!(legal(&p), list("e7d7 e7d8 e7f6 e7f7 e7f8"));
    for bad in ["e7e8", "e7e6", "e7d6"] {
        assert_illegal(&p, bad);
    }
}

#[test]
fn king_may_not_move_to_square_attacked_on_other_board() {
    // Black king e8 (A), not in check. On B: rook d1 covers the d-file (the pawn on d5 of A
    // does not block it) and knight h6 covers f7.
    let p = pos("4k3/8/7|N/3p4/8/8/8/K2|R4 b - - 0 1");
    assert!(!p.in_check());
    assert_eq!(moves_from(&p, "e8"), list("e8e7 e8f8"));
    for bad in ["e8d8", "e8d7", "e8f7"] {
        assert_illegal(&p, bad);
    }
}

#[test]
fn a_piece_from_board_b_interposes() {
    // White king e1 (A) in check from Re8 (A). The bishop g4 on B lands on e2 or e6 of A.
    let p = pos("4r2k/8/8/8/6|B1/8/8/4K3 w - - 0 1");
    assert!(p.in_check());
    assert_eq!(legal(&p), list("e1d1 e1d2 e1f1 e1f2 g4e2 g4e6"));
    assert_illegal(&p, "g4f3");
    let next = p.after(assert_legal(&p, "g4e6"));
    assert_eq!(cell(&next, "e6"), Some(('B', 'A')));
}

#[test]
fn pieces_on_kings_board_cannot_block_check() {
    // Same check, but the bishop g4 and knight c3 stand on A: moving to e2/e4/e6 leaves A.
    let p = pos("4r2k/8/8/8/6B1/2N5/8/4K3 w - - 0 1");
    assert!(p.in_check());
    assert_eq!(legal(&p), list("e1d1 e1d2 e1f1 e1f2"));
    for bad in ["g4e2", "g4e6", "c3e2", "c3e4"] {
        assert_illegal(&p, bad);
    }
}

#[test]
fn pinned_piece_cannot_leave_board_unless_it_captures_pinner() {
    // Re4 (A) is pinned by re8 (A): even moves along the pin line leave A and expose the king.
    let p = pos("4r2k/8/8/8/4R3/8/8/4K3 w - - 0 1");
    assert_eq!(legal(&p), list("e1d1 e1d2 e1e2 e1f1 e1f2 e4e8"));
    for bad in ["e4e5", "e4e7", "e4e3", "e4a4", "e4h4"] {
        assert_illegal(&p, bad);
    }
    let next = p.after(assert_legal(&p, "e4e8"));
    assert_eq!(cell(&next, "e8"), Some(('R', 'B')));
    // Only pieces on the king's board are pinned: with the knight e5 (A) as the shield, the
    // knight cannot move, while the rook e4 on B moves freely (landing on e6/e7 of A too).
    let p = pos("4r2k/8/8/4N3/4|R3/8/8/4K3 w - - 0 1");
    assert_eq!(moves_from(&p, "e5"), list(""));
    for bad in ["e5d7", "e5f7", "e5c6", "e5g4"] {
        assert_illegal(&p, bad);
    }
    let rook = "e4a4 e4b4 e4c4 e4d4 e4e2 e4e3 e4e6 e4e7 e4f4 e4g4 e4h4";
    assert_eq!(moves_from(&p, "e4"), list(rook));
}

#[test]
fn capturing_an_enemy_blocker_opens_line_is_illegal() {
    // Black knight e4 (A) shields White's king from re8. Bxe4 removes the knight from A and the
    // bishop transfers to B, so the e-file opens: illegal (in chess it would be legal).
    let p = pos("4r2k/8/8/8/2p1n3/3B4/8/4K3 w - - 0 1");
    assert!(!p.in_check());
    assert_eq!(moves_from(&p, "d3"), list("d3b1 d3c2 d3c4 d3e2 d3f1"));
    assert_illegal(&p, "d3e4");
    assert!(!p.is_legal(Move::new(
        sq("d3"),
        BoardId::A,
        sq("e4"),
        BoardId::B,
        MoveKind::Normal,
        true
    )));
}

#[test]
fn sample_game_3_bg1_is_legal_though_f2_on_a_is_occupied() {
    // The sample game, reconstructed from perft.epd (`sample_after_2..Bc5`, `sample_after_3.Nxf7`;
    // all White pawns are still on rank 2, so it opens with knight moves): 1.Nf3 e6 2.Ne5/A Bc5
    // 3.Nxf7, then 3...Bg1/A: the bishop c5 on B runs d4-e3-f2-g1 on B (f2 of A holds a pawn,
    // invisible from B) and lands on g1 of A, which the knight has left.
    let game = play_san(Position::startpos(), &["Nf3", "e6", "Ne5/A", "Bc5", "Nxf7"]);
    let p = *game.position();
    assert_eq!(
        p.to_fen(),
        "rnbqk1nr/pppp1|Npp/4|p3/2|b5/8/8/PPPPPPPP/RNBQKB1R b KQkq - 0 3"
    );
    assert!(!p.in_check(), "the knight on f7 of B does not check the king on A");
    let expected = "a7a5 a7a6 b7b5 b7b6 b8a6 b8c6 c5a3 c5b4 c5b6 c5d4 c5d6 c5e3 c5e7 c5f8 c5g1 c7c6 d7d5 d7d6 \
                    d8e7 d8f6 d8g5 d8h4 e6e5 e8e7 e8f8 g7g5 g7g6 g8e7 g8f6 g8h6 h7h5 h7h6";
    assert_eq!(legal(&p), list(expected));
    assert_illegal(&p, "c5f2");
    let bg1 = assert_legal(&p, "c5g1");
    assert_eq!(p.move_to_san(bg1), "Bg1/A");
    assert_eq!(cell(&p.after(bg1), "g1"), Some(('b', 'A')));
}

// ---------------------------------------------------------------- §1: castling

#[test]
fn castling_blocked_by_piece_on_g1_of_board_b_but_not_by_one_on_b1() {
    let p = pos("4k3/8/8/8/8/8/8/R|N2K1|NR w KQ - 0 1");
    assert_illegal(&p, "e1g1");
    let next = p.after(assert_legal(&p, "e1c1"));
    assert_eq!(cell(&next, "b1"), Some(('N', 'B')));
    // The rook's destination f1 (or d1) occupied on B blocks too.
    assert_illegal(&pos("4k3/8/8/8/8/8/8/R3K|N1R w KQ - 0 1"), "e1g1");
    assert_illegal(&pos("4k3/8/8/8/8/8/8/R2|NK2R w KQ - 0 1"), "e1c1");
    // A piece between king and rook on A blocks as in chess.
    let p = pos("4k3/8/8/8/8/8/8/RN2K1NR w KQ - 0 1");
    assert_illegal(&p, "e1g1");
    assert_illegal(&p, "e1c1");
}

#[test]
fn castling_not_through_attacked_square_on_its_board() {
    // f1 attacked on A (ba6): no O-O; c1/d1 free: O-O-O.
    let p = pos("4k3/8/b7/8/8/8/8/R3K2R w KQ - 0 1");
    assert_illegal(&p, "e1g1");
    assert_legal(&p, "e1c1");
    // g1 (landing square) attacked on A (rg8): no O-O.
    let p = pos("4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_illegal(&p, "e1g1");
    assert_legal(&p, "e1c1");
    // f1 attacked only on B (bishop h3 on B): the king passes f1 of A, so O-O is legal.
    let p = pos("4k3/8/8/8/8/7|b/8/R3K2R w KQ - 0 1");
    assert_legal(&p, "e1g1");
    assert_legal(&p, "e1c1");
    // b1 attacked (be4 on A): only the rook passes it.
    let p = pos("4k3/8/8/8/4b3/8/8/R3K2R w KQ - 0 1");
    assert_legal(&p, "e1c1");
    assert_legal(&p, "e1g1");
}

#[test]
fn castling_not_out_of_check() {
    let p = pos("4k3/8/8/8/8/3n4/8/R3K2R w KQ - 0 1");
    assert!(p.in_check());
    assert_illegal(&p, "e1g1");
    assert_illegal(&p, "e1c1");
    // A rook on e5 of B "attacks" e1 only on B: the king on A is not in check and may castle.
    let p = pos("4k3/8/8/4|r3/8/8/8/R3K2R w KQ - 0 1");
    assert!(!p.in_check());
    assert_legal(&p, "e1g1");
    assert_legal(&p, "e1c1");
}

#[test]
fn castling_king_must_be_safe_after_transfer_rook_counts_as_blocker() {
    // Bishop h2 on B covers g1 of B: O-O would put the king in check there.
    let p = pos("4k3/8/8/8/8/8/7|b/R3K2R w KQ - 0 1");
    assert_illegal(&p, "e1g1");
    assert_legal(&p, "e1c1");
    // Rook d1 on B looks along rank 1 of B; after O-O the white rook on f1 of B shields g1.
    // (O-O-O is impossible: d1 is occupied on B.)
    let p = pos("4k3/8/8/8/8/8/8/R2|rK2R w KQ - 0 1");
    assert_legal(&p, "e1g1");
    assert_illegal(&p, "e1c1");
    // Mirror image: rook g1 on B, the rook landing on d1 of B shields c1.
    let p = pos("4k3/8/8/8/8/8/8/R3K1|rR w KQ - 0 1");
    assert_legal(&p, "e1c1");
    assert_illegal(&p, "e1g1");
}

#[test]
fn castling_transfers_king_and_rook() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let oo = assert_legal(&p, "e1g1");
    assert!(oo.is_castle());
    assert_eq!(p.move_to_san(oo), "O-O");
    let p = p.after(oo);
    assert_eq!(cell(&p, "g1"), Some(('K', 'B')));
    assert_eq!(cell(&p, "f1"), Some(('R', 'B')));
    assert_eq!((cell(&p, "e1"), cell(&p, "h1")), (None, None));
    let ooo = assert_legal(&p, "e8c8");
    let p = p.after(ooo);
    assert_eq!(p.to_fen(), "2|k|r3r/8/8/8/8/8/8/R4|R|K1 w - - 2 2");
    // King and rook that both stand on B castle on B and land on A.
    let p = pos("4k3/8/8/8/8/8/8/4|K2|R w K - 0 1");
    let p = p.after(assert_legal(&p, "e1g1"));
    assert_eq!((cell(&p, "g1"), cell(&p, "f1")), (Some(('K', 'A')), Some(('R', 'A'))));
}

#[test]
fn castling_rights_lost_after_king_or_rook_moves() {
    let start = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let has = |p: &Position, c: Color, s: CastleSide| p.castling().has(c, s);
    // Ra1-a2 (to B) and back to a1 (on A again): the right does not come back. Same for Black.
    let game = play_san(start, &["Ra2", "Ra7", "Ra1/A", "Ra8/A"]);
    let p = *game.position();
    assert!(!has(&p, Color::White, CastleSide::Queen) && has(&p, Color::White, CastleSide::King));
    assert!(!has(&p, Color::Black, CastleSide::Queen) && has(&p, Color::Black, CastleSide::King));
    assert_eq!(p.to_fen(), "r3k2r/8/8/8/8/8/8/R3K2R w Kk - 4 3");
    assert_illegal(&p, "e1c1");
    assert_legal(&p, "e1g1");
    // A king move loses both rights.
    let p = start.after(assert_legal(&start, "e1d1"));
    assert!(!has(&p, Color::White, CastleSide::King) && !has(&p, Color::White, CastleSide::Queen));
    assert!(has(&p, Color::Black, CastleSide::King) && has(&p, Color::Black, CastleSide::Queen));
    // Capturing a rook on its square removes the opponent's right on that side.
    let p = start.after(assert_legal(&start, "h1h8"));
    assert_eq!(p.to_fen(), "r3k2|R/8/8/8/8/8/8/R3K3 b Qq - 0 1");
    assert_illegal(&p, "e8g8");
}

// ---------------------------------------------------------------- §1: pawns

#[test]
fn double_step_blocked_only_by_the_passed_square_of_its_own_board() {
    // c2 (A): c3 occupied on A, blocked. e2 (A): e3 occupied on B only, so the single step is
    // illegal (landing) but the double step passes e3 of A. g2 (B): g3 occupied on A only.
    let p = pos("4k3/8/8/8/8/2n1|n1n1/2P1P1|P1/4K3 w - - 0 1");
    let pawns: Vec<String> = ["c2", "e2", "g2"]
        .iter()
        .flat_map(|from| moves_from(&p, from))
        .collect();
    assert_eq!(pawns, list("e2e4 g2g4"));
    for bad in ["c2c3", "c2c4", "e2e3", "g2g3"] {
        assert_illegal(&p, bad);
    }
    let mv = assert_legal(&p, "e2e4");
    assert_eq!(mv.kind(), MoveKind::DoublePush);
    assert_eq!(cell(&p.after(mv), "e4"), Some(('P', 'B')));
    assert_eq!(cell(&p.after(assert_legal(&p, "g2g4")), "g4"), Some(('P', 'A')));
}

#[test]
fn double_step_destination_must_be_empty_on_both_boards() {
    // c4 occupied on A (the pawn's board), e4 occupied on B: no double step for either pawn.
    let p = pos("4k3/8/8/8/2n1|n3/8/2P1P3/4K3 w - - 0 1");
    assert_eq!(moves_from(&p, "c2"), list("c2c3"));
    assert_eq!(moves_from(&p, "e2"), list("e2e3"));
    assert_illegal(&p, "c2c4");
    assert_illegal(&p, "e2e4");
}

#[test]
fn promotion_piece_transfers() {
    // b7 pushes; d7 cannot push (d8 is occupied on B) but takes on c8 like b7; g7 is on B.
    let p = pos("2r|n4/1P1P2|P1/8/8/8/8/8/4K2k w - - 0 1");
    let promos = |from: &str, to: &str| ["q", "r", "b", "n"].map(|c| format!("{from}{to}{c}")).join(" ");
    let expected = [
        promos("b7", "b8"),
        promos("b7", "c8"),
        promos("d7", "c8"),
        promos("g7", "g8"),
    ]
    .join(" ");
    let pawns: Vec<String> = legal(&p).into_iter().filter(|m| m.len() == 5).collect();
    assert_eq!(pawns, list(&expected));
    assert_illegal(&p, "d7d8q");
    assert!(p.parse_uci("b7b8").is_err(), "a promotion must name its piece");
    let q = assert_legal(&p, "b7b8q");
    assert_eq!(p.move_to_san(q), "b8=Q");
    assert_eq!(cell(&p.after(q), "b8"), Some(('Q', 'B')));
    let n = assert_legal(&p, "d7c8n");
    assert_eq!(p.move_to_san(n), "dxc8=N");
    let next = p.after(n);
    assert_eq!((cell(&next, "c8"), cell(&next, "d7")), (Some(('N', 'B')), None));
    assert_eq!(cell(&p.after(assert_legal(&p, "g7g8r")), "g8"), Some(('R', 'A')));
}

// ---------------------------------------------------------------- §1: end of game

#[test]
fn checkmate_and_stalemate_detected() {
    // 1.e4 d5 2.Be2 dxe4/A 3.Bb5#/A: the bishop returns to A and mates; nothing on B can block.
    let game = play_san(Position::startpos(), &["e4", "d5", "Be2", "dxe4/A", "Bb5/A#"]);
    let p = *game.position();
    assert_eq!(
        p.to_fen(),
        "rnbqkbnr/ppp1pppp/8/1B6/4p3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3"
    );
    assert!(p.in_check() && legal(&p).is_empty());
    assert_eq!(game.outcome(), Some((GameResult::WhiteWins, EndReason::Checkmate)));
    assert_eq!(outcome(&game.positions()[4], &game.positions()[..4]), None);
    // Stalemate: king h8 on A, queen g6 on B covers g8, g7 and h7 of B only.
    let p = pos("7k/8/6|Q1/8/8/8/8/K7 b - - 0 1");
    assert!(!p.in_check() && legal(&p).is_empty());
    assert_eq!(outcome(&p, &[]), Some((GameResult::Draw, EndReason::Stalemate)));
}

#[test]
fn fifty_move_rule() {
    let p = pos("4k3/8/8/n7/8/8/7P/R3K3 w - - 99 60");
    assert_eq!(outcome(&p, &[]), None);
    let quiet = p.after(assert_legal(&p, "a1a2"));
    assert_eq!(quiet.halfmove_clock(), 100);
    assert_eq!(outcome(&quiet, &[p]), Some((GameResult::Draw, EndReason::FiftyMoves)));
    for reset in ["a1a5", "h2h3", "h2h4"] {
        let next = p.after(assert_legal(&p, reset));
        assert_eq!(next.halfmove_clock(), 0, "{reset}");
        assert_eq!(outcome(&next, &[p]), None, "{reset}");
    }
    // Mate given on the hundredth ply is mate: Rh8/A from B.
    let p = pos("k7/8/1K6/8/8/8/8/7|R w - - 99 80");
    let mate = p.after(assert_legal(&p, "h1h8"));
    assert_eq!(mate.halfmove_clock(), 100);
    assert_eq!(
        outcome(&mate, &[p]),
        Some((GameResult::WhiteWins, EndReason::Checkmate))
    );
}

#[test]
fn threefold_repetition_is_board_aware() {
    // The real one: knights out and back twice, the start position occurs three times.
    let shuffle = ["Nf3", "Nf6", "Ng1/A", "Ng8/A"];
    let game = play_san(Position::startpos(), &[shuffle, shuffle].concat());
    let ps = game.positions();
    assert_eq!(ps[4].key(), ps[0].key());
    assert_eq!(outcome(&ps[4], &ps[..4]), None);
    assert_eq!(game.outcome(), Some((GameResult::Draw, EndReason::Threefold)));
    // A knight back on its square has always moved an even number of times, so it is back on
    // its board; rooks can return on the other board: Ra1-a4-a2-a1 and Rh8-h5-h7-h8 (three
    // moves each) bring every piece back to its square but the rooks to B. Not the same
    // position: it needs a second cycle to return to the start, and a fourth for a threefold.
    let from_a = ["Ra4", "Rh5", "Ra2/A", "Rh7/A", "Ra1", "Rh8"];
    let from_b = ["Ra4/A", "Rh5/A", "Ra2", "Rh7", "Ra1/A", "Rh8/A"];
    let start = pos("4k2r/8/8/8/8/8/8/R3K3 w - - 0 1");
    let game = play_san(start, &[from_a, from_b, from_a, from_b].concat());
    let ps = game.positions();
    assert_eq!(ps[6].to_fen(), "4k2|r/8/8/8/8/8/8/|R3K3 w - - 6 4");
    assert_ne!(ps[6].key(), ps[0].key());
    for n in 1..24 {
        assert_eq!(outcome(&ps[n], &ps[..n]), None, "ply {n}");
    }
    assert_eq!(ps[12].key(), ps[0].key());
    assert_eq!(ps[18].key(), ps[6].key());
    assert_eq!(
        outcome(&ps[24], &ps[..24]),
        Some((GameResult::Draw, EndReason::Threefold))
    );
}

#[test]
fn bare_kings_is_draw_but_king_and_bishop_is_not() {
    let bare = Some((GameResult::Draw, EndReason::BareKings));
    assert_eq!(outcome(&pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), &[]), bare);
    assert_eq!(outcome(&pos("4|k3/8/8/8/8/8/8/4K3 b - - 0 1"), &[]), bare);
    for fen in [
        "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/2|B1K3 b - - 0 1",
        "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1",
        "4k3/8/8/8/8/8/5b2/4K3 w - - 0 1",
    ] {
        assert_eq!(outcome(&pos(fen), &[]), None, "{fen}");
    }
    // Capturing the last piece ends the game.
    let p = pos("4k3/8/8/8/8/8/8/3nK3 w - - 0 1");
    assert_eq!(outcome(&p.after(assert_legal(&p, "e1d1")), &[p]), bare);
}

#[test]
fn zobrist_key_includes_board_of_every_piece() {
    let a = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    let b = pos("4k3/8/8/8/8/8/8/|R3K3 w - - 0 1");
    assert_ne!(a.key(), b.key());
    // Move each piece of some suite positions to the other board, one at a time.
    let mut variants = 0;
    for case in perft_cases()
        .iter()
        .filter(|c| c.name.starts_with("mid_") || c.name.starts_with("sample"))
    {
        let base = pos(&case.fen);
        let (placement, rest) = case.fen.split_once(' ').unwrap();
        let mut keys = vec![base.key()];
        for (i, _) in placement.char_indices().filter(|(_, c)| c.is_ascii_alphabetic()) {
            let toggled = if placement[..i].ends_with('|') {
                format!("{}{}", &placement[..i - 1], &placement[i..])
            } else {
                format!("{}|{}", &placement[..i], &placement[i..])
            };
            let fen = format!("{toggled} {rest}");
            let Ok(p) = Position::from_fen(&fen, Rules::default()) else {
                continue; // e.g. the move to the other board puts the side not to move in check
            };
            assert_eq!(p.to_fen(), fen);
            assert!(!keys.contains(&p.key()), "{fen}: key collides");
            keys.push(p.key());
            variants += 1;
        }
    }
    assert!(variants > 80, "only {variants} variants");
}

#[test]
fn same_position_by_two_move_orders_has_same_key() {
    let orders: [(&[&str], &[&str]); 3] = [
        (&["Nf3", "e6", "Nc3"], &["Nc3", "e6", "Nf3"]),
        (&["e4", "e5", "Nf3", "Nc6"], &["Nf3", "Nc6", "e4", "e5"]),
        (&["Nf3", "Nf6", "Ne5/A", "Nc6"], &["Nf3", "Nc6", "Ne5/A", "Nf6"]),
    ];
    for (first, second) in orders {
        let (x, y) = (
            play_san(Position::startpos(), first),
            play_san(Position::startpos(), second),
        );
        let (x, y) = (x.position(), y.position());
        // Same placement (boards included), side and castling rights; the clocks and the
        // en passant field (no en passant in the default rules) may differ.
        let head = |p: &Position| p.to_fen().split(' ').take(3).collect::<Vec<_>>().join(" ");
        assert_eq!(head(x), head(y));
        assert!(vorpal_engine::game::same_position(x, y));
        assert_eq!(x.key(), y.key(), "{first:?} / {second:?}");
        assert_eq!(x.key(), pos(&x.to_fen()).key());
    }
}
