//! `vorpal solve`'s Popeye input: every text is read into problems or errors, and every
//! problem and twin it accepts builds its positions under every rule set, never panicking;
//! and the same bytes through `vorpal popeye`'s page (Popeye's input and layout, solving
//! stopped at once), never panicking.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The first byte chooses the rules of the reader below; the page reads the rest.
    let _ = vorpal_protocol::doors::popeye_page(data.get(1..).unwrap_or_default());
    let Some((rules, text)) = vorpal_fuzz_targets::rules_and_text(data) else {
        return;
    };
    let _ = vorpal_protocol::doors::popeye_input(&text, rules);
});
