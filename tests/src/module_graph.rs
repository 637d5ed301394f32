//! The import graph of a crate's modules, read from its sources, and the circles in it.
//!
//! A module is a file (`search/root.rs` is `search::root`; `mod.rs`, `lib.rs` and `main.rs`
//! name their folder, the crate root is `crate`). Module `a` imports `b` when its text (unit
//! tests and comments left out) names `b` by a `crate::b::...` or `super::...` path, or by
//! `use b::...` of one of its own children. A path that ends in an item a folder re-exports
//! (`super::Limits`, where `search/mod.rs` has `pub use limits::{Clock, Limits}`) leads to the
//! module that defines the item. A folder's door (its `mod.rs` declaring and re-exporting its
//! rooms) is not an import: edges from a module to the modules inside it are left out, so a
//! room may use what its folder defines. Unit tests (`mod tests` blocks and `tests.rs` files)
//! are left out.
//!
//! [`rooms`] folds the graph into the crate's top-level modules (`search::root` counts as
//! `search`), the plan a reader sees in the source tree.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Module name -> the modules it imports.
pub type Graph = BTreeMap<String, BTreeSet<String>>;

/// Module name (`uci::printer`) -> source text, for every `.rs` file under `dir` (binaries in
/// `bin/` are crates of their own and left out).
pub fn modules(dir: &Path, prefix: &[String], out: &mut BTreeMap<String, String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_stem().and_then(|n| n.to_str()).unwrap_or("").to_string();
        if path.is_dir() {
            if prefix.is_empty() && name == "bin" {
                continue;
            }
            let mut inner = prefix.to_vec();
            inner.push(name);
            modules(&path, &inner, out);
        } else if path.extension().is_some_and(|e| e == "rs") && name != "tests" {
            let mut parts = prefix.to_vec();
            if !matches!(name.as_str(), "mod" | "main" | "lib") {
                parts.push(name);
            }
            let text = std::fs::read_to_string(&path).expect("a source file");
            let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("").to_string();
            let text: String = text
                .lines()
                .map(|l| l.split("//").next().unwrap_or(""))
                .collect::<Vec<_>>()
                .join("\n");
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

/// The longest module named by the start of `path` (`uci::printer::error` -> `uci::printer`),
/// following a folder's re-export of the next word to the module that defines it.
fn resolve(mods: &BTreeMap<String, String>, exports: &Exports, path: &[&str]) -> Option<String> {
    let n = (1..=path.len())
        .rev()
        .find(|&n| mods.contains_key(&path[..n].join("::")))?;
    let module = path[..n].join("::");
    match path
        .get(n)
        .and_then(|item| exports.get(&(module.clone(), item.to_string())))
    {
        Some(target) if target != &module => Some(target.clone()),
        _ => Some(module),
    }
}

/// Paths after `marker` (`crate::`, `super::`) in `text`, split into their words, with
/// `a::{b, c}` groups expanded.
fn paths_after(text: &str, marker: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for (i, _) in text.match_indices(marker) {
        if text[..i]
            .chars()
            .last()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
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

/// (module, item) -> the module `module` re-exports `item` from (`pub use child::item`).
type Exports = BTreeMap<(String, String), String>;

/// The `use` statements of `text`, each on one line (`pub` or not).
fn use_statements(text: &str) -> Vec<(bool, String)> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices("use ") {
        let before = text[..i].trim_end_matches([' ', '\t']);
        let public = before.ends_with("pub") || before.ends_with(')');
        let line_start = before.ends_with('\n') || before.is_empty() || public;
        if !line_start {
            continue;
        }
        let rest = &text[i + 4..];
        let statement = rest.split(';').next().unwrap_or("");
        out.push((public, statement.split_whitespace().collect::<Vec<_>>().join(" ")));
    }
    out
}

/// The module named by the first words of a `use` path written in module `name`.
fn use_target(mods: &BTreeMap<String, String>, name: &str, words: &[&str]) -> Option<String> {
    let parent: Vec<&str> = name
        .split("::")
        .collect::<Vec<_>>()
        .split_last()
        .map_or(vec![], |(_, p)| p.to_vec());
    let own = if name == "crate" {
        vec![]
    } else {
        name.split("::").collect()
    };
    let mut full: Vec<&str> = match words.first() {
        Some(&"crate") => vec![],
        Some(&"super") => parent.clone(),
        Some(&"self") => own.clone(),
        _ => own.clone(),
    };
    let skip = usize::from(matches!(words.first(), Some(&"crate" | &"super" | &"self")));
    full.extend(&words[skip..]);
    let n = (1..=full.len())
        .rev()
        .find(|&n| mods.contains_key(&full[..n].join("::")))?;
    // A bare `use child::x` only counts for the module's own children.
    (skip > 0 || n > own.len()).then(|| full[..n].join("::"))
}

/// Every module's re-exports.
fn exports(mods: &BTreeMap<String, String>) -> Exports {
    let mut out = Exports::new();
    for (name, text) in mods {
        for (public, statement) in use_statements(text) {
            if !public {
                continue;
            }
            let (head, items): (&str, Vec<&str>) = match statement.split_once('{') {
                Some((head, group)) => (head, group.trim_end_matches('}').split(',').collect()),
                None => match statement.rsplit_once("::") {
                    Some((head, item)) => (head, vec![item]),
                    None => continue,
                },
            };
            let words: Vec<&str> = head.split("::").filter(|w| !w.is_empty()).collect();
            let Some(target) = use_target(mods, name, &words) else {
                continue;
            };
            for item in items {
                let item = item.trim();
                let item = item.split(" as ").last().unwrap_or(item).trim();
                if !item.is_empty() && item != "*" && item != "self" {
                    out.insert((name.clone(), item.to_string()), target.clone());
                }
            }
        }
    }
    out
}

/// The import graph of the crate whose sources are in `src`.
pub fn import_graph(src: &Path) -> Graph {
    let mut mods = BTreeMap::new();
    modules(src, &[], &mut mods);
    let exports = exports(&mods);
    let mut graph = Graph::new();
    for (name, text) in &mods {
        let own: Vec<&str> = if name == "crate" {
            vec![]
        } else {
            name.split("::").collect()
        };
        let parent: Vec<&str> = own.split_last().map_or(vec![], |(_, p)| p.to_vec());
        let mut edges = BTreeSet::new();
        for path in paths_after(text, "crate::") {
            let words: Vec<&str> = path.iter().map(String::as_str).collect();
            edges.extend(resolve(&mods, &exports, &words));
        }
        for path in paths_after(text, "super::") {
            let mut words = parent.clone();
            words.extend(path.iter().map(String::as_str));
            let found = resolve(&mods, &exports, &words);
            edges.extend(found.or_else(|| (!parent.is_empty()).then(|| parent.join("::"))));
        }
        for (_, statement) in use_statements(text) {
            let head = statement.split('{').next().unwrap_or("");
            let words: Vec<&str> = head.split("::").filter(|w| !w.is_empty()).collect();
            if matches!(words.first(), Some(&"crate" | &"super")) {
                continue;
            }
            if let Some(child) = use_target(&mods, name, &words) {
                let item = words.get(child.split("::").count() - own.len());
                let target = item
                    .and_then(|item| exports.get(&(child.clone(), item.to_string())))
                    .cloned()
                    .unwrap_or(child);
                edges.insert(target);
            }
        }
        // The folder's door: what a module declares and re-exports inside itself.
        let inside = format!("{name}::");
        edges.retain(|m| m != name && m != "crate" && !(name == "crate" || m.starts_with(&inside)));
        graph.insert(name.clone(), edges);
    }
    graph
}

/// The graph of the crate's top-level modules: `a` imports `b` when a module in `a` imports
/// one in `b`.
pub fn rooms(graph: &Graph) -> Graph {
    let room = |m: &String| m.split("::").next().unwrap_or("").to_string();
    let mut out = Graph::new();
    for (module, uses) in graph {
        let from = room(module);
        let entry = out.entry(from.clone()).or_default();
        entry.extend(uses.iter().map(room).filter(|to| to != &from));
    }
    out
}

/// A circle in `graph` (`[a, b, a]`), if there is one.
pub fn find_circle(graph: &Graph) -> Option<Vec<String>> {
    graph.keys().find_map(|start| circle_through(graph, start))
}

/// Every circle of `graph`, each once (whichever module it passes through first).
pub fn circles(graph: &Graph) -> Vec<Vec<String>> {
    let mut found: Vec<Vec<String>> = Vec::new();
    for start in graph.keys() {
        let Some(circle) = circle_through(graph, start) else {
            continue;
        };
        let members: BTreeSet<&String> = circle.iter().collect();
        if !found.iter().any(|c| c.iter().collect::<BTreeSet<_>>() == members) {
            found.push(circle);
        }
    }
    found
}

/// A circle from `start` back to it, if there is one.
fn circle_through(graph: &Graph, start: &String) -> Option<Vec<String>> {
    let mut stack: Vec<(String, Vec<String>)> = vec![(start.clone(), vec![start.clone()])];
    let mut seen = BTreeSet::new();
    while let Some((module, route)) = stack.pop() {
        for next in graph.get(&module).into_iter().flatten() {
            let mut longer = route.clone();
            longer.push(next.clone());
            if next == start {
                return Some(longer);
            }
            if seen.insert(next.clone()) {
                stack.push((next.clone(), longer));
            }
        }
    }
    None
}
