//! Five-man table files, too large to hold in memory twice: written as a stream from the
//! generator's arrays and read one entry at a time.
//!
//! The format is the one of `file.rs` with plain data (encoding byte 0) for both sides, so
//! the entry `i` of a side lies at a fixed offset. Opening a table reads and checks its header
//! and length only; [`checksum_ok`] reads the whole file (`vorpal tb generate` does it before
//! it keeps a table it finds).

use super::file::{self, Metric};
use super::material::Material;
use super::{TbError, INVALID};
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::Path;

/// FNV-1a 64 over a stream (the same sum as `file::checksum` over the whole).
pub(super) struct Fnv(u64);

impl Fnv {
    pub fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    pub fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    pub fn sum(&self) -> u64 {
        self.0
    }
}

/// A writer that sums what it writes.
pub(super) struct SumWriter<W: Write> {
    pub inner: W,
    pub sum: Fnv,
    pub written: u64,
}

impl<W: Write> SumWriter<W> {
    pub fn new(inner: W) -> SumWriter<W> {
        SumWriter {
            inner,
            sum: Fnv::new(),
            written: 0,
        }
    }

    pub fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.sum.update(bytes);
        self.written += bytes.len() as u64;
        self.inner.write_all(bytes)
    }
}

/// Bytes copied from the arrays per write.
const BLOCK: usize = 1 << 20;

/// Writes a table file with plain data: `entries` values per side, `value(side, from, buf)`
/// filling `buf` with the entries from `from` on. The file appears under its name only when
/// complete. Returns the bytes written.
pub(super) fn write_plain(
    path: &Path,
    material: &Material,
    entries: usize,
    metric: Metric,
    value: &(dyn Fn(usize, usize, &mut [u8]) + Sync),
) -> Result<u64, TbError> {
    let io = |e: std::io::Error| TbError::Io(format!("{}: {e}", path.display()));
    let tmp = path.with_extension(format!(
        "{}.part",
        path.extension().and_then(|e| e.to_str()).unwrap_or("vtb")
    ));
    let mut w = SumWriter::new(BufWriter::with_capacity(BLOCK, File::create(&tmp).map_err(io)?));
    let header = file::header_text(material, entries, metric);
    w.put(file::MAGIC).map_err(io)?;
    w.put(&file::VERSION.to_le_bytes()).map_err(io)?;
    w.put(&(header.len() as u32).to_le_bytes()).map_err(io)?;
    w.put(header.as_bytes()).map_err(io)?;
    let mut buf = vec![0u8; BLOCK];
    for side in 0..2 {
        w.put(&[0u8]).map_err(io)?;
        w.put(&(entries as u64).to_le_bytes()).map_err(io)?;
        let mut from = 0;
        while from < entries {
            let n = (entries - from).min(BLOCK);
            value(side, from, &mut buf[..n]);
            w.put(&buf[..n]).map_err(io)?;
            from += n;
        }
    }
    let sum = w.sum.sum();
    w.put(&sum.to_le_bytes()).map_err(io)?;
    let written = w.written;
    let f = w.inner.into_inner().map_err(|e| io(e.into_error()))?;
    f.sync_all().map_err(io)?;
    drop(f);
    std::fs::rename(&tmp, path).map_err(io)?;
    Ok(written)
}

/// A table file read one entry at a time.
pub(crate) struct DiskTable {
    #[cfg(unix)]
    file: File,
    #[cfg(not(unix))]
    file: std::sync::Mutex<File>,
    /// Where each side's data starts.
    data_at: [u64; 2],
    entries: usize,
}

impl DiskTable {
    /// Opens a plain table file of `entries` per side, checking its header and length.
    pub fn open(path: &Path, material: &Material, entries: usize, metric: Metric) -> Result<DiskTable, TbError> {
        let origin = path.display().to_string();
        let io = |e: std::io::Error| TbError::Io(format!("{origin}: {e}"));
        let bad = |why: &str| TbError::Damaged(format!("{origin}: {why}"));
        let mut f = File::open(path).map_err(io)?;
        let mut head = Vec::new();
        (&mut f).take(1 << 16).read_to_end(&mut head).map_err(io)?;
        let at = file::header_end(&head, &origin, material, entries, metric)?;
        let len = f.metadata().map_err(io)?.len();
        let side = 9 + entries as u64;
        if len != at as u64 + 2 * side + 8 {
            return Err(bad("wrong length for a plain table of this material"));
        }
        let first = (at + 9 <= head.len()).then(|| &head[at..at + 9]);
        if first.is_none_or(|b| b[0] != 0 || b[1..9] != (entries as u64).to_le_bytes()) {
            return Err(bad("not a plain table"));
        }
        let data_at = [at as u64 + 9, at as u64 + side + 9];
        let t = DiskTable {
            #[cfg(unix)]
            file: f,
            #[cfg(not(unix))]
            file: std::sync::Mutex::new(f),
            data_at,
            entries,
        };
        let mut second = [0u8; 9];
        t.read_at(data_at[1] - 9, &mut second).map_err(io)?;
        if second[0] != 0 || second[1..9] != (entries as u64).to_le_bytes() {
            return Err(bad("not a plain table"));
        }
        Ok(t)
    }

    #[cfg(unix)]
    fn read_at(&self, at: u64, buf: &mut [u8]) -> std::io::Result<()> {
        std::os::unix::fs::FileExt::read_exact_at(&self.file, buf, at)
    }

    #[cfg(not(unix))]
    fn read_at(&self, at: u64, buf: &mut [u8]) -> std::io::Result<()> {
        use std::io::{Seek, SeekFrom};
        let mut f = self.file.lock().unwrap_or_else(|e| e.into_inner());
        f.seek(SeekFrom::Start(at))?;
        f.read_exact(buf)
    }

    /// The entry `idx` of `side` (0 White, 1 Black to move); [`INVALID`] (read as a draw by
    /// the prober) when the file cannot be read.
    pub fn entry(&self, side: usize, idx: usize) -> u8 {
        if idx >= self.entries {
            return INVALID;
        }
        let mut b = [0u8; 1];
        match self.read_at(self.data_at[side] + idx as u64, &mut b) {
            Ok(()) => b[0],
            Err(_) => INVALID,
        }
    }
}

/// Reads a whole file and checks its checksum.
pub(super) fn checksum_ok(path: &Path) -> Result<bool, TbError> {
    let io = |e: std::io::Error| TbError::Io(format!("{}: {e}", path.display()));
    let mut f = File::open(path).map_err(io)?;
    let len = f.metadata().map_err(io)?.len();
    if len < 8 {
        return Ok(false);
    }
    let mut left = len - 8;
    let mut sum = Fnv::new();
    let mut buf = vec![0u8; BLOCK];
    while left > 0 {
        let n = left.min(BLOCK as u64) as usize;
        f.read_exact(&mut buf[..n]).map_err(io)?;
        sum.update(&buf[..n]);
        left -= n as u64;
    }
    let mut tail = [0u8; 8];
    f.read_exact(&mut tail).map_err(io)?;
    Ok(u64::from_le_bytes(tail) == sum.sum())
}
