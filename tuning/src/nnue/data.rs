//! Training positions for the network: loading data files into compact samples and holding
//! out a validation set.
//!
//! A sample keeps only what training needs: the active feature indices of both perspectives
//! (`vorpal_engine::nnue::feature_index`), the side to move, the search score and the game
//! result. [`load_samples`] is the one entry point for every data format; today only the
//! datagen text form (`<pipe FEN> | <score cp, White's view> | <result, White's view>`) exists,
//! chosen per file by [`DataFormat::of`].

use crate::datagen::parse_line;
use rayon::prelude::*;
use std::io::{self, BufRead, BufReader};
use std::path::Path;
use vorpal_engine::nnue::feature_index;
use vorpal_engine::{BoardId, Color, Position, Rules, Variant};

/// Most pieces a position can have (both boards together).
pub const MAX_ACTIVE: usize = 32;

/// One training position, compact (136 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Active features: `[White's perspective, Black's perspective]`, `count` used in each.
    pub features: [[u16; MAX_ACTIVE]; 2],
    /// Number of active features per perspective (= pieces on the boards).
    pub count: u8,
    /// True when White is to move.
    pub white_to_move: bool,
    /// Search score in centipawns, White's view (clamped to the i16 range).
    pub score: i16,
    /// Game result in half points, White's view: 0 loss, 1 draw, 2 win.
    pub result_halves: u8,
    /// The hand-crafted static evaluation in centipawns, side to move's view (the baseline
    /// the network's validation loss is compared with).
    pub hce_stm: i16,
    /// No castling rights: the position keeps its value when the boards are swapped or the
    /// files mirrored (exact symmetries of Alice without castling; see [`Sample::transformed`]).
    pub symmetric: bool,
}

impl Sample {
    /// The sample of `pos` with its search score and result (both White's view), or `None`
    /// when the position is not standard Alice or has pieces on a third board.
    pub fn from_position(pos: &Position, score: i32, result: f64) -> Option<Sample> {
        if pos.rules().variant != Variant::Alice || pos.boards().len() != 2 {
            return None;
        }
        let mut sample = Sample {
            features: [[0; MAX_ACTIVE]; 2],
            count: 0,
            white_to_move: pos.side_to_move() == Color::White,
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            result_halves: (result * 2.0).round().clamp(0.0, 2.0) as u8,
            hce_stm: vorpal_engine::eval::evaluate(pos, &vorpal_engine::eval::EvalParams::default())
                .clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            symmetric: pos.castling().is_empty(),
        };
        let mut n = 0;
        for board in BoardId::BOTH {
            for sq in pos.occupied(board) {
                let piece = pos.piece_on(board, sq)?;
                if n == MAX_ACTIVE {
                    return None;
                }
                sample.features[0][n] = feature_index(Color::White, piece, board, sq) as u16;
                sample.features[1][n] = feature_index(Color::Black, piece, board, sq) as u16;
                n += 1;
            }
        }
        sample.count = n as u8;
        Some(sample)
    }

    /// The sample of the position with boards A and B swapped (`transform` bit 0) and/or the
    /// files mirrored a↔h (bit 1). Without castling rights (and with en passant off, as in the
    /// data) both are symmetries of the Alice rules: a piece on B moves on B and lands on A
    /// exactly as one on A does, and the moves of chess are the same mirrored. Training on
    /// them multiplies what few positions there are by four.
    pub fn transformed(&self, transform: u8) -> Sample {
        let mut out = *self;
        let swap = transform & 1 != 0;
        let mirror = transform & 2 != 0;
        for perspective in 0..2 {
            for f in &mut out.features[perspective][..self.count as usize] {
                let mut x = *f as usize;
                // Features are `board * 768 + (colour, kind, square)`.
                if swap {
                    x = if x >= 12 * 64 { x - 12 * 64 } else { x + 12 * 64 };
                }
                if mirror {
                    x ^= 7;
                }
                *f = x as u16;
            }
        }
        out
    }

    /// Active features of `perspective` (0 White, 1 Black).
    #[inline]
    pub fn active(&self, perspective: usize) -> &[u16] {
        &self.features[perspective][..self.count as usize]
    }

    /// Perspective index (0 White, 1 Black) of the side to move.
    #[inline]
    pub fn stm(&self) -> usize {
        if self.white_to_move {
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
        if self.white_to_move {
            self.result()
        } else {
            1.0 - self.result()
        }
    }

    /// Search score in centipawns from the side to move's view.
    #[inline]
    pub fn score_stm(&self) -> f32 {
        if self.white_to_move {
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
}

impl DataFormat {
    /// The format of `path` (by name; every file is text for now).
    pub fn of(_path: &Path) -> DataFormat {
        DataFormat::Text
    }
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

/// Loads samples from `paths` in order, at most `limit` in total. Malformed lines and
/// positions of other variants are skipped and counted, never fatal; only a file that cannot
/// be read is an error.
pub fn load_samples(paths: &[&Path], limit: Option<usize>) -> io::Result<(Vec<Sample>, LoadReport)> {
    let limit = limit.unwrap_or(usize::MAX);
    let mut samples = Vec::new();
    let mut report = LoadReport::default();
    for path in paths {
        let before = samples.len();
        if samples.len() < limit {
            let file =
                std::fs::File::open(path).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
            match DataFormat::of(path) {
                DataFormat::Text => read_text(BufReader::new(file), limit, &mut samples, &mut report)?,
            }
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
pub fn split_holdout(samples: Vec<Sample>, fraction: f64, block: usize) -> (Vec<Sample>, Vec<Sample>) {
    if fraction <= 0.0 || samples.is_empty() {
        return (samples, Vec::new());
    }
    let every = ((1.0 / fraction.min(0.5)).round() as usize).max(2);
    let block = block.min(samples.len() / (4 * every)).max(1);
    let (mut train, mut val) = (Vec::new(), Vec::new());
    for (i, s) in samples.into_iter().enumerate() {
        if (i / block) % every == every - 1 {
            val.push(s);
        } else {
            train.push(s);
        }
    }
    (train, val)
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn start_position_has_32_features_mirrored() {
        let pos = Position::from_fen(START, Rules::default()).unwrap();
        let s = Sample::from_position(&pos, 25, 1.0).unwrap();
        assert_eq!(s.count, 32);
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
        assert!(base.symmetric);
        let swapped = sample("4|k3/1p6/8/3N4/8/8/6|P1/R3|K3 b - - 0 1");
        let mirrored = sample("3k4/6|p1/8/4|N3/8/8/1P6/3K3|R b - - 0 1");
        let both = sample("3|k4/6p1/8/4N3/8/8/1|P6/3|K3R b - - 0 1");
        assert_eq!(sorted(&base.transformed(1)), sorted(&swapped));
        assert_eq!(sorted(&base.transformed(2)), sorted(&mirrored));
        assert_eq!(sorted(&base.transformed(3)), sorted(&both));
        for t in 0..4 {
            assert_eq!(base.transformed(t).transformed(t), base);
        }
        assert!(!sample("r3k3/8/8/8/8/8/8/4K3 b q - 0 1").symmetric);
    }

    #[test]
    fn a_sample_is_compact() {
        assert_eq!(std::mem::size_of::<Sample>(), 136);
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
