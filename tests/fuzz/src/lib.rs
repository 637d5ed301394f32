//! What the fuzz targets share: rules chosen by a byte, and the positions they start from.

use vorpal_engine::{EnPassant, Position, Rules, Variant};

/// The rules a byte names: standard Alice with each en passant option, then every variant,
/// with and without Chess960 castling.
pub fn rules_from(byte: u8) -> Rules {
    let ep = [EnPassant::Off, EnPassant::Normal, EnPassant::Double][usize::from(byte % 3)];
    let pick = usize::from(byte / 3) % (Variant::ALL.len() + 1);
    if pick == 0 {
        return Rules::with_en_passant(ep);
    }
    Rules::for_variant(Variant::ALL[pick - 1])
        .with_ep(ep)
        .with_chess960(byte >= 128)
}

/// The rules named by an input's first byte and the rest of it as text (lossily decoded);
/// None for an empty input.
pub fn rules_and_text(data: &[u8]) -> Option<(Rules, String)> {
    let (&rules, text) = data.split_first()?;
    Some((rules_from(rules), String::from_utf8_lossy(text).into_owned()))
}

/// Positions of standard Alice with pieces on both boards, castling rights and an en passant
/// square, for the targets that read moves or engine lines in a position.
pub const FENS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqk1nr/pppp1|Npp/4|p3/2|b5/8/8/PPPPPPPP/RNBQKB1R b KQkq - 0 3",
    "r2|Qk2r/pppppppp/8/8/8/8/PPPPPPPP/R|N2K|b1R w KQkq - 0 1",
    "4k3/8/8/8/3|p|P3/8/8/4K3 b - e3 0 1",
];

/// One of [`FENS`] under `rules` where it is legal there, else the rules' start position.
pub fn position(byte: u8, rules: Rules) -> Position {
    Position::from_fen(FENS[usize::from(byte) % FENS.len()], rules)
        .unwrap_or_else(|_| Position::from_fen(rules.variant.start_fen(), rules).expect("start position"))
}

/// Asserts what every accepted position keeps: consistent boards, and its FEN read back to
/// the same position.
pub fn check_position(pos: &Position, what: &str) {
    if let Err(e) = pos.check_consistency() {
        panic!("{what}: accepted position is inconsistent ({e}): {}", pos.to_fen());
    }
    let again = Position::from_fen(&pos.to_fen(), pos.rules())
        .unwrap_or_else(|e| panic!("{what}: its own FEN {} is refused: {e}", pos.to_fen()));
    assert_eq!(
        again.key(),
        pos.key(),
        "{what}: FEN round trip changes {}",
        pos.to_fen()
    );
}
