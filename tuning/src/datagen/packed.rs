//! The packed training-data format: one standard-Alice position, its search score and the game
//! result in exactly 32 bytes, and files of such records behind a 16-byte header.
//!
//! Record layout (all integers little-endian):
//!
//! | bytes  | content                                                                        |
//! |--------|--------------------------------------------------------------------------------|
//! | 0..8   | u64 occupancy: the union of both boards (standard Alice never fills a square twice) |
//! | 8..24  | 32 nibbles, low nibble first: `Piece::index()` (0..11) of each occupied square, in ascending square order; unused nibbles 0 |
//! | 24..28 | u32, bit i set = the i-th occupied square's piece stands on board B; unused bits 0 |
//! | 28..30 | i16 score, cp from White's view, clamped to ±32000                               |
//! | 30     | result: 0 = Black wins, 1 = draw, 2 = White wins                                |
//! | 31     | bit 0 side to move (1 = Black), bits 1..4 castling rights K, Q, k, q; rest 0     |
//!
//! Only standard Alice is stored: one variant, standard castling (no Chess960) and no en passant
//! square (standard Alice has no en passant). The clocks are not stored; a decoded position has
//! halfmove clock 0 and move number 1.
//!
//! File: `VORPALPK`, u32 version 1, u32 reserved 0, then the records back to back.

use std::fmt;
use std::io::{self, Read, Write};
use vorpal_engine::{BoardId, CastlingRights, Color, GameResult, Piece, PieceKind, Position, Rules, Square, Variant};

/// Bytes of one record.
pub const RECORD_BYTES: usize = 32;
/// Bytes of the file header.
pub const HEADER_BYTES: usize = 16;
/// First eight bytes of a packed file.
pub const MAGIC: &[u8; 8] = b"VORPALPK";
/// Format version written and accepted.
pub const VERSION: u32 = 1;
/// Largest score stored (cp); larger scores are clamped.
pub const MAX_SCORE: i32 = 32_000;

/// Why a position could not be packed or a record not unpacked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackError(pub String);

impl fmt::Display for PackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PackError {}

impl From<PackError> for io::Error {
    fn from(e: PackError) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidData, e.0)
    }
}

fn fail<T>(msg: impl Into<String>) -> Result<T, PackError> {
    Err(PackError(msg.into()))
}

/// One piece of a decoded record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacedPiece {
    /// Its square.
    pub square: Square,
    /// The piece.
    pub piece: Piece,
    /// The board it stands on (A or B).
    pub board: BoardId,
}

/// A record decoded into a piece list (no move generation state): what a trainer needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceList {
    /// The pieces, in ascending square order.
    pub pieces: Vec<PlacedPiece>,
    /// Side to move.
    pub side: Color,
    /// Castling rights.
    pub castling: CastlingRights,
    /// Score in cp, White's view.
    pub score: i16,
    /// Game result.
    pub result: GameResult,
}

/// One packed record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackedRecord(pub [u8; RECORD_BYTES]);

/// The result code of byte 30.
pub fn result_code(result: GameResult) -> u8 {
    match result {
        GameResult::BlackWins => 0,
        GameResult::Draw => 1,
        GameResult::WhiteWins => 2,
    }
}

/// The result of a text data line (1.0 / 0.5 / 0.0, White's view).
pub fn result_from_white_score(result: f64) -> Result<GameResult, PackError> {
    if result == 1.0 {
        Ok(GameResult::WhiteWins)
    } else if result == 0.5 {
        Ok(GameResult::Draw)
    } else if result == 0.0 {
        Ok(GameResult::BlackWins)
    } else {
        fail(format!("result {result} is not 1.0, 0.5 or 0.0"))
    }
}

impl PackedRecord {
    /// Packs `pos` with its score (cp, White's view; clamped) and the game's result.
    pub fn encode(pos: &Position, score: i32, result: GameResult) -> Result<PackedRecord, PackError> {
        let rules = pos.rules();
        if rules.variant != Variant::Alice {
            return fail(format!("only standard Alice can be packed, not {}", rules.variant));
        }
        if rules.chess960 {
            return fail("Chess960 positions cannot be packed (standard castling only)");
        }
        if pos.ep_square().is_some() {
            return fail("positions with an en passant square cannot be packed");
        }
        let occupancy = pos.occupied_any();
        if occupancy.count() > 32 {
            return fail(format!("{} pieces, at most 32 can be packed", occupancy.count()));
        }
        let mut bytes = [0u8; RECORD_BYTES];
        bytes[0..8].copy_from_slice(&occupancy.0.to_le_bytes());
        let mut on_b = 0u32;
        for (i, sq) in occupancy.into_iter().enumerate() {
            let Some((piece, board)) = pos.piece_at(sq) else {
                return fail(format!("occupied square {sq} holds no piece"));
            };
            bytes[8 + i / 2] |= (piece.index() as u8) << (4 * (i % 2));
            if board == BoardId::B {
                on_b |= 1 << i;
            }
        }
        bytes[24..28].copy_from_slice(&on_b.to_le_bytes());
        let score = score.clamp(-MAX_SCORE, MAX_SCORE) as i16;
        bytes[28..30].copy_from_slice(&score.to_le_bytes());
        bytes[30] = result_code(result);
        let side = u8::from(pos.side_to_move() == Color::Black);
        bytes[31] = side | pos.castling().bits() << 1;
        let record = PackedRecord(bytes);
        // What is written must read back: the piece-list checks (armies, kings) apply here too.
        record.pieces()?;
        Ok(record)
    }

    /// Decodes into a piece list, validating the record (piece codes, one king per side, at most
    /// 16 pieces and 8 pawns per side, no pawn on the first or last rank, unused bits zero,
    /// score and result in range).
    pub fn pieces(&self) -> Result<PieceList, PackError> {
        let b = &self.0;
        let occupancy = u64::from_le_bytes(b[0..8].try_into().unwrap_or([0; 8]));
        let on_b = u32::from_le_bytes(b[24..28].try_into().unwrap_or([0; 4]));
        let count = occupancy.count_ones() as usize;
        if count > 32 {
            return fail(format!("occupancy has {count} squares, at most 32"));
        }
        if count < 32 && on_b >> count != 0 {
            return fail("board bits set beyond the occupied squares");
        }
        let mut pieces = Vec::with_capacity(count);
        let mut kings = [0u32; 2];
        let mut rest = occupancy;
        for i in 0..32 {
            let code = (b[8 + i / 2] >> (4 * (i % 2))) & 15;
            if i >= count {
                if code != 0 {
                    return fail("piece codes set beyond the occupied squares");
                }
                continue;
            }
            if code > 11 {
                return fail(format!("piece code {code} out of range"));
            }
            let square = Square::new(rest.trailing_zeros() as u8);
            rest &= rest - 1;
            let piece = Piece::from_index(code);
            if piece.kind() == PieceKind::King {
                kings[piece.color().index()] += 1;
            }
            if piece.kind() == PieceKind::Pawn && (square.rank() == 0 || square.rank() == 7) {
                return fail(format!("pawn on {square}"));
            }
            let board = if on_b >> i & 1 == 1 { BoardId::B } else { BoardId::A };
            pieces.push(PlacedPiece { square, piece, board });
        }
        for color in [Color::White, Color::Black] {
            let army = pieces.iter().filter(|p| p.piece.color() == color);
            let (total, pawns) = army.fold((0, 0), |(t, n), p| {
                (t + 1, n + usize::from(p.piece.kind() == PieceKind::Pawn))
            });
            if total > 16 || pawns > 8 {
                return fail(format!(
                    "{color:?} has {total} pieces and {pawns} pawns, at most 16 and 8"
                ));
            }
        }
        if kings != [1, 1] {
            return fail(format!(
                "{} White and {} Black kings, expected one each",
                kings[0], kings[1]
            ));
        }
        let score = i16::from_le_bytes([b[28], b[29]]);
        if i32::from(score).abs() > MAX_SCORE {
            return fail(format!("score {score} beyond ±{MAX_SCORE}"));
        }
        let result = match b[30] {
            0 => GameResult::BlackWins,
            1 => GameResult::Draw,
            2 => GameResult::WhiteWins,
            other => return fail(format!("result code {other} out of range")),
        };
        if b[31] >> 5 != 0 {
            return fail("reserved bits of byte 31 set");
        }
        let side = if b[31] & 1 == 1 { Color::Black } else { Color::White };
        let mut castling = CastlingRights::NONE;
        for (bit, color, wing) in [
            (1, Color::White, vorpal_engine::CastleSide::King),
            (2, Color::White, vorpal_engine::CastleSide::Queen),
            (3, Color::Black, vorpal_engine::CastleSide::King),
            (4, Color::Black, vorpal_engine::CastleSide::Queen),
        ] {
            if b[31] >> bit & 1 == 1 {
                castling.insert(color, wing);
            }
        }
        Ok(PieceList {
            pieces,
            side,
            castling,
            score,
            result,
        })
    }

    /// Decodes into a full position (standard Alice rules), with the score and result. Besides
    /// the checks of [`PackedRecord::pieces`], the position must be legal: castling rights with
    /// king and rook on their start squares, the side not to move not in check.
    pub fn decode(&self) -> Result<(Position, i16, GameResult), PackError> {
        let list = self.pieces()?;
        let fen = list.to_fen();
        let pos = Position::from_fen(&fen, Rules::default()).map_err(|e| PackError(format!("{e} ({fen})")))?;
        Ok((pos, list.score, list.result))
    }
}

impl PieceList {
    /// The position as a pipe FEN (clocks 0 and 1).
    pub fn to_fen(&self) -> String {
        let mut grid = [[None; 8]; 8];
        for p in &self.pieces {
            grid[p.square.rank() as usize][p.square.file() as usize] = Some(*p);
        }
        let mut fen = String::with_capacity(96);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for cell in grid[rank] {
                match cell {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        if p.board == BoardId::B {
                            fen.push('|');
                        }
                        fen.push(p.piece.letter());
                    }
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(if self.side == Color::White { " w " } else { " b " });
        let letters: String = [(0, 'K'), (1, 'Q'), (2, 'k'), (3, 'q')]
            .into_iter()
            .filter(|&(bit, _)| self.castling.bits() >> bit & 1 == 1)
            .map(|(_, c)| c)
            .collect();
        fen.push_str(if letters.is_empty() { "-" } else { &letters });
        fen.push_str(" - 0 1");
        fen
    }
}

/// The 16-byte file header.
pub fn header() -> [u8; HEADER_BYTES] {
    let mut h = [0u8; HEADER_BYTES];
    h[0..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h
}

/// Checks a file header.
pub fn check_header(h: &[u8]) -> Result<(), PackError> {
    if h.len() < HEADER_BYTES {
        return fail(format!(
            "{} bytes, shorter than the {HEADER_BYTES}-byte header",
            h.len()
        ));
    }
    if &h[0..8] != MAGIC {
        return fail("not a packed position file (magic VORPALPK missing)");
    }
    let version = u32::from_le_bytes([h[8], h[9], h[10], h[11]]);
    if version != VERSION {
        return fail(format!("format version {version}, this build reads version {VERSION}"));
    }
    if h[12..16] != [0; 4] {
        return fail("reserved header field is not zero");
    }
    Ok(())
}

/// Byte offset in a packed file of record `index` (0-based).
pub fn record_offset(index: u64) -> u64 {
    HEADER_BYTES as u64 + index * RECORD_BYTES as u64
}

/// Streams the records of a packed file.
pub struct PackedReader<R: Read> {
    inner: R,
    records: u64,
    finished: bool,
}

impl<R: Read> PackedReader<R> {
    /// Reads and checks the header.
    pub fn new(mut inner: R) -> io::Result<PackedReader<R>> {
        let mut h = [0u8; HEADER_BYTES];
        let got = read_full(&mut inner, &mut h)?;
        check_header(&h[..got])?;
        Ok(PackedReader {
            inner,
            records: 0,
            finished: false,
        })
    }

    /// Records read so far.
    pub fn records_read(&self) -> u64 {
        self.records
    }
}

/// Reads until `buf` is full or the input ends; returns the bytes read.
fn read_full(inner: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match inner.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

impl<R: Read> Iterator for PackedReader<R> {
    type Item = io::Result<PackedRecord>;

    /// The next record (not validated: call `pieces` or `decode`); an error for a truncated
    /// last record or a read failure, after which the iteration ends.
    fn next(&mut self) -> Option<io::Result<PackedRecord>> {
        if self.finished {
            return None;
        }
        let mut rec = [0u8; RECORD_BYTES];
        match read_full(&mut self.inner, &mut rec) {
            Ok(0) => {
                self.finished = true;
                None
            }
            Ok(RECORD_BYTES) => {
                self.records += 1;
                Some(Ok(PackedRecord(rec)))
            }
            Ok(n) => {
                self.finished = true;
                Some(Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    format!(
                        "truncated record at byte {}: {n} of {RECORD_BYTES} bytes after {} complete records",
                        record_offset(self.records),
                        self.records
                    ),
                )))
            }
            Err(e) => {
                self.finished = true;
                Some(Err(e))
            }
        }
    }
}

/// Writes a packed file: the header first, then records.
pub struct PackedWriter<W: Write> {
    inner: W,
    records: u64,
}

impl<W: Write> PackedWriter<W> {
    /// Writes the header to a new file.
    pub fn new(mut inner: W) -> io::Result<PackedWriter<W>> {
        inner.write_all(&header())?;
        Ok(PackedWriter { inner, records: 0 })
    }

    /// Appends one record.
    pub fn write(&mut self, record: &PackedRecord) -> io::Result<()> {
        self.inner.write_all(&record.0)?;
        self.records += 1;
        Ok(())
    }

    /// Records written so far.
    pub fn records_written(&self) -> u64 {
        self.records
    }

    /// Flushes and returns the inner writer.
    pub fn finish(mut self) -> io::Result<W> {
        self.inner.flush()?;
        Ok(self.inner)
    }
}
