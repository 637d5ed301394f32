//! `vorpal solve`'s Popeye input: every text is read into problems or errors, and every
//! problem and twin it accepts builds its positions under every rule set, never panicking.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((rules, text)) = vorpal_fuzz_targets::rules_and_text(data) else {
        return;
    };
    let _ = vorpal_protocol::doors::popeye_input(&text, rules);
});
