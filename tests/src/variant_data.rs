//! Reading `variants.epd`: perft counts of every variant, one position a line with its rules:
//! `<fen> ;variant <name> ;ep <off|normal|double> ;chess960 <0|1> ;D1 <n> ;D2 <n> ...`,
//! each preceded by a `# <variant> <name>` line.

use crate::data::read_data;

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
    let mut cases = Vec::new();
    let mut name = String::new();
    for line in read_data("variants.epd").lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix('#') {
            name = rest.trim().to_string();
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or_default().trim().to_string();
        let mut case = VariantCase {
            name: name.clone(),
            fen,
            variant: String::new(),
            ep: "off".into(),
            chess960: false,
            counts: Vec::new(),
        };
        for part in parts {
            let mut kv = part.split_whitespace();
            match (kv.next(), kv.next()) {
                (Some("variant"), Some(v)) => case.variant = v.to_string(),
                (Some("ep"), Some(v)) => case.ep = v.to_string(),
                (Some("chess960"), Some(v)) => case.chess960 = v == "1",
                (Some(d), Some(n)) if d.starts_with('D') => case
                    .counts
                    .push((d[1..].parse().expect("depth"), n.parse().expect("count"))),
                _ => panic!("bad field '{part}' in variants.epd"),
            }
        }
        cases.push(case);
    }
    cases
}
