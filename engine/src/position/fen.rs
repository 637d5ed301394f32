//! FEN input and output (rules.md §2): the pipe form (`|N` = knight on board B), the split
//! form (`<FEN of A> | <FEN of B>`) and the 16-file wide form (files 1-8 = A, 9-16 = B).

use super::castling::{CastleSide, CastlingRights};
use super::Position;
use crate::rules::Rules;
use crate::types::{BoardId, Color, Piece, PieceKind, Square};
use std::fmt;

/// Why a FEN was rejected.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FenError(pub String);

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FenError {}

/// The written form of a FEN.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum FenStyle {
    /// One 8x8 grid, `|` before a piece on board B (the default).
    Pipe,
    /// One 16x8 grid, files 1-8 = board A, 9-16 = board B.
    Wide,
    /// Two full FENs joined by ` | `.
    Split,
}

fn err<T>(msg: impl Into<String>) -> Result<T, FenError> {
    Err(FenError(msg.into()))
}

/// One cell read from a rank: piece, and whether it carried the `|` prefix.
type Cell = Option<(Piece, bool)>;

fn parse_rank(text: &str, rank_no: usize) -> Result<Vec<Cell>, FenError> {
    let mut cells = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            let mut n = c.to_digit(10).unwrap_or(0) as usize;
            while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                n = n * 10 + d as usize;
                chars.next();
                if n > 16 {
                    break;
                }
            }
            if n == 0 || n > 16 {
                return err(format!("rank {rank_no}: bad empty-square count in '{text}'"));
            }
            cells.extend(std::iter::repeat_n(None, n));
        } else if c == '|' {
            match chars.next() {
                Some(p) => match Piece::from_letter(p) {
                    Some(piece) => cells.push(Some((piece, true))),
                    None => return err(format!("rank {rank_no}: bad piece letter '{p}' after '|'")),
                },
                None => return err(format!("rank {rank_no}: '|' must be followed by a piece letter")),
            }
        } else {
            match Piece::from_letter(c) {
                Some(piece) => cells.push(Some((piece, false))),
                None => return err(format!("rank {rank_no}: bad piece letter '{c}'")),
            }
        }
        if cells.len() > 16 {
            return err(format!("rank {rank_no} is too long: '{text}'"));
        }
    }
    Ok(cells)
}

/// Pieces placed by a placement field: (square, board, piece).
fn parse_placement(field: &str) -> Result<Vec<(Square, BoardId, Piece)>, FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return err(format!("the placement has {} ranks, expected 8", ranks.len()));
    }
    let mut placed = Vec::new();
    let mut width = None;
    for (i, text) in ranks.iter().enumerate() {
        let rank_no = 8 - i;
        let cells = parse_rank(text, rank_no)?;
        if cells.len() != 8 && cells.len() != 16 {
            return err(format!(
                "rank {rank_no} has {} files, expected 8 (or 16 in the wide form)",
                cells.len()
            ));
        }
        if *width.get_or_insert(cells.len()) != cells.len() {
            return err(format!(
                "rank {rank_no} has {} files, unlike the ranks above it",
                cells.len()
            ));
        }
        for (file, cell) in cells.into_iter().enumerate() {
            let Some((piece, piped)) = cell else { continue };
            if piped && width == Some(16) {
                return err("the wide form takes no '|' prefixes");
            }
            let board = if piped || file >= 8 { BoardId::B } else { BoardId::A };
            placed.push((Square::from_coords((file % 8) as u8, rank_no as u8 - 1), board, piece));
        }
    }
    Ok(placed)
}

/// The fields after the placement.
struct Fields {
    side: Color,
    castling: Vec<char>,
    ep: Option<Square>,
    halfmove: u16,
    fullmove: u16,
}

fn parse_fields(fields: &[&str]) -> Result<Fields, FenError> {
    if fields.len() != 3 && fields.len() != 5 {
        return err(format!(
            "a FEN has 6 fields (or 4 without the move counters), found {}",
            fields.len() + 1
        ));
    }
    let side = match fields[0] {
        "w" | "W" => Color::White,
        "b" | "B" => Color::Black,
        s => return err(format!("side to move must be 'w' or 'b', found '{s}'")),
    };
    let castling: Vec<char> = if fields[1] == "-" {
        Vec::new()
    } else {
        fields[1].chars().collect()
    };
    for &c in &castling {
        if !matches!(c, 'K' | 'Q' | 'k' | 'q' | 'A'..='H' | 'a'..='h') {
            return err(format!("bad castling letter '{c}' in '{}'", fields[1]));
        }
    }
    let ep = match fields[2] {
        "-" => None,
        s => match Square::parse(s) {
            Some(sq) => Some(sq),
            None => return err(format!("bad en passant square '{s}'")),
        },
    };
    let number = |s: &str, what: &str| -> Result<u16, FenError> {
        s.parse::<u16>().map_err(|_| FenError(format!("bad {what} '{s}'")))
    };
    let (halfmove, fullmove) = if fields.len() == 5 {
        (
            number(fields[3], "halfmove clock")?,
            number(fields[4], "fullmove number")?.max(1),
        )
    } else {
        (0, 1)
    };
    Ok(Fields {
        side,
        castling,
        ep,
        halfmove,
        fullmove,
    })
}

impl Position {
    /// Parses a FEN in the pipe, split or wide form under `rules`.
    pub fn from_fen(fen: &str, rules: Rules) -> Result<Position, FenError> {
        let tokens: Vec<&str> = fen.split_whitespace().collect();
        if tokens.is_empty() {
            return err("empty FEN");
        }
        let (placed, fields) = if let Some(bar) = tokens.iter().position(|&t| t == "|") {
            let (a, b) = (&tokens[..bar], &tokens[bar + 1..]);
            if a.is_empty() || b.is_empty() {
                return err("the split form needs a full FEN on each side of ' | '");
            }
            let mut placed = parse_placement(a[0])?;
            let fa = parse_fields(&a[1..])?;
            let fb = parse_fields(&b[1..])?;
            for (sq, _, piece) in parse_placement(b[0])? {
                placed.push((sq, BoardId::B, piece));
            }
            let mut fields = fa;
            fields.castling.extend(fb.castling);
            fields.ep = fields.ep.or(fb.ep);
            (placed, fields)
        } else {
            (parse_placement(tokens[0])?, parse_fields(&tokens[1..])?)
        };
        Position::from_parts(&placed, fields, rules)
    }

    fn from_parts(placed: &[(Square, BoardId, Piece)], fields: Fields, rules: Rules) -> Result<Position, FenError> {
        let mut pos = Position::empty(rules);
        for &(sq, board, piece) in placed {
            if let Some((_, other)) = pos.piece_at(sq) {
                let what = if other == board { "twice" } else { "on both boards" };
                return err(format!("square {sq} is occupied {what}"));
            }
            if piece.kind() == PieceKind::Pawn && (sq.rank() == 0 || sq.rank() == 7) {
                return err(format!("pawn on {sq}: pawns cannot stand on the first or last rank"));
            }
            pos.put(board, piece, sq);
        }
        for color in Color::BOTH {
            let kings = pos.pieces_both(color, PieceKind::King).count();
            if kings != 1 {
                return err(format!("{color:?} has {kings} kings, expected exactly one"));
            }
        }
        pos.side = fields.side;
        pos.halfmove = fields.halfmove;
        pos.fullmove = fields.fullmove;
        pos.castling = pos.parse_castling(&fields.castling)?;
        if let Some(ep) = fields.ep {
            let (rank, pawn_sq, mover) = match fields.side {
                Color::White => (5, ep.offset(-8), Color::Black),
                Color::Black => (2, ep.offset(8), Color::White),
            };
            if ep.rank() != rank {
                return err(format!(
                    "en passant square {ep} is not on the rank a pawn of the side that just moved passes"
                ));
            }
            if !pos.pieces_both(mover, PieceKind::Pawn).has(pawn_sq) {
                return err(format!("en passant square {ep}: no {mover:?} pawn stands on {pawn_sq}"));
            }
            pos.ep_square = Some(ep);
        }
        let them = pos.side.flip();
        let kb = pos.king_board(them);
        if pos.is_attacked(pos.king_square(them), kb, pos.occupied(kb), pos.side) {
            return err(format!("the side not to move ({them:?}) is in check"));
        }
        pos.checkers = pos.compute_checkers();
        pos.key = pos.compute_key();
        Ok(pos)
    }

    fn parse_castling(&self, letters: &[char]) -> Result<CastlingRights, FenError> {
        let mut rights = CastlingRights::NONE;
        for &c in letters {
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let side = match c.to_ascii_lowercase() {
                'k' | 'h' => CastleSide::King,
                'q' | 'a' => CastleSide::Queen,
                _ => {
                    return err(format!(
                        "castling letter '{c}' names a rook file other than a or h (Chess960 is not enabled)"
                    ))
                }
            };
            if rights.has(color, side) {
                return err(format!("castling right '{c}' is given twice"));
            }
            let config = self.castle_config;
            let (ks, rs) = (config.king[color.index()], config.rook[color.index()][side as usize]);
            if !self.pieces_both(color, PieceKind::King).has(ks) {
                return err(format!("castling right '{c}': the {color:?} king is not on {ks}"));
            }
            if !self.pieces_both(color, PieceKind::Rook).has(rs) {
                return err(format!("castling right '{c}': no {color:?} rook on {rs}"));
            }
            rights.insert(color, side);
        }
        Ok(rights)
    }

    /// The FEN in the pipe form.
    pub fn to_fen(&self) -> String {
        self.to_fen_style(FenStyle::Pipe)
    }

    /// The FEN in the requested form.
    pub fn to_fen_style(&self, style: FenStyle) -> String {
        let tail = self.fen_tail();
        match style {
            FenStyle::Pipe => format!("{} {tail}", self.placement(&[BoardId::A], true)),
            FenStyle::Wide => format!("{} {tail}", self.placement(&[BoardId::A, BoardId::B], false)),
            FenStyle::Split => format!(
                "{} {tail} | {} {tail}",
                self.placement(&[BoardId::A], false),
                self.placement(&[BoardId::B], false)
            ),
        }
    }

    fn fen_tail(&self) -> String {
        let side = if self.side == Color::White { 'w' } else { 'b' };
        let mut castling = String::new();
        for (color, side_, c) in [
            (Color::White, CastleSide::King, 'K'),
            (Color::White, CastleSide::Queen, 'Q'),
            (Color::Black, CastleSide::King, 'k'),
            (Color::Black, CastleSide::Queen, 'q'),
        ] {
            if self.castling.has(color, side_) {
                castling.push(c);
            }
        }
        if castling.is_empty() {
            castling.push('-');
        }
        let ep = self.ep_square.map_or("-".to_string(), |s| s.to_string());
        format!("{side} {castling} {ep} {} {}", self.halfmove, self.fullmove)
    }

    /// Placement of one grid: with `merge`, both boards in one 8-file grid with `|` marks;
    /// otherwise the listed boards side by side.
    fn placement(&self, boards: &[BoardId], merge: bool) -> String {
        let mut out = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for &board in boards {
                for file in 0..8 {
                    let sq = Square::from_coords(file, rank);
                    let found = if merge {
                        self.piece_at(sq)
                    } else {
                        self.piece_on(board, sq).map(|p| (p, board))
                    };
                    match found {
                        Some((p, b)) => {
                            if empty > 0 {
                                out.push_str(&empty.to_string());
                                empty = 0;
                            }
                            if merge && b == BoardId::B {
                                out.push('|');
                            }
                            out.push(p.letter());
                        }
                        None => empty += 1,
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out
    }
}
