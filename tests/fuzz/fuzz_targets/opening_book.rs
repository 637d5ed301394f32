//! The match runner's opening books (a FEN or EPD line each, or PGN): every opening accepted
//! gives a consistent position, under every rule set.
#![no_main]
use libfuzzer_sys::fuzz_target;
use vorpal_tuning::matches::openings::{parse_fen_line, parse_openings};

fuzz_target!(|data: &[u8]| {
    let Some((rules, text)) = vorpal_fuzz_targets::rules_and_text(data) else {
        return;
    };
    if let Ok(openings) = parse_openings(&text, rules) {
        for opening in openings.iter().take(16) {
            let pos = opening.position();
            vorpal_fuzz_targets::check_position(&pos, "opening");
            let _ = opening.game();
        }
    }
    for line in text.lines().take(16) {
        if let Some(pos) = parse_fen_line(line, rules) {
            vorpal_fuzz_targets::check_position(&pos, "book line");
        }
    }
});
