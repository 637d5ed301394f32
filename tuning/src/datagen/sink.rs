//! The output of a data generation run: the text file, the packed file, and the progress
//! sidecar that makes a run resumable.
//!
//! For `--out PATH` the text data is `PATH`, the packed data `PATH.bin` and the sidecar
//! `PATH.progress`. The sidecar names the settings and the output format, then records every
//! finished game as `<index> <text end> <packed end> <positions> <result>`, where the ends are the
//! byte lengths of the two files after the game (0 for a file the format does not write). A game
//! is written to the data files first and recorded last, so bytes beyond the last record belong
//! to an unfinished game: reopening cuts them off, and no partial line or record survives.

use crate::datagen::packed::{self, HEADER_BYTES};
use std::collections::HashSet;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use vorpal_engine::GameResult;

/// First line of a progress sidecar.
const PROGRESS_MAGIC: &str = "# vorpal-datagen progress v2";
/// First line of a sidecar written before the packed format existed.
const PROGRESS_MAGIC_V1: &str = "# vorpal-datagen progress v1";

/// Which data files a run writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// Text lines only (`PATH`).
    Text,
    /// Packed records only (`PATH.bin`).
    Packed,
    /// Both.
    Both,
}

impl OutputFormat {
    /// True when the text file is written.
    pub fn text(self) -> bool {
        self != OutputFormat::Packed
    }

    /// True when the packed file is written.
    pub fn packed(self) -> bool {
        self != OutputFormat::Text
    }

    /// Name as given to `--format`.
    pub fn name(self) -> &'static str {
        match self {
            OutputFormat::Text => "text",
            OutputFormat::Packed => "packed",
            OutputFormat::Both => "both",
        }
    }
}

impl fmt::Display for OutputFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for OutputFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "text" => Ok(OutputFormat::Text),
            "packed" => Ok(OutputFormat::Packed),
            "both" => Ok(OutputFormat::Both),
            other => Err(format!("unknown format '{other}' (expected text, packed or both)")),
        }
    }
}

/// `path` with `suffix` appended to its file name.
pub fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(suffix);
    PathBuf::from(name)
}

/// One finished game, ready to be written.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Text lines, each ending in a newline (empty when the format writes no text).
    pub lines: String,
    /// Packed records back to back (empty when the format writes no packed data).
    pub packed: Vec<u8>,
    /// Number of positions kept.
    pub positions: u64,
    /// Plies played.
    pub plies: u64,
    /// Final result.
    pub result: GameResult,
}

/// One recorded game of a progress sidecar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProgressEntry {
    /// Game index.
    pub index: u64,
    /// Length of the text file after this game (0 when no text is written).
    pub text_end: u64,
    /// Length of the packed file after this game, header included (0 when none is written).
    pub packed_end: u64,
    /// Positions written for it.
    pub positions: u64,
}

/// A parsed sidecar.
#[derive(Clone, Debug)]
pub struct Progress {
    /// The settings signature.
    pub signature: String,
    /// The output format.
    pub format: OutputFormat,
    /// Recorded games in write order.
    pub entries: Vec<ProgressEntry>,
}

fn invalid(path: &Path, msg: impl fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("{}: {msg}", path.display()))
}

/// Reads a progress sidecar. A torn last line (an interrupted write) is ignored: that game is
/// not recorded.
pub fn read_progress(path: &Path) -> io::Result<Progress> {
    let mut lines = BufReader::new(File::open(path)?).lines();
    match lines.next().transpose()?.as_deref() {
        Some(PROGRESS_MAGIC) => {}
        Some(PROGRESS_MAGIC_V1) => {
            return Err(invalid(
                path,
                "written by an older vorpal-datagen (progress v1, text only): resume it with that version, \
                 convert its data with `vorpal-datagen convert`, or use another --out",
            ))
        }
        _ => return Err(invalid(path, "not a vorpal-datagen progress file")),
    }
    let mut field = |prefix: &str| -> io::Result<String> {
        lines
            .next()
            .transpose()?
            .and_then(|l| l.strip_prefix(prefix).map(str::to_string))
            .ok_or_else(|| invalid(path, format!("missing '{}' line", prefix.trim())))
    };
    let signature = field("# settings ")?;
    let format = field("# format ")?
        .parse::<OutputFormat>()
        .map_err(|e| invalid(path, e))?;
    let mut entries = Vec::new();
    for line in lines {
        let line = line?;
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 5 {
            continue;
        }
        let f: Vec<u64> = fields[..4]
            .iter()
            .map(|t| t.parse::<u64>())
            .collect::<Result<_, _>>()
            .map_err(|e| invalid(path, format!("bad line '{line}': {e}")))?;
        entries.push(ProgressEntry {
            index: f[0],
            text_end: f[1],
            packed_end: f[2],
            positions: f[3],
        });
    }
    Ok(Progress {
        signature,
        format,
        entries,
    })
}

/// The data files and the sidecar, written together under one lock.
pub struct Sink {
    text: Option<File>,
    packed: Option<File>,
    progress: File,
    text_end: u64,
    packed_end: u64,
}

/// Opens `path` for appending after cutting it to `keep` bytes (it must hold at least that many).
fn open_at(path: &Path, keep: u64) -> io::Result<File> {
    let file = OpenOptions::new().create(true).append(true).open(path)?;
    let len = file.metadata()?.len();
    if len < keep {
        return Err(invalid(
            path,
            format!("{len} bytes, shorter than the {keep} its progress record says"),
        ));
    }
    if len > keep {
        log::warn!(
            "{}: cutting off {} bytes of an unfinished game",
            path.display(),
            len - keep
        );
        file.set_len(keep)?;
    }
    Ok(file)
}

impl Sink {
    /// Opens (or creates) the output of `--out out`, checking that the settings and format match
    /// a recorded run and cutting off an unfinished game. Returns the sink and the recorded games.
    pub fn open(out: &Path, format: OutputFormat, signature: &str) -> io::Result<(Sink, HashSet<u64>)> {
        let progress_path = with_suffix(out, ".progress");
        let packed_path = with_suffix(out, ".bin");
        let mut done = HashSet::new();
        let (mut text_end, mut packed_end) = (0, 0);
        let resuming = progress_path.exists();
        if resuming {
            let bytes = std::fs::read(&progress_path)?;
            if bytes.last().is_some_and(|&b| b != b'\n') {
                let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
                OpenOptions::new()
                    .write(true)
                    .open(&progress_path)?
                    .set_len(keep as u64)?;
            }
            let old = read_progress(&progress_path)?;
            if old.signature != signature {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!(
                        "{} was generated with other settings ({}); resume with the same settings or use \
                         another --out",
                        out.display(),
                        old.signature
                    ),
                ));
            }
            if old.format != format {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!(
                        "{} was generated with --format {}; resume with the same format or use another --out",
                        out.display(),
                        old.format
                    ),
                ));
            }
            if let Some(last) = old.entries.last() {
                (text_end, packed_end) = (last.text_end, last.packed_end);
            }
            done.extend(old.entries.iter().map(|e| e.index));
        } else {
            for (used, path) in [(format.text(), out), (format.packed(), packed_path.as_path())] {
                if used && path.exists() && std::fs::metadata(path)?.len() > 0 {
                    return Err(io::Error::new(
                        io::ErrorKind::AlreadyExists,
                        format!(
                            "{} exists without {}; refusing to append",
                            path.display(),
                            progress_path.display()
                        ),
                    ));
                }
            }
        }
        let text = format.text().then(|| open_at(out, text_end)).transpose()?;
        let packed = if format.packed() {
            if done.is_empty() {
                // No game recorded: the file holds at most the header; write it afresh.
                let mut file = open_at(&packed_path, 0)?;
                file.write_all(&packed::header())?;
                file.flush()?;
                packed_end = HEADER_BYTES as u64;
                Some(file)
            } else {
                let mut header = [0u8; HEADER_BYTES];
                File::open(&packed_path)
                    .and_then(|mut f| f.read_exact(&mut header))
                    .map_err(|e| invalid(&packed_path, e))?;
                packed::check_header(&header).map_err(|e| invalid(&packed_path, e))?;
                Some(open_at(&packed_path, packed_end)?)
            }
        } else {
            None
        };
        let mut progress = OpenOptions::new().create(true).append(true).open(&progress_path)?;
        if !resuming {
            writeln!(progress, "{PROGRESS_MAGIC}\n# settings {signature}\n# format {format}")?;
            progress.flush()?;
        }
        let sink = Sink {
            text,
            packed,
            progress,
            text_end,
            packed_end,
        };
        Ok((sink, done))
    }

    /// Appends one game to the data files, then records it in the sidecar.
    pub fn write(&mut self, index: u64, record: &GameRecord) -> io::Result<()> {
        if let Some(text) = self.text.as_mut() {
            text.write_all(record.lines.as_bytes())?;
            text.flush()?;
            self.text_end += record.lines.len() as u64;
        }
        if let Some(packed) = self.packed.as_mut() {
            packed.write_all(&record.packed)?;
            packed.flush()?;
            self.packed_end += record.packed.len() as u64;
        }
        writeln!(
            self.progress,
            "{index} {} {} {} {}",
            self.text_end,
            self.packed_end,
            record.positions,
            record.result.pgn()
        )?;
        self.progress.flush()
    }
}
