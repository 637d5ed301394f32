//! UCI command lines into a session, as stdin gives them: the loop answers `isready` after
//! any input. Searches are bounded (the session stops them at the end of input); commands
//! that only take long (bench, deep perft) or touch files, and `xboard`, are left out.
#![no_main]
use libfuzzer_sys::fuzz_target;

/// Keeps the dialogue quick and inside the process: no bench, no perft beyond depth 3, no
/// file options, no large hash or thread counts, no infinite or deep search.
fn tame(text: &str) -> String {
    let mut out = String::new();
    for line in text.split('\n').take(64) {
        let lower = line.to_ascii_lowercase();
        // `xboard` hands the session to CECP, where `isready` means nothing (the cecp target
        // covers that side).
        let slow = [
            "bench", "file", "path", "log", "hash", "threads", "infinite", "ponder", "movetime", "tb", "xboard",
        ];
        if slow.iter().any(|w| lower.contains(w)) {
            continue;
        }
        let searches = lower.contains("go") || lower.contains("perft") || lower.contains("analy");
        let line: String = if searches {
            let words: Vec<String> = line
                .split_whitespace()
                .map(|w| match w.parse::<u64>() {
                    Ok(n) if n > 3 => "3".to_string(),
                    _ => w.to_string(),
                })
                .collect();
            let mut l = words.join(" ");
            if !lower.contains("depth") && !lower.contains("perft") {
                l.push_str(" depth 2");
            }
            l
        } else {
            line.to_string()
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut input = tame(&text).replace("quit", "");
    input.push_str("\nisready\n");
    let printed = vorpal_protocol::doors::uci_dialogue(input.as_bytes());
    assert!(
        printed.lines().any(|l| l == "readyok"),
        "no readyok after:\n{input}\nprinted:\n{printed}"
    );
});
