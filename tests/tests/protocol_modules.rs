//! The protocol crate's modules import each other without a circle: the session, the worker
//! and the read loop know no protocol, and the adapters (`uci/`, `xboard/`) sit on top. The
//! import graph is read from the sources: `use crate::a::b`, inline `crate::a::f()` paths,
//! `super::x`, and `use child::x` of a module's own children (unit tests left out).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Module name (`uci::printer`) -> source text, for every file under `dir`.
fn modules(dir: &Path, prefix: &[String], out: &mut BTreeMap<String, String>) {
    for entry in std::fs::read_dir(dir).expect("protocol/src") {
        let path = entry.expect("a directory entry").path();
        let name = path.file_stem().and_then(|n| n.to_str()).unwrap_or("").to_string();
        if path.is_dir() {
            let mut inner = prefix.to_vec();
            inner.push(name);
            modules(&path, &inner, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let mut parts = prefix.to_vec();
            if !matches!(name.as_str(), "mod" | "main" | "lib") {
                parts.push(name);
            }
            let text = std::fs::read_to_string(&path).expect("a source file");
            let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("").to_string();
            out.insert(
                if parts.is_empty() {
                    "crate".into()
                } else {
                    parts.join("::")
                },
                text,
            );
        }
    }
}

/// The longest module named by the start of `path` (`uci::printer::error` -> `uci::printer`).
fn resolve(mods: &BTreeMap<String, String>, path: &[&str]) -> Option<String> {
    (1..=path.len())
        .rev()
        .map(|n| path[..n].join("::"))
        .find(|m| mods.contains_key(m))
}

/// Paths after `marker` (`crate::`, `super::`) in `text`, split into their words, with
/// `a::{b, c}` groups expanded.
fn paths_after(text: &str, marker: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for (i, _) in text.match_indices(marker) {
        if text[..i]
            .chars()
            .last()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
        {
            continue;
        }
        let rest = &text[i + marker.len()..];
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(rest.len());
        let head: Vec<String> = rest[..end]
            .split("::")
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect();
        if rest[end..].starts_with('{') {
            let group = &rest[end + 1..rest[end..].find('}').map_or(rest.len(), |j| end + j)];
            for item in group.split(',') {
                let word = item
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .split("::")
                    .next()
                    .unwrap_or("");
                let mut path = head.clone();
                if !word.is_empty() {
                    path.push(word.to_string());
                }
                found.push(path);
            }
        } else {
            found.push(head);
        }
    }
    found
}

fn import_graph() -> BTreeMap<String, BTreeSet<String>> {
    let mut mods = BTreeMap::new();
    // `PROTOCOL_SRC=<dir>` reads another tree (to see the check fail on an older one).
    let dir = std::env::var_os("PROTOCOL_SRC")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../protocol/src"));
    modules(&dir, &[], &mut mods);
    let mut graph = BTreeMap::new();
    for (name, text) in &mods {
        let text: String = text
            .lines()
            .map(|l| l.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
        let parent: Vec<&str> = name
            .split("::")
            .collect::<Vec<_>>()
            .split_last()
            .map_or(vec![], |(_, p)| p.to_vec());
        let mut edges = BTreeSet::new();
        for path in paths_after(&text, "crate::") {
            let words: Vec<&str> = path.iter().map(String::as_str).collect();
            edges.extend(resolve(&mods, &words));
        }
        for path in paths_after(&text, "super::") {
            let mut words = parent.clone();
            words.extend(path.iter().map(String::as_str));
            edges.extend(resolve(&mods, &words).or_else(|| (!parent.is_empty()).then(|| parent.join("::"))));
        }
        for line in text.lines().map(str::trim) {
            let Some(rest) = line.strip_prefix("use ").or_else(|| line.strip_prefix("pub use ")) else {
                continue;
            };
            let child = format!("{name}::{}", rest.split("::").next().unwrap_or(""));
            if mods.contains_key(&child) {
                edges.insert(child);
            }
        }
        edges.remove(name);
        edges.remove("crate");
        graph.insert(name.clone(), edges);
    }
    graph
}

#[test]
fn the_protocol_modules_import_each_other_without_a_circle() {
    let graph = import_graph();
    for (module, uses) in &graph {
        eprintln!("{module:22} -> {uses:?}");
    }
    // The session side knows no protocol.
    for neutral in ["session", "serve", "worker", "output"] {
        let Some(uses) = graph.get(neutral) else { continue };
        assert!(
            !uses.iter().any(|m| m.starts_with("uci") || m.starts_with("xboard")),
            "{neutral} uses {uses:?}"
        );
    }
    assert!(
        graph["xboard"].iter().all(|m| !m.starts_with("uci")),
        "{:?}",
        graph["xboard"]
    );
    // No module reaches itself through the modules it uses.
    for start in graph.keys() {
        let mut stack: Vec<(String, Vec<String>)> = vec![(start.clone(), vec![start.clone()])];
        let mut seen = BTreeSet::new();
        while let Some((module, route)) = stack.pop() {
            for next in &graph[&module] {
                assert!(next != start, "import circle: {} -> {start}", route.join(" -> "));
                if seen.insert(next.clone()) {
                    let mut longer = route.clone();
                    longer.push(next.clone());
                    stack.push((next.clone(), longer));
                }
            }
        }
    }
    assert!(graph.len() >= 15, "{graph:?}");
}
