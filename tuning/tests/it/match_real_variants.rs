//! Real engines under every rule set, and SPSA end to end: the `vorpal` binary plays itself a
//! short match in every variant (and Chess960, and en passant) refereed under that variant's
//! rules, with PGN tags and moves that replay under those rules; and `vorpal-match spsa` tunes
//! a `--features tune` build of `vorpal` for a few game pairs, writes its state after every
//! batch and resumes from it. (The 20-game matches per variant are run by hand; the
//! command is in docs/tuning.md.)

use crate::common::{args, field, load_under, run, tune_vorpal, vorpal, Scratch, MATCH};
use std::io::Write;
use std::process::{Command, Stdio};
use vorpal_engine::{EnPassant, Rules, Variant};

fn engine(cmd: &str, name: &str) -> Vec<String> {
    vec![
        "--engine".into(),
        format!("cmd={cmd}"),
        format!("name={name}"),
        "option.Hash=4".into(),
    ]
}

/// `--variant`, `--chess960` and `--enpassant` arguments for `rules`.
fn rule_args(rules: Rules) -> String {
    let mut s = format!("--variant {}", rules.variant.name());
    if rules.chess960 {
        s += " --chess960";
    }
    if rules.en_passant != EnPassant::Off {
        s += &format!(" --enpassant {}", rules.en_passant.name());
    }
    s
}

#[test]
#[ignore = "full tier: a real match in each of the twelve rule sets (match_real plays the default one)"]
fn vorpal_plays_every_variant_under_the_arbiter() {
    let mut all: Vec<Rules> = Variant::ALL.iter().map(|&v| Rules::for_variant(v)).collect();
    all.push(Rules::default().with_chess960(true));
    all.push(Rules::for_variant(Variant::Duo).with_ep(EnPassant::Normal));
    all.push(Rules::default().with_ep(EnPassant::Double));
    for rules in all {
        let dir = Scratch::new(&format!("variant-{}", rules.variant.name()));
        let pgn = dir.arg("m.pgn");
        let out = run(&args(
            &[&engine(vorpal(), "a"), &engine(vorpal(), "b")],
            &format!(
                "{} --tc nodes=800 --games 2 --concurrency 2 --maxmoves 60 --pgn {pgn}",
                rule_args(rules)
            ),
        ));
        assert!(out.status.success(), "{rules:?}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        for label in ["Illegal moves:", "Crashes:", "Time losses:", "Stalls:"] {
            assert_eq!(field(&stdout, label, '('), "0", "{label} in {rules:?}");
        }
        let (games, _, lines) = load_under(&dir.path("m.pgn"), rules);
        assert_eq!((games.len(), lines.len()), (2, 2), "{rules:?}");
    }
    // An option the variant does not have is refused before any game.
    let refused = run(&args(
        &[&engine(vorpal(), "a"), &engine(vorpal(), "b")],
        "--variant minialice --chess960 --tc nodes=100 --games 2",
    ));
    assert_eq!(refused.status.code(), Some(2));
}

fn uci_options(cmd: &str) -> String {
    let mut child = Command::new(cmd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"uci\nquit\n").unwrap();
    String::from_utf8_lossy(&child.wait_with_output().unwrap().stdout).into_owned()
}

fn state_value(text: &str, key: &str) -> f64 {
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{key} ")))
        .unwrap_or_else(|| panic!("no {key} in {text}"))
        .trim()
        .parse()
        .unwrap()
}

#[test]
#[ignore = "full tier: needs a tune build (VORPAL_TUNE_BIN)"]
fn spsa_tunes_a_tune_build_and_resumes() {
    let tune = tune_vorpal();
    assert!(uci_options(&tune).contains("option name lmp_base type spin default 4 min 0 max 12"));
    assert!(
        !uci_options(vorpal()).contains("lmp_base"),
        "the default build lists no search parameters"
    );
    let dir = Scratch::new("spsa");
    let state = dir.arg("spsa.state");
    let spsa = |pairs: u32, extra: &str| {
        let mut a = vec!["spsa".to_string()];
        a.extend(engine(&tune, "tuned"));
        a.extend(
            format!(
                "--tc nodes=600 --maxmoves 50 --concurrency 2 --params lmp_base,rfp_margin --r-end 0.5 \
                 --pairs {pairs} --batch 1 --state {state} {extra}"
            )
            .split_whitespace()
            .map(String::from),
        );
        Command::new(MATCH).args(&a).output().unwrap()
    };
    let first = spsa(2, "");
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    let text = std::fs::read_to_string(&state).unwrap();
    assert_eq!(state_value(&text, "pairs_done"), 2.0);
    let lmp = state_value(&text, "lmp_base");
    assert!((0.0..=12.0).contains(&lmp));
    let stdout = String::from_utf8_lossy(&first.stdout);
    assert!(stdout.contains("lmp_base") && stdout.contains("rfp_margin"), "{stdout}");
    // The state is not overwritten without --resume; with it the run continues.
    assert_eq!(spsa(3, "").status.code(), Some(2));
    let resumed = spsa(3, "--resume");
    let err = String::from_utf8_lossy(&resumed.stderr);
    assert!(
        resumed.status.success() && err.contains("resuming after 2 game pairs"),
        "{err}"
    );
    assert!(err.contains("spsa 3/3 pairs") && !err.contains("spsa 1/3"), "{err}");
    assert_eq!(
        state_value(&std::fs::read_to_string(&state).unwrap(), "pairs_done"),
        3.0
    );
    // A build without the tune feature, unknown parameters and a second engine are refused.
    let mut plain = vec!["spsa".to_string()];
    plain.extend(engine(vorpal(), "plain"));
    plain.extend(["--tc", "nodes=100", "--pairs", "1", "--state", &dir.arg("p")].map(String::from));
    let refused = Command::new(MATCH).args(&plain).output().unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--features tune"));
    let mut bad = vec!["spsa".to_string()];
    bad.extend(engine(&tune, "tuned"));
    bad.extend(["--tc", "nodes=100", "--params", "nonsense", "--state", &dir.arg("x")].map(String::from));
    assert_eq!(Command::new(MATCH).args(&bad).output().unwrap().status.code(), Some(2));
}
