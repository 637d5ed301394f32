//! Move text: UCI (plain squares, and the wide cell form `e2m4` of docs/rules.md §2) and SAN with
//! the Alice landing-board suffix (`Ne5/A` for a move that lands on board A, `/C` on board C).
//!
//! The plain UCI form names squares only; the board is implied. Where that is ambiguous (a
//! square occupied on two boards, a choice of landing board) the wide form names cells of the
//! boards laid side by side: files a-h = board A, i-p = board B, q-x = board C. Output in
//! [`MoveStyle::Auto`] uses the plain form when it names exactly one legal move, else the wide
//! form. Input: a text with a cell on i-x is read as the wide form; a text with cells on a-h
//! only is read as the plain form, and when that names several legal moves, as the wide form
//! (both cells on board A). Null and zero moves are written from a square to itself (`e4e4`,
//! wide `e4m4`); castling as the king's move (`e1g1`), with Chess960 as king takes rook (`e1h1`).

use super::castling::{CastleSide, CastlingConfig};
use super::Position;
use crate::rules::Variant;
use crate::types::{BoardId, Move, MoveKind, PieceKind, Square};
use std::fmt;

/// Why a move text was not accepted.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveParseError {
    /// The text is not a move in any accepted notation.
    Unparsable(String),
    /// The text is a well-formed move that is not legal here.
    Illegal(String),
    /// The text matches more than one legal move (SAN, or a plain UCI move in a variant with
    /// shared squares or a choice of landing board).
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

/// How [`Position::move_to_text`] writes a move.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum MoveStyle {
    /// The plain form where it names exactly one legal move, the wide form otherwise.
    #[default]
    Auto,
    /// Always the wide form (the `AliceNotation=wide` option).
    Wide,
}

/// A cell of the boards laid side by side: file letter a-h = board A, i-p = B, q-x = C. The
/// board is None for a-h (board A in the wide form, any board in the plain form).
fn parse_cell(text: &str) -> Option<(Square, Option<BoardId>)> {
    let b = text.as_bytes();
    if b.len() != 2 || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    let (file, board) = match b[0] {
        f @ b'a'..=b'h' => (f - b'a', None),
        f @ b'i'..=b'p' => (f - b'i', Some(BoardId::B)),
        f @ b'q'..=b'x' => (f - b'q', Some(BoardId::C)),
        _ => return None,
    };
    Some((Square::from_coords(file, b[1] - b'1'), board))
}

/// The wide cell name of `sq` on `board` (`e4` on A, `m4` on B, `u4` on C).
fn cell_name(sq: Square, board: BoardId) -> String {
    format!(
        "{}{}",
        (b'a' + sq.file() + 8 * board.index() as u8) as char,
        sq.rank() + 1
    )
}

impl Position {
    /// Displayed destination: for castling the king's destination square, or with Chess960 the
    /// rook's square (king takes rook).
    fn shown_to(&self, mv: Move) -> Square {
        if mv.is_castle() && !self.rules.is_chess960() {
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

    /// True when `mv` is written `from`-`to` (squares only) with promotion `promo`; castling
    /// without Chess960 also matches king takes rook.
    fn matches_squares(&self, mv: Move, from: Square, to: Square, promo: Option<PieceKind>) -> bool {
        mv.from() == from
            && mv.promotion() == promo
            && (self.shown_to(mv) == to || (mv.is_castle() && !self.rules.is_chess960() && mv.to() == to))
    }

    /// The text of `mv` in the requested style (see the module documentation).
    pub fn move_to_text(&self, mv: Move, style: MoveStyle) -> String {
        let to = self.shown_to(mv);
        let wide = match style {
            MoveStyle::Wide => true,
            // Only these variants can have two legal moves with the same squares.
            MoveStyle::Auto => {
                matches!(self.rules.variant, Variant::ODonohue | Variant::Duo | Variant::Alice3)
                    && self
                        .legal_moves()
                        .iter()
                        .filter(|&&m| self.matches_squares(m, mv.from(), to, mv.promotion()))
                        .nth(1)
                        .is_some()
            }
        };
        let mut s = if wide {
            cell_name(mv.from(), mv.from_board()) + &cell_name(to, mv.to_board())
        } else {
            format!("{}{to}", mv.from())
        };
        if let Some(p) = mv.promotion() {
            s.push(p.letter().to_ascii_lowercase());
        }
        s
    }

    /// UCI text of `mv` ([`MoveStyle::Auto`]): plain squares unless ambiguous, castling as the
    /// king's move (`e1g1`; Chess960 `e1h1`), null moves `e4e4`.
    pub fn move_to_uci(&self, mv: Move) -> String {
        self.move_to_text(mv, MoveStyle::Auto)
    }

    /// The wide cell form of `mv` (`e2m4`: from e2 on A, lands on e4 of B).
    pub fn move_to_wide(&self, mv: Move) -> String {
        self.move_to_text(mv, MoveStyle::Wide)
    }

    /// Parses a UCI move (plain `e2e4`, `e7e8q`, castling `e1g1` or `e1h1` (only `e1h1` with
    /// Chess960), null move `e4e4`, or the wide form `e2m4`) and returns it if legal.
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
        let board_of = |b: Option<BoardId>| b.unwrap_or(BoardId::A);
        let on_cells = |m: &Move| m.from_board() == board_of(from_board) && m.to_board() == board_of(to_board);
        let cands: Vec<Move> = self
            .legal_moves()
            .into_iter()
            .filter(|&m| self.matches_squares(m, from, to, promo))
            .collect();
        let explicit = from_board.is_some() || to_board.is_some();
        let ambiguous = !explicit && cands.len() > 1;
        let found: Vec<Move> = if explicit || ambiguous {
            cands.into_iter().filter(on_cells).collect()
        } else {
            cands
        };
        match found[..] {
            [mv] => Ok(mv),
            [] if ambiguous => Err(MoveParseError::Ambiguous(t.to_string())),
            _ => Err(MoveParseError::Illegal(t.to_string())),
        }
    }

    /// SAN of `mv` with the landing-board suffix (`/A` when the move lands on board A, `/C` on
    /// board C, none on board B) and check (`+`) or mate (`#`) marks. A null or zero move is
    /// written with the piece letter (`P` for a pawn) and its square twice (`Ne4e4`, capturing
    /// `Ne4xe4`). Where two pieces of a kind reach the same square, the origin is added as in
    /// chess (file, rank or square), or as a wide cell (`Nm1`) when they stand on the same square
    /// of different boards.
    pub fn move_to_san(&self, mv: Move) -> String {
        let mut s = self.san_core(mv);
        match mv.to_board() {
            BoardId::A => s.push_str("/A"),
            BoardId::C => s.push_str("/C"),
            BoardId::B => {}
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
        let kind = piece.kind();
        if mv.kind() == MoveKind::Null {
            let x = if mv.is_capture() { "x" } else { "" };
            return format!("{}{}{x}{to}", kind.letter(), cell_name(mv.from(), mv.from_board()));
        }
        // Rivals: other moves of the same kind of piece to the same square from another cell
        // (for pawns: landing on the same board, which the suffix does not tell apart).
        let rivals: Vec<Move> = if kind == PieceKind::King {
            Vec::new()
        } else {
            self.legal_moves()
                .into_iter()
                .filter(|&m| {
                    m.to() == to
                        && (m.from(), m.from_board()) != (mv.from(), mv.from_board())
                        && !m.is_castle()
                        && m.kind() != MoveKind::Null
                        && m.promotion() == mv.promotion()
                        && (kind != PieceKind::Pawn || m.to_board() == mv.to_board())
                        && self.moved_piece(m).map(|p| p.kind()) == Some(kind)
                })
                .collect()
        };
        let from = mv.from();
        let pawn_capture = kind == PieceKind::Pawn && mv.is_capture();
        let file = ((b'a' + from.file()) as char).to_string();
        let disambiguation = if rivals.is_empty() {
            if pawn_capture {
                file
            } else {
                String::new()
            }
        } else if rivals.iter().any(|m| m.from() == from) {
            cell_name(from, mv.from_board())
        } else if rivals.iter().all(|m| m.from().file() != from.file()) && (kind != PieceKind::Pawn || pawn_capture) {
            file
        } else if kind != PieceKind::Pawn && rivals.iter().all(|m| m.from().rank() != from.rank()) {
            ((b'1' + from.rank()) as char).to_string()
        } else {
            from.to_string()
        };
        let mut s = String::new();
        if kind != PieceKind::Pawn {
            s.push(kind.letter());
        }
        s.push_str(&disambiguation);
        if mv.is_capture() {
            s.push('x');
        }
        s.push_str(&to.to_string());
        if let Some(p) = mv.promotion() {
            s.push('=');
            s.push(p.letter());
        }
        s
    }

    /// Parses SAN (with or without the landing-board suffix and check marks).
    pub fn parse_san(&self, text: &str) -> Result<Move, MoveParseError> {
        let original = text.trim();
        let unparsable = || MoveParseError::Unparsable(original.to_string());
        let mut s = original.trim_end_matches(['+', '#', '!', '?']).to_string();
        let mut landing = None;
        for (suffix, board) in [("/A", BoardId::A), ("/B", BoardId::B), ("/C", BoardId::C)] {
            if let Some(rest) = s.strip_suffix(suffix) {
                landing = Some(board);
                s = rest.trim_end_matches(['+', '#']).to_string();
            }
        }
        let legal = self.legal_moves();
        // Without a suffix, two candidates that differ only in their landing board (e.g. pawns
        // on h7 of A and h6 of B both reaching h5) are told apart by the output convention:
        // no suffix means the move lands on board B.
        let pick = |cands: Vec<Move>| match cands.len() {
            1 => Ok(cands[0]),
            0 => Err(MoveParseError::Illegal(original.to_string())),
            _ => match cands
                .iter()
                .filter(|m| landing.is_none() && m.to_board() == BoardId::B)
                .collect::<Vec<_>>()[..]
            {
                [only] => Ok(*only),
                _ => Err(MoveParseError::Ambiguous(original.to_string())),
            },
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
        // Promotion: `e8=Q`, `e8Q` or `e8q` (a piece letter after the destination rank).
        if let Some(&last) = body.last() {
            let before = body.len().checked_sub(2).map(|i| body[i]);
            if "QRBNqrbn".contains(last) && body.len() >= 3 && matches!(before, Some('=' | '1'..='8')) {
                promo = PieceKind::from_letter(last);
                body.pop();
                if body.last() == Some(&'=') {
                    body.pop();
                }
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
            Some(&c) if "KQRBNP".contains(c) => (PieceKind::from_letter(c).ok_or_else(unparsable)?, &prefix[1..]),
            _ => (PieceKind::Pawn, prefix),
        };
        let mut from_file = None;
        let mut from_board = None;
        let mut from_rank = None;
        for &c in disambig {
            match c {
                'a'..='x' if from_file.is_none() => {
                    let i = c as u8 - b'a';
                    from_file = Some(i % 8);
                    from_board = (i >= 8).then(|| BoardId::from_index(i as usize / 8));
                }
                '1'..='8' if from_rank.is_none() => from_rank = Some(c as u8 - b'1'),
                _ => return Err(unparsable()),
            }
        }
        let mut cands: Vec<Move> = legal
            .into_iter()
            .filter(|&m| {
                !m.is_castle()
                    && m.to() == to
                    && m.promotion() == promo
                    && self.moved_piece(m).map(|p| p.kind()) == Some(kind)
                    && from_file.is_none_or(|f| m.from().file() == f)
                    && from_rank.is_none_or(|r| m.from().rank() == r)
                    && from_board.is_none_or(|b| m.from_board() == b)
                    && landing.is_none_or(|b| m.to_board() == b)
                    && (m.kind() == MoveKind::Null) == (from_file.is_some() && from_rank.is_some() && m.from() == to)
            })
            .collect();
        // Narrowing by the output conventions: no suffix means the move lands on board B, and
        // a full square on a-h that fits pieces of two boards names the one on board A (the
        // output writes the wide cell for the others).
        if cands.len() > 1 && landing.is_none() && cands.iter().any(|m| m.to_board() == BoardId::B) {
            cands.retain(|m| m.to_board() == BoardId::B);
        }
        let full_square_on_a = from_rank.is_some() && from_file.is_some() && from_board.is_none();
        if cands.len() > 1 && full_square_on_a && cands.iter().any(|m| m.from_board() == BoardId::A) {
            cands.retain(|m| m.from_board() == BoardId::A);
        }
        pick(cands)
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
