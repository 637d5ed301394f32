//! Move text (UCI, wide UCI, SAN with `/A`) in positions of every rule set: an accepted move
//! is legal, and its UCI, wide and SAN texts each parse back to it.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&[rules, fen], text)) = data.split_first_chunk::<2>() else {
        return;
    };
    let rules = vorpal_fuzz_targets::rules_from(rules);
    let mut pos = vorpal_fuzz_targets::position(fen, rules);
    let text = String::from_utf8_lossy(text);
    for word in text.split_whitespace().take(32) {
        let parsed = [pos.parse_move(word), pos.parse_uci(word), pos.parse_san(word)];
        for mv in parsed.into_iter().flatten() {
            assert!(pos.is_legal(mv), "'{word}' gives an illegal move in {}", pos.to_fen());
            for again in [pos.move_to_uci(mv), pos.move_to_wide(mv), pos.move_to_san(mv)] {
                assert_eq!(
                    pos.parse_move(&again).ok(),
                    Some(mv),
                    "'{again}' (from '{word}') in {}",
                    pos.to_fen()
                );
            }
        }
        if let Ok(mv) = pos.parse_move(word) {
            pos.make_move(mv);
            vorpal_fuzz_targets::check_position(&pos, "after a parsed move");
        }
    }
});
