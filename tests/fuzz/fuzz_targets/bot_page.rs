//! The game pages `vorpal bot` reads from pychess-variants: any text is read or refused, never
//! a panic; a page read has a status code and only non-empty moves.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Some((_status, result, moves)) = vorpal_protocol::doors::bot_game_page(&text) {
        assert!(moves.iter().all(|m| !m.is_empty()));
        assert!(result.len() <= text.len());
    }
});
