//! A second, deliberately simple move generator for every Alice variant of docs/rules.md §3, written
//! for the tests from the rules text. It shares no code with `vorpal-engine` (nor with the
//! standard-Alice reference in `reference/`): a mailbox of three 64-cell boards, moves generated
//! from the movement and landing rules, legality decided by making the move on a copy and looking
//! for a check. Moves are named in the wide cell form of docs/rules.md §2 (`e2m4`; a-h = board A,
//! i-p = B, q-x = C), which is unambiguous in every variant. Nothing is tuned for speed.
//!
//! Decisions the rules text leaves open are taken as in `docs/variants.md` (Lady Alice pawns may
//! make null moves; any enemy piece on a Duo king's zero square gives check; O'Donohue castling
//! stays on its board unless both destinations are empty on the other; en passant wherever pawns
//! double-step). Castling rights follow piece identities: a right lives while its king and its
//! rook (identified when the FEN is read) have never moved and the rook is not captured.

mod fen;
mod moves;

use rayon::prelude::*;

/// The variants (docs/rules.md §1 and §3), by their UCI names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefVariant {
    /// Standard Alice.
    Alice,
    /// Looking-glass Alice.
    LookingGlass,
    /// Lady Alice (null moves).
    LadyAlice,
    /// O'Donohue Alice.
    ODonohue,
    /// Duo chess.
    Duo,
    /// Mini Alice (4-file boards).
    MiniAlice,
    /// Three-board Alice.
    Alice3,
}

impl RefVariant {
    /// The variant of a UCI name (`alice`, `lookingglass`, `ladyalice`, `odonohue`, `duo`,
    /// `minialice`, `alice3`).
    pub fn from_name(name: &str) -> Option<RefVariant> {
        Some(match name {
            "alice" => RefVariant::Alice,
            "lookingglass" => RefVariant::LookingGlass,
            "ladyalice" => RefVariant::LadyAlice,
            "odonohue" => RefVariant::ODonohue,
            "duo" => RefVariant::Duo,
            "minialice" => RefVariant::MiniAlice,
            "alice3" => RefVariant::Alice3,
            _ => return None,
        })
    }

    /// How many boards.
    pub(crate) fn boards(self) -> usize {
        if self == RefVariant::Alice3 {
            3
        } else {
            2
        }
    }

    /// Files per board.
    pub(crate) fn width(self) -> i8 {
        if self == RefVariant::MiniAlice {
            4
        } else {
            8
        }
    }
}

/// The en passant rule of §3.1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefEp {
    /// No en passant.
    Off,
    /// Only the ordinary capture when the passed square holds an enemy piece.
    Normal,
    /// Both pieces taken when the passed square holds an enemy piece.
    Double,
}

/// Variant, en passant rule and Chess960 castling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefRules {
    /// The variant.
    pub variant: RefVariant,
    /// The en passant rule.
    pub ep: RefEp,
    /// Chess960 castling (king takes rook in the move text, X-FEN/Shredder letters).
    pub chess960: bool,
}

impl RefRules {
    /// Rules from names: the variant's UCI name, `off`/`normal`/`double`, and the Chess960 flag.
    pub fn from_names(variant: &str, ep: &str, chess960: bool) -> Result<RefRules, String> {
        let variant = RefVariant::from_name(variant).ok_or(format!("unknown variant {variant}"))?;
        let ep = match ep {
            "off" => RefEp::Off,
            "normal" => RefEp::Normal,
            "double" => RefEp::Double,
            _ => return Err(format!("unknown en passant mode {ep}")),
        };
        Ok(RefRules { variant, ep, chess960 })
    }
}

/// Piece colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Color {
    White,
    Black,
}

impl Color {
    pub(crate) fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The rank direction of this colour's pawns.
    pub(crate) fn forward(self) -> i8 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }
}

/// Piece kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
}

/// A piece on the boards: colour, kind and an identity that stays with it for the whole game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Man {
    pub(crate) color: Color,
    pub(crate) kind: Kind,
    pub(crate) id: u8,
}

/// One castling right: the king's and the rook's identities and the rook's start square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Right {
    pub(crate) king_id: u8,
    pub(crate) rook_id: u8,
    pub(crate) rook_home: u8,
    pub(crate) king_home: u8,
}

/// A position of any variant.
#[derive(Clone, Debug)]
pub struct VPos {
    pub(crate) rules: RefRules,
    /// `cells[board][rank * 8 + file]`.
    pub(crate) cells: [[Option<Man>; 64]; 3],
    pub(crate) side: Color,
    /// Castling rights: [colour][0 = king side, 1 = queen side].
    pub(crate) rights: [[Option<Right>; 2]; 2],
    /// The square passed over by the last move's double step, and the board the pawn landed on.
    pub(crate) ep: Option<(u8, usize)>,
}

impl VPos {
    /// Every legal move in the wide form, sorted.
    pub fn legal_moves(&self) -> Vec<String> {
        let mut out: Vec<String> = self.children().into_iter().map(|(text, _)| text).collect();
        out.sort();
        out
    }

    /// The position after the legal move `wide` (wide form).
    pub fn play(&self, wide: &str) -> Result<VPos, String> {
        self.children()
            .into_iter()
            .find(|(text, _)| text == wide)
            .map(|(_, child)| child)
            .ok_or_else(|| format!("{wide} is not legal here"))
    }

    /// True when the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.king_in_check(self.side)
    }

    /// Number of pieces on all boards.
    pub fn piece_count(&self) -> usize {
        self.cells.iter().flatten().filter(|c| c.is_some()).count()
    }
}

/// Leaf nodes `depth` plies below `pos`.
pub fn perft(pos: &VPos, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let children = pos.children();
    if depth == 1 {
        return children.len() as u64;
    }
    children.iter().map(|(_, child)| perft(child, depth - 1)).sum()
}

/// `perft` with the root moves shared out over the rayon pool.
pub fn perft_parallel(pos: &VPos, depth: u32) -> u64 {
    if depth <= 1 {
        return perft(pos, depth);
    }
    let children = pos.children();
    children.par_iter().map(|(_, child)| perft(child, depth - 1)).sum()
}

/// The name of a cell in the wide form: board 0 files a-h, board 1 i-p, board 2 q-x.
pub(crate) fn cell_name(board: usize, sq: u8) -> String {
    format!("{}{}", (b'a' + (sq % 8) + 8 * board as u8) as char, sq / 8 + 1)
}
