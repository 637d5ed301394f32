//! The protocol crate's modules import each other without a circle: the engine session, the
//! search worker, the read loop and the output (`uci::session`, `uci::worker`, `uci::serve`,
//! `uci::output`) know no protocol adapter, the CECP adapter (`xboard/`) builds on that session
//! but not on the UCI adapter (`uci`, `uci::commands`, `uci::printer`), and at most six files
//! stand at the crate's root. The
//! import graph is read from the sources by `vorpal_tests::module_graph` (`module_graph.rs`
//! checks every crate for circles).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

fn import_graph() -> BTreeMap<String, BTreeSet<String>> {
    // `PROTOCOL_SRC=<dir>` reads another tree (to see the check fail on an older one).
    let dir = std::env::var_os("PROTOCOL_SRC")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../protocol/src"));
    vorpal_tests::module_graph::import_graph(&dir)
}

#[test]
fn the_protocol_modules_import_each_other_without_a_circle() {
    let graph = import_graph();
    for (module, uses) in &graph {
        eprintln!("{module:22} -> {uses:?}");
    }
    let adapter = |m: &String| ["uci", "uci::commands", "uci::printer"].contains(&m.as_str());
    // The session side knows no protocol adapter.
    for neutral in ["uci::session", "uci::serve", "uci::worker", "uci::output"] {
        let uses = &graph[neutral];
        assert!(
            !uses.iter().any(|m| adapter(m) || m.starts_with("xboard")),
            "{neutral} uses {uses:?}"
        );
    }
    for (module, uses) in graph.iter().filter(|(m, _)| m.starts_with("xboard")) {
        assert!(!uses.iter().any(adapter), "{module} uses {uses:?}");
    }
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

/// The crate's root holds the library, the binary and at most four more files; everything
/// else lives in a room.
#[test]
fn the_protocol_root_holds_at_most_six_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../protocol/src");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert!(files.len() <= 6, "{} files at the root: {files:?}", files.len());
}
