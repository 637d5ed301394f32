//! No crate of the workspace has an import circle: in `engine`, `protocol`, `protocol/client`,
//! `protocol/uci-text`, `protocol/page`, `protocol/wasm`, `protocol/build-id`, `tuning` and `tests` (every member of
//! the workspace; a test checks the list against `Cargo.toml`) no module reaches itself through
//! the modules it imports, and no top-level module
//! (a room: `search/`, `matches/`, `gui/`) reaches itself through the rooms it imports (the
//! graph as `vorpal_tests::module_graph` reads it from the sources).

use std::path::{Path, PathBuf};
use vorpal_tests::module_graph::{circles, find_circle, import_graph, rooms};

/// The workspace root, or the tree named by `MODULES_ROOT=<dir>` (to see the check fail on an
/// older checkout).
fn root() -> PathBuf {
    std::env::var_os("MODULES_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
}

/// Every crate of the workspace, with the fewest modules its graph must have (a check that the
/// sources were found).
const CRATES: [(&str, usize); 9] = [
    ("engine", 10),
    ("protocol", 10),
    ("protocol/client", 8),
    ("protocol/uci-text", 5),
    ("protocol/page", 12),
    ("protocol/wasm", 8),
    ("protocol/build-id", 1),
    ("tuning", 10),
    ("tests", 10),
];

/// The workspace's members, as its `Cargo.toml` lists them.
fn members() -> Vec<String> {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).expect("the workspace manifest");
    let line = manifest
        .lines()
        .find(|l| l.trim_start().starts_with("members"))
        .expect("a members line");
    line.split('"').skip(1).step_by(2).map(str::to_string).collect()
}

#[test]
fn the_check_covers_every_crate_of_the_workspace() {
    let mut checked: Vec<String> = CRATES.iter().map(|(k, _)| k.to_string()).collect();
    let mut listed = members();
    checked.sort();
    listed.sort();
    assert_eq!(
        checked, listed,
        "the import-circle check must name every workspace member"
    );
}

#[test]
fn no_crate_has_an_import_circle() {
    let mut found = Vec::new();
    for (krate, modules) in CRATES {
        let graph = import_graph(&root().join(krate).join("src"));
        assert!(graph.len() >= modules, "{krate}: only {} modules found", graph.len());
        for (module, uses) in &graph {
            eprintln!("{krate}: {module:28} -> {uses:?}");
        }
        for circle in circles(&graph) {
            found.push(format!("{krate}: {}", circle.join(" -> ")));
        }
        for circle in circles(&rooms(&graph)) {
            found.push(format!("{krate} (rooms): {}", circle.join(" -> ")));
        }
    }
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

/// Writes `files` (path, text) under a fresh directory and returns it.
fn scratch(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vorpal-module-graph-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

/// The circle of the module graph of `files`, if any.
fn circle_in(name: &str, files: &[(&str, &str)]) -> Option<Vec<String>> {
    let dir = scratch(name, files);
    let circle = find_circle(&import_graph(&dir));
    std::fs::remove_dir_all(&dir).unwrap();
    circle
}

#[test]
fn the_check_finds_circles_between_modules_through_re_exports_and_between_rooms() {
    let lib = "pub mod a;\npub mod b;\npub mod s;\n";
    // Two rooms that import each other, one by a `crate::` path, the other by `super::`.
    let circle = circle_in(
        "siblings",
        &[
            ("lib.rs", lib),
            ("a.rs", "use crate::b::B;\npub struct A;\n"),
            ("b.rs", "pub struct B;\nfn f() -> super::a::A { super::a::A }\n"),
            ("s/mod.rs", "mod x;\n"),
            ("s/x.rs", ""),
        ],
    );
    assert!(circle.is_some_and(|c| c.contains(&"a".to_string()) && c.contains(&"b".to_string())));
    // Rooms of one folder reaching each other through the folder's re-exports.
    let circle = circle_in(
        "exports",
        &[
            ("lib.rs", lib),
            ("a.rs", ""),
            ("b.rs", ""),
            ("s/mod.rs", "mod x;\nmod y;\npub use x::X;\npub use y::{Y, Z};\n"),
            ("s/x.rs", "use super::{Y, Z};\npub struct X;\n"),
            ("s/y.rs", "use super::X;\npub struct Y;\npub struct Z;\n"),
        ],
    );
    assert_eq!(circle, Some(vec!["s::x".into(), "s::y".into(), "s::x".into()]));
    // Rooms: `a` uses a room of `s`, which uses `a`'s constants; no module circle, a room circle.
    let files = [
        ("lib.rs", lib),
        ("a.rs", "use crate::s::x::X;\npub const N: u32 = 1;\n"),
        ("b.rs", ""),
        ("s/mod.rs", "pub mod x;\npub mod y;\n"),
        ("s/x.rs", "pub struct X;\n"),
        ("s/y.rs", "use crate::a::N;\n"),
    ];
    let dir = scratch("rooms", &files);
    let graph = import_graph(&dir);
    assert_eq!(find_circle(&graph), None);
    assert_eq!(
        find_circle(&rooms(&graph)),
        Some(vec!["a".into(), "s".into(), "a".into()])
    );
    std::fs::remove_dir_all(&dir).unwrap();
    // A folder's door, a room using what its folder defines, and comments and unit tests: no circle.
    let circle = circle_in(
        "door",
        &[
            ("lib.rs", lib),
            ("a.rs", "// use crate::b::B;\n"),
            (
                "b.rs",
                "use crate::a;\n#[cfg(test)]\nmod tests {\n    use crate::b;\n}\n",
            ),
            ("s/mod.rs", "mod x;\npub use x::X;\npub const MAX: u32 = 1;\n"),
            ("s/x.rs", "use super::MAX;\npub struct X;\n"),
        ],
    );
    assert_eq!(circle, None);
}
