//! Popeye's move notation for Alice chess: the piece letter (`S` for the knight, none for a
//! pawn), the squares joined by `-` or `*` (a capture), a promotion `=S`, ` ep.` after an en
//! passant capture, and the board the piece lands on (`Bd5-b7B`, `d2-d1=SA`, `f5*e6 ep.A`);
//! castling is `0-0` or `0-0-0` with the boards the king and the rook land on (`0-0-0BB`).
//! Then the marks: ` #` mate, ` +` check, ` =` stalemate.

use vorpal_engine::Move;
use vorpal_engine::{BoardId, MoveKind, PieceKind, Position};

/// Popeye's letter of a piece kind (German `S` for the knight).
pub fn letter(kind: PieceKind) -> char {
    if kind == PieceKind::Knight {
        'S'
    } else {
        kind.letter()
    }
}

/// Popeye's letter of a board.
pub fn board_letter(board: BoardId) -> char {
    match board {
        BoardId::A => 'A',
        BoardId::B => 'B',
        BoardId::C => 'C',
    }
}

/// The move without its marks.
pub fn bare(pos: &Position, mv: Move) -> String {
    let board = board_letter(mv.to_board());
    if mv.is_castle() {
        let long = mv.to().file() < mv.from().file();
        return format!("{}{board}{board}", if long { "0-0-0" } else { "0-0" });
    }
    let mut text = String::new();
    if let Some(piece) = pos.moved_piece(mv) {
        if piece.kind() != PieceKind::Pawn {
            text.push(letter(piece.kind()));
        }
    }
    text.push_str(&mv.from().to_string());
    text.push(if mv.is_capture() { '*' } else { '-' });
    text.push_str(&mv.to().to_string());
    if let Some(p) = mv.promotion() {
        text.push('=');
        text.push(letter(p));
    }
    if mv.kind() == MoveKind::EnPassant {
        text.push_str(" ep.");
    }
    text.push(board);
    text
}

/// The move with Popeye's marks: ` #`, ` +` or ` =`.
pub fn popeye_move(pos: &Position, mv: Move) -> String {
    let after = pos.after(mv);
    let mut text = bare(pos, mv);
    let no_moves = after.legal_moves().is_empty();
    if after.in_check() {
        text.push_str(if no_moves { " #" } else { " +" });
    } else if no_moves {
        text.push_str(" =");
    }
    text
}

/// A defender's move in direct play as Popeye writes it: a mate of the attacker is marked
/// ` +` (the stipulation's goal is the attacker's).
pub fn popeye_defence(pos: &Position, mv: Move) -> String {
    crate::solve::text::mate_as_check(popeye_move(pos, mv))
}

#[cfg(test)]
mod tests {
    use super::*;
    use vorpal_engine::Rules;

    fn text(fen: &str, uci: &str) -> String {
        let pos = Position::from_fen(fen, Rules::default()).unwrap();
        let mv = pos.parse_uci(uci).unwrap();
        popeye_move(&pos, mv)
    }

    #[test]
    fn moves_as_popeye_writes_them() {
        // A helpmate of the Andernach examples: the promotion to a knight lands on board A.
        assert_eq!(text("8/8/8/2Q1|k3/8/2|R5/3|p4/K7 b - - 0 1", "d2d1n"), "d2-d1=SA");
        assert_eq!(text("8/8/8/2Q1|k3/8/2|R5/3|p4/K7 b - - 0 1", "e5f4"), "Ke5-f4A");
        assert_eq!(text("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1"), "0-0-0BB");
        assert_eq!(text("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1"), "0-0BB");
    }
}
