//! CECP (XBoard protocol) commands into a session: any input is answered or refused and the
//! loop goes on to `ping`. Thinking is bounded (`sd 2`, `st 1` cut short at the end of input).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut input = String::from("xboard\nprotover 2\nsd 2\n");
    for line in text.split('\n').take(64) {
        let lower = line.to_ascii_lowercase();
        let slow = [
            "sd", "st", "level", "time", "otim", "analyze", "memory", "cores", "egtpath", "quit", "bench", "perft",
            "hint",
        ];
        if !slow.iter().any(|w| lower.contains(w)) {
            input.push_str(line);
            input.push('\n');
        }
    }
    input.push_str("\nping 7\n");
    let printed = vorpal_protocol::doors::cecp_dialogue(input.as_bytes());
    assert!(
        printed.lines().any(|l| l == "pong 7"),
        "no pong after:\n{input}\nprinted:\n{printed}"
    );
});
