//! `vorpal tb plan`: the tables that `vorpal tb generate` with the same materials would make,
//! in its order, each with the materials it converts into (captures and promotions). A
//! cluster driver (`vorpal-cluster tb`, docs/cluster.md) reads `--json` to run one task per
//! table after its successors, without knowing the material rules itself.

use super::args::PlanArgs as Args;
use crate::status;
use crate::uci::output::to_stdout;
use serde_json::json;
use std::path::Path;
use vorpal_engine::tablebase::{Material, Tablebases};

/// The materials asked for and every table they lead to, in generation order (as `generate`).
pub(super) fn plan(materials: &[Material], all: Option<usize>) -> Vec<Material> {
    let mut list: Vec<Material> = all.map(Material::all_up_to).unwrap_or_default();
    list.extend(materials.iter().cloned());
    Material::with_successors(&list)
}

/// One line of the plan: the material and its successors (and whether its table is present
/// and sound, when asked), as text or a JSON object.
fn line(m: &Material, present: Option<bool>, json: bool) -> String {
    let successors: Vec<String> = m.successors().iter().map(|s| s.to_string()).collect();
    if json {
        let mut o = json!({"material": m.to_string(), "men": m.men(), "successors": successors});
        if let Some(p) = present {
            o["present"] = json!(p);
        }
        return format!("{o}\n");
    }
    let mut text = m.to_string();
    if !successors.is_empty() {
        text += &format!(" after {}", successors.join(" "));
    }
    if present == Some(true) {
        text += " (present)";
    }
    text + "\n"
}

/// Whether each table of `list` is present and sound in `dir` (None without a directory; a
/// directory that does not exist yet holds none).
fn presence(dir: Option<&Path>, list: &[Material]) -> Vec<Option<bool>> {
    let tables = dir.map(|d| Tablebases::open(d).ok());
    list.iter()
        .map(|m| {
            tables
                .as_ref()
                .map(|t| t.as_ref().is_some_and(|t| matches!(t.check(m), Ok(true))))
        })
        .collect()
}

/// Runs `vorpal tb plan`.
pub fn run(args: Args) -> i32 {
    let list = plan(&args.materials, args.all);
    for (m, present) in list.iter().zip(presence(args.dir.as_deref(), &list)) {
        to_stdout(&line(m, present, args.json));
    }
    status::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    fn material(text: &str) -> Material {
        Material::parse(text).unwrap().canonical().0
    }

    #[test]
    fn every_table_comes_after_its_successors() {
        let list = plan(&[material("KRvKN"), material("KQvKR")], None);
        let names: Vec<String> = list.iter().map(|m| m.to_string()).collect();
        for m in &list {
            let at = names.iter().position(|n| *n == m.to_string()).unwrap();
            for s in m.successors() {
                let before = names.iter().position(|n| *n == s.to_string());
                assert!(before.is_some_and(|b| b < at), "{s} is not before {m} in {names:?}");
            }
        }
        assert!(names.contains(&"KRvK".to_string()) && names.contains(&"KNvK".to_string()));
        assert_eq!(plan(&[], Some(3)).len(), Material::all_up_to(3).len());
    }

    #[test]
    fn lines_name_the_successors() {
        let krkn = material("KRvKN");
        let text = line(&krkn, None, false);
        assert!(
            text.starts_with("KRvKN after ") && text.contains("KRvK") && text.contains("KNvK"),
            "{text}"
        );
        let o: serde_json::Value = serde_json::from_str(&line(&krkn, None, true)).unwrap();
        assert_eq!(o["material"], "KRvKN");
        assert_eq!(o["men"], 4);
        let succ: Vec<&str> = o["successors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        assert_eq!(succ.len(), krkn.successors().len());
        assert!(succ.contains(&"KRvK") && succ.contains(&"KNvK"), "{succ:?}");
        assert_eq!(line(&material("KQvK"), None, false), "KQvK\n");
        assert!(o.get("present").is_none());
        assert_eq!(line(&material("KQvK"), Some(true), false), "KQvK (present)\n");
        assert_eq!(line(&material("KQvK"), Some(false), false), "KQvK\n");
        let o: serde_json::Value = serde_json::from_str(&line(&krkn, Some(false), true)).unwrap();
        assert_eq!(o["present"], false);
    }

    #[test]
    fn present_tables_are_found_in_the_directory() {
        let dir = std::env::temp_dir().join(format!("vorpal-tb-plan-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let list = [material("KNvK"), material("KBvK")];
        assert_eq!(presence(Some(&dir), &list), [Some(false), Some(false)]);
        let tables = Tablebases::open(&dir).unwrap();
        vorpal_engine::tablebase::generate(&list[0], &tables, &mut |_| {}).unwrap();
        assert_eq!(presence(Some(&dir), &list), [Some(true), Some(false)]);
        assert_eq!(presence(None, &list), [None, None]);
        assert_eq!(presence(Some(&dir.join("none")), &list), [Some(false), Some(false)]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
