//! `vorpal-datagen convert` (text data to packed), `vorpal-datagen merge` (packed shards into
//! one file) and `vorpal-datagen dump` (packed to text, for inspection). Convert and merge write to `OUT.tmp` and rename it to `OUT` at the end, so a failed run leaves
//! no half-written output; both refuse to overwrite an existing `OUT`.

use crate::datagen::packed::{check_header, result_from_white_score, PackedReader, PackedRecord, PackedWriter};
use crate::datagen::packed::{record_offset, HEADER_BYTES, RECORD_BYTES};
use crate::datagen::parse_line;
use crate::datagen::sink::with_suffix;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::Path;
use vorpal_engine::{GameResult, Position, Rules};

/// How many skipped lines a conversion lists by number and reason.
pub const LISTED_SKIPS: usize = 20;

/// What a conversion did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConvertSummary {
    /// Non-blank lines read.
    pub lines: u64,
    /// Records written.
    pub converted: u64,
    /// Lines skipped as malformed or not packable.
    pub skipped: u64,
    /// The first [`LISTED_SKIPS`] skipped lines: `line N: reason`.
    pub skip_reasons: Vec<String>,
}

/// What a merge did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MergeSummary {
    /// Shards read.
    pub shards: u64,
    /// Records written.
    pub records: u64,
}

fn refuse_existing(out: &Path) -> io::Result<()> {
    if out.exists() {
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("{} exists; refusing to overwrite it", out.display()),
        ));
    }
    Ok(())
}

/// Writes a packed file through `OUT.tmp`, renamed to `out` when `fill` succeeds.
pub(crate) fn write_atomically<T>(
    out: &Path,
    fill: impl FnOnce(&mut PackedWriter<BufWriter<File>>) -> io::Result<T>,
) -> io::Result<T> {
    refuse_existing(out)?;
    let tmp = with_suffix(out, ".tmp");
    let result = (|| {
        let mut writer = PackedWriter::new(BufWriter::new(File::create(&tmp)?))?;
        let value = fill(&mut writer)?;
        writer.finish()?.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        std::fs::rename(&tmp, out)?;
        Ok(value)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// One text line packed: the FEN read under standard Alice rules, the score and the result.
pub fn pack_line(line: &str) -> Result<PackedRecord, String> {
    let data = parse_line(line)?;
    let pos = Position::from_fen(&data.fen, Rules::default()).map_err(|e| format!("bad FEN: {e}"))?;
    let result = result_from_white_score(data.result).map_err(|e| e.0)?;
    PackedRecord::encode(&pos, data.score, result).map_err(|e| e.0)
}

/// Converts the text data `input` (`<fen> | <score> | <result>` lines) to the packed file `out`.
/// Blank lines and `#` comments are ignored; malformed lines are skipped, counted and listed.
pub fn convert(input: &Path, out: &Path) -> io::Result<ConvertSummary> {
    let reader =
        BufReader::new(File::open(input).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", input.display())))?);
    write_atomically(out, |writer| {
        let mut summary = ConvertSummary::default();
        for (number, line) in reader.split(b'\n').enumerate() {
            let line = line?;
            let text = String::from_utf8_lossy(&line);
            let text = text.trim();
            if text.is_empty() || text.starts_with('#') {
                continue;
            }
            summary.lines += 1;
            match pack_line(text) {
                Ok(record) => {
                    writer.write(&record)?;
                    summary.converted += 1;
                }
                Err(reason) => {
                    summary.skipped += 1;
                    if summary.skip_reasons.len() < LISTED_SKIPS {
                        summary.skip_reasons.push(format!("line {}: {reason}", number + 1));
                    }
                }
            }
        }
        Ok(summary)
    })
}

/// Writes the records of the packed file `input` to `out` as text data lines (clocks 0 and 1:
/// the packed form does not keep them); stops at the first bad or truncated record, naming it.
/// Returns the records written.
pub fn dump(input: &Path, out: &mut impl Write) -> io::Result<u64> {
    let named = |msg: String| io::Error::new(io::ErrorKind::InvalidData, format!("{}: {msg}", input.display()));
    let file = File::open(input).map_err(|e| named(e.to_string()))?;
    let reader = PackedReader::new(BufReader::new(file)).map_err(|e| named(e.to_string()))?;
    let mut count = 0;
    for (i, record) in reader.enumerate() {
        let record = record.map_err(|e| named(e.to_string()))?;
        let list = record
            .pieces()
            .map_err(|e| named(format!("record {i} at byte {}: {e}", record_offset(i as u64))))?;
        let result = match list.result {
            GameResult::WhiteWins => "1.0",
            GameResult::Draw => "0.5",
            GameResult::BlackWins => "0.0",
        };
        writeln!(out, "{} | {} | {result}", list.to_fen(), list.score)?;
        count += 1;
    }
    out.flush()?;
    Ok(count)
}

/// Checks a shard before anything is written: its header, a whole number of records.
fn check_shard(shard: &Path) -> io::Result<u64> {
    let named = |msg: String| io::Error::new(io::ErrorKind::InvalidData, format!("{}: {msg}", shard.display()));
    let mut file = File::open(shard).map_err(|e| named(e.to_string()))?;
    let len = file.metadata()?.len();
    let mut header = vec![0u8; HEADER_BYTES.min(len as usize)];
    file.read_exact(&mut header)?;
    check_header(&header).map_err(|e| named(e.0))?;
    let body = len - HEADER_BYTES as u64;
    if !body.is_multiple_of(RECORD_BYTES as u64) {
        return Err(named(format!(
            "truncated: {} bytes after the last whole record ({} records)",
            body % RECORD_BYTES as u64,
            body / RECORD_BYTES as u64
        )));
    }
    Ok(body / RECORD_BYTES as u64)
}

/// Concatenates the packed `shards` into `out`, checking every header and record first.
pub fn merge(out: &Path, shards: &[&Path]) -> io::Result<MergeSummary> {
    if shards.is_empty() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "no shard to merge"));
    }
    for shard in shards {
        check_shard(shard)?;
    }
    write_atomically(out, |writer| {
        let mut summary = MergeSummary::default();
        for shard in shards {
            let named = |msg: String| io::Error::new(io::ErrorKind::InvalidData, format!("{}: {msg}", shard.display()));
            let reader = PackedReader::new(BufReader::new(File::open(shard)?)).map_err(|e| named(e.to_string()))?;
            for (i, record) in reader.enumerate() {
                let record = record.map_err(|e| named(e.to_string()))?;
                record
                    .pieces()
                    .map_err(|e| named(format!("record {i} at byte {}: {e}", record_offset(i as u64))))?;
                writer.write(&record)?;
                summary.records += 1;
            }
            summary.shards += 1;
        }
        Ok(summary)
    })
}
