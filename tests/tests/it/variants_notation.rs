//! Notation of the variants (docs/rules.md §2): FEN in the pipe form where it can represent the
//! position, otherwise the joined form `placementA|placementB|placementC`; the split and wide
//! forms on request; every form read back. Moves: the plain UCI form where it names one legal
//! move, the wide form (a-h = A, i-p = B, q-x = C) where it is ambiguous and always with
//! `MoveStyle::Wide`; SAN with the landing-board suffix (`/A`, `/C`).

use vorpal_engine::{BoardId, FenStyle, MoveParseError, MoveStyle, Position, Rules, Variant};
use vorpal_tests::variant_check::{legal_move, play, vpos};
use vorpal_tests::variant_data::variant_cases;

const STYLES: [FenStyle; 4] = [FenStyle::Pipe, FenStyle::Joined, FenStyle::Split, FenStyle::Wide];

#[test]
fn every_fen_form_reads_back_in_every_variant() {
    for case in variant_cases() {
        let rules = Rules::for_variant(case.variant.parse().unwrap())
            .with_ep(case.ep.parse().unwrap())
            .with_chess960(case.chess960);
        let pos = Position::from_fen(&case.fen, rules).unwrap();
        let expected = if pos.pipe_representable() {
            FenStyle::Pipe
        } else {
            FenStyle::Joined
        };
        assert_eq!(pos.to_fen(), pos.to_fen_style(expected), "{}", case.name);
        for style in STYLES {
            let text = pos.to_fen_style(style);
            let back = Position::from_fen(&text, rules).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(back, pos, "{} {style:?}: {text}", case.name);
        }
    }
}

#[test]
fn three_board_fen_forms() {
    let pos = vpos(
        Variant::Alice3,
        "4k3/8/8/8/8/8/8/4K3|8/8/8/2N5/8/8/8/8|8/8/8/8/3n4/8/8/8 w - - 0 1",
    );
    assert_eq!(
        pos.to_fen_style(FenStyle::Wide),
        "4k19/24/24/10N13/19n4/24/24/4K19 w - - 0 1"
    );
    assert_eq!(
        pos.to_fen_style(FenStyle::Split),
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 8/8/8/2N5/8/8/8/8 w - - 0 1 | 8/8/8/8/3n4/8/8/8 w - - 0 1"
    );
    // Without pieces on C and without shared squares the pipe form is used.
    let pos = vpos(
        Variant::Alice3,
        "4k3/8/8/8/8/8/8/4K3|8/8/8/2N5/8/8/8/8|8/8/8/8/8/8/8/8 w - - 0 1",
    );
    assert_eq!(pos.to_fen(), "4k3/8/8/2|N5/8/8/8/4K3 w - - 0 1");
    // A joined placement with three boards is refused in a two-board variant.
    let err = Position::from_fen(
        "4k3/8/8/8/8/8/8/4K3|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w - - 0 1",
        Rules::default(),
    )
    .unwrap_err();
    assert!(err.0.contains("joined"), "{err}");
}

#[test]
fn mini_alice_fen_forms() {
    let pos = Position::start(Rules::for_variant(Variant::MiniAlice));
    assert_eq!(
        pos.to_fen_style(FenStyle::Wide),
        "rqkr4/nbbn4/pppp4/8/8/PPPP4/NBBN4/RQKR4 w - - 0 1"
    );
    assert_eq!(
        pos.to_fen_style(FenStyle::Joined),
        "rqkr/nbbn/pppp/4/4/PPPP/NBBN/RQKR|4/4/4/4/4/4/4/4 w - - 0 1"
    );
    let p = play(&pos, "a3a4");
    assert_eq!(p.to_fen(), "rqkr/nbbn/pppp/4/|P3/1PPP/NBBN/RQKR b - - 0 1");
}

#[test]
fn wide_move_cells_name_boards_a_b_and_c() {
    let pos = Position::start(Rules::for_variant(Variant::Alice3));
    let mv = legal_move(&pos, "g1v3");
    assert_eq!((mv.from_board(), mv.to_board()), (BoardId::A, BoardId::C));
    assert_eq!(pos.move_to_text(mv, MoveStyle::Wide), "g1v3");
    // Board C does not exist in two-board variants.
    let alice = Position::startpos();
    assert!(matches!(alice.parse_uci("g1v3"), Err(MoveParseError::Illegal(_))));
    assert!(matches!(alice.parse_uci("g1y3"), Err(MoveParseError::Unparsable(_))));
}

#[test]
fn plain_form_is_kept_where_it_is_unambiguous() {
    for variant in [
        Variant::Alice,
        Variant::LookingGlass,
        Variant::LadyAlice,
        Variant::MiniAlice,
    ] {
        let pos = Position::start(Rules::for_variant(variant));
        for mv in pos.legal_moves() {
            let auto = pos.move_to_text(mv, MoveStyle::Auto);
            assert_eq!(auto, pos.move_to_uci(mv));
            assert!(
                auto.bytes().take(4).all(|b| !(b'i'..=b'x').contains(&b)),
                "{variant}: {auto}"
            );
            let wide = pos.move_to_text(mv, MoveStyle::Wide);
            assert_eq!(pos.parse_uci(&wide), Ok(mv), "{variant}: {wide}");
        }
    }
}

#[test]
fn wide_form_is_used_automatically_where_the_plain_form_is_ambiguous() {
    // O'Donohue start: every move transfers and no square is shared, so the plain form names
    // each move; three-board Alice and Duo need the wide form for nearly every move.
    let pos = Position::start(Rules::for_variant(Variant::ODonohue));
    assert!(pos
        .legal_moves()
        .iter()
        .all(|&m| pos.move_to_uci(m).len() == 4 && pos.move_to_uci(m).bytes().all(|b| b < b'i' || b.is_ascii_digit())));
    for variant in [Variant::Alice3, Variant::Duo] {
        let pos = Position::start(Rules::for_variant(variant));
        for mv in pos.legal_moves() {
            let text = pos.move_to_uci(mv);
            assert_eq!(pos.parse_uci(&text), Ok(mv), "{variant}: {text}");
        }
    }
    let pos = Position::start(Rules::for_variant(Variant::Duo));
    let texts: Vec<String> = pos.legal_moves().iter().map(|&m| pos.move_to_uci(m)).collect();
    assert!(texts.contains(&"e2e4".to_string()) && texts.contains(&"e2m4".to_string()));
}

#[test]
fn san_names_the_landing_board() {
    let pos = Position::start(Rules::for_variant(Variant::Duo));
    let stay = legal_move(&pos, "g1f3");
    let go = legal_move(&pos, "g1n3");
    assert_eq!(
        (pos.move_to_san(stay), pos.move_to_san(go)),
        ("Nf3/A".to_string(), "Nf3".to_string())
    );
    assert_eq!(pos.parse_san("Nf3/A"), Ok(stay));
    assert_eq!(pos.parse_san("Nf3"), Ok(go));
    // Two knights on g1 of A and B: the origin is named by its wide cell.
    let pos = vpos(Variant::ODonohue, "4k3/8/8/8/8/8/8/4K1N1|8/8/8/8/8/8/8/6N1 w - - 0 1");
    let from_a = legal_move(&pos, "g1n3");
    let from_b = legal_move(&pos, "o1f3");
    assert_eq!(pos.move_to_san(from_a), "Ng1f3");
    assert_eq!(pos.move_to_san(from_b), "No1f3/A");
    assert_eq!(pos.parse_san("Ng1f3"), Ok(from_a));
    assert_eq!(pos.parse_san("No1f3/A"), Ok(from_b));
}
