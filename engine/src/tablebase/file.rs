//! The table files: one per material, `<MATERIAL>.vtb` (distance to mate), and for the
//! materials whose mates can exceed the fifty-move rule also `<MATERIAL>.vtz` (distance to
//! the next capture, pawn move or mate; its header says `metric=dtz`).
//!
//! Layout (little-endian): the magic `VORPALTB`, the format version (u32), a header of text
//! lines (`material=`, `rules=`, `entries=`; its length as u32 first), then for each side to
//! move (White, Black) an encoding byte (0 plain, 1 run-length), the data length (u64) and the
//! data, and last an FNV-1a 64-bit checksum of everything before it. Each entry is one byte:
//! 0 draw, 255 no position (illegal or stood for by another entry), otherwise the distance to
//! mate in plies plus one (odd plies: the side to move mates; even: it is mated).
//! A file of another version, material or rules, with a wrong checksum or length, is refused.

use super::material::Material;
use super::TbError;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The first bytes of every table file.
pub const MAGIC: &[u8; 8] = b"VORPALTB";
/// The version written and the only one read.
pub const VERSION: u32 = 1;
/// The rules every table assumes.
pub const RULES: &str = "alice en-passant=off castling=none fifty-move=ignored";

/// What a table file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Metric {
    /// Distance to mate (`.vtb`).
    Dtm,
    /// Distance to the next capture, pawn move or mate, under the play that minimises (winner) or
    /// maximises (loser) it (`.vtz`).
    Dtz,
}

impl Metric {
    /// The file name extension.
    fn extension(self) -> &'static str {
        match self {
            Metric::Dtm => "vtb",
            Metric::Dtz => "vtz",
        }
    }

    /// The header's `metric=` value (none for distance-to-mate files, as before).
    fn header(self) -> Option<&'static str> {
        match self {
            Metric::Dtm => None,
            Metric::Dtz => Some("dtz"),
        }
    }
}

/// The file name of a material's table.
pub fn file_name(material: &Material) -> String {
    format!("{material}.vtb")
}

/// The path of a material's table in `dir`.
pub fn path_in(dir: &Path, material: &Material) -> PathBuf {
    path_for(dir, material, Metric::Dtm)
}

/// The path of a material's file of `metric` in `dir`.
pub fn path_for(dir: &Path, material: &Material, metric: Metric) -> PathBuf {
    dir.join(format!("{material}.{}", metric.extension()))
}

/// FNV-1a, 64 bits (the network file's checksum too).
pub(crate) fn checksum(data: &[u8]) -> u64 {
    crate::nnue::format::fnv1a(data)
}

/// Run-length coding: a control byte `n < 128` is followed by `n + 1` literal bytes; `n >= 128`
/// by one byte repeated `n - 125` times (3 to 130).
fn pack(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() / 4);
    let mut i = 0;
    let mut lit_start = 0;
    let flush = |out: &mut Vec<u8>, from: usize, to: usize| {
        let mut a = from;
        while a < to {
            let n = (to - a).min(128);
            out.push((n - 1) as u8);
            out.extend_from_slice(&data[a..a + n]);
            a += n;
        }
    };
    while i < data.len() {
        let b = data[i];
        let mut run = 1;
        while i + run < data.len() && data[i + run] == b && run < 130 {
            run += 1;
        }
        if run >= 3 {
            flush(&mut out, lit_start, i);
            out.push((run + 125) as u8);
            out.push(b);
            i += run;
            lit_start = i;
        } else {
            i += run;
        }
    }
    flush(&mut out, lit_start, data.len());
    out
}

fn unpack(data: &[u8], expected: usize) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(expected);
    let mut i = 0;
    while i < data.len() {
        let n = data[i] as usize;
        i += 1;
        if n < 128 {
            out.extend_from_slice(data.get(i..i + n + 1)?);
            i += n + 1;
        } else {
            let b = *data.get(i)?;
            out.resize(out.len() + n - 125, b);
            i += 1;
        }
        if out.len() > expected {
            return None;
        }
    }
    (out.len() == expected).then_some(out)
}

/// The header lines of a file.
pub(super) fn header_text(material: &Material, entries: usize, metric: Metric) -> String {
    let mut header = format!("material={material}\nrules={RULES}\nentries={entries}\n");
    if let Some(m) = metric.header() {
        header.push_str(&format!("metric={m}\n"));
    }
    header
}

/// Writes a table's two value arrays (file layout) to `path`; returns the bytes written.
pub fn write(path: &Path, material: &Material, values: &[Vec<u8>; 2], metric: Metric) -> Result<u64, TbError> {
    let mut buf = Vec::new();
    buf.extend_from_slice(MAGIC);
    buf.extend_from_slice(&VERSION.to_le_bytes());
    let header = header_text(material, values[0].len(), metric);
    buf.extend_from_slice(&(header.len() as u32).to_le_bytes());
    buf.extend_from_slice(header.as_bytes());
    for side in values {
        let packed = pack(side);
        let (code, data) = if packed.len() < side.len() {
            (1u8, &packed[..])
        } else {
            (0u8, &side[..])
        };
        buf.push(code);
        buf.extend_from_slice(&(data.len() as u64).to_le_bytes());
        buf.extend_from_slice(data);
    }
    let sum = checksum(&buf);
    buf.extend_from_slice(&sum.to_le_bytes());
    let tmp = path.with_extension(format!("{}.part", metric.extension()));
    let io = |e: std::io::Error| TbError::Io(format!("{}: {e}", path.display()));
    let mut f = std::fs::File::create(&tmp).map_err(io)?;
    f.write_all(&buf).map_err(io)?;
    f.sync_all().map_err(io)?;
    drop(f);
    std::fs::rename(&tmp, path).map_err(io)?;
    Ok(buf.len() as u64)
}

/// Reads and checks a table file of `metric`; returns the two value arrays of `entries` each.
pub fn read(path: &Path, material: &Material, entries: usize, metric: Metric) -> Result<[Vec<u8>; 2], TbError> {
    let bytes = std::fs::read(path).map_err(|e| TbError::Io(format!("{}: {e}", path.display())))?;
    decode(&bytes, &path.display().to_string(), material, entries, metric)
}

/// Checks the bytes of a table file (named `origin` in errors) as [`read`] does.
pub fn decode(
    bytes: &[u8],
    origin: &str,
    material: &Material,
    entries: usize,
    metric: Metric,
) -> Result<[Vec<u8>; 2], TbError> {
    let bad = |why: &str| TbError::Damaged(format!("{origin}: {why}"));
    if bytes.len() < 8 + 4 + 4 + 8 || &bytes[..8] != MAGIC {
        return Err(bad("not a Vorpal tablebase file"));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(TbError::Version(format!(
            "{origin}: format version {version}, this program reads version {VERSION}; generate the table again"
        )));
    }
    let (body, tail) = bytes.split_at(bytes.len() - 8);
    if checksum(body) != u64::from_le_bytes(tail.try_into().expect("8 bytes")) {
        return Err(bad("checksum mismatch (the file is damaged)"));
    }
    let mut at = header_end(body, origin, material, entries, metric)?;
    let mut sides = Vec::with_capacity(2);
    for _ in 0..2 {
        let code = *body.get(at).ok_or_else(|| bad("truncated"))?;
        let len = body.get(at + 1..at + 9).ok_or_else(|| bad("truncated"))?;
        let len = u64::from_le_bytes(len.try_into().expect("8 bytes")) as usize;
        at += 9;
        let data = body
            .get(at..at.saturating_add(len))
            .ok_or_else(|| bad("truncated data"))?;
        at += len;
        let values = match code {
            0 if len == entries => data.to_vec(),
            1 => unpack(data, entries).ok_or_else(|| bad("run-length data does not decode"))?,
            _ => return Err(bad("unknown data encoding")),
        };
        sides.push(values);
    }
    if at != body.len() {
        return Err(bad("trailing bytes"));
    }
    let black = sides.pop().expect("two sides");
    let white = sides.pop().expect("two sides");
    Ok([white, black])
}

/// Checks the magic, version and header at the start of `bytes` (a whole file, or its first
/// bytes) and returns where the header ends: the first side's encoding byte.
pub(super) fn header_end(
    bytes: &[u8],
    origin: &str,
    material: &Material,
    entries: usize,
    metric: Metric,
) -> Result<usize, TbError> {
    let bad = |why: &str| TbError::Damaged(format!("{origin}: {why}"));
    if bytes.len() < 16 || &bytes[..8] != MAGIC {
        return Err(bad("not a Vorpal tablebase file"));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(TbError::Version(format!(
            "{origin}: format version {version}, this program reads version {VERSION}; generate the table again"
        )));
    }
    let body = bytes;
    let hlen = u32::from_le_bytes(body[12..16].try_into().expect("4 bytes")) as usize;
    let header = body.get(16..16 + hlen).ok_or_else(|| bad("truncated header"))?;
    let header = std::str::from_utf8(header).map_err(|_| bad("header is not text"))?;
    let field = |k: &str| {
        header
            .lines()
            .find_map(|l| l.strip_prefix(k).and_then(|r| r.strip_prefix('=')))
    };
    if field("material") != Some(&material.to_string()) {
        return Err(bad(&format!(
            "holds {:?}, expected {material}",
            field("material").unwrap_or("?")
        )));
    }
    if field("rules") != Some(RULES) {
        return Err(bad(&format!(
            "made for rules {:?}, expected {RULES:?}",
            field("rules").unwrap_or("?")
        )));
    }
    if field("metric") != metric.header() {
        return Err(bad(&format!(
            "holds the metric {:?}, expected {:?}",
            field("metric").unwrap_or("dtm"),
            metric.header().unwrap_or("dtm")
        )));
    }
    if field("entries") != Some(&entries.to_string()) {
        return Err(bad("wrong number of entries for this material"));
    }
    Ok(16 + hlen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_length_round_trips() {
        let mut data: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 13) as u8).collect();
        data.extend(std::iter::repeat_n(5, 777));
        data.extend([1, 1, 2, 2, 2, 3]);
        let p = pack(&data);
        assert!(p.len() < data.len());
        assert_eq!(unpack(&p, data.len()).unwrap(), data);
        assert_eq!(unpack(&pack(&[]), 0).unwrap(), Vec::<u8>::new());
        assert!(unpack(&p, data.len() - 1).is_none());
    }
}
