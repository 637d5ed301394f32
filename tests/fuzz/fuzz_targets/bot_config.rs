//! The config file `vorpal bot` reads (TOML): any text is read or refused with a message, never
//! a panic; a file read plays alice only and has a game slot.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match vorpal_protocol::doors::bot_config(&text) {
        Ok((max_games, variants)) => {
            assert!(max_games >= 1);
            assert!(!variants.is_empty() && variants.iter().all(|v| v == "alice"));
        }
        Err(message) => assert!(!message.is_empty()),
    }
});
