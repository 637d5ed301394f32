//! Move text: UCI (plain squares, and the wide cell form `e2m4`) and SAN with the Alice
//! landing-board suffix (`Ne5/A` for a move that lands on board A).

use super::castling::{CastleSide, CastlingConfig};
use super::Position;
use crate::types::{BoardId, Move, PieceKind, Square};
use std::fmt;

/// Why a move text was not accepted.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveParseError {
    /// The text is not a move in any accepted notation.
    Unparsable(String),
    /// The text is a well-formed move that is not legal here.
    Illegal(String),
    /// The SAN matches more than one legal move.
    Ambiguous(String),
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveParseError::Unparsable(m) => write!(f, "unparsable move '{m}'"),
            MoveParseError::Illegal(m) => write!(f, "illegal move '{m}'"),
            MoveParseError::Ambiguous(m) => write!(f, "ambiguous move '{m}'"),
        }
    }
}

impl std::error::Error for MoveParseError {}

/// A cell of the boards laid side by side: file letter a-h = board A, i-p = board B.
fn parse_cell(text: &str) -> Option<(Square, Option<BoardId>)> {
    let b = text.as_bytes();
    if b.len() != 2 || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    let (file, board) = match b[0] {
        f @ b'a'..=b'h' => (f - b'a', None),
        f @ b'i'..=b'p' => (f - b'i', Some(BoardId::B)),
        _ => return None,
    };
    Some((Square::from_coords(file, b[1] - b'1'), board))
}

impl Position {
    /// Displayed destination: the king's destination square for castling.
    fn shown_to(&self, mv: Move) -> Square {
        if mv.is_castle() {
            let side = if mv.to().file() > mv.from().file() {
                CastleSide::King
            } else {
                CastleSide::Queen
            };
            CastlingConfig::destinations(self.side, side).0
        } else {
            mv.to()
        }
    }

    /// UCI text of `mv`: plain squares, castling as the king's move (`e1g1`).
    pub fn move_to_uci(&self, mv: Move) -> String {
        let mut s = format!("{}{}", mv.from(), self.shown_to(mv));
        if let Some(p) = mv.promotion() {
            s.push(p.letter().to_ascii_lowercase());
        }
        s
    }

    /// The wide cell form of `mv` (`e2m4`: from e2 on A, lands on e4 of B).
    pub fn move_to_wide(&self, mv: Move) -> String {
        let cell =
            |sq: Square, b: BoardId| format!("{}{}", (b'a' + sq.file() + 8 * b.index() as u8) as char, sq.rank() + 1);
        let mut s = cell(mv.from(), mv.from_board()) + &cell(self.shown_to(mv), mv.to_board());
        if let Some(p) = mv.promotion() {
            s.push(p.letter().to_ascii_lowercase());
        }
        s
    }

    /// Parses a UCI move (plain `e2e4`, `e7e8q`, castling `e1g1` or `e1h1`, or the wide form
    /// `e2m4`) and returns it if legal.
    pub fn parse_uci(&self, text: &str) -> Result<Move, MoveParseError> {
        let t = text.trim();
        if t.len() != 4 && t.len() != 5 || !t.is_ascii() {
            return Err(MoveParseError::Unparsable(t.to_string()));
        }
        let (Some((from, from_board)), Some((to, to_board))) = (parse_cell(&t[..2]), parse_cell(&t[2..4])) else {
            return Err(MoveParseError::Unparsable(t.to_string()));
        };
        let promo = match t.as_bytes().get(4) {
            None => None,
            Some(&c) => match PieceKind::from_letter(c as char) {
                Some(k @ (PieceKind::Knight | PieceKind::Bishop | PieceKind::Rook | PieceKind::Queen)) => Some(k),
                _ => return Err(MoveParseError::Unparsable(t.to_string())),
            },
        };
        // In the wide form a cell on a-h names board A explicitly.
        let wide = from_board.is_some() || to_board.is_some();
        let board_of = |b: Option<BoardId>| b.unwrap_or(BoardId::A);
        self.legal_moves()
            .into_iter()
            .find(|&mv| {
                let to_matches = self.shown_to(mv) == to || (mv.is_castle() && mv.to() == to);
                mv.from() == from
                    && to_matches
                    && mv.promotion() == promo
                    && (!wide || (mv.from_board() == board_of(from_board) && mv.to_board() == board_of(to_board)))
            })
            .ok_or_else(|| MoveParseError::Illegal(t.to_string()))
    }

    /// SAN of `mv` with the landing-board suffix (`/A` when the move lands on board A) and
    /// check (`+`) or mate (`#`) marks.
    pub fn move_to_san(&self, mv: Move) -> String {
        let mut s = self.san_core(mv);
        if mv.to_board() == BoardId::A {
            s.push_str("/A");
        }
        let next = self.after(mv);
        if next.in_check() {
            s.push(if next.count_legal() == 0 { '#' } else { '+' });
        }
        s
    }

    /// SAN without suffix and check marks.
    fn san_core(&self, mv: Move) -> String {
        let Some(piece) = self.moved_piece(mv) else {
            return "??".into();
        };
        if mv.is_castle() {
            return if mv.to().file() > mv.from().file() {
                "O-O".into()
            } else {
                "O-O-O".into()
            };
        }
        let to = mv.to();
        let mut s = String::new();
        if piece.kind() == PieceKind::Pawn {
            if mv.is_capture() {
                s.push((b'a' + mv.from().file()) as char);
                s.push('x');
            }
            s.push_str(&to.to_string());
            if let Some(p) = mv.promotion() {
                s.push('=');
                s.push(p.letter());
            }
            return s;
        }
        s.push(piece.kind().letter());
        if piece.kind() != PieceKind::King {
            let rivals: Vec<Move> = self
                .legal_moves()
                .into_iter()
                .filter(|&m| {
                    m != mv
                        && m.to() == to
                        && !m.is_castle()
                        && self.moved_piece(m).map(|p| p.kind()) == Some(piece.kind())
                })
                .collect();
            if !rivals.is_empty() {
                let from = mv.from();
                if rivals.iter().all(|m| m.from().file() != from.file()) {
                    s.push((b'a' + from.file()) as char);
                } else if rivals.iter().all(|m| m.from().rank() != from.rank()) {
                    s.push((b'1' + from.rank()) as char);
                } else {
                    s.push_str(&from.to_string());
                }
            }
        }
        if mv.is_capture() {
            s.push('x');
        }
        s.push_str(&to.to_string());
        s
    }

    /// Parses SAN (with or without the landing-board suffix and check marks).
    pub fn parse_san(&self, text: &str) -> Result<Move, MoveParseError> {
        let original = text.trim();
        let unparsable = || MoveParseError::Unparsable(original.to_string());
        let mut s = original.trim_end_matches(['+', '#', '!', '?']).to_string();
        let mut landing = None;
        for (suffix, board) in [("/A", BoardId::A), ("/B", BoardId::B)] {
            if let Some(rest) = s.strip_suffix(suffix) {
                landing = Some(board);
                s = rest.trim_end_matches(['+', '#']).to_string();
            }
        }
        let legal = self.legal_moves();
        let pick = |cands: Vec<Move>| match cands.len() {
            1 => Ok(cands[0]),
            0 => Err(MoveParseError::Illegal(original.to_string())),
            _ => Err(MoveParseError::Ambiguous(original.to_string())),
        };
        let castle = match s.as_str() {
            "O-O" | "0-0" => Some(true),
            "O-O-O" | "0-0-0" => Some(false),
            _ => None,
        };
        if let Some(king_side) = castle {
            return pick(
                legal
                    .into_iter()
                    .filter(|m| m.is_castle() && (m.to().file() > m.from().file()) == king_side)
                    .filter(|m| landing.is_none_or(|b| m.to_board() == b))
                    .collect(),
            );
        }
        let mut body: Vec<char> = s.chars().filter(|&c| c != 'x' && c != '-' && c != ':').collect();
        let mut promo = None;
        if let Some(&last) = body.last() {
            if "QRBNqrbn".contains(last) && body.len() >= 3 && body[body.len() - 2].is_ascii_digit() {
                promo = PieceKind::from_letter(last);
                body.pop();
                if body.last() == Some(&'=') {
                    body.pop();
                }
            } else if body.len() >= 4 && body[body.len() - 2] == '=' {
                return Err(unparsable());
            }
        }
        body.retain(|&c| c != '=');
        if body.len() < 2 {
            return Err(unparsable());
        }
        let to_text: String = body[body.len() - 2..].iter().collect();
        let to = Square::parse(&to_text).ok_or_else(unparsable)?;
        let prefix = &body[..body.len() - 2];
        let (kind, disambig) = match prefix.first() {
            Some(&c) if "KQRBN".contains(c) => (PieceKind::from_letter(c).ok_or_else(unparsable)?, &prefix[1..]),
            _ => (PieceKind::Pawn, prefix),
        };
        let mut from_file = None;
        let mut from_rank = None;
        for &c in disambig {
            match c {
                'a'..='h' if from_file.is_none() => from_file = Some(c as u8 - b'a'),
                '1'..='8' if from_rank.is_none() => from_rank = Some(c as u8 - b'1'),
                _ => return Err(unparsable()),
            }
        }
        pick(
            legal
                .into_iter()
                .filter(|&m| {
                    !m.is_castle()
                        && m.to() == to
                        && m.promotion() == promo
                        && self.moved_piece(m).map(|p| p.kind()) == Some(kind)
                        && from_file.is_none_or(|f| m.from().file() == f)
                        && from_rank.is_none_or(|r| m.from().rank() == r)
                        && landing.is_none_or(|b| m.to_board() == b)
                })
                .collect(),
        )
    }

    /// Parses a move in UCI (plain or wide) or SAN.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveParseError> {
        match self.parse_uci(text) {
            Ok(mv) => Ok(mv),
            Err(MoveParseError::Unparsable(_)) => self.parse_san(text),
            Err(e) => Err(e),
        }
    }
}
