//! Every reference to the rules specification points into the repository (`docs/rules.md`, or
//! `rules.md` from a document beside it in `docs/`) and every section it cites exists there.

use std::path::{Path, PathBuf};

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The `.rs` and `.md` files of the repository (not `target/`, `node_modules/` or hidden ones).
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || name == "target" || name == "node_modules" {
            continue;
        }
        if path.is_dir() {
            sources(&path, out);
        } else if name.ends_with(".rs") || name.ends_with(".md") {
            out.push(path);
        }
    }
}

/// The section numbers of `docs/rules.md` (`1`, `2`, `3.1`, ...).
fn sections() -> Vec<String> {
    let text = std::fs::read_to_string(root().join("docs/rules.md")).unwrap();
    text.lines()
        .filter_map(|l| l.strip_prefix("## ").or_else(|| l.strip_prefix("### ")))
        .filter_map(|title| title.split_whitespace().next())
        .map(|number| number.trim_end_matches('.').to_string())
        .filter(|n| n.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .collect()
}

#[test]
fn every_rules_reference_points_into_the_repository_and_to_a_section_that_exists() {
    let known = sections();
    assert!(
        known.contains(&"3.8".to_string()) && known.contains(&"4".to_string()),
        "{known:?}"
    );
    let mut files = Vec::new();
    sources(&root(), &mut files);
    let mut bad = Vec::new();
    let mut cited = 0;
    for file in files.iter().filter(|f| !f.ends_with("doc_references.rs")) {
        let text = std::fs::read_to_string(file).unwrap();
        let in_docs = file.parent().is_some_and(|p| p.ends_with("docs"));
        for (n, line) in text.lines().enumerate() {
            let mut rest = line;
            while let Some(at) = rest.find("rules.md") {
                let before = &rest[..at];
                let after = &rest[at + "rules.md".len()..];
                // `docs/rules.md`; from docs/ any form; a link text whose target is docs/rules.md.
                let link_text = after.trim_start_matches('`').starts_with("](docs/rules.md)");
                let local = before.ends_with("docs/") || in_docs || link_text;
                if !local || before.ends_with("shared/") {
                    bad.push(format!("{}:{}: {line}", file.display(), n + 1));
                }
                // A cited section: `rules.md §3.1` or `[rules.md](rules.md) §3.1`.
                let tail = after
                    .trim_start_matches(['`', ']', ')', '('])
                    .trim_start_matches("rules.md)");
                if let Some(section) = tail.trim_start().strip_prefix('§') {
                    let number: String = section
                        .trim_start()
                        .chars()
                        .take_while(|c| c.is_ascii_digit() || *c == '.')
                        .collect();
                    let number = number.trim_end_matches('.').to_string();
                    cited += 1;
                    if !known.contains(&number) {
                        bad.push(format!("{}:{}: no section {number}: {line}", file.display(), n + 1));
                    }
                }
                rest = after;
            }
        }
    }
    assert!(cited >= 20, "only {cited} cited sections found");
    assert!(
        bad.is_empty(),
        "references outside the repository or to missing sections:\n{}",
        bad.join("\n")
    );
}

/// The targets of the relative Markdown links of `text` (`[a](b.md#x)` -> `b.md`), web links
/// and links within the page left out.
fn relative_links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices("](") {
        let rest = &text[i + 2..];
        let Some(end) = rest.find(')') else { continue };
        let target = rest[..end].split('#').next().unwrap_or("").trim();
        if !target.is_empty() && !target.contains("://") && !target.starts_with("mailto:") {
            out.push(target.to_string());
        }
    }
    out
}

#[test]
fn every_docs_page_is_linked_from_the_index_and_every_link_of_the_docs_leads_to_a_file() {
    let docs = root().join("docs");
    let index = std::fs::read_to_string(docs.join("README.md")).expect("docs/README.md, the index");
    let linked = relative_links(&index);
    let mut pages: Vec<String> = std::fs::read_dir(&docs)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".md") && n != "README.md")
        .collect();
    pages.sort();
    assert!(pages.len() >= 8, "{pages:?}");
    let missing: Vec<&String> = pages.iter().filter(|p| !linked.contains(p)).collect();
    assert!(
        missing.is_empty(),
        "pages of docs/ the index does not link: {missing:?}"
    );
    let mut broken = Vec::new();
    let mut files = vec![root().join("README.md")];
    files.extend(pages.iter().map(|p| docs.join(p)));
    files.push(docs.join("README.md"));
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for target in relative_links(&text) {
            if !file.parent().unwrap().join(&target).exists() {
                broken.push(format!("{}: {target}", file.display()));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "links to files that do not exist:\n{}",
        broken.join("\n")
    );
}
