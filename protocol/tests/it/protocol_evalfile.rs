//! `EvalFile` and `UseNNUE` over real pipes: a missing, truncated, damaged or foreign file gets
//! `info string error ...` with the reason and the current network stays (the engine keeps
//! searching); a valid file is used; `<embedded>` brings the built-in network back; `UseNNUE
//! false` switches the search to the hand-crafted evaluation.

use crate::support::harness::{assert_legal, game_of, Engine, SOON};
use std::path::PathBuf;
use vorpal_engine::nnue::{NetFile, EMBEDDED_NET, HIDDEN, INPUTS};

/// A scratch directory for this test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vorpal-evalfile-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A valid network of `hidden` neurons that is not the built-in one.
fn net_of(hidden: usize) -> NetFile {
    NetFile {
        hidden,
        qa: 255,
        qb: 64,
        scale: 400,
        text: "protocol test network".into(),
        ft_weights: (0..INPUTS * hidden).map(|i| ((i * 7919) % 61) as i16 - 30).collect(),
        ft_bias: vec![40; hidden],
        out_weights: (0..2 * hidden).map(|i| ((i * 31) % 41) as i16 - 20).collect(),
        out_bias: 0,
    }
}

/// A valid network of the engine's hidden size that is not the built-in one.
fn small_net() -> NetFile {
    net_of(HIDDEN)
}

/// The `eval` output of the engine.
fn eval_lines(engine: &mut Engine) -> Vec<String> {
    engine.send("eval");
    engine.until_prefix("The search uses")
}

fn plays_a_legal_move(engine: &mut Engine) {
    engine.send("position startpos moves e2e4");
    engine.send("go depth 4");
    let (_, mv) = engine.bestmove(SOON);
    assert_legal(&game_of("position startpos moves e2e4"), &mv);
}

#[test]
fn bad_network_files_are_refused_and_the_current_network_stays() {
    let dir = scratch("bad");
    let good = small_net().to_bytes();
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("empty.nnue", Vec::new(), "not a Vorpal network file"),
        (
            "text.nnue",
            b"this is not a network\n".to_vec(),
            "not a Vorpal network file",
        ),
        ("truncated.nnue", good[..good.len() / 2].to_vec(), "truncated"),
        (
            "damaged.nnue",
            {
                let mut b = good.clone();
                b[5000] ^= 0x40;
                b
            },
            "checksum",
        ),
        (
            "version.nnue",
            {
                let mut b = good.clone();
                b[8] = 99;
                b
            },
            "version 99",
        ),
        (
            "hidden.nnue",
            net_of(2 * HIDDEN).to_bytes(),
            "hidden size 256, this build's network has 128",
        ),
        (
            "longer.nnue",
            {
                let mut b = good.clone();
                b.extend_from_slice(b"xx");
                b
            },
            "unexpected bytes",
        ),
    ];
    let mut engine = Engine::start();
    for (name, bytes, reason) in &cases {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        engine.send(&format!("setoption name EvalFile value {}", path.display()));
        let lines = engine.sync();
        let error = lines
            .iter()
            .find(|l| l.starts_with("info string error"))
            .unwrap_or_else(|| panic!("{name}: no error in {lines:?}"));
        assert!(error.contains(reason), "{name}: '{error}' does not say '{reason}'");
        assert!(error.contains("the current network stays"), "{error}");
        let eval = eval_lines(&mut engine);
        assert!(
            eval.iter().any(|l| l.contains("EvalFile <embedded>")),
            "{name}: {eval:?}"
        );
    }
    engine.send(&format!(
        "setoption name EvalFile value {}",
        dir.join("missing.nnue").display()
    ));
    let lines = engine.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error") && l.contains("cannot read")),
        "{lines:?}"
    );
    plays_a_legal_move(&mut engine);
    engine.finish();
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_valid_network_file_is_used_and_embedded_brings_the_default_back() {
    let dir = scratch("good");
    let path = dir.join("small net.nnue");
    std::fs::write(&path, small_net().to_bytes()).unwrap();
    let mut engine = Engine::start();
    let before = eval_lines(&mut engine);
    engine.send(&format!("setoption name EvalFile value {}", path.display()));
    let loaded = eval_lines(&mut engine);
    assert!(loaded.iter().all(|l| !l.starts_with("info string error")), "{loaded:?}");
    let nnue = loaded
        .iter()
        .find(|l| l.starts_with("NNUE evaluation"))
        .expect("NNUE line");
    assert!(
        nnue.contains(&format!("EvalFile {}", path.display())) && nnue.contains(&format!("{HIDDEN} hidden")),
        "{nnue}"
    );
    assert!(
        loaded.iter().any(|l| l == "The search uses : the network"),
        "{loaded:?}"
    );
    plays_a_legal_move(&mut engine);
    engine.send("setoption name EvalFile value <embedded>");
    engine.send("position startpos");
    let after = eval_lines(&mut engine);
    assert_eq!(before, after);
    engine.finish();
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn use_nnue_false_searches_with_the_hand_crafted_evaluation() {
    let mut engine = Engine::start();
    engine.send("setoption name UseNNUE value false");
    let lines = eval_lines(&mut engine);
    assert!(
        lines
            .iter()
            .any(|l| l == "The search uses : the hand-crafted evaluation (UseNNUE false)"),
        "{lines:?}"
    );
    plays_a_legal_move(&mut engine);
    engine.send("setoption name UseNNUE value true");
    engine.send("setoption name UCI_Variant value alice3");
    let lines = eval_lines(&mut engine);
    assert!(lines.iter().any(|l| l.contains("no network for alice3")), "{lines:?}");
    engine.send("setoption name UseNNUE value maybe");
    let lines = engine.sync();
    assert!(lines.iter().any(|l| l.starts_with("info string error")), "{lines:?}");
    engine.finish();
}

#[test]
fn the_embedded_network_is_the_data_file() {
    let file = NetFile::from_bytes(EMBEDDED_NET).expect("embedded network loads");
    let on_disk = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/data/vorpal.nnue")).unwrap();
    assert_eq!(on_disk, EMBEDDED_NET);
    assert!(file.hidden >= 16 && !file.text.is_empty(), "{file:?}");
}
