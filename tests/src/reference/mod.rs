//! A deliberately simple Alice chess move generator, written straight from `docs/rules.md`, used as
//! the independent second implementation in differential tests against the engine.
//!
//! It shares no code with `vorpal-engine`. The board is a mailbox of two 64-cell arrays (board A
//! and board B); legality is decided by making the move on a copy of the position and looking at
//! the result. Nothing here is tuned for speed: every step should be checkable against the rules
//! text by reading it.
//!
//! Squares are numbered `rank * 8 + file` (a1 = 0, h1 = 7, a8 = 56, h8 = 63).

mod fen;
mod movegen;

use movegen::Move;

/// How en passant is played (docs/rules.md §3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EpMode {
    /// No en passant (the default rules); the FEN field is ignored.
    Off,
    /// En passant; if the passed-over square holds an enemy piece on the capturing board, only
    /// the ordinary capture of that piece happens.
    Normal,
    /// En passant; if the passed-over square holds an enemy piece on the capturing board, the
    /// capture takes both that piece and the passed pawn (one move with a fixed effect).
    Double,
}

/// The colour of a piece or of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Color {
    White,
    Black,
}

impl Color {
    /// The other colour.
    pub(crate) fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// The kind of a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
}

/// A piece: its colour and kind.
pub(crate) type Piece = (Color, Kind);

/// Castling right indices into [`RefPosition::castling`].
pub(crate) const WHITE_KINGSIDE: usize = 0;
pub(crate) const WHITE_QUEENSIDE: usize = 1;
pub(crate) const BLACK_KINGSIDE: usize = 2;
pub(crate) const BLACK_QUEENSIDE: usize = 3;

/// An Alice chess position: two boards, side to move, castling rights, en passant square and
/// move counters.
#[derive(Clone)]
pub struct RefPosition {
    /// `cells[0]` is board A, `cells[1]` is board B.
    cells: [[Option<Piece>; 64]; 2],
    /// The side to move.
    side: Color,
    /// Castling rights: white king side, white queen side, black king side, black queen side.
    castling: [bool; 4],
    /// The square a pawn passed over with the last move's double step, if any.
    ep: Option<u8>,
    /// Half-moves since the last capture or pawn move.
    halfmove: u32,
    /// The move number, starting at 1 and incremented after Black's move.
    fullmove: u32,
}

impl RefPosition {
    /// All legal moves in UCI form (plain squares, `e7e8q`, castling as the king's move `e1g1`),
    /// sorted.
    pub fn legal_moves(&self, mode: EpMode) -> Vec<String> {
        let mut moves: Vec<String> = self.legal_children(mode).iter().map(|(mv, _)| mv.uci()).collect();
        moves.sort();
        moves
    }

    /// Applies one legal move given in UCI form; an error if it is not legal here.
    pub fn play(&self, uci: &str, mode: EpMode) -> Result<RefPosition, String> {
        self.legal_children(mode)
            .into_iter()
            .find(|(mv, _)| mv.uci() == uci)
            .map(|(_, child)| child)
            .ok_or_else(|| format!("illegal move {uci:?} in {}", self.to_fen()))
    }

    /// Whether the side to move has its king in check (on the board where the king stands).
    pub fn in_check(&self) -> bool {
        self.king_attacked(self.side)
    }

    /// Every legal move with the position it leads to.
    fn legal_children(&self, mode: EpMode) -> Vec<(Move, RefPosition)> {
        self.pseudo_moves(mode)
            .into_iter()
            .filter_map(|mv| self.try_move(&mv).map(|child| (mv, child)))
            .collect()
    }
}

/// Counts the leaf nodes of the legal move tree of `pos` to `depth` plies.
pub fn perft(pos: &RefPosition, depth: u32, mode: EpMode) -> u64 {
    if depth == 0 {
        return 1;
    }
    let children = pos.legal_children(mode);
    if depth == 1 {
        return children.len() as u64;
    }
    children.iter().map(|(_, child)| perft(child, depth - 1, mode)).sum()
}

/// The square `files` files and `ranks` ranks away from `sq`, if it is on the board.
pub(crate) fn offset(sq: u8, files: i8, ranks: i8) -> Option<u8> {
    let file = (sq % 8) as i8 + files;
    let rank = (sq / 8) as i8 + ranks;
    if (0..8).contains(&file) && (0..8).contains(&rank) {
        Some((rank * 8 + file) as u8)
    } else {
        None
    }
}

/// The name of a square, e.g. `e4`.
pub(crate) fn square_name(sq: u8) -> String {
    let file = (b'a' + sq % 8) as char;
    let rank = (b'1' + sq / 8) as char;
    format!("{file}{rank}")
}

/// Parses a square name such as `e4`.
pub(crate) fn parse_square(text: &str) -> Option<u8> {
    let bytes = text.as_bytes();
    if bytes.len() != 2 {
        return None;
    }
    let file = bytes[0].checked_sub(b'a')?;
    let rank = bytes[1].checked_sub(b'1')?;
    if file < 8 && rank < 8 {
        Some(rank * 8 + file)
    } else {
        None
    }
}
