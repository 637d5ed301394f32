//! The pieces and stipulations of Popeye's input: `Rh1a8a1` lists, square lists and the
//! stipulation word.

use super::words::Word;
use crate::solve::problem::{InputError, Placed};
use vorpal_engine::error::StipulationError;
use vorpal_engine::solve::Stipulation;
use vorpal_engine::{BoardId, Color, Piece, PieceKind, Square};

pub(super) fn stipulation(w: &Word) -> Result<Stipulation, InputError> {
    w.text.parse().map_err(|e: StipulationError| w.error(e.0))
}

/// `a1b2c3` as squares.
pub(super) fn square_list(text: &str) -> Option<Vec<Square>> {
    let lower = text.to_ascii_lowercase();
    if lower.is_empty() || !lower.len().is_multiple_of(2) || !lower.is_ascii() {
        return None;
    }
    (0..lower.len())
        .step_by(2)
        .map(|i| Square::parse(&lower[i..i + 2]))
        .collect()
}

/// `Rh1a8a1` (a piece letter and its squares) as pieces.
pub(super) fn piece_list(w: &Word, color: Color, board: BoardId) -> Result<Vec<Placed>, InputError> {
    let mut chars = w.text.chars();
    let letter = chars.next().map(|c| c.to_ascii_uppercase());
    let kind = match letter {
        Some('K') => PieceKind::King,
        Some('Q') => PieceKind::Queen,
        Some('R') => PieceKind::Rook,
        Some('B') => PieceKind::Bishop,
        Some('S') => PieceKind::Knight,
        Some('P') => PieceKind::Pawn,
        Some('N') => return Err(w.error("unknown piece 'N' (Popeye's N is the nightrider; write S for the knight)")),
        _ => return Err(w.error("unknown piece (expected K, Q, R, B, S or P)")),
    };
    let squares =
        square_list(chars.as_str()).ok_or_else(|| w.error("a piece letter and squares expected (e.g. Rh1a8)"))?;
    Ok(squares
        .into_iter()
        .map(|square| Placed {
            piece: Piece::new(color, kind),
            square,
            board,
        })
        .collect())
}

/// Adds a piece of the diagram: one piece per square (over both boards), one king per colour,
/// no pawn on the first or last rank.
pub(super) fn place(pieces: &mut Vec<Placed>, placed: Placed, w: &Word) -> Result<(), InputError> {
    if let Some(other) = pieces.iter().find(|p| p.square == placed.square) {
        let message = if other.board == placed.board {
            format!("square {} is given twice", placed.square)
        } else {
            format!("square {} is occupied on both boards", placed.square)
        };
        return Err(w.error(message));
    }
    if placed.piece.kind() == PieceKind::King && pieces.iter().any(|p| p.piece == placed.piece) {
        return Err(w.error("a second king of the same colour"));
    }
    if placed.piece.kind() == PieceKind::Pawn && matches!(placed.square.rank(), 0 | 7) {
        return Err(w.error("a pawn on the first or last rank"));
    }
    pieces.push(placed);
    Ok(())
}
