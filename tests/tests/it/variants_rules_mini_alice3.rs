//! Named rule tests for docs/rules.md §3.6 (Mini Alice) and §3.7 (three-board Alice), one test per
//! sentence of the rules text. Mini Alice FENs have ranks of 4 files; three-board positions with
//! pieces on C use the joined form `placementA|placementB|placementC`; wide moves name board C
//! with the files q-x.

use vorpal_engine::{BoardId, Color, EnPassant, MoveParseError, Position, Rules, Variant};
use vorpal_tests::variant_check::{legal_move, no_move, not_legal, on, play, vpos, wide_from, wide_moves};

const MINI: Variant = Variant::MiniAlice;
const A3: Variant = Variant::Alice3;

// ------------------------------------------------------------------ 3.6 Mini Alice

#[test]
fn minialice_two_boards_of_four_files() {
    assert_eq!((MINI.boards(), MINI.files()), (2, 4));
    let p = Position::start(Rules::for_variant(MINI));
    assert_eq!(p.boards(), &[BoardId::A, BoardId::B]);
    // Files e-h do not exist: no piece there, no move there, no FEN rank of 8 plain files.
    assert!((p.occupied_any() & !MINI.valid_squares()).is_empty());
    assert!(Position::from_fen(
        "rqkr4/nbbn4/pppp4/8/8/PPPP4/NBBN4/RQKR4 w - - 0 1",
        Rules::for_variant(MINI)
    )
    .is_ok());
    let wide_only = Position::from_fen(
        "rqkr4/nbbn4/pppp4/8/8/PPPP4/NBBN4/RQKR4 w - - 0 1",
        Rules::for_variant(MINI),
    )
    .unwrap()
    .to_fen();
    assert_eq!(
        wide_only,
        MINI.start_fen(),
        "8 files are the wide form: 4 of A, then 4 of B"
    );
    assert!(Position::from_fen("rqkr/nbbn/pppp/4/4/PPPP/NBBN/RQK1R w - - 0 1", Rules::for_variant(MINI)).is_err());
}

#[test]
fn minialice_start_position() {
    let p = Position::start(Rules::for_variant(MINI));
    assert_eq!(p.to_fen(), "rqkr/nbbn/pppp/4/4/PPPP/NBBN/RQKR w - - 0 1");
    let white = [
        "a1R", "b1Q", "c1K", "d1R", "a2N", "b2B", "c2B", "d2N", "a3P", "b3P", "c3P", "d3P",
    ];
    for cell in white {
        assert_eq!(on(&p, BoardId::A, &cell[..2]), cell.chars().nth(2), "{cell}");
        let mirrored = format!("{}{}", &cell[..1], 9 - cell[1..2].parse::<u8>().unwrap());
        assert_eq!(
            on(&p, BoardId::A, &mirrored),
            cell.chars().nth(2).map(|c| c.to_ascii_lowercase())
        );
    }
    assert_eq!(wide_moves(&p), vec!["a2j4", "a3i4", "b3j4", "c3k4", "d2k4", "d3l4"]);
}

#[test]
fn minialice_sliders_stop_at_the_edge() {
    let p = vpos(MINI, "k3/4/4/4/3R/4/4/K3 w - - 0 1");
    assert_eq!(
        wide_from(&p, "d4"),
        vec!["d4i4", "d4j4", "d4k4", "d4l1", "d4l2", "d4l3", "d4l5", "d4l6", "d4l7", "d4l8"]
    );
    no_move(&p, "d4e4");
    let p = vpos(MINI, "k3/4/4/4/2B1/4/4/K3 w - - 0 1");
    assert_eq!(wide_from(&p, "c4").len(), 6);
}

#[test]
fn minialice_knights_and_kings_stay_on_the_board() {
    let p = vpos(MINI, "k3/4/4/4/4/2N1/4/3K w - - 0 1");
    assert_eq!(wide_from(&p, "c3"), vec!["c3i2", "c3i4", "c3j1", "c3j5", "c3l5"]);
    assert_eq!(wide_from(&p, "d1"), vec!["d1k1", "d1k2", "d1l2"]);
}

#[test]
fn minialice_pawns_step_one_square_without_double_step() {
    let p = Position::start(Rules::for_variant(MINI));
    no_move(&p, "a3a5");
    // Not even from the second rank.
    let p = vpos(MINI, "k3/4/4/4/4/4/1P2/K3 w - - 0 1");
    assert_eq!(wide_from(&p, "b2"), vec!["b2j3"]);
    // So there is no en passant, whatever the option says.
    assert_eq!(
        Rules::for_variant(MINI).with_ep(EnPassant::Normal).ep_mode(),
        EnPassant::Off
    );
}

#[test]
fn minialice_pawns_promote_on_the_last_rank() {
    let p = vpos(MINI, "3k/1P2/4/4/4/4/4/K3 w - - 0 1");
    assert_eq!(wide_from(&p, "b7"), vec!["b7j8b", "b7j8n", "b7j8q", "b7j8r"]);
    let q = play(&p, "b7b8q");
    assert_eq!(on(&q, BoardId::B, "b8"), Some('Q'));
}

#[test]
fn minialice_has_no_castling() {
    assert!(!MINI.has_castling());
    let err = Position::from_fen(
        "rqkr/nbbn/pppp/4/4/PPPP/NBBN/RQKR w KQkq - 0 1",
        Rules::for_variant(MINI),
    )
    .unwrap_err();
    assert!(err.0.contains("no castling"), "{err}");
    let p = vpos(MINI, "1k2/4/4/4/4/4/4/R1K1 w - - 0 1");
    assert!(p.legal_moves().iter().all(|m| !m.is_castle()));
    assert!(MINI.chess960_fen(0).is_none());
}

#[test]
fn minialice_otherwise_standard_alice() {
    // Every move transfers; the landing square must be empty on the other board; check only on
    // the king's board.
    let p = vpos(MINI, "k3/4/4/4/1|p2/4/N3/K3 w - - 0 1");
    not_legal(&p, "a2j4");
    assert_eq!(wide_from(&p, "a2"), vec!["a2k1", "a2k3"]);
    let p = vpos(MINI, "k3/4/4/4/4/4/4/K2|r w - - 0 1");
    assert!(!p.in_check());
}

// ------------------------------------------------------------------ 3.7 three-board Alice

#[test]
fn three_board_alice_has_boards_a_b_and_c() {
    let p = Position::start(Rules::for_variant(A3));
    assert_eq!(p.boards(), &[BoardId::A, BoardId::B, BoardId::C]);
    assert_eq!(p.to_fen(), Variant::Alice.start_fen());
    let p = vpos(A3, "4k3/8/8/8/8/8/8/4K3|8/8/8/8/8/8/8/8|8/8/8/8/3n4/8/8/8 w - - 0 1");
    assert_eq!(on(&p, BoardId::C, "d4"), Some('n'));
    assert_eq!(
        p.to_fen(),
        "4k3/8/8/8/8/8/8/4K3|8/8/8/8/8/8/8/8|8/8/8/8/3n4/8/8/8 w - - 0 1"
    );
}

#[test]
fn three_board_a_move_may_land_on_either_other_board_if_empty_there() {
    let p = Position::start(Rules::for_variant(A3));
    assert_eq!(wide_from(&p, "e2"), vec!["e2m3", "e2m4", "e2u3", "e2u4"]);
    assert_eq!(p.parse_uci("e2e4"), Err(MoveParseError::Ambiguous("e2e4".into())));
    let to_b = legal_move(&p, "e2m4");
    let to_c = legal_move(&p, "e2u4");
    assert_eq!((to_b.to_board(), to_c.to_board()), (BoardId::B, BoardId::C));
    assert_eq!(
        (p.move_to_uci(to_b), p.move_to_uci(to_c)),
        ("e2m4".to_string(), "e2u4".to_string())
    );
    assert_eq!(
        (p.move_to_san(to_b), p.move_to_san(to_c)),
        ("e4".to_string(), "e4/C".to_string())
    );
    // Occupied on B: only C; occupied on both: no move there.
    let p = vpos(A3, "4k3/8/8/8/|n7/8/P7/4K3 w - - 0 1");
    assert_eq!(wide_from(&p, "a2"), vec!["a2i3", "a2q3", "a2q4"]);
    let p = vpos(A3, "4k3/8/8/8/8/8/P7/4K3|8/8/8/8/n7/8/8/8|8/8/8/8/n7/8/8/8 w - - 0 1");
    assert_eq!(wide_from(&p, "a2"), vec!["a2i3", "a2q3"]);
}

#[test]
fn three_board_a_square_may_be_occupied_on_several_boards() {
    // The landing square must be empty only on the chosen board.
    let p = vpos(A3, "4k3/8/8/8/8/8/8/3QK3|8/8/8/8/8/8/8/8|8/8/8/8/3n4/8/8/8 w - - 0 1");
    let q = play(&p, "d1l4");
    assert_eq!(
        (on(&q, BoardId::B, "d4"), on(&q, BoardId::C, "d4")),
        (Some('Q'), Some('n'))
    );
    assert_eq!(q.check_consistency(), Ok(()));
    assert_eq!(Position::from_fen(&q.to_fen(), q.rules()).unwrap(), q);
}

#[test]
fn three_board_a_piece_on_c_moves_on_c_and_lands_on_a_or_b() {
    let p = vpos(A3, "4k3/8/8/8/8/8/8/4K3|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/6N1 w - - 0 1");
    // Knight g1 of C (cell w1): to e2, f3 or h3, each on A or B.
    assert_eq!(
        wide_from(&p, "w1"),
        vec!["w1e2", "w1f3", "w1h3", "w1m2", "w1n3", "w1p3"]
    );
}

#[test]
fn three_board_check_is_given_only_on_the_kings_board() {
    let p = vpos(A3, "4k3/8/8/8/8/8/8/4K3|8/8/8/8/8/8/8/8|4r3/8/8/8/8/8/8/8 w - - 0 1");
    assert!(!p.in_check());
    // The king may not move to e2 of A: attacked on A? No; e2 is attacked on C only, so Ke2 may
    // land on B but not on C.
    legal_move(&p, "e1m2");
    not_legal(&p, "e1u2");
}

#[test]
fn three_board_castling_chooses_the_landing_board() {
    let p = vpos(A3, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let b = legal_move(&p, "e1o1");
    let c = legal_move(&p, "e1w1");
    assert_eq!((b.to_board(), c.to_board()), (BoardId::B, BoardId::C));
    let q = p.after(c);
    assert_eq!(
        (on(&q, BoardId::C, "g1"), on(&q, BoardId::C, "f1")),
        (Some('K'), Some('R'))
    );
    assert_eq!(p.move_to_san(c), "O-O/C");
    assert_eq!(p.parse_san("O-O/C"), Ok(c));
    assert_eq!(q.king_board(Color::White), BoardId::C);
}
