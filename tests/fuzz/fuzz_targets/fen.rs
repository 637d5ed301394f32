//! FEN in every form (pipe, split, joined, wide) under every rule set: an accepted FEN gives a
//! consistent position whose FEN, in every style, reads back to the same position.
#![no_main]
use libfuzzer_sys::fuzz_target;
use vorpal_engine::{FenStyle, Position};

fuzz_target!(|data: &[u8]| {
    let Some((rules, text)) = vorpal_fuzz_targets::rules_and_text(data) else {
        return;
    };
    let Ok(pos) = Position::from_fen(&text, rules) else {
        return;
    };
    vorpal_fuzz_targets::check_position(&pos, "FEN");
    for style in [FenStyle::Pipe, FenStyle::Wide, FenStyle::Split, FenStyle::Joined] {
        let fen = pos.to_fen_style(style);
        if let Ok(back) = Position::from_fen(&fen, rules) {
            assert_eq!(back.key(), pos.key(), "{style:?} FEN {fen} reads back differently");
        }
    }
    for mv in pos.legal_moves().iter() {
        let after = pos.after(*mv);
        if let Err(e) = after.check_consistency() {
            panic!("{} after {} is inconsistent: {e}", pos.to_fen(), pos.move_to_uci(*mv));
        }
    }
});
