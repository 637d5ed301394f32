//! Reading `variants.epd`: perft counts of every variant, one position a line with its rules:
//! `<fen> ;variant <name> ;ep <off|normal|double> ;chess960 <0|1> ;D1 <n> ;D2 <n> ...`,
//! each preceded by a `# <variant> <name>` line.

use crate::data::{depth_count, epd_records};

/// One position of the variant perft suite.
#[derive(Clone, Debug)]
pub struct VariantCase {
    /// Name from the preceding `#` line.
    pub name: String,
    /// FEN of the position.
    pub fen: String,
    /// Variant name (`Variant::name`).
    pub variant: String,
    /// En passant mode name.
    pub ep: String,
    /// Chess960 castling.
    pub chess960: bool,
    /// (depth, expected node count).
    pub counts: Vec<(u32, u64)>,
}

/// Every case of `variants.epd`.
pub fn variant_cases() -> Vec<VariantCase> {
    epd_records("variants.epd")
        .into_iter()
        .map(|record| {
            let mut case = VariantCase {
                name: record.name,
                fen: record.fen,
                variant: String::new(),
                ep: "off".into(),
                chess960: false,
                counts: Vec::new(),
            };
            for part in &record.fields {
                let mut kv = part.split_whitespace();
                match (kv.next(), kv.next()) {
                    (Some("variant"), Some(v)) => case.variant = v.to_string(),
                    (Some("ep"), Some(v)) => case.ep = v.to_string(),
                    (Some("chess960"), Some(v)) => case.chess960 = v == "1",
                    _ => match depth_count(part) {
                        Some(count) => case.counts.push(count),
                        None => panic!("bad field '{part}' in variants.epd"),
                    },
                }
            }
            case
        })
        .collect()
}
