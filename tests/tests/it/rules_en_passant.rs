//! The en passant option of docs/rules.md §3.1 (`Rules::with_en_passant`), one named test per rule, on
//! hand-made positions (pipe FEN: `|p` = a pawn on board B). Off by default; when on, the pawn that
//! double-stepped stands on the other board and can be taken only by an enemy pawn on that board,
//! moving onto the passed square; `normal` and `double` differ when that square holds an enemy piece.

use vorpal_engine::{BoardId, Color, EnPassant, Move, MoveKind, PieceKind, Position, Rules};
use vorpal_tests::rules_check::{assert_illegal, assert_legal, cell, legal, list, moves_from, pos, pos_with, sq};

const EP_A: &str = "4k3/8/8/8/3|p|P3/8/8/4K3 b - e3 0 1";

#[test]
fn en_passant_off_by_default() {
    assert_eq!(Rules::default().en_passant, EnPassant::Off);
    assert_eq!(Position::startpos().rules().en_passant, EnPassant::Off);
    // 1.e4 (to B) beside the black pawn on d4 of B: no capture follows, and with the option
    // off the FEN's en passant field is `-` (as Fairy-Stockfish writes it).
    let start = "4k3/8/8/8/3|p4/8/4P3/4K3 w - - 0 1";
    let p = pos(start);
    let p = p.after(assert_legal(&p, "e2e4"));
    assert_eq!(p.to_fen(), EP_A.replace(" e3 ", " - "));
    assert_eq!(moves_from(&p, "d4"), list("d4d3"));
    assert_illegal(&p, "d4e3");
    let p = pos_with(start, Rules::with_en_passant(EnPassant::Normal));
    let p = p.after(assert_legal(&p, "e2e4"));
    assert_eq!(moves_from(&p, "d4"), list("d4d3 d4e3"));
}

#[test]
fn en_passant_only_by_pawn_on_same_board_as_passed_pawn() {
    // The white pawn passed e3 and stands on e4 of B: f4 (B) may take it, d4 (A) may not.
    for mode in [EnPassant::Normal, EnPassant::Double] {
        let p = pos_with("4k3/8/8/8/3p|P|p2/8/8/4K3 b - e3 0 1", Rules::with_en_passant(mode));
        let pawns: Vec<String> = legal(&p).into_iter().filter(|m| !m.starts_with('e')).collect();
        assert_eq!(pawns, list("d4d3 f4e3 f4f3"), "{mode}");
        assert_illegal(&p, "d4e3");
        assert_eq!(assert_legal(&p, "f4e3").kind(), MoveKind::EnPassant);
    }
}

#[test]
fn en_passant_capturer_transfers() {
    let p = pos_with(EP_A, Rules::with_en_passant(EnPassant::Normal));
    let mv = assert_legal(&p, "d4e3");
    assert!(mv.kind() == MoveKind::EnPassant && mv.is_capture());
    assert_eq!(p.move_to_san(mv), "dxe3/A");
    let next = p.after(mv);
    assert_eq!(next.to_fen(), "4k3/8/8/8/8/4p3/8/4K3 w - - 0 2");
    assert_eq!(cell(&next, "e3"), Some(('p', 'A')));
}

/// Black pawn d4 (B) and white pawn e4 (B, passed e3); a white knight stands on e3 of B.
const EP_KNIGHT: &str = "4k3/8/8/8/3|p|P3/4|N3/8/4K3 b - e3 0 1";

#[test]
fn en_passant_normal_mode_captures_only_the_piece_on_passed_square() {
    let p = pos_with(EP_KNIGHT, Rules::with_en_passant(EnPassant::Normal));
    assert_eq!(moves_from(&p, "d4"), list("d4d3 d4e3"));
    let mv = assert_legal(&p, "d4e3");
    assert_eq!(mv.kind(), MoveKind::Normal);
    assert_eq!(p.after(mv).to_fen(), "4k3/8/8/8/4|P3/4p3/8/4K3 w - - 0 2");
    assert!(!p.is_legal(Move::new(
        sq("d4"),
        BoardId::B,
        sq("e3"),
        BoardId::A,
        MoveKind::EnPassant,
        true
    )));
}

#[test]
fn en_passant_double_mode_captures_both() {
    let p = pos_with(EP_KNIGHT, Rules::with_en_passant(EnPassant::Double));
    assert_eq!(moves_from(&p, "d4"), list("d4d3 d4e3"), "one move, no choice of effect");
    let mv = assert_legal(&p, "d4e3");
    assert_eq!(mv.kind(), MoveKind::EnPassant);
    let next = p.after(mv);
    assert_eq!(next.to_fen(), "4k3/8/8/8/8/4p3/8/4K3 w - - 0 2");
    assert_eq!(next.piece_count(), p.piece_count() - 2);
    assert!(!p.is_legal(Move::new(
        sq("d4"),
        BoardId::B,
        sq("e3"),
        BoardId::A,
        MoveKind::Normal,
        true
    )));
}

#[test]
fn en_passant_double_illegal_if_own_king_left_in_check() {
    // The passed pawn e4 (B) shields the black king h7 (B) from the bishop b1 (B). Taking the
    // knight alone is fine; taking both opens the diagonal, and double has no fallback.
    let fen = "8/7|k/8/8/3|p|P3/4|N3/8/1|B2K3 b - e3 0 1";
    for mode in [EnPassant::Off, EnPassant::Normal] {
        let p = pos_with(fen, Rules::with_en_passant(mode));
        assert_eq!(moves_from(&p, "d4"), list("d4d3 d4e3"), "{mode}");
        assert_eq!(
            p.after(assert_legal(&p, "d4e3"))
                .pieces_both(Color::White, PieceKind::Pawn)
                .count(),
            1
        );
    }
    let p = pos_with(fen, Rules::with_en_passant(EnPassant::Double));
    assert_eq!(moves_from(&p, "d4"), list("d4d3"));
    assert_illegal(&p, "d4e3");
}

#[test]
fn en_passant_double_legal_if_it_ends_check() {
    // Black king f5 (B) in check from the passed pawn e4 (B); a white bishop stands on e3 (B).
    // Only the double capture removes the checker.
    let fen = "8/8/8/5|k2/3|p|P3/4|B3/8/4K3 b - e3 0 1";
    for mode in [EnPassant::Off, EnPassant::Normal] {
        let p = pos_with(fen, Rules::with_en_passant(mode));
        assert!(p.in_check());
        assert_illegal(&p, "d4e3");
    }
    let p = pos_with(fen, Rules::with_en_passant(EnPassant::Double));
    let next = p.after(assert_legal(&p, "d4e3"));
    assert_eq!(next.to_fen(), "8/8/8/5|k2/8/4p3/8/4K3 w - - 0 2");
}

#[test]
fn en_passant_field_ignored_when_option_off() {
    let without = EP_A.replace(" e3 ", " - ");
    let (on, off) = (pos(EP_A), pos(&without));
    assert_eq!(legal(&on), legal(&off));
    assert_eq!(on.key(), off.key(), "no en passant possibility, same position");
    assert_eq!(
        vorpal_engine::perft::perft(&on, 3),
        vorpal_engine::perft::perft(&off, 3)
    );
    // With the option on, the field makes the capture possible and the position different.
    let rules = Rules::with_en_passant(EnPassant::Normal);
    let (on, off) = (pos_with(EP_A, rules), pos_with(&without, rules));
    assert_eq!(moves_from(&on, "d4"), list("d4d3 d4e3"));
    assert_eq!(moves_from(&off, "d4"), list("d4d3"));
    assert_ne!(on.key(), off.key());
}
