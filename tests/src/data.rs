//! Reading the reference data files (perft suites, legal-move lists, mates).
//!
//! The files are looked up in `../shared/data` beside the repository first (where the
//! project's reference data lives, possibly with more positions than the copy here), then in
//! the copy under `tests/data`.

use std::path::PathBuf;

/// Path of a reference data file.
pub fn data_file(name: &str) -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let shared = manifest.join("../../shared/data").join(name);
    if shared.exists() {
        shared
    } else {
        manifest.join("data").join(name)
    }
}

/// Text of a reference data file.
pub fn read_data(name: &str) -> String {
    let path = data_file(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// One position of an EPD perft suite.
#[derive(Clone, Debug)]
pub struct PerftCase {
    /// Name from the preceding `# name` line.
    pub name: String,
    /// FEN of the position.
    pub fen: String,
    /// (depth, expected node count).
    pub counts: Vec<(u32, u64)>,
}

/// One line of an EPD-style data file: the name from the preceding `# name` line, the FEN, and
/// the `;`-separated fields after it (trimmed, e.g. `D3 9384` or `variant duo`).
#[derive(Clone, Debug)]
pub struct EpdRecord {
    /// Name from the preceding `#` line.
    pub name: String,
    /// FEN of the position.
    pub fen: String,
    /// The fields after the FEN.
    pub fields: Vec<String>,
}

/// Every record of an EPD-style data file (`# name` lines followed by `<fen> ;field ;field ...`).
pub fn epd_records(file: &str) -> Vec<EpdRecord> {
    let mut records = Vec::new();
    let mut name = String::from("unnamed");
    for line in read_data(file).lines() {
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
        let fields = parts.map(|p| p.trim().to_string()).collect();
        records.push(EpdRecord {
            name: name.clone(),
            fen,
            fields,
        });
    }
    records
}

/// A `D<depth> <nodes>` field as (depth, nodes).
pub fn depth_count(field: &str) -> Option<(u32, u64)> {
    let mut kv = field.split_whitespace();
    let depth = kv.next()?.strip_prefix('D')?.parse().ok()?;
    let nodes = kv.next()?.parse().ok()?;
    Some((depth, nodes))
}

/// Parses `perft.epd`: `# name` lines followed by `<fen> ;D1 n ;D2 n ...`.
pub fn perft_cases() -> Vec<PerftCase> {
    epd_records("perft.epd")
        .into_iter()
        .map(|r| PerftCase {
            counts: r.fields.iter().filter_map(|f| depth_count(f)).collect(),
            name: r.name,
            fen: r.fen,
        })
        .collect()
}

/// Rows of a tab-separated data file with a header line, as column-name lookups.
pub fn tsv_rows(name: &str) -> Vec<std::collections::HashMap<String, String>> {
    let text = read_data(name);
    let mut lines = text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
    let header: Vec<String> = lines
        .next()
        .unwrap_or_default()
        .split('\t')
        .map(str::to_string)
        .collect();
    lines
        .map(|l| header.iter().cloned().zip(l.split('\t').map(str::to_string)).collect())
        .collect()
}
