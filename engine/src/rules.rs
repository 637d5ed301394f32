//! Variant and rule options carried by every position (docs/rules.md §1 and §3).
//!
//! A [`Rules`] value names the variant, the en passant option and whether castling follows the
//! Chess960 rules. The variant decides the geometry (two or three boards, 8 or 4 files), where a
//! moving piece may land, the extra moves (null and zero moves) and the check rule; see
//! `docs/variants.md` for every decision the rules text leaves open.

use crate::error::RulesNameError;
use crate::types::{Bitboard, PieceKind};
use std::fmt;
use std::str::FromStr;

/// The en passant option of docs/rules.md §3.1.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum EnPassant {
    /// No en passant (standard Alice).
    #[default]
    Off,
    /// En passant; if the passed square holds an enemy piece only that piece is captured.
    Normal,
    /// En passant; if the passed square holds an enemy piece both it and the pawn are captured.
    Double,
}

impl EnPassant {
    /// All modes, for option listings.
    pub const ALL: [EnPassant; 3] = [EnPassant::Off, EnPassant::Normal, EnPassant::Double];

    /// Lower-case name as used in options and data files.
    pub const fn name(self) -> &'static str {
        match self {
            EnPassant::Off => "off",
            EnPassant::Normal => "normal",
            EnPassant::Double => "double",
        }
    }
}

impl FromStr for EnPassant {
    type Err = RulesNameError;
    fn from_str(s: &str) -> Result<Self, RulesNameError> {
        EnPassant::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("unknown en passant mode '{s}' (expected off, normal or double)").into())
    }
}

impl fmt::Display for EnPassant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The variants of the Alice family (docs/rules.md §1 and §3.2-3.7). Chess960 (§3.8) is not a
/// variant of its own but the [`Rules::chess960`] flag, valid with every variant that castles.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum Variant {
    /// Standard Alice chess (docs/rules.md §1).
    #[default]
    Alice,
    /// Looking-glass Alice (§3.2): Black's army starts on board B.
    LookingGlass,
    /// Lady Alice (§3.3): a piece may also move to its own square of the other board (null move).
    LadyAlice,
    /// O'Donohue Alice (§3.4): a move whose destination is occupied on the other board stays on
    /// its own board.
    ODonohue,
    /// Duo chess (§3.5): Black starts on B, transferring is optional, zero moves, zero-square check.
    Duo,
    /// Mini Alice (§3.6): two boards of 4 files, single pawn steps, no castling.
    MiniAlice,
    /// Three-board Alice (§3.7): boards A, B, C; the mover picks the landing board.
    Alice3,
}

/// Files a-d: the squares of a Mini Alice board.
const MINI_SQUARES: Bitboard = Bitboard(0x0F0F_0F0F_0F0F_0F0F);

impl Variant {
    /// Every supported variant, in the order they are listed (`UCI_Variant`, `--variant`).
    pub const ALL: [Variant; 7] = [
        Variant::Alice,
        Variant::LookingGlass,
        Variant::LadyAlice,
        Variant::ODonohue,
        Variant::Duo,
        Variant::MiniAlice,
        Variant::Alice3,
    ];

    /// UCI name (`UCI_Variant` value).
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Alice => "alice",
            Variant::LookingGlass => "lookingglass",
            Variant::LadyAlice => "ladyalice",
            Variant::ODonohue => "odonohue",
            Variant::Duo => "duo",
            Variant::MiniAlice => "minialice",
            Variant::Alice3 => "alice3",
        }
    }

    /// Start position (pipe FEN form; the four-file form for Mini Alice).
    pub const fn start_fen(self) -> &'static str {
        match self {
            Variant::Alice | Variant::LadyAlice | Variant::ODonohue | Variant::Alice3 => {
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
            }
            Variant::LookingGlass | Variant::Duo => {
                "|r|n|b|q|k|b|n|r/|p|p|p|p|p|p|p|p/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
            }
            Variant::MiniAlice => "rqkr/nbbn/pppp/4/4/PPPP/NBBN/RQKR w - - 0 1",
        }
    }

    /// Number of boards: 3 for `alice3`, 2 otherwise.
    #[inline(always)]
    pub const fn boards(self) -> usize {
        match self {
            Variant::Alice3 => 3,
            _ => 2,
        }
    }

    /// Files of one board: 4 for Mini Alice, 8 otherwise.
    #[inline(always)]
    pub const fn files(self) -> u8 {
        match self {
            Variant::MiniAlice => 4,
            _ => 8,
        }
    }

    /// The squares that exist on each board (files a-d for Mini Alice, all 64 otherwise).
    #[inline(always)]
    pub const fn valid_squares(self) -> Bitboard {
        match self {
            Variant::MiniAlice => MINI_SQUARES,
            _ => Bitboard::FULL,
        }
    }

    /// True for the variants played by the fast, fully legal generator of standard Alice
    /// (`alice` and `lookingglass`, with or without Chess960); the others use the generic
    /// make-and-test generator.
    #[inline(always)]
    pub const fn fast_generator(self) -> bool {
        matches!(self, Variant::Alice | Variant::LookingGlass)
    }

    /// True when a square may be occupied on more than one board: O'Donohue (a piece stays on
    /// its board when its destination is occupied on the other), Duo (staying is optional) and
    /// three-board Alice (the landing cell must be empty only on the chosen board).
    #[inline(always)]
    pub const fn shared_squares(self) -> bool {
        matches!(self, Variant::ODonohue | Variant::Duo | Variant::Alice3)
    }

    /// True when castling exists (every variant but Mini Alice).
    #[inline(always)]
    pub const fn has_castling(self) -> bool {
        !matches!(self, Variant::MiniAlice)
    }

    /// True when pawns have the double step (every variant but Mini Alice).
    #[inline(always)]
    pub const fn pawn_double_step(self) -> bool {
        !matches!(self, Variant::MiniAlice)
    }

    /// True when the en passant options of §3.1 apply: wherever pawns have the double step
    /// (every variant but Mini Alice). The passed pawn is taken on the board where it landed
    /// (the other board, or in O'Donohue and Duo possibly its own; in three-board Alice the one
    /// it chose), by an enemy pawn on that board.
    #[inline(always)]
    pub const fn supports_en_passant(self) -> bool {
        self.pawn_double_step()
    }

    /// True when the alternating-board exchange model of the static exchange evaluation holds
    /// (every capture lands on the one other board). Otherwise the search uses a simple estimate.
    #[inline(always)]
    pub const fn alternating_exchanges(self) -> bool {
        matches!(
            self,
            Variant::Alice | Variant::LookingGlass | Variant::LadyAlice | Variant::MiniAlice
        )
    }

    /// True when Black's army starts on board B (Looking-glass, Duo).
    pub const fn black_starts_on_b(self) -> bool {
        matches!(self, Variant::LookingGlass | Variant::Duo)
    }

    /// The Chess960 start position number `n` (0..960, Scharnagl numbering; 518 is the standard
    /// array) for this variant: the array on A (Black's on B in Looking-glass and Duo).
    /// None for Mini Alice (no castling, no Chess960) or `n >= 960`.
    pub fn chess960_fen(self, n: u32) -> Option<String> {
        if !self.has_castling() {
            return None;
        }
        let back = chess960_back_rank(n)?;
        let white: String = back.iter().map(|k| k.letter()).collect();
        let black: String = if self.black_starts_on_b() {
            back.iter()
                .map(|k| format!("|{}", k.letter().to_ascii_lowercase()))
                .collect()
        } else {
            white.to_ascii_lowercase()
        };
        let pawns = if self.black_starts_on_b() {
            "|p".repeat(8)
        } else {
            "pppppppp".into()
        };
        Some(format!("{black}/{pawns}/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1"))
    }
}

/// The back rank of Chess960 position `n` (Scharnagl numbering), files a to h.
pub fn chess960_back_rank(n: u32) -> Option<[PieceKind; 8]> {
    if n >= 960 {
        return None;
    }
    let mut rank: [Option<PieceKind>; 8] = [None; 8];
    let mut n = n as usize;
    // Light-squared bishop on b, d, f or h; dark-squared bishop on a, c, e or g.
    rank[(n % 4) * 2 + 1] = Some(PieceKind::Bishop);
    n /= 4;
    rank[(n % 4) * 2] = Some(PieceKind::Bishop);
    n /= 4;
    let free = |rank: &[Option<PieceKind>; 8], i: usize| (0..8).filter(|&f| rank[f].is_none()).nth(i);
    let queen = free(&rank, n % 6)?;
    rank[queen] = Some(PieceKind::Queen);
    n /= 6;
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (k1, k2) = KNIGHTS[n];
    let (a, b) = (free(&rank, k1)?, free(&rank, k2)?);
    rank[a] = Some(PieceKind::Knight);
    rank[b] = Some(PieceKind::Knight);
    for kind in [PieceKind::Rook, PieceKind::King, PieceKind::Rook] {
        let f = free(&rank, 0)?;
        rank[f] = Some(kind);
    }
    let mut out = [PieceKind::Pawn; 8];
    for (o, r) in out.iter_mut().zip(rank) {
        *o = r?;
    }
    Some(out)
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = RulesNameError;
    /// Accepts the UCI names case-insensitively, ignoring `-`, `_`, `'` and spaces
    /// (`Looking-Glass`, `O'Donohue`), and `duet` for Duo.
    fn from_str(s: &str) -> Result<Self, RulesNameError> {
        let key: String = s
            .chars()
            .filter(|c| !matches!(c, '-' | '_' | '\'' | ' '))
            .collect::<String>()
            .to_ascii_lowercase();
        let key = if key == "duet" { "duo".to_string() } else { key };
        Variant::ALL.into_iter().find(|v| v.name() == key).ok_or_else(|| {
            let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
            format!("unsupported variant '{s}' (expected one of {})", names.join(", ")).into()
        })
    }
}

/// The rules a position is played under.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Rules {
    /// Which Alice variant.
    pub variant: Variant,
    /// En passant option (only effective where [`Variant::supports_en_passant`]).
    pub en_passant: EnPassant,
    /// Chess960 castling and castling notation (king takes rook, X-FEN/Shredder letters); only
    /// effective where the variant has castling.
    pub chess960: bool,
}

impl Rules {
    /// Standard Alice with the given en passant mode.
    pub const fn with_en_passant(en_passant: EnPassant) -> Rules {
        Rules {
            variant: Variant::Alice,
            en_passant,
            chess960: false,
        }
    }

    /// The default options of `variant` (en passant off, no Chess960).
    pub const fn for_variant(variant: Variant) -> Rules {
        Rules {
            variant,
            en_passant: EnPassant::Off,
            chess960: false,
        }
    }

    /// These rules with another en passant mode.
    pub const fn with_ep(self, en_passant: EnPassant) -> Rules {
        Rules { en_passant, ..self }
    }

    /// These rules with Chess960 castling switched on or off.
    pub const fn with_chess960(self, chess960: bool) -> Rules {
        Rules { chess960, ..self }
    }

    /// The en passant mode in force: the option, or `Off` where the variant has no en passant.
    #[inline(always)]
    pub const fn ep_mode(self) -> EnPassant {
        if matches!(self.en_passant, EnPassant::Off) || self.variant.supports_en_passant() {
            self.en_passant
        } else {
            EnPassant::Off
        }
    }

    /// True when Chess960 castling is in force.
    #[inline(always)]
    pub const fn is_chess960(self) -> bool {
        self.chess960 && self.variant.has_castling()
    }

    /// Number of boards.
    #[inline(always)]
    pub const fn boards(self) -> usize {
        self.variant.boards()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess960_numbering() {
        let letters = |n| {
            chess960_back_rank(n)
                .unwrap()
                .iter()
                .map(|k| k.letter())
                .collect::<String>()
        };
        assert_eq!(letters(518), "RNBQKBNR");
        assert_eq!(letters(0), "BBQNNRKR");
        assert_eq!(letters(959), "RKRNNQBB");
        assert!(chess960_back_rank(960).is_none());
        let mut all: Vec<String> = (0..960).map(letters).collect();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 960);
    }

    #[test]
    fn names_round_trip() {
        for v in Variant::ALL {
            assert_eq!(v.name().parse::<Variant>(), Ok(v));
        }
        assert_eq!("Looking-Glass".parse::<Variant>(), Ok(Variant::LookingGlass));
        assert_eq!("O'Donohue".parse::<Variant>(), Ok(Variant::ODonohue));
        assert_eq!("duet".parse::<Variant>(), Ok(Variant::Duo));
        assert!("chess".parse::<Variant>().is_err());
    }
}
