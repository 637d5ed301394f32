//! The protocol crate's modules import each other without a circle: the session, the worker
//! and the read loop know no protocol, and the adapters (`uci/`, `xboard/`) sit on top. The
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
