//! Alice endgame tablebases: every position of up to five men (five without pawns) solved exactly by retrograde
//! analysis, for standard Alice without castling rights and with en passant off, ignoring the
//! fifty-move rule (as problem solvers do).
//!
//! The one door of this module: [`Material`] names a table, [`generate`] builds one (after the
//! tables it converts into, see [`Material::all_up_to`]) and writes its file, [`Tablebases`]
//! loads files on demand and probes positions ([`Probe`]: win, draw or loss for the side to
//! move and the distance to mate). Inside: `setup` (a small position with its own move and
//! un-move generation), `index` (the symmetries and the index), `generate` (the retrograde
//! analysis), `file` (the checksummed file format) and `probe`.

mod checkpoint;
mod disk;
mod file;
mod generate;
mod index;
mod large;
mod material;
mod probe;
mod setup;
mod stats;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_five;
mod verify;

pub use file::{file_name, RULES, VERSION};
pub use generate::{generate, generate_all};
pub use material::{Material, MAX_MEN, MAX_SET_MEN};
pub use probe::{within_fifty_move_clock, MoveProbe, Probe, Tablebases, Wdl};
pub use stats::{DtzStats, GenStats, SideStats};

/// Checks the bytes of `material`'s table file (`dtz`: its distance-to-zeroing file) as the
/// prober does when it loads one, and returns the number of entries of each side: the door of
/// the tablebase fuzz target (`tests/fuzz`).
pub fn check_file_bytes(bytes: &[u8], material: &Material, dtz: bool) -> Result<usize, TbError> {
    let metric = if dtz { file::Metric::Dtz } else { file::Metric::Dtm };
    let entries = file_entries(material);
    let [white, black] = file::decode(bytes, "fuzz input", material, entries, metric)?;
    debug_assert!(white.len() == entries && black.len() == entries);
    Ok(entries)
}

/// Reads `bytes` as a checkpoint of a generation of `material` (as a resumed generation does)
/// and returns the ply it reached, or the chunk of the first pass: the door of the checkpoint
/// fuzz target (`tests/fuzz`).
pub fn check_checkpoint_bytes(bytes: &[u8], material: &Material) -> Result<(bool, u64), TbError> {
    let n = file_entries(material);
    let val = [0, 1].map(|_| (0..n).map(|_| std::sync::atomic::AtomicU8::new(0)).collect());
    match checkpoint::read_from(bytes, "fuzz input", material, &val)? {
        checkpoint::Stage::Init(chunk) => Ok((false, chunk as u64)),
        checkpoint::Stage::Ply(d) => Ok((true, u64::from(d))),
    }
}

/// The number of entries of each side in `material`'s table file.
pub fn file_entries(material: &Material) -> usize {
    index::Layout::new(material).file_size()
}

use std::fmt;

/// An entry: a draw (or, during generation, not yet decided).
pub(crate) const DRAW: u8 = 0;
/// An entry that stands for no position.
pub(crate) const INVALID: u8 = 255;
/// The longest distance an entry holds, in plies.
pub(crate) const MAX_PLIES: u32 = 253;

/// Why a table could not be made, read or used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TbError {
    /// A file could not be read or written.
    Io(String),
    /// A file is damaged (checksum, length, header).
    Damaged(String),
    /// A file of another format version.
    Version(String),
    /// The position is played under rules the tables do not cover.
    Rules(String),
    /// A table this one needs is missing or a result is out of range.
    Generate(String),
}

impl fmt::Display for TbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TbError::Io(m) => write!(f, "tablebase I/O error: {m}"),
            TbError::Damaged(m) => write!(f, "tablebase file refused: {m}"),
            TbError::Version(m) => write!(f, "tablebase file refused: {m}"),
            TbError::Rules(m) => write!(f, "tablebases do not apply: {m}"),
            TbError::Generate(m) => write!(f, "tablebase generation failed: {m}"),
        }
    }
}

impl std::error::Error for TbError {}
