//! FEN reading and writing in the Fairy-Stockfish `|` form (docs/rules.md §2): one 8x8 grid, a `|`
//! before a piece letter puts that piece on board B.

use super::{
    parse_square, square_name, Color, Kind, Piece, RefPosition, BLACK_KINGSIDE, BLACK_QUEENSIDE, WHITE_KINGSIDE,
    WHITE_QUEENSIDE,
};

/// The castling letters with their right index, king square and rook square.
const CASTLING_LETTERS: [(char, usize, u8, u8); 4] = [
    ('K', WHITE_KINGSIDE, 4, 7),
    ('Q', WHITE_QUEENSIDE, 4, 0),
    ('k', BLACK_KINGSIDE, 60, 63),
    ('q', BLACK_QUEENSIDE, 60, 56),
];

/// The piece for a FEN letter.
fn piece_from_letter(letter: char) -> Option<Piece> {
    let color = if letter.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    let kind = match letter.to_ascii_lowercase() {
        'p' => Kind::Pawn,
        'n' => Kind::Knight,
        'b' => Kind::Bishop,
        'r' => Kind::Rook,
        'q' => Kind::Queen,
        'k' => Kind::King,
        _ => return None,
    };
    Some((color, kind))
}

/// The FEN letter of a piece.
fn letter_of((color, kind): Piece) -> char {
    let letter = match kind {
        Kind::Pawn => 'p',
        Kind::Knight => 'n',
        Kind::Bishop => 'b',
        Kind::Rook => 'r',
        Kind::Queen => 'q',
        Kind::King => 'k',
    };
    match color {
        Color::White => letter.to_ascii_uppercase(),
        Color::Black => letter,
    }
}

impl RefPosition {
    /// Parses a six-field FEN in the `|` form (`|N` = a white knight on board B).
    ///
    /// Rejects: wrong field count, bad piece letters, ranks of the wrong length, not exactly one
    /// king per side, pawns on the first or last rank, castling rights whose king or rook is not
    /// on its square, a bad en passant field, the side not to move in check.
    pub fn from_fen(fen: &str) -> Result<RefPosition, String> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() != 6 {
            return Err(format!("FEN needs 6 fields, found {}: {fen:?}", fields.len()));
        }
        let mut cells = [[None; 64]; 2];
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 8 {
            return Err(format!("FEN board needs 8 ranks, found {}", ranks.len()));
        }
        for (row, rank_text) in ranks.iter().enumerate() {
            let rank = 7 - row as u8;
            let mut file = 0u8;
            let mut on_b = false;
            for ch in rank_text.chars() {
                if ch == '|' {
                    if on_b {
                        return Err(format!("doubled '|' in rank {rank_text:?}"));
                    }
                    on_b = true;
                    continue;
                }
                if let Some(empty) = ch.to_digit(10).filter(|d| (1..=8).contains(d)) {
                    if on_b {
                        return Err(format!("'|' before a digit in rank {rank_text:?}"));
                    }
                    file += empty as u8;
                } else {
                    let piece = piece_from_letter(ch).ok_or_else(|| format!("bad piece letter {ch:?}"))?;
                    if file >= 8 {
                        return Err(format!("rank {rank_text:?} is longer than 8 files"));
                    }
                    cells[usize::from(on_b)][(rank * 8 + file) as usize] = Some(piece);
                    file += 1;
                    on_b = false;
                }
                if file > 8 {
                    return Err(format!("rank {rank_text:?} is longer than 8 files"));
                }
            }
            if on_b || file != 8 {
                return Err(format!("rank {rank_text:?} does not describe 8 files"));
            }
        }
        let side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(format!("bad side to move {other:?}")),
        };
        let mut castling = [false; 4];
        if fields[2] != "-" {
            for ch in fields[2].chars() {
                let &(_, right, king_sq, rook_sq) = CASTLING_LETTERS
                    .iter()
                    .find(|(letter, ..)| *letter == ch)
                    .ok_or_else(|| format!("bad castling letter {ch:?}"))?;
                let color = if ch.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                let in_place = (0..2).any(|b: usize| {
                    cells[b][king_sq as usize] == Some((color, Kind::King))
                        && cells[b][rook_sq as usize] == Some((color, Kind::Rook))
                });
                if !in_place {
                    return Err(format!("castling right {ch} without king and rook in place"));
                }
                castling[right] = true;
            }
        }
        let ep = match fields[3] {
            "-" => None,
            text => {
                let sq = parse_square(text).ok_or_else(|| format!("bad en passant square {text:?}"))?;
                let expected_rank = if side == Color::White { 5 } else { 2 };
                if sq / 8 != expected_rank {
                    return Err(format!("en passant square {text} does not fit the side to move"));
                }
                Some(sq)
            }
        };
        let halfmove = fields[4]
            .parse()
            .map_err(|_| format!("bad halfmove clock {:?}", fields[4]))?;
        let fullmove = fields[5]
            .parse()
            .map_err(|_| format!("bad move number {:?}", fields[5]))?;
        let position = RefPosition {
            cells,
            side,
            castling,
            ep,
            halfmove,
            fullmove,
        };
        position.validate()?;
        Ok(position)
    }

    /// Checks the board-level rules of a parsed position: one king per side, no pawn on the
    /// first or last rank, the side not to move not in check.
    fn validate(&self) -> Result<(), String> {
        for color in [Color::White, Color::Black] {
            let kings = self
                .cells
                .iter()
                .flatten()
                .filter(|&&cell| cell == Some((color, Kind::King)))
                .count();
            if kings != 1 {
                return Err(format!("{color:?} has {kings} kings, needs exactly 1"));
            }
        }
        for board in &self.cells {
            for (sq, cell) in board.iter().enumerate() {
                let edge_rank = sq / 8 == 0 || sq / 8 == 7;
                if edge_rank && matches!(cell, Some((_, Kind::Pawn))) {
                    return Err(format!("pawn on {}", square_name(sq as u8)));
                }
            }
        }
        if self.king_attacked(self.side.opponent()) {
            return Err("the side not to move is in check".to_string());
        }
        Ok(())
    }

    /// Writes the position as a six-field FEN in the `|` form.
    pub fn to_fen(&self) -> String {
        let mut board = String::new();
        for rank in (0..8u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                let sq = (rank * 8 + file) as usize;
                let (piece, on_b) = match (self.cells[0][sq], self.cells[1][sq]) {
                    (Some(piece), _) => (piece, false),
                    (None, Some(piece)) => (piece, true),
                    (None, None) => {
                        empty += 1;
                        continue;
                    }
                };
                if empty > 0 {
                    board.push_str(&empty.to_string());
                    empty = 0;
                }
                if on_b {
                    board.push('|');
                }
                board.push(letter_of(piece));
            }
            if empty > 0 {
                board.push_str(&empty.to_string());
            }
            if rank > 0 {
                board.push('/');
            }
        }
        let side = match self.side {
            Color::White => "w",
            Color::Black => "b",
        };
        let castling: String = CASTLING_LETTERS
            .iter()
            .filter(|(_, right, ..)| self.castling[*right])
            .map(|(letter, ..)| *letter)
            .collect();
        let castling = if castling.is_empty() { "-".to_string() } else { castling };
        let ep = self.ep.map_or("-".to_string(), square_name);
        format!("{board} {side} {castling} {ep} {} {}", self.halfmove, self.fullmove)
    }
}
