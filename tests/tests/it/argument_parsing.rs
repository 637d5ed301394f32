//! One argument parser for every command line: clap's derive reads the options of `vorpal`,
//! its subcommands and the tools, so no source of the workspace (unit tests left out) matches
//! a `"--flag"` literal by hand: no `"--depth" =>` arm, no `"--a" | "--b" =>` alternatives, no
//! `Some("--x") =>` and no `s if s == "--x" =>` guard; nor splits words into options by their
//! `--` (`strip_prefix("--")`, `starts_with("--")`). The sources are read as text.

use std::path::{Path, PathBuf};

/// The workspace root, or the tree named by `ARGUMENTS_ROOT=<dir>` (to see the check fail on
/// an older checkout).
fn root() -> PathBuf {
    std::env::var_os("ARGUMENTS_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut paths: Vec<PathBuf> = entries.map(|e| e.expect("a directory entry").path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("tests.rs") {
            out.push(path);
        }
    }
}

/// The text of a source without its unit tests and its comments.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The `"--flag"` literals of `code` that a pattern or a match guard compares against, and the
/// words told apart as options by their `--`, each as the line it stands in.
fn flag_arms(code: &str) -> Vec<String> {
    let mut found: Vec<String> = code
        .lines()
        .filter(|l| l.contains("strip_prefix(\"--\")") || l.contains("starts_with(\"--\")"))
        .map(|l| l.trim().to_string())
        .collect();
    let mut from = 0;
    while let Some(at) = code[from..].find("\"--").map(|i| from + i) {
        let Some(len) = code[at + 1..].find('"') else { break };
        let end = at + 1 + len + 1;
        from = end;
        let flag = &code[at + 1..end - 1];
        if flag.len() < 3 || !flag[2..].chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            continue;
        }
        let before = code[..at].trim_end();
        let after = skip_alternatives(&code[end..]);
        let arm = after.starts_with("=>") || after.starts_with("if ");
        // A guard: `s if s == "--x" =>`, `s if s == "--x" || s == "--y" =>`.
        let guard = (before.ends_with("==") || before.ends_with("!="))
            && after
                .find("=>")
                .is_some_and(|arrow| !after[..arrow].contains(['{', ';']));
        let in_matches = before
            .rfind("matches!(")
            .is_some_and(|open| !before[open..].contains(';'));
        if arm || guard || in_matches {
            let line_start = code[..at].rfind('\n').map_or(0, |i| i + 1);
            let line_end = code[at..].find('\n').map_or(code.len(), |i| at + i);
            found.push(code[line_start..line_end].trim().to_string());
        }
    }
    found
}

/// `text` after any `| "..."` alternatives, the rest of a slice or tuple pattern (`, ..]`) and
/// closing brackets that follow a literal.
fn skip_alternatives(mut text: &str) -> &str {
    loop {
        let t = text.trim_start();
        if t.starts_with(',') {
            let Some(close) = t.find([']', ')']) else { return t };
            if t[..close].contains(['"', '{', ';', '=']) {
                return t;
            }
            text = &t[close + 1..];
        } else if let Some(rest) = t.strip_prefix('|').filter(|r| !r.starts_with('|')) {
            let rest = rest.trim_start();
            match rest.strip_prefix('"').and_then(|r| r.find('"').map(|i| &r[i + 1..])) {
                Some(next) => text = next,
                None => return t,
            }
        } else if let Some(rest) = t.strip_prefix([')', ']']) {
            text = rest;
        } else {
            return t;
        }
    }
}

#[test]
fn no_source_matches_flags_by_hand() {
    let root = root();
    let mut files = Vec::new();
    for dir in [
        "engine/src",
        "engine/examples",
        "protocol/src",
        "protocol/client/src",
        "tuning/src",
        "tests/src",
    ] {
        sources(&root.join(dir), &mut files);
    }
    assert!(
        files.len() >= 100,
        "only {} sources found under {}",
        files.len(),
        root.display()
    );
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a source file");
        for arm in flag_arms(&code(&text)) {
            found.push(format!("{}: {arm}", file.strip_prefix(&root).unwrap_or(file).display()));
        }
    }
    assert!(
        found.is_empty(),
        "hand-written option matching (use the clap-derived arguments):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_finds_the_hand_written_forms() {
    for (source, expected) in [
        ("match a { \"--depth\" => 1, _ => 0 }", 1),
        ("match a { \"--a\" | \"--b\" => 1, _ => 0 }", 2),
        (
            "match a.as_str() {\n    \"--nodes\" | \"-o\"\n        if ok =>\n {}\n}",
            1,
        ),
        ("match it.next() { Some(\"--x\") => 1, _ => 0 }", 1),
        ("match s { s if s == \"--x\" => 1, _ => 0 }", 1),
        ("match s { s if s == \"--x\" || s == \"--y\" => 1, _ => 0 }", 2),
        ("matches!(w, \"--help\" | \"-h\")", 1),
        ("match words { [\"--help\" | \"-h\", ..] => 0, _ => 1 }", 1),
        ("match words { [_, \"--json\", rest @ ..] => 0, _ => 1 }", 1),
        // A UCI command's own word (perft's `threads`), not an option of a command line.
        ("if let [\"threads\" | \"--threads\", k, rest @ ..] = fen {}", 0),
        ("if let Some(name) = a.strip_prefix(\"--\") {}", 1),
        ("while i < words.len() && !words[i].starts_with(\"--\") {}", 1),
        // Not matching by hand: messages, option names built for another program, a test.
        ("return Err(\"--data is required\".into());", 0),
        ("args.push(\"--engine\".to_string());", 0),
        ("if name == \"--x\" { return; }", 0),
        ("let s = format!(\"--{name}\");", 0),
        (
            "#[cfg(test)]\nmod tests {\n    fn f() { match a { \"--x\" => 1, _ => 0 }; }\n}",
            0,
        ),
    ] {
        assert_eq!(flag_arms(&code(source)).len(), expected, "{source}");
    }
}
