//! Training positions for the network: loading data files into compact samples and holding
//! out a validation set.
//!
//! A sample keeps only what training needs, in 34 bytes (the packed record's layout of the
//! pieces, [`crate::datagen::packed`]): the occupied squares, each one's piece and board, the side to
//! move, the search score, the game result and the hand-crafted evaluation (the baseline). The
//! active feature indices (`vorpal_engine::nnue::feature_index`) are computed from it when the
//! sample is used ([`Sample::active`]), which costs far less than the sample's gradient.
//! [`load_samples`] is the one entry point for every data format, chosen per file by its
//! first bytes ([`DataFormat::of`]): packed files (`VORPALPK`) are read directly, anything
//! else as the datagen text form (`<pipe FEN> | <score cp, White's view> | <result, White's
//! view>`).

use crate::datagen::packed::{self, PackedRecord, HEADER_BYTES, RECORD_BYTES};
use crate::datagen::parse_line;
use rayon::prelude::*;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;
use vorpal_engine::nnue::feature_index;
use vorpal_engine::{BoardId, Color, Piece, Position, Rules, Square, Variant};

/// Most pieces a position can have (both boards together).
pub const MAX_ACTIVE: usize = 32;

/// The active features of one perspective (a slice through `Deref`).
#[derive(Clone, Copy, Debug)]
pub struct Active {
    features: [u16; MAX_ACTIVE],
    len: usize,
}

impl std::ops::Deref for Active {
    type Target = [u16];
    fn deref(&self) -> &[u16] {
        &self.features[..self.len]
    }
}

/// Bit of [`Sample::flags`]: White is to move.
const WHITE_TO_MOVE: u8 = 1;
/// Bit of [`Sample::flags`]: no castling rights (boards swap and files mirror exactly).
const SYMMETRIC: u8 = 2;
/// Shift of the transform ([`Sample::transformed`]) in [`Sample::flags`].
const TRANSFORM_SHIFT: u8 = 2;

/// One training position, compact (34 bytes, no padding).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Sample {
    /// The occupied squares of both boards (a u64, little-endian; standard Alice never fills
    /// a square on both boards).
    occupancy: [u8; 8],
    /// `Piece::index()` of each occupied square in ascending order, two per byte, low nibble
    /// first.
    codes: [u8; 16],
    /// Bit i: the i-th occupied square's piece stands on board B (a u32, little-endian).
    on_b: [u8; 4],
    /// Search score in centipawns, White's view (clamped to the i16 range).
    pub score: i16,
    /// The hand-crafted static evaluation in centipawns, side to move's view (the baseline
    /// the network's validation loss is compared with).
    pub hce_stm: i16,
    /// Game result in half points, White's view: 0 loss, 1 draw, 2 win.
    pub result_halves: u8,
    /// [`WHITE_TO_MOVE`], [`SYMMETRIC`], and the transform in bits 2 and 3.
    flags: u8,
}

impl Sample {
    /// The sample of `pos` with its search score and result (both White's view), or `None`
    /// when the position is not standard Alice, has pieces on a third board, a square filled
    /// on both boards or more than 32 pieces.
    pub fn from_position(pos: &Position, score: i32, result: f64) -> Option<Sample> {
        if pos.rules().variant != Variant::Alice || pos.boards().len() != 2 {
            return None;
        }
        let (a, b) = (pos.occupied(BoardId::A), pos.occupied(BoardId::B));
        let occupancy = a.0 | b.0;
        if a.0 & b.0 != 0 || occupancy.count_ones() as usize > MAX_ACTIVE {
            return None;
        }
        let mut codes = [0u8; 16];
        let mut on_b = 0u32;
        let mut rest = occupancy;
        let mut i = 0;
        while rest != 0 {
            let sq = Square::new(rest.trailing_zeros() as u8);
            rest &= rest - 1;
            let board = if b.0 >> sq.index() & 1 == 1 {
                BoardId::B
            } else {
                BoardId::A
            };
            let piece = pos.piece_on(board, sq)?;
            codes[i / 2] |= (piece.index() as u8) << (4 * (i % 2));
            on_b |= u32::from(board == BoardId::B) << i;
            i += 1;
        }
        let white = pos.side_to_move() == Color::White;
        let symmetric = pos.castling().is_empty();
        Some(Sample {
            occupancy: occupancy.to_le_bytes(),
            codes,
            on_b: on_b.to_le_bytes(),
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            hce_stm: vorpal_engine::eval::evaluate(pos, &vorpal_engine::eval::EvalParams::default())
                .clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            result_halves: (result * 2.0).round().clamp(0.0, 2.0) as u8,
            flags: (u8::from(white) * WHITE_TO_MOVE) | (u8::from(symmetric) * SYMMETRIC),
        })
    }

    /// The sample of a packed record; the record is validated like any other (a legal
    /// standard-Alice position).
    pub fn from_record(record: &PackedRecord) -> Result<Sample, packed::PackError> {
        let (pos, score, result) = record.decode()?;
        let result = match result {
            vorpal_engine::GameResult::WhiteWins => 1.0,
            vorpal_engine::GameResult::Draw => 0.5,
            vorpal_engine::GameResult::BlackWins => 0.0,
        };
        Sample::from_position(&pos, i32::from(score), result)
            .ok_or_else(|| packed::PackError("not a standard two-board Alice position".into()))
    }

    /// Pieces on the boards.
    pub fn count(&self) -> usize {
        u64::from_le_bytes(self.occupancy).count_ones() as usize
    }

    /// True when the position has no castling rights: swapping the boards and mirroring the
    /// files keep its value ([`Sample::transformed`]).
    pub fn symmetric(&self) -> bool {
        self.flags & SYMMETRIC != 0
    }

    /// The sample of the position with boards A and B swapped (`transform` bit 0) and/or the
    /// files mirrored a↔h (bit 1), composed with any transform already applied. Without
    /// castling rights (and with en passant off, as in the data) both are symmetries of the
    /// Alice rules: a piece on B moves on B and lands on A exactly as one on A does, and the
    /// moves of chess are the same mirrored. Training on them multiplies what few positions
    /// there are by four. The features change when they are computed ([`Sample::active`]).
    pub fn transformed(&self, transform: u8) -> Sample {
        let mut out = *self;
        out.flags ^= (transform & 3) << TRANSFORM_SHIFT;
        out
    }

    /// Active features of `perspective` (0 White, 1 Black), in ascending square order.
    #[inline]
    pub fn active(&self, perspective: usize) -> Active {
        let perspective = if perspective == 0 { Color::White } else { Color::Black };
        let transform = self.flags >> TRANSFORM_SHIFT & 3;
        let on_b = u32::from_le_bytes(self.on_b);
        let mut rest = u64::from_le_bytes(self.occupancy);
        let mut out = Active {
            features: [0; MAX_ACTIVE],
            len: 0,
        };
        let mut i = 0;
        while rest != 0 && i < MAX_ACTIVE {
            let sq = Square::new(rest.trailing_zeros() as u8);
            rest &= rest - 1;
            // Codes above 11 never get here (`from_position` writes `Piece::index()`).
            let piece = Piece::from_index((self.codes[i / 2] >> (4 * (i % 2))) & 15);
            let board = if on_b >> i & 1 == 1 { BoardId::B } else { BoardId::A };
            let mut x = feature_index(perspective, piece, board, sq);
            // Features are `board * 768 + (colour, kind, square)`.
            if transform & 1 != 0 {
                x = if x >= 12 * 64 { x - 12 * 64 } else { x + 12 * 64 };
            }
            if transform & 2 != 0 {
                x ^= 7;
            }
            out.features[i] = x as u16;
            i += 1;
            out.len = i;
        }
        out
    }

    /// True when White is to move.
    #[inline]
    pub fn white_to_move(&self) -> bool {
        self.flags & WHITE_TO_MOVE != 0
    }

    /// Perspective index (0 White, 1 Black) of the side to move.
    #[inline]
    pub fn stm(&self) -> usize {
        if self.white_to_move() {
            0
        } else {
            1
        }
    }

    /// Game result (1, 0.5, 0), White's view.
    #[inline]
    pub fn result(&self) -> f32 {
        self.result_halves as f32 * 0.5
    }

    /// Game result from the side to move's view.
    #[inline]
    pub fn result_stm(&self) -> f32 {
        if self.white_to_move() {
            self.result()
        } else {
            1.0 - self.result()
        }
    }

    /// Search score in centipawns from the side to move's view.
    #[inline]
    pub fn score_stm(&self) -> f32 {
        if self.white_to_move() {
            self.score as f32
        } else {
            -(self.score as f32)
        }
    }
}

/// What loading skipped and kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadReport {
    /// Samples kept.
    pub loaded: usize,
    /// Lines that could not be parsed (bad fields or FEN).
    pub malformed: usize,
    /// Parsed positions that are not standard two-board Alice.
    pub skipped_variant: usize,
    /// Samples kept per input file, in the order given.
    pub per_file: Vec<usize>,
}

/// A data file's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataFormat {
    /// `vorpal-datagen` text lines.
    Text,
    /// `vorpal-datagen` packed records ([`crate::datagen::packed`]).
    Packed,
}

impl DataFormat {
    /// The format of the file at `path`: packed when it starts with the packed magic
    /// (`VORPALPK`), text otherwise.
    pub fn of(path: &Path) -> io::Result<DataFormat> {
        let mut start = [0u8; 8];
        let mut file = std::fs::File::open(path)?;
        let mut got = 0;
        while got < start.len() {
            match file.read(&mut start[got..])? {
                0 => break,
                n => got += n,
            }
        }
        Ok(if &start[..got] == packed::MAGIC {
            DataFormat::Packed
        } else {
            DataFormat::Text
        })
    }
}

/// Records decoded together in parallel.
const DECODE_BATCH: usize = 1 << 16;

/// Reads the packed records of `reader` (a whole packed file, header first) into `out` until
/// `limit` samples are held in total. A damaged file is refused: a bad header, a truncated
/// last record or a record that does not decode to a legal standard-Alice position is an
/// error that names its byte offset in the file.
pub fn read_packed(mut reader: impl Read, limit: usize, out: &mut Vec<Sample>) -> io::Result<()> {
    let damaged =
        |offset: u64, what: String| io::Error::new(io::ErrorKind::InvalidData, format!("byte {offset}: {what}"));
    let mut header = [0u8; HEADER_BYTES];
    let got = read_up_to(&mut reader, &mut header)?;
    packed::check_header(&header[..got]).map_err(|e| damaged(0, e.0))?;
    let mut buffer = vec![0u8; DECODE_BATCH * RECORD_BYTES];
    let mut records_before = 0u64;
    loop {
        let got = read_up_to(&mut reader, &mut buffer)?;
        let whole = got / RECORD_BYTES;
        let offset_of = |i: usize| HEADER_BYTES as u64 + (records_before + i as u64) * RECORD_BYTES as u64;
        let decoded: Vec<Result<Sample, packed::PackError>> = buffer[..whole * RECORD_BYTES]
            .par_chunks_exact(RECORD_BYTES)
            .map(|bytes| {
                let record = PackedRecord(bytes.try_into().expect("chunks of a record's size"));
                Sample::from_record(&record)
            })
            .collect();
        for (i, sample) in decoded.into_iter().enumerate() {
            if out.len() >= limit {
                return Ok(());
            }
            let sample =
                sample.map_err(|e| damaged(offset_of(i), format!("record {}: {e}", records_before + i as u64)))?;
            out.push(sample);
        }
        if got % RECORD_BYTES != 0 {
            return Err(damaged(
                offset_of(whole),
                format!(
                    "truncated record: {} of {RECORD_BYTES} bytes after {} whole records",
                    got % RECORD_BYTES,
                    records_before + whole as u64
                ),
            ));
        }
        if got < buffer.len() {
            return Ok(());
        }
        records_before += whole as u64;
    }
}

/// Reads until `buf` is full or the input ends; returns the bytes read.
fn read_up_to(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match reader.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// Outcome of one text line.
enum Parsed {
    Sample(Box<Sample>),
    Malformed,
    OtherVariant,
}

fn parse_text_line(line: &str) -> Parsed {
    let Ok(l) = parse_line(line) else {
        return Parsed::Malformed;
    };
    let Ok(pos) = Position::from_fen(&l.fen, Rules::default()) else {
        return Parsed::Malformed;
    };
    match Sample::from_position(&pos, l.score, l.result) {
        Some(s) => Parsed::Sample(Box::new(s)),
        None => Parsed::OtherVariant,
    }
}

/// Lines parsed together in parallel.
const PARSE_BATCH: usize = 1 << 14;

/// Parses text lines from `reader` into `out` until `limit` samples are held in total.
pub fn read_text(reader: impl BufRead, limit: usize, out: &mut Vec<Sample>, report: &mut LoadReport) -> io::Result<()> {
    let mut batch: Vec<String> = Vec::with_capacity(PARSE_BATCH);
    let mut lines = reader.lines();
    loop {
        batch.clear();
        while batch.len() < PARSE_BATCH {
            match lines.next() {
                Some(line) => {
                    let line = match line {
                        Ok(l) => l,
                        // A line that is not UTF-8 is malformed data, not an I/O failure.
                        Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                            report.malformed += 1;
                            continue;
                        }
                        Err(e) => return Err(e),
                    };
                    let t = line.trim();
                    if !t.is_empty() && !t.starts_with('#') {
                        batch.push(line);
                    }
                }
                None => break,
            }
        }
        if batch.is_empty() {
            return Ok(());
        }
        let parsed: Vec<Parsed> = batch.par_iter().map(|l| parse_text_line(l)).collect();
        for p in parsed {
            if out.len() >= limit {
                return Ok(());
            }
            match p {
                Parsed::Sample(s) => out.push(*s),
                Parsed::Malformed => report.malformed += 1,
                Parsed::OtherVariant => report.skipped_variant += 1,
            }
        }
    }
}

/// Loads samples from `paths` in order, at most `limit` in total. In text files, malformed
/// lines and positions of other variants are skipped and counted, never fatal; a packed file
/// with a damaged record or a file that cannot be read is an error naming the file (and, for
/// a packed file, the byte offset). Room for the records of packed files is reserved up front,
/// so that the samples take their 34 bytes each and no more.
pub fn load_samples(paths: &[&Path], limit: Option<usize>) -> io::Result<(Vec<Sample>, LoadReport)> {
    let limit = limit.unwrap_or(usize::MAX);
    let named = |path: &Path, e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
    let mut formats = Vec::with_capacity(paths.len());
    let mut packed_records = 0usize;
    for path in paths {
        let format = DataFormat::of(path).map_err(|e| named(path, e))?;
        if format == DataFormat::Packed {
            let len = std::fs::metadata(path).map_err(|e| named(path, e))?.len() as usize;
            packed_records += len.saturating_sub(HEADER_BYTES) / RECORD_BYTES;
        }
        formats.push(format);
    }
    let mut samples = Vec::new();
    samples.try_reserve_exact(packed_records.min(limit)).map_err(|_| {
        io::Error::new(
            io::ErrorKind::OutOfMemory,
            format!("no memory for {packed_records} samples"),
        )
    })?;
    let mut report = LoadReport::default();
    for (path, format) in paths.iter().zip(formats) {
        let before = samples.len();
        if samples.len() < limit {
            let file = std::fs::File::open(path).map_err(|e| named(path, e))?;
            match format {
                DataFormat::Text => read_text(BufReader::new(file), limit, &mut samples, &mut report),
                DataFormat::Packed => read_packed(BufReader::new(file), limit, &mut samples),
            }
            .map_err(|e| named(path, e))?;
        }
        report.per_file.push(samples.len() - before);
    }
    report.loaded = samples.len();
    Ok((samples, report))
}

/// Splits `samples` into (training, validation): every `round(1 / fraction)`-th block of
/// `block` consecutive samples is held out. Data files hold whole games in order, so blocks
/// keep games (almost always) on one side. Sets too small for four held-out blocks get smaller
/// blocks. A fraction of 0 holds out nothing.
pub fn split_holdout(mut samples: Vec<Sample>, fraction: f64, block: usize) -> (Vec<Sample>, Vec<Sample>) {
    if fraction <= 0.0 || samples.is_empty() {
        return (samples, Vec::new());
    }
    let every = ((1.0 / fraction.min(0.5)).round() as usize).max(2);
    let block = block.min(samples.len() / (4 * every)).max(1);
    // The training set stays in the loaded vector (no second copy of the data at any time).
    let mut val = Vec::with_capacity(samples.len() / every + block);
    let mut i = 0;
    samples.retain(|s| {
        let held_out = (i / block) % every == every - 1;
        i += 1;
        if held_out {
            val.push(*s);
        }
        !held_out
    });
    (samples, val)
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn start_position_has_32_features_mirrored() {
        let pos = Position::from_fen(START, Rules::default()).unwrap();
        let s = Sample::from_position(&pos, 25, 1.0).unwrap();
        assert_eq!(s.count(), 32);
        let mut w: Vec<u16> = s.active(0).to_vec();
        let mut b: Vec<u16> = s.active(1).to_vec();
        w.sort_unstable();
        b.sort_unstable();
        // The start position is symmetric: both sides see the same features.
        assert_eq!(w, b);
        assert_eq!(s.score_stm(), 25.0);
        assert_eq!(s.result_stm(), 1.0);
    }

    /// A transformed sample is the sample of the transformed position.
    #[test]
    fn transforms_are_the_samples_of_the_swapped_and_mirrored_positions() {
        let sample = |fen: &str| {
            let pos = Position::from_fen(fen, Rules::default()).unwrap();
            Sample::from_position(&pos, 50, 1.0).unwrap()
        };
        let sorted = |s: &Sample| {
            let mut v = [s.active(0).to_vec(), s.active(1).to_vec()];
            v.iter_mut().for_each(|x| x.sort_unstable());
            v
        };
        let base = sample("4k3/1|p6/8/3|N4/8/8/6P1/|R3K3 b - - 0 1");
        assert!(base.symmetric());
        let swapped = sample("4|k3/1p6/8/3N4/8/8/6|P1/R3|K3 b - - 0 1");
        let mirrored = sample("3k4/6|p1/8/4|N3/8/8/1P6/3K3|R b - - 0 1");
        let both = sample("3|k4/6p1/8/4N3/8/8/1|P6/3|K3R b - - 0 1");
        assert_eq!(sorted(&base.transformed(1)), sorted(&swapped));
        assert_eq!(sorted(&base.transformed(2)), sorted(&mirrored));
        assert_eq!(sorted(&base.transformed(3)), sorted(&both));
        for t in 0..4 {
            assert_eq!(base.transformed(t).transformed(t), base);
        }
        assert!(!sample("r3k3/8/8/8/8/8/8/4K3 b q - 0 1").symmetric());
    }

    #[test]
    fn a_sample_is_compact() {
        // At most 40 bytes a position in memory: 34 for the sample (no padding), and the
        // trainer's shuffled order adds a u32 index per training position.
        assert_eq!(std::mem::size_of::<Sample>(), 34);
        assert!(std::mem::size_of::<Sample>() + std::mem::size_of::<u32>() <= 40);
    }

    /// Packed records of some positions of a random game (no castling rights after the
    /// first moves, so both the symmetric and the castling kinds occur).
    fn packed_file(records: usize) -> (Vec<u8>, Vec<Sample>) {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let mut bytes = packed::header().to_vec();
        let mut samples = Vec::new();
        let mut pos = Position::startpos();
        while samples.len() < records {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.halfmove_clock() > 60 {
                pos = Position::startpos();
                continue;
            }
            pos = pos.after(moves[rng.gen_range(0..moves.len())]);
            let score = rng.gen_range(-900..900);
            let result = [vorpal_engine::GameResult::BlackWins, vorpal_engine::GameResult::Draw][samples.len() % 2];
            let Ok(record) = PackedRecord::encode(&pos, score, result) else {
                continue;
            };
            bytes.extend_from_slice(&record.0);
            samples.push(Sample::from_position(&pos, score, (samples.len() % 2) as f64 * 0.5).unwrap());
        }
        (bytes, samples)
    }

    #[test]
    fn packed_files_load_like_their_positions() {
        let (bytes, expected) = packed_file(300);
        let mut out = Vec::new();
        read_packed(io::Cursor::new(&bytes), usize::MAX, &mut out).unwrap();
        assert_eq!(out, expected);
        assert!(out.iter().any(|s| s.symmetric()) && out.iter().any(|s| !s.symmetric()));
        for (s, e) in out.iter().zip(&expected) {
            assert_eq!(s.active(0).to_vec(), e.active(0).to_vec());
        }
        let mut limited = Vec::new();
        read_packed(io::Cursor::new(&bytes), 7, &mut limited).unwrap();
        assert_eq!(limited, expected[..7]);
    }

    #[test]
    fn damaged_packed_files_are_refused_with_the_offset() {
        let (bytes, _) = packed_file(100);
        let error = |b: &[u8]| {
            read_packed(io::Cursor::new(b), usize::MAX, &mut Vec::new())
                .unwrap_err()
                .to_string()
        };
        // A truncated last record.
        let cut = &bytes[..bytes.len() - 5];
        assert_eq!(
            error(cut),
            format!(
                "byte {}: truncated record: 27 of 32 bytes after 99 whole records",
                16 + 99 * 32
            )
        );
        // A piece code out of range in record 40.
        let mut bad = bytes.clone();
        bad[16 + 40 * 32 + 8] = 0xff;
        let e = error(&bad);
        assert!(e.starts_with(&format!("byte {}: record 40: ", 16 + 40 * 32)), "{e}");
        // A result code out of range in record 0.
        let mut bad = bytes.clone();
        bad[16 + 30] = 7;
        assert_eq!(error(&bad), "byte 16: record 0: result code 7 out of range");
        // Not a packed file, or a header of another version.
        assert!(error(b"VORPALPK").starts_with("byte 0: 8 bytes, shorter than"));
        let mut version = bytes.clone();
        version[8] = 2;
        assert_eq!(error(&version), "byte 0: format version 2, this build reads version 1");
    }

    #[test]
    fn the_format_is_told_by_the_first_bytes_and_both_load() {
        let dir = std::env::temp_dir().join(format!("vorpal-nnue-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (bytes, expected) = packed_file(50);
        let (bin, txt) = (dir.join("data.any"), dir.join("data.bin"));
        std::fs::write(&bin, &bytes).unwrap();
        std::fs::write(&txt, format!("{START} | 10 | 0.5\n")).unwrap();
        assert_eq!(DataFormat::of(&bin).unwrap(), DataFormat::Packed);
        assert_eq!(DataFormat::of(&txt).unwrap(), DataFormat::Text);
        let (samples, report) = load_samples(&[&bin, &txt], None).unwrap();
        assert_eq!(report.per_file, vec![50, 1]);
        assert_eq!(samples[..50], expected[..]);
        let mut damaged = bytes.clone();
        damaged.truncate(bytes.len() - 1);
        std::fs::write(&bin, &damaged).unwrap();
        let e = load_samples(&[&bin], None).unwrap_err().to_string();
        assert!(e.contains("data.any: byte ") && e.contains("truncated record"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn malformed_lines_are_skipped_and_counted() {
        let text = format!(
            "{START} | 10 | 0.5\nnot a line\n{START} | x | 1.0\n# comment\n\nrnbqkbnr/pppppppp/8/8 w - - 0 1 | 3 | 0.0\n\
             {START} | 12 | 2.0\n{START} | -40 | 0.0\n"
        );
        let mut out = Vec::new();
        let mut report = LoadReport::default();
        read_text(io::Cursor::new(text.into_bytes()), usize::MAX, &mut out, &mut report).unwrap();
        assert_eq!(out.len(), 2);
        assert_eq!(report.malformed, 4);
        assert_eq!(out[1].score, -40);
        assert_eq!(out[1].result_halves, 0);
    }

    #[test]
    fn non_utf8_lines_are_malformed_not_fatal() {
        let mut bytes = format!("{START} | 10 | 0.5\n").into_bytes();
        bytes.extend_from_slice(b"\xff\xfe | 1 | 1.0\n");
        bytes.extend_from_slice(format!("{START} | 11 | 0.5\n").as_bytes());
        let mut out = Vec::new();
        let mut report = LoadReport::default();
        read_text(io::Cursor::new(bytes), usize::MAX, &mut out, &mut report).unwrap();
        assert_eq!(out.len(), 2);
        assert_eq!(report.malformed, 1);
    }

    #[test]
    fn holdout_takes_every_nth_block() {
        let pos = Position::from_fen(START, Rules::default()).unwrap();
        let samples: Vec<Sample> = (0..1000)
            .map(|i| Sample::from_position(&pos, i, 0.5).unwrap())
            .collect();
        let (train, val) = split_holdout(samples, 0.05, 10);
        assert_eq!(train.len() + val.len(), 1000);
        assert_eq!(val.len(), 50);
        // Blocks of 10: samples 190..200 are the first held-out block.
        assert_eq!(val[0].score, 190);
        assert_eq!(val[9].score, 199);
    }
}
