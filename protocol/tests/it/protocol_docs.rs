//! `help` and docs/protocol.md describe the same commands: every command `help` lists has a
//! section in the protocol documentation and every documented command is in `help`; the
//! extensions are written with the same syntax in both.

use crate::support::harness::{run_cli, SOON};
use std::collections::BTreeSet;

/// The UCI and extension part of docs/protocol.md (up to the CECP chapter).
fn documented_part() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/protocol.md");
    let text = std::fs::read_to_string(path).expect("docs/protocol.md");
    let start = text.find("\n## UCI commands").expect("a UCI chapter");
    let end = text.find("\n## CECP").expect("a CECP chapter");
    text[start..end].to_string()
}

/// The backticked spans of the `###` headings of `text`.
fn heading_spans(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with("### "))
        .flat_map(|l| l.split('`').skip(1).step_by(2).map(str::to_string).collect::<Vec<_>>())
        .collect()
}

/// The entries of the `help` text: (their section, the syntax of each alternative).
fn help_entries() -> Vec<(String, String)> {
    let run = run_cli(&["help"], SOON);
    assert!(run.status.success(), "{}", run.stderr);
    let mut section = String::new();
    let mut entries = Vec::new();
    for line in run.stdout.lines() {
        if !line.starts_with(' ') {
            section = line.to_string();
        } else if line.starts_with("  ") && !line.starts_with("   ") {
            // The syntax ends where two spaces start the description.
            let syntax = line.trim().split("  ").next().unwrap_or("").trim();
            for part in syntax.split(" | ") {
                entries.push((section.clone(), part.to_string()));
            }
        }
    }
    entries
}

fn first_word(text: &str) -> String {
    text.split_whitespace().next().unwrap_or("").to_string()
}

#[test]
fn help_and_the_protocol_docs_list_the_same_commands() {
    let entries = help_entries();
    let helped: BTreeSet<String> = entries.iter().map(|(_, syntax)| first_word(syntax)).collect();
    let documented: BTreeSet<String> = heading_spans(&documented_part())
        .iter()
        .map(|s| first_word(s))
        .collect();
    assert!(helped.len() >= 20, "{helped:?}");
    assert_eq!(helped, documented, "help (left) and docs/protocol.md headings (right)");
}

#[test]
fn extensions_have_the_same_syntax_in_help_and_docs() {
    let spans: BTreeSet<String> = heading_spans(&documented_part()).into_iter().collect();
    let extensions: Vec<String> = help_entries()
        .into_iter()
        .filter(|(section, _)| section.starts_with("Extensions"))
        .map(|(_, syntax)| syntax)
        .collect();
    assert!(extensions.len() >= 10, "{extensions:?}");
    for syntax in &extensions {
        assert!(
            spans.contains(syntax),
            "help's '{syntax}' is not a heading of docs/protocol.md; headings: {spans:?}"
        );
    }
    assert!(extensions.contains(&"perft <n> [threads <k>] [<FEN>]".to_string()));
    assert!(extensions.contains(&"fen [pipe|wide|split|joined]".to_string()));
}
