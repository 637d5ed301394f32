//! `vorpal solve` against Popeye 4.104's solution sets for what the solver added: short
//! solutions of helpmates and direct mates, series-movers, reflex and help-self mates
//! (`tests/data/solve-popeye-more.tsv`), every twin kind (`solve-popeye-twins.inp`), the
//! proof game of the Andernach examples, and `a=>b` proof games in Popeye input
//! (`solve-popeye-atob.inp`).

use crate::support::harness::run_cli;
use serde_json::Value;
use std::path::PathBuf;
use std::time::Duration;
use vorpal_tests::data::read_data;

const LIMIT: Duration = Duration::from_secs(120);

/// A data file of this crate (not the shared reference data).
fn local_data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data")
        .join(name)
}

/// The solution set of one JSON result: keys and forced moves, or every line (short ones
/// included) with its moves joined by spaces; sorted and joined by `|`.
fn solution_set(result: &Value) -> String {
    let strings = |v: Option<&Value>| -> Vec<String> {
        v.and_then(Value::as_array)
            .map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect())
            .unwrap_or_default()
    };
    let lines = |v: Option<&Value>| -> Vec<String> {
        v.and_then(Value::as_array)
            .map(|a| a.iter().map(|l| strings(Some(l)).join(" ")).collect())
            .unwrap_or_default()
    };
    let mut set = strings(result.get("keys"));
    set.extend(strings(result.get("forced")));
    set.extend(lines(result.get("solutions")));
    set.extend(lines(result.get("short")));
    set.sort();
    set.join("|")
}

fn results(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The data rows (comment lines start with `#`), split at tabs.
fn rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter(|l| !l.starts_with("# ") && !l.trim().is_empty())
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

#[test]
fn new_stipulations_have_popeyes_solution_sets() {
    let text = std::fs::read_to_string(local_data("solve-popeye-more.tsv")).unwrap();
    let rows = rows(&text);
    assert!(rows.len() >= 19, "{} rows", rows.len());
    let mut stipulations: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    stipulations.dedup();
    for needed in [
        "ser-#3", "ser-h#3", "ser-s#3", "ser-=3", "r#2", "semi-r#2", "hs#2", "hs#1.5", "h#2", "#2",
    ] {
        assert!(stipulations.contains(&needed), "{needed}");
    }
    for row in &rows {
        let (stip, fen, expected) = (&row[0], &row[1], row.get(2).map_or("", String::as_str));
        let run = run_cli(&["solve", "--fen", fen, "--stip", stip, "--json"], LIMIT);
        assert!(run.status.success(), "{stip} {fen}: {}", run.stderr);
        let results = results(&run.stdout);
        assert_eq!(results.len(), 1);
        assert_eq!(results[0]["complete"], Value::Bool(true));
        assert_eq!(solution_set(&results[0]), expected, "{stip} {fen}");
    }
}

#[test]
fn short_solutions_are_listed_apart_and_hidden_by_no_short() {
    // A h#2 of the Popeye data with h#1 lines: they come as `short`, the h#2 lines as
    // `solutions`; --no-short drops them.
    let text = std::fs::read_to_string(local_data("solve-popeye-more.tsv")).unwrap();
    let row = rows(&text).into_iter().find(|r| r[0] == "h#2").expect("a h#2 row");
    let run = run_cli(&["solve", "--fen", &row[1], "--stip", "h#2", "--json"], LIMIT);
    let result = &results(&run.stdout)[0];
    let short = result["short"].as_array().expect("short solutions");
    assert!(!short.is_empty());
    assert!(short.iter().all(|l| l.as_array().unwrap().len() == 2));
    assert!(result["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .all(|l| l.as_array().unwrap().len() == 4));
    let run = run_cli(
        &["solve", "--fen", &row[1], "--stip", "h#2", "--json", "--no-short"],
        LIMIT,
    );
    let hidden = &results(&run.stdout)[0];
    assert!(hidden.get("short").is_none());
    assert_eq!(hidden["solutions"], result["solutions"]);
    // The text lists the short lines first and counts them in the summary.
    let run = run_cli(&["solve", "--fen", &row[1], "--stip", "h#2"], LIMIT);
    assert!(run.stdout.contains("short solution"), "{}", run.stdout);
}

#[test]
fn a_to_b_proof_games_from_popeye_input_have_popeyes_games() {
    let file = local_data("solve-popeye-atob.inp");
    let run = run_cli(&["solve", file.to_str().unwrap(), "--json"], LIMIT);
    assert!(run.status.success(), "{}", run.stderr);
    let results = results(&run.stdout);
    let expected = rows(&std::fs::read_to_string(local_data("solve-popeye-atob.tsv")).unwrap());
    assert_eq!(results.len(), expected.len());
    for (result, row) in results.iter().zip(&expected) {
        assert_eq!(result["complete"], Value::Bool(true));
        assert_eq!(
            solution_set(result),
            row.get(1).map_or("", String::as_str),
            "problem {}",
            row[0]
        );
    }
    // Popeye's numbering: the side that starts plays move 1 (Black here).
    let run = run_cli(&["solve", file.to_str().unwrap()], LIMIT);
    assert!(
        run.stdout
            .contains("  1.Kd8 R7a2   2.Kc8/A Ra7   3.Qd8/A Ra1/A   4.Kb8 R7a8/A"),
        "{}",
        run.stdout
    );
}

#[test]
fn every_twin_kind_has_popeyes_solution_sets() {
    let file = local_data("solve-popeye-twins.inp");
    let run = run_cli(&["solve", file.to_str().unwrap(), "--json"], LIMIT);
    assert!(run.status.success(), "{}", run.stderr);
    let results = results(&run.stdout);
    let expected = rows(&std::fs::read_to_string(local_data("solve-popeye-twins.tsv")).unwrap());
    assert_eq!(results.len(), expected.len());
    for (result, row) in results.iter().zip(&expected) {
        assert_eq!(result["twin"].as_str(), Some(row[0].as_str()));
        assert_eq!(
            solution_set(result),
            row.get(1).map_or("", String::as_str),
            "twin {}",
            row[0]
        );
    }
    // The text names each change as Popeye does.
    let run = run_cli(&["solve", file.to_str().unwrap()], LIMIT);
    for change in [
        "rotate 90",
        "mirror a1<-->h8",
        "shift e5 ==> e6",
        "R ==> Q",
        "PolishType",
    ] {
        assert!(run.stdout.contains(change), "{change}");
    }
}

#[test]
fn series_lines_are_laid_out_like_popeye() {
    let run = run_cli(
        &["solve", "--fen", "8/k2|K4/8/8/8/3|R4/8/8 w - - 0 1", "--stip", "ser-#2"],
        LIMIT,
    );
    // 1.Kc7 2.Ra3/A# (Popeye: 1.Kd7-c7A   2.Rd3-a3A #).
    assert!(run.stdout.contains("  1.Kc7/A   2.Ra3/A#"), "{}", run.stdout);
}

#[test]
fn the_andernach_proof_game_has_popeyes_one_solution() {
    let rows: Vec<Vec<String>> = read_data("solve-proofgame.tsv")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect();
    let row = &rows[0];
    let run = run_cli(
        &["solve", "--fen", &row[2], "--stip", &row[1], "--json"],
        Duration::from_secs(600),
    );
    let result = &results(&run.stdout)[0];
    assert_eq!(result["complete"], Value::Bool(true));
    assert_eq!(solution_set(result), row[3]);
}

/// `Threat N` in Popeye input: `vorpal solve` leaves out what Popeye leaves out (the zugzwang
/// key of the two-mover of `tests/data/popeye/threat.inp` under `Threat 1`, not under
/// `Threat 2`).
#[test]
fn threat_option_gives_popeyes_keys() {
    let dir = std::env::temp_dir().join(format!("vorpal-threat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let keys = |t: u32| {
        let file = dir.join(format!("threat{t}.inp"));
        let text = format!(
            "begin\npieces white Kc6 Pb7 black Ka7 white AliceB Rh1\nstip #2\ncondition alice\noption threat {t}\nend\n"
        );
        std::fs::write(&file, text).unwrap();
        let run = run_cli(&["solve", file.to_str().unwrap(), "--json"], LIMIT);
        assert_eq!(run.status.code(), Some(0), "{}", run.stderr);
        results(&run.stdout).iter().map(solution_set).collect::<Vec<_>>()
    };
    assert_eq!(keys(1), ["h1a1"]);
    assert_eq!(keys(2), ["h1a1|h1h8"]);
    let _ = std::fs::remove_dir_all(&dir);
}
