//! The packed 32-byte record format: round trips over random walks, the file header, streaming
//! reads, and corrupted or truncated input rejected with an error.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::io::Cursor;
use vorpal_engine::{GameResult, Move, Position, Rules, Variant};
use vorpal_tuning::datagen::packed::{
    check_header, header, PackedReader, PackedRecord, PackedWriter, HEADER_BYTES, MAX_SCORE, RECORD_BYTES,
};

/// Positions of random games from the start (a new game when one ends), with random scores.
fn random_walk(seed: u64, count: usize) -> Vec<(Position, i32, GameResult)> {
    let mut rng = StdRng::seed_from_u64(seed);
    let results = [GameResult::WhiteWins, GameResult::Draw, GameResult::BlackWins];
    let mut pos = Position::startpos();
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
        match moves.choose(&mut rng) {
            Some(&mv) if pos.piece_count() > 2 => pos.make_move(mv),
            _ => pos = Position::startpos(),
        }
        out.push((pos, rng.gen_range(-40_000..40_000), *results.choose(&mut rng).unwrap()));
    }
    out
}

#[test]
fn random_walk_positions_round_trip() {
    let walk = random_walk(11, 5000);
    let mut with_castling = 0;
    let mut with_b_pieces = 0;
    for (pos, score, result) in &walk {
        let rec = PackedRecord::encode(pos, *score, *result).unwrap();
        let (back, s, r) = rec.decode().unwrap();
        assert!(back.same_placement(pos), "placement of {}", pos.to_fen());
        assert_eq!(back.side_to_move(), pos.side_to_move());
        assert_eq!(back.castling(), pos.castling());
        assert_eq!(i32::from(s), (*score).clamp(-MAX_SCORE, MAX_SCORE));
        assert_eq!(r, *result);
        // The piece list agrees with the position, and re-encoding gives the same bytes.
        let list = rec.pieces().unwrap();
        assert_eq!(list.pieces.len() as u32, pos.piece_count());
        for p in &list.pieces {
            assert_eq!(pos.piece_on(p.board, p.square), Some(p.piece));
        }
        assert_eq!(PackedRecord::encode(&back, i32::from(s), r).unwrap(), rec);
        with_castling += usize::from(!pos.castling().is_empty());
        with_b_pieces += usize::from(list.pieces.iter().any(|p| p.board == vorpal_engine::BoardId::B));
    }
    assert!(
        with_castling > 100 && with_b_pieces > 1000,
        "the walk covers castling and board B"
    );
}

#[test]
fn layout_of_the_start_position() {
    let rec = PackedRecord::encode(&Position::startpos(), 25, GameResult::WhiteWins).unwrap();
    let b = rec.0;
    assert_eq!(u64::from_le_bytes(b[0..8].try_into().unwrap()), 0xFFFF_0000_0000_FFFF);
    // a1 = white rook (3), b1 = white knight (1): low nibble first.
    assert_eq!(b[8], 0x13);
    assert_eq!(u32::from_le_bytes(b[24..28].try_into().unwrap()), 0, "all on board A");
    assert_eq!(i16::from_le_bytes([b[28], b[29]]), 25);
    assert_eq!(b[30], 2);
    assert_eq!(b[31], 0b1_1110, "White to move, all four castling rights");
}

#[test]
fn other_variants_are_refused() {
    for variant in [Variant::LookingGlass, Variant::Alice3, Variant::MiniAlice] {
        let pos = Position::start(Rules::for_variant(variant));
        assert!(PackedRecord::encode(&pos, 0, GameResult::Draw).is_err(), "{variant}");
    }
    let chess960 = Position::start(Rules::default().with_chess960(true));
    assert!(PackedRecord::encode(&chess960, 0, GameResult::Draw).is_err());
}

#[test]
fn corrupted_records_are_errors() {
    let good = PackedRecord::encode(&Position::startpos(), 0, GameResult::Draw).unwrap();
    let corrupt = |f: &dyn Fn(&mut [u8; RECORD_BYTES])| {
        let mut r = good;
        f(&mut r.0);
        r
    };
    let cases = [
        ("piece code 12", corrupt(&|b| b[8] = 0x1C)),
        ("a third king: a1 rook becomes a king", corrupt(&|b| b[8] = 0x15)),
        ("no White king", corrupt(&|b| b[10] = (b[10] & 0xF0) | 4)),
        ("pawn on rank 1", corrupt(&|b| b[8] = 0x10)),
        ("result 3", corrupt(&|b| b[30] = 3)),
        ("reserved bits", corrupt(&|b| b[31] |= 0x40)),
        ("board bit of a missing piece", corrupt(&|b| b[27] = 0x80)),
        (
            "occupancy without piece codes",
            corrupt(&|b| b[0..8].copy_from_slice(&0xFFFFu64.to_le_bytes())),
        ),
        (
            "score beyond 32000",
            corrupt(&|b| b[28..30].copy_from_slice(&32_001i16.to_le_bytes())),
        ),
    ];
    for (what, rec) in cases {
        assert!(rec.pieces().is_err() || rec.decode().is_err(), "{what} accepted");
        assert!(rec.decode().is_err(), "{what} decoded");
    }
    // Nine White pawns: the a3 knight (the tenth piece, high nibble of byte 12) made a pawn.
    let eight = Position::from_fen("4k3/8/8/8/8/N7/PPPPPPPP/4K3 w - - 0 1", Rules::default()).unwrap();
    let mut nine = PackedRecord::encode(&eight, 0, GameResult::Draw).unwrap();
    assert_eq!(nine.0[12] >> 4, 1, "the knight's nibble");
    nine.0[12] &= 0x0F;
    assert!(nine.pieces().is_err(), "nine pawns accepted");
    if let Ok(pos) = Position::from_fen("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", Rules::default()) {
        assert!(
            PackedRecord::encode(&pos, 0, GameResult::Draw).is_err(),
            "nine pawns packed"
        );
    }
    // A sound piece list that is no legal position: castling rights while the a1 rook is gone.
    let no_rook = corrupt(&|b| b[8] = 0x11);
    assert!(no_rook.pieces().is_ok(), "a list check passes");
    assert!(no_rook.decode().is_err(), "castling right without its rook");
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = StdRng::seed_from_u64(5);
    let walk = random_walk(3, 500);
    for (pos, score, result) in walk {
        let mut rec = PackedRecord::encode(&pos, score, result).unwrap();
        // Flip one to three random bits: decoding answers Ok or Err and never panics; what it
        // accepts re-encodes to the same bytes.
        for _ in 0..rng.gen_range(1..4) {
            let bit = rng.gen_range(0..RECORD_BYTES * 8);
            rec.0[bit / 8] ^= 1 << (bit % 8);
        }
        if let Ok((back, s, r)) = rec.decode() {
            assert_eq!(PackedRecord::encode(&back, i32::from(s), r).unwrap(), rec);
        }
        let _ = rec.pieces();
    }
    for _ in 0..2000 {
        let mut bytes = [0u8; RECORD_BYTES];
        rng.fill(&mut bytes);
        let _ = PackedRecord(bytes).decode();
    }
}

#[test]
fn files_stream_and_truncation_is_an_error() {
    let walk = random_walk(9, 300);
    let mut writer = PackedWriter::new(Vec::new()).unwrap();
    for (pos, score, result) in &walk {
        writer
            .write(&PackedRecord::encode(pos, *score, *result).unwrap())
            .unwrap();
    }
    assert_eq!(writer.records_written(), 300);
    let bytes = writer.finish().unwrap();
    assert_eq!(bytes.len(), HEADER_BYTES + 300 * RECORD_BYTES);
    assert_eq!(&bytes[..HEADER_BYTES], &header());
    assert_eq!(&bytes[..8], b"VORPALPK");

    let read: Vec<PackedRecord> = PackedReader::new(Cursor::new(&bytes))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(read.len(), 300);
    for (rec, (pos, _, _)) in read.iter().zip(&walk) {
        assert!(rec.decode().unwrap().0.same_placement(pos));
    }

    // A torn last record: 299 good records, then an error naming the truncation.
    let torn = &bytes[..bytes.len() - 5];
    let items: Vec<_> = PackedReader::new(Cursor::new(torn)).unwrap().collect();
    assert_eq!(items.len(), 300);
    assert!(items[..299].iter().all(|r| r.is_ok()));
    let err = items[299].as_ref().unwrap_err().to_string();
    assert_eq!(
        err,
        format!(
            "truncated record at byte {}: 27 of 32 bytes after 299 complete records",
            16 + 299 * 32
        )
    );

    // Headers: empty file, wrong magic, other version, reserved field.
    assert!(PackedReader::new(Cursor::new(Vec::new())).is_err());
    let mut h = header();
    h[0] = b'X';
    assert!(check_header(&h).is_err());
    let mut h = header();
    h[8] = 2;
    assert!(check_header(&h).is_err());
    let mut h = header();
    h[15] = 1;
    assert!(check_header(&h).is_err());
    assert!(check_header(&header()).is_ok());
}
