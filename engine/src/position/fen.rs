//! FEN input (docs/rules.md §2). Accepted forms, for every variant:
//! - the pipe form: one grid of the variant's width (8 files, 4 in Mini Alice), a `|` before a
//!   piece on board B (`|N`);
//! - the joined form `placementA|placementB[|placementC]`: one plain placement per board, joined
//!   by `|` (it can hold three boards and squares occupied on two boards);
//! - the split form `<FEN of A> | <FEN of B> [| <FEN of C>]` (side and clocks from the first,
//!   castling and en passant the union);
//! - the wide form: one grid of all boards side by side (16 files for two 8-file boards, 24 for
//!   three, 8 for the two 4-file boards of Mini Alice), two-digit empty counts allowed.
//!
//! Castling letters: `KQkq`, and with Chess960 also X-FEN (`K` = the outermost rook on that side
//! of the king) and Shredder letters (`A`-`H` = the rook's file); without Chess960 `A`/`H` stand
//! for the a- and h-rooks. Output is in `fen_write.rs`.

use super::castling::{CastleSide, CastlingConfig, CastlingRights};
use super::Position;
use crate::rules::Rules;
use crate::types::{Bitboard, BoardId, Color, Piece, PieceKind, Square};
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
    /// One grid, `|` before a piece on board B (the default). Where the pipe form cannot
    /// represent the position (a piece on board C, a square occupied on two boards) the joined
    /// form is written instead.
    Pipe,
    /// One grid of all boards side by side (files 1-8 = board A, 9-16 = B, 17-24 = C).
    Wide,
    /// One full FEN per board joined by ` | `.
    Split,
    /// One placement per board joined by `|`, then the other fields once.
    Joined,
}

fn err<T>(msg: impl Into<String>) -> Result<T, FenError> {
    Err(FenError(msg.into()))
}

/// One cell read from a rank: piece, and whether it carried the `|` prefix.
type Cell = Option<(Piece, bool)>;

fn parse_rank(text: &str, rank_no: usize, max: usize) -> Result<Vec<Cell>, FenError> {
    let mut cells = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            let mut n = c.to_digit(10).unwrap_or(0) as usize;
            while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                n = n * 10 + d as usize;
                chars.next();
                if n > max {
                    break;
                }
            }
            if n == 0 || n > max {
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
        if cells.len() > max {
            return err(format!("rank {rank_no} is too long: '{text}'"));
        }
    }
    Ok(cells)
}

/// A placed piece: (square, board, piece).
type Placed = (Square, BoardId, Piece);

/// Pieces placed by one grid: the pipe form (`width` files, `|` = board B) or the wide form
/// (`width` files per board, up to `boards` boards side by side). `plain` forbids pipes (a
/// placement of the joined or split form, all on `base`).
fn parse_grid(field: &str, width: usize, boards: usize, plain: Option<BoardId>) -> Result<Vec<Placed>, FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return err(format!("the placement has {} ranks, expected 8", ranks.len()));
    }
    let max_boards = if plain.is_some() { 1 } else { boards };
    let mut placed = Vec::new();
    let mut grid_width = None;
    for (i, text) in ranks.iter().enumerate() {
        let rank_no = 8 - i;
        let cells = parse_rank(text, rank_no, width * max_boards)?;
        let n = cells.len();
        if n % width != 0 || n == 0 || n / width > max_boards {
            let wide = if max_boards > 1 {
                format!(" (or {} in the wide form)", width * 2)
            } else {
                String::new()
            };
            return err(format!("rank {rank_no} has {n} files, expected {width}{wide}"));
        }
        if *grid_width.get_or_insert(n) != n {
            return err(format!("rank {rank_no} has {n} files, unlike the ranks above it"));
        }
        for (file, cell) in cells.into_iter().enumerate() {
            let Some((piece, piped)) = cell else { continue };
            if piped && (n > width || plain.is_some()) {
                let form = if plain.is_some() {
                    "a joined or split placement"
                } else {
                    "the wide form"
                };
                return err(format!("{form} takes no '|' prefixes"));
            }
            let board = match plain {
                Some(b) => b,
                None if piped => BoardId::B,
                None => BoardId::from_index(file / width),
            };
            placed.push((
                Square::from_coords((file % width) as u8, rank_no as u8 - 1),
                board,
                piece,
            ));
        }
    }
    Ok(placed)
}

/// The fields after the placement.
struct Fields {
    side: Color,
    castling: Vec<char>,
    /// The en passant square, with the passed pawn's board when written as a wide cell.
    ep: Option<(Square, Option<BoardId>)>,
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
        s => match parse_ep_cell(s) {
            Some(cell) => Some(cell),
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

/// The en passant field: a square (`e3`), or a wide cell naming the board the passed pawn stands
/// on (`m3` = e3 with the pawn on board B, `u3` on board C).
fn parse_ep_cell(text: &str) -> Option<(Square, Option<BoardId>)> {
    let b = text.as_bytes();
    if b.len() != 2 || !(b'a'..=b'x').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    let i = b[0] - b'a';
    let board = (i >= 8).then(|| BoardId::from_index(i as usize / 8));
    Some((Square::from_coords(i % 8, b[1] - b'1'), board))
}

/// Reads the placement token: a single grid (pipe or wide form) or the joined form.
fn parse_placement(token: &str, rules: Rules) -> Result<Vec<Placed>, FenError> {
    let width = rules.variant.files() as usize;
    let boards = rules.boards();
    let slashes = token.matches('/').count();
    let joined = slashes >= 14 && slashes.is_multiple_of(7);
    if !joined {
        return parse_grid(token, width, boards, None);
    }
    let parts: Vec<&str> = token.split('|').collect();
    if slashes / 7 > boards || parts.len() != slashes / 7 {
        return err(format!(
            "the joined placement must be one 8-rank placement per board ({boards} boards), joined by '|'"
        ));
    }
    let mut placed = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        placed.extend(parse_grid(part, width, boards, Some(BoardId::from_index(i)))?);
    }
    Ok(placed)
}

impl Position {
    /// Parses a FEN in the pipe, joined, split or wide form under `rules`.
    pub fn from_fen(fen: &str, rules: Rules) -> Result<Position, FenError> {
        let tokens: Vec<&str> = fen.split_whitespace().collect();
        if tokens.is_empty() {
            return err("empty FEN");
        }
        let (placed, fields) = if tokens.contains(&"|") {
            let groups: Vec<&[&str]> = tokens.split(|&t| t == "|").collect();
            if groups.iter().any(|g| g.is_empty()) {
                return err("the split form needs a full FEN on each side of ' | '");
            }
            if groups.len() > rules.boards() {
                return err(format!(
                    "the split form has {} FENs, this variant has {} boards",
                    groups.len(),
                    rules.boards()
                ));
            }
            let width = rules.variant.files() as usize;
            let mut placed = Vec::new();
            let mut fields: Option<Fields> = None;
            for (i, group) in groups.iter().enumerate() {
                placed.extend(parse_grid(group[0], width, 1, Some(BoardId::from_index(i)))?);
                let f = parse_fields(&group[1..])?;
                match fields.as_mut() {
                    None => fields = Some(f),
                    Some(first) => {
                        // Castling is the union of the rights (a letter may appear in several).
                        for c in f.castling {
                            if !first.castling.contains(&c) {
                                first.castling.push(c);
                            }
                        }
                        first.ep = first.ep.or(f.ep);
                    }
                }
            }
            (placed, fields.expect("at least one group"))
        } else {
            (parse_placement(tokens[0], rules)?, parse_fields(&tokens[1..])?)
        };
        Position::from_parts(&placed, fields, rules)
    }

    fn from_parts(placed: &[Placed], fields: Fields, rules: Rules) -> Result<Position, FenError> {
        let mut pos = Position::empty(rules);
        let shared = rules.variant.shared_squares();
        for &(sq, board, piece) in placed {
            if board.index() >= rules.boards() {
                return err(format!(
                    "board {} does not exist in {} (a piece on {sq})",
                    board.letter(),
                    rules.variant
                ));
            }
            if pos.piece_on(board, sq).is_some() {
                return err(format!("square {sq} is occupied twice on board {}", board.letter()));
            }
            if !shared && pos.occupied_any().has(sq) {
                return err(format!("square {sq} is occupied on both boards"));
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
        pos.locate_kings();
        pos.side = fields.side;
        pos.halfmove = fields.halfmove;
        pos.fullmove = fields.fullmove;
        pos.castling = pos.parse_castling(&fields.castling)?;
        if let Some((ep, named_board)) = fields.ep {
            let (rank, mover) = match fields.side {
                Color::White => (5, Color::Black),
                Color::Black => (2, Color::White),
            };
            if ep.rank() != rank {
                return err(format!(
                    "en passant square {ep} is not on the rank a pawn of the side that just moved passes"
                ));
            }
            let pawn_sq = if mover == Color::White {
                ep.offset(8)
            } else {
                ep.offset(-8)
            };
            let boards: Vec<BoardId> = pos
                .boards()
                .iter()
                .copied()
                .filter(|&b| pos.pieces(b, mover, PieceKind::Pawn).has(pawn_sq))
                .collect();
            pos.ep_board = match (named_board, &boards[..]) {
                (_, []) => return err(format!("en passant square {ep}: no {mover:?} pawn stands on {pawn_sq}")),
                (Some(b), _) if boards.contains(&b) => b,
                (Some(b), _) => {
                    return err(format!(
                        "en passant cell names board {}, but no {mover:?} pawn stands on {pawn_sq} there",
                        b.letter()
                    ))
                }
                (None, [b]) => *b,
                // Pawns on several boards: a plain square names board A (as in the wide form).
                (None, _) if boards.contains(&BoardId::A) => BoardId::A,
                (None, _) => {
                    return err(format!(
                        "en passant square {ep}: {mover:?} pawns stand on {pawn_sq} of several boards; \
                         name the passed pawn's board with a wide cell"
                    ))
                }
            };
            pos.ep_square = Some(ep);
        }
        let them = pos.side.flip();
        if pos.king_in_check(them) {
            return err(format!("the side not to move ({them:?}) is in check"));
        }
        pos.checkers = pos.compute_checkers();
        pos.key = pos.compute_key();
        // The en passant field is read and checked, and kept only where it changes what can be
        // played (on the complete position: trying the capture makes a move).
        pos.drop_idle_ep_square();
        Ok(pos)
    }

    /// Reads the castling letters and sets the castling geometry (standard or Chess960).
    fn parse_castling(&mut self, letters: &[char]) -> Result<CastlingRights, FenError> {
        let mut rights = CastlingRights::NONE;
        if letters.is_empty() {
            return Ok(rights);
        }
        if !self.rules.variant.has_castling() {
            return err(format!(
                "castling rights given, but {} has no castling",
                self.rules.variant
            ));
        }
        let chess960 = self.rules.is_chess960();
        let standard = CastlingConfig::standard();
        let mut king = standard.king;
        let mut rook = standard.rook;
        for &c in letters {
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let back = if color == Color::White { 0 } else { 7 };
            let kb = self.king_board(color);
            let ksq = self.king_square(color);
            let (side, rs) = if chess960 {
                if ksq.rank() != back {
                    return err(format!(
                        "castling right '{c}': the {color:?} king is not on its first rank"
                    ));
                }
                let rooks = self.pieces(kb, color, PieceKind::Rook) & Bitboard::rank(back);
                let lower = c.to_ascii_lowercase();
                let found = match lower {
                    'k' => rooks.into_iter().filter(|r| r.file() > ksq.file()).max(),
                    'q' => rooks.into_iter().filter(|r| r.file() < ksq.file()).min(),
                    f => Some(Square::from_coords(f as u8 - b'a', back)),
                };
                let Some(rs) = found else {
                    return err(format!(
                        "castling right '{c}': no {color:?} rook on that side of the king"
                    ));
                };
                let side = match rs.file().cmp(&ksq.file()) {
                    std::cmp::Ordering::Greater => CastleSide::King,
                    std::cmp::Ordering::Less => CastleSide::Queen,
                    std::cmp::Ordering::Equal => {
                        return err(format!("castling right '{c}' names the king's own file"));
                    }
                };
                if rights.has(color, side) && rook[color.index()][side as usize] != rs {
                    return err(format!("castling right '{c}': two rooks for one side"));
                }
                king[color.index()] = ksq;
                (side, rs)
            } else {
                let side = match c.to_ascii_lowercase() {
                    'k' | 'h' => CastleSide::King,
                    'q' | 'a' => CastleSide::Queen,
                    _ => {
                        return err(format!(
                            "castling letter '{c}' names a rook file other than a or h (Chess960 is not enabled)"
                        ))
                    }
                };
                let ks = standard.king[color.index()];
                if ksq != ks {
                    return err(format!("castling right '{c}': the {color:?} king is not on {ks}"));
                }
                (side, standard.rook[color.index()][side as usize])
            };
            if rights.has(color, side) {
                return err(format!("castling right '{c}' is given twice"));
            }
            if !self.pieces_both(color, PieceKind::Rook).has(rs) {
                return err(format!("castling right '{c}': no {color:?} rook on {rs}"));
            }
            if !self.pieces(kb, color, PieceKind::Rook).has(rs) {
                return err(format!(
                    "castling right '{c}': the {color:?} rook on {rs} is not on the king's board"
                ));
            }
            rook[color.index()][side as usize] = rs;
            rights.insert(color, side);
        }
        self.castle_config = CastlingConfig::new(king, rook);
        Ok(rights)
    }
}
