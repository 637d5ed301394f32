//! `vorpal tb plan`: the tables that `vorpal tb generate` with the same materials would make,
//! in its order, each with the materials it converts into (captures and promotions). A
//! cluster driver (`vorpal-cluster tb`, docs/cluster.md) reads `--json` to run one task per
//! table after its successors, without knowing the material rules itself.

use super::args::PlanArgs as Args;
use crate::status;
use crate::uci::output::to_stdout;
use serde_json::json;
use vorpal_engine::tablebase::Material;

/// The materials asked for and every table they lead to, in generation order (as `generate`).
pub(super) fn plan(materials: &[Material], all: Option<usize>) -> Vec<Material> {
    let mut list: Vec<Material> = all.map(Material::all_up_to).unwrap_or_default();
    list.extend(materials.iter().cloned());
    Material::with_successors(&list)
}

/// One line of the plan: the material and its successors, as text or a JSON object.
fn line(m: &Material, json: bool) -> String {
    let successors: Vec<String> = m.successors().iter().map(|s| s.to_string()).collect();
    if json {
        let o = json!({"material": m.to_string(), "men": m.men(), "successors": successors});
        format!("{o}\n")
    } else if successors.is_empty() {
        format!("{m}\n")
    } else {
        format!("{m} after {}\n", successors.join(" "))
    }
}

/// Runs `vorpal tb plan`.
pub fn run(args: Args) -> i32 {
    for m in plan(&args.materials, args.all) {
        to_stdout(&line(&m, args.json));
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
        let text = line(&krkn, false);
        assert!(
            text.starts_with("KRvKN after ") && text.contains("KRvK") && text.contains("KNvK"),
            "{text}"
        );
        let o: serde_json::Value = serde_json::from_str(&line(&krkn, true)).unwrap();
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
        assert_eq!(line(&material("KQvK"), false), "KQvK\n");
    }
}
