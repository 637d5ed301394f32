//! Checkpoints of a generation by verification (`verify.rs`): the value arrays and the stage
//! reached, in `<MATERIAL>.vtb.ckpt` beside the table, written whole under another name and
//! then renamed, so that a checkpoint on disk is always complete. A generation started again
//! continues from it; it is removed when the table is written.
//!
//! Layout: the magic `VORPALCK`, the header length (u32) and its text lines (`material=`,
//! `entries=`, `stage=init N` or `stage=ply N`), both sides' arrays, an FNV-1a 64 checksum.

use super::disk::{Fnv, SumWriter};
use super::material::Material;
use super::TbError;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

const MAGIC: &[u8; 8] = b"VORPALCK";
const BLOCK: usize = 1 << 20;

/// How far a generation got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stage {
    /// The first pass is done for the chunks before this one.
    Init(usize),
    /// Every ply before this one is done.
    Ply(u32),
}

/// The checkpoint path of a table file.
pub(super) fn path_of(table: &Path) -> PathBuf {
    table.with_extension(format!(
        "{}.ckpt",
        table.extension().and_then(|e| e.to_str()).unwrap_or("vtb")
    ))
}

fn header(material: &Material, entries: usize, stage: Stage) -> String {
    let stage = match stage {
        Stage::Init(n) => format!("init {n}"),
        Stage::Ply(d) => format!("ply {d}"),
    };
    format!("material={material}\nentries={entries}\nstage={stage}\n")
}

/// Writes the arrays `val` (both sides) and `stage` to `path`.
pub(super) fn save(path: &Path, material: &Material, stage: Stage, val: &[Vec<AtomicU8>; 2]) -> Result<(), TbError> {
    let io = |e: std::io::Error| TbError::Io(format!("{}: {e}", path.display()));
    let tmp = path.with_extension("ckpt.part");
    let mut w = SumWriter::new(BufWriter::with_capacity(BLOCK, File::create(&tmp).map_err(io)?));
    let head = header(material, val[0].len(), stage);
    w.put(MAGIC).map_err(io)?;
    w.put(&(head.len() as u32).to_le_bytes()).map_err(io)?;
    w.put(head.as_bytes()).map_err(io)?;
    let mut buf = vec![0u8; BLOCK];
    for side in val {
        for part in side.chunks(BLOCK) {
            for (b, v) in buf.iter_mut().zip(part) {
                *b = v.load(Relaxed);
            }
            w.put(&buf[..part.len()]).map_err(io)?;
        }
    }
    let sum = w.sum.sum();
    w.put(&sum.to_le_bytes()).map_err(io)?;
    let f = w.inner.into_inner().map_err(|e| io(e.into_error()))?;
    f.sync_all().map_err(io)?;
    drop(f);
    std::fs::rename(&tmp, path).map_err(io)
}

/// Reads the checkpoint at `path` into `val` (both sides, of the material's size) and returns
/// its stage; `Ok(None)` when there is none. A checkpoint of another material or size, or a
/// damaged one, is an error (remove it to start again).
pub(super) fn load(path: &Path, material: &Material, val: &[Vec<AtomicU8>; 2]) -> Result<Option<Stage>, TbError> {
    if !path.exists() {
        return Ok(None);
    }
    let origin = path.display().to_string();
    let io = |e: std::io::Error| TbError::Io(format!("{origin}: {e}"));
    let r = BufReader::with_capacity(BLOCK, File::open(path).map_err(io)?);
    read_from(r, &origin, material, val).map(Some)
}

/// Reads a checkpoint (named `origin` in errors) from `r` into `val` and returns its stage.
pub(super) fn read_from(
    mut r: impl Read,
    origin: &str,
    material: &Material,
    val: &[Vec<AtomicU8>; 2],
) -> Result<Stage, TbError> {
    let bad = |why: &str| TbError::Damaged(format!("{origin}: {why}; remove it to start again"));
    let mut sum = Fnv::new();
    let mut read = |buf: &mut [u8]| -> Result<(), TbError> {
        r.read_exact(buf).map_err(|_| bad("truncated checkpoint"))?;
        sum.update(buf);
        Ok(())
    };
    let mut magic = [0u8; 12];
    read(&mut magic)?;
    if &magic[..8] != MAGIC {
        return Err(bad("not a checkpoint"));
    }
    let hlen = u32::from_le_bytes(magic[8..12].try_into().expect("4 bytes")) as usize;
    if hlen > 4096 {
        return Err(bad("header too long"));
    }
    let mut head = vec![0u8; hlen];
    read(&mut head)?;
    let head = String::from_utf8(head).map_err(|_| bad("header is not text"))?;
    let field = |k: &str| {
        head.lines()
            .find_map(|l| l.strip_prefix(k).and_then(|r| r.strip_prefix('=')))
    };
    if field("material") != Some(&material.to_string()) || field("entries") != Some(&val[0].len().to_string()) {
        return Err(bad("a checkpoint of another table"));
    }
    let stage = match field("stage").and_then(|s| s.split_once(' ')) {
        Some(("init", n)) => Stage::Init(n.parse().map_err(|_| bad("bad stage"))?),
        Some(("ply", n)) => Stage::Ply(n.parse().map_err(|_| bad("bad stage"))?),
        _ => return Err(bad("bad stage")),
    };
    let mut buf = vec![0u8; BLOCK];
    for side in val {
        for part in side.chunks(BLOCK) {
            let b = &mut buf[..part.len()];
            read(b)?;
            for (v, &x) in part.iter().zip(b.iter()) {
                v.store(x, Relaxed);
            }
        }
    }
    let expected = sum.sum();
    let mut tail = [0u8; 8];
    r.read_exact(&mut tail).map_err(|_| bad("truncated checkpoint"))?;
    if u64::from_le_bytes(tail) != expected {
        return Err(bad("checksum mismatch"));
    }
    if r.read(&mut tail).map_err(|_| bad("unreadable"))? != 0 {
        return Err(bad("trailing bytes"));
    }
    Ok(stage)
}
