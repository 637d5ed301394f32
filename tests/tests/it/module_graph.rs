//! No crate of the workspace has an import circle: in `engine`, `protocol`, `protocol/client`,
//! `tuning` and `tests` no module reaches itself through the modules it imports, and no top-level module
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

#[test]
fn no_crate_has_an_import_circle() {
    let mut found = Vec::new();
    for (krate, modules) in [
        ("engine", 10),
        ("protocol", 10),
        ("protocol/client", 8),
        ("tuning", 10),
        ("tests", 10),
    ] {
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
