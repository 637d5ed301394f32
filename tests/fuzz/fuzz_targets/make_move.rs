//! Make and undo: a walk of legal moves picked by the input, mixed with raw move encodings
//! (any squares, boards, kinds): `is_legal` must agree with the move generator on every
//! encoding, a made move must leave a consistent position, and undo (the copy from before)
//! must give back the position exactly.
#![no_main]
use libfuzzer_sys::fuzz_target;
use vorpal_engine::{BoardId, Move, MoveKind, Square};

fuzz_target!(|data: &[u8]| {
    let Some((&[rules, fen], rest)) = data.split_first_chunk::<2>() else {
        return;
    };
    let rules = vorpal_fuzz_targets::rules_from(rules);
    let mut pos = vorpal_fuzz_targets::position(fen, rules);
    let boards = &BoardId::ALL[..rules.boards()];
    let mut history = Vec::new();
    for step in rest.chunks_exact(4).take(300) {
        let legal = pos.legal_moves();
        let mv = if step[0] & 1 == 0 && !legal.is_empty() {
            legal[usize::from(u16::from_le_bytes([step[1], step[2]])) % legal.len()]
        } else {
            Move::new(
                Square::new(step[1] % 64),
                boards[usize::from(step[3]) % boards.len()],
                Square::new(step[2] % 64),
                boards[usize::from(step[3] >> 2) % boards.len()],
                MoveKind::ALL[usize::from(step[0] >> 1) % MoveKind::ALL.len()],
                step[3] & 0x80 != 0,
            )
        };
        let is_legal = pos.is_legal(mv);
        assert_eq!(
            is_legal,
            legal.contains(&mv),
            "is_legal({mv:?}) disagrees with the generator in {}",
            pos.to_fen()
        );
        if is_legal {
            let before = pos;
            pos.make_move(mv);
            if let Err(e) = pos.check_consistency() {
                panic!("after {} from {}: {e}", before.move_to_uci(mv), before.to_fen());
            }
            history.push((before, pos.key()));
        } else if step[0] & 0x40 != 0 {
            if let Some((before, _)) = history.pop() {
                pos = before;
            }
        }
    }
    // Undo the rest of the way: every position comes back with its key.
    while let Some((before, key)) = history.pop() {
        assert_eq!(pos.key(), key, "the position changed between moves");
        pos = before;
    }
    vorpal_fuzz_targets::check_position(&pos, "start after undoing every move");
});
