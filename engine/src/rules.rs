//! Variant and rule options carried by every position.

use std::fmt;
use std::str::FromStr;

/// The en passant option of rules.md §3.1.
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
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        EnPassant::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("unknown en passant mode '{s}' (expected off, normal or double)"))
    }
}

impl fmt::Display for EnPassant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The variants of the Alice family. Only standard Alice is implemented so far.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum Variant {
    /// Standard Alice chess (rules.md §1).
    #[default]
    Alice,
}

impl Variant {
    /// Every supported variant.
    pub const ALL: [Variant; 1] = [Variant::Alice];

    /// UCI name.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Alice => "alice",
        }
    }

    /// Start position in the pipe FEN form.
    pub const fn start_fen(self) -> &'static str {
        match self {
            Variant::Alice => "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        }
    }
}

impl FromStr for Variant {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("unsupported variant '{s}'"))
    }
}

/// The rules a position is played under.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Rules {
    /// Which Alice variant.
    pub variant: Variant,
    /// En passant option.
    pub en_passant: EnPassant,
}

impl Rules {
    /// Standard Alice with the given en passant mode.
    pub const fn with_en_passant(en_passant: EnPassant) -> Rules {
        Rules {
            variant: Variant::Alice,
            en_passant,
        }
    }
}
