//! Colours, piece kinds, pieces and board ids.

/// Side: White or Black.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// Moves first, pawns go up.
    White = 0,
    /// Pawns go down.
    Black = 1,
}

impl Color {
    /// Index 0 (White) or 1 (Black).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The opponent.
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// Both colours.
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];
}

/// Kind of a piece, without colour.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum PieceKind {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
}

impl PieceKind {
    /// All kinds in index order.
    pub const ALL: [PieceKind; 6] = [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
        PieceKind::King,
    ];

    /// Every kind but the king, in index order.
    pub const NON_KING: [PieceKind; 5] = [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
    ];

    /// Index 0..6.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Upper-case letter (P N B R Q K).
    pub const fn letter(self) -> char {
        [b'P', b'N', b'B', b'R', b'Q', b'K'][self as usize] as char
    }

    /// Kind from a letter of either case.
    pub fn from_letter(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_uppercase() {
            'P' => PieceKind::Pawn,
            'N' => PieceKind::Knight,
            'B' => PieceKind::Bishop,
            'R' => PieceKind::Rook,
            'Q' => PieceKind::Queen,
            'K' => PieceKind::King,
            _ => return None,
        })
    }
}

/// A coloured piece, index = colour * 6 + kind.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Piece(u8);

impl Piece {
    /// The piece of `color` and `kind`.
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece(color as u8 * 6 + kind as u8)
    }

    /// Index 0..12.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Colour of the piece.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 < 6 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Kind of the piece.
    #[inline(always)]
    pub const fn kind(self) -> PieceKind {
        PieceKind::ALL[(self.0 % 6) as usize]
    }

    /// FEN letter: upper case for White.
    pub fn letter(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// Piece from a FEN letter.
    pub fn from_letter(c: char) -> Option<Piece> {
        let kind = PieceKind::from_letter(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece::new(color, kind))
    }
}

/// One of the Alice boards. Standard Alice uses A and B; three-board Alice (`alice3`) adds C.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum BoardId {
    /// Board A, where the game starts.
    A = 0,
    /// Board B, the looking-glass board.
    B = 1,
    /// Board C, the third board of three-board Alice.
    C = 2,
}

impl BoardId {
    /// Index 0 (A), 1 (B) or 2 (C).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The board a piece transfers to from this one in a two-board variant (A and B swap).
    /// Only meaningful for A and B: with three boards there is no single other board (see
    /// `Position::other_boards`); C maps to A. Kept to one compare, as the standard-Alice
    /// generator calls it in its inner loops.
    #[inline(always)]
    pub const fn other(self) -> BoardId {
        match self {
            BoardId::A => BoardId::B,
            _ => BoardId::A,
        }
    }

    /// Board from an index: 0 = A, 1 = B, anything else = C.
    #[inline(always)]
    pub const fn from_index(i: usize) -> BoardId {
        if i == 0 {
            BoardId::A
        } else if i == 1 {
            BoardId::B
        } else {
            BoardId::C
        }
    }

    /// Both boards of a two-board variant.
    pub const BOTH: [BoardId; 2] = [BoardId::A, BoardId::B];

    /// All three boards; a variant with `n` boards uses `ALL[..n]`.
    pub const ALL: [BoardId; 3] = [BoardId::A, BoardId::B, BoardId::C];

    /// Letter `A`, `B` or `C`.
    pub const fn letter(self) -> char {
        match self {
            BoardId::A => 'A',
            BoardId::B => 'B',
            BoardId::C => 'C',
        }
    }
}

impl Piece {
    /// Piece from its index 0..12.
    #[inline(always)]
    pub const fn from_index(index: u8) -> Piece {
        debug_assert!(index < 12);
        Piece(index)
    }
}
