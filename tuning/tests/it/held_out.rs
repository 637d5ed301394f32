//! The held-out measure of a network through the binaries: `vorpal-datagen relabel` gives a
//! generated set deeper labels, `vorpal-nnue compare` scores networks and the hand-crafted
//! evaluation on it; usage errors exit with status 2, failed runs with status 1.

use crate::common::datagen::{quick, records, scratch};
use std::process::{Command, Output};
use vorpal_engine::nnue::NetFile;
use vorpal_tuning::datagen::packed::PackedRecord;
use vorpal_tuning::datagen::{self, OutputFormat};

const DATAGEN: &str = env!("CARGO_BIN_EXE_vorpal-datagen");
const NNUE: &str = env!("CARGO_BIN_EXE_vorpal-nnue");

fn run(bin: &str, args: &[&str]) -> Output {
    Command::new(bin).args(args).output().unwrap()
}

#[test]
fn relabel_then_compare() {
    let dir = scratch("held-out");
    let mut cfg = quick(&dir.join("held"), 2);
    cfg.format = OutputFormat::Packed;
    datagen::run(&cfg).unwrap();
    let held = cfg.packed_path();
    let deep = dir.join("deep.bin");
    let (held_s, deep_s) = (held.to_str().unwrap(), deep.to_str().unwrap());

    let out = run(
        DATAGEN,
        &["relabel", held_s, deep_s, "--nodes", "2000", "--threads", "2"],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text} {}", String::from_utf8_lossy(&out.stderr));
    let (before, after) = (records(&held), records(&deep));
    assert!(
        text.contains(&format!("relabelled {} of {}", after.len(), before.len())),
        "{text}"
    );
    assert!(after.len() + 2 >= before.len() && !after.is_empty());
    // Positions and results kept, in order; the scores are the new searches'.
    let fen_and_result = |r: &PackedRecord| {
        let (pos, _, result) = r.decode().unwrap();
        (pos.to_fen(), result)
    };
    let kept: Vec<_> = before.iter().map(fen_and_result).collect();
    let mut at = 0;
    for r in &after {
        let item = fen_and_result(r);
        at += kept[at..]
            .iter()
            .position(|k| *k == item)
            .expect("in the input's order")
            + 1;
    }
    // The output exists: refused (status 1); no limits or no input: usage (status 2).
    assert_eq!(
        run(DATAGEN, &["relabel", held_s, deep_s, "--depth", "2"]).status.code(),
        Some(1)
    );
    assert_eq!(run(DATAGEN, &["relabel", held_s, "x.bin"]).status.code(), Some(2));
    assert_eq!(run(DATAGEN, &["relabel", held_s]).status.code(), Some(2));

    // The built-in network beside net 1's file (format version 1, 128 hidden neurons), each
    // on its own labelled line, whatever the built-in network's hidden size.
    let net1 = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/data/nets/net1.nnue");
    let out = run(NNUE, &["compare", "--data", deep_s, "--net", "builtin", "--net", net1]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text} {}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains(&format!("{} positions, K = ", after.len())), "{text}");
    for line in [
        "floor",
        "hand-crafted evaluation",
        "  builtin ",
        "/engine/data/nets/net1.nnue ",
    ] {
        assert!(text.contains(line), "{line}: {text}");
    }
    let old = NetFile::from_bytes(&std::fs::read(net1).unwrap()).unwrap();
    assert_eq!((old.hidden, old.qb), (128, 64), "net 1's file as it was made");
    let bad = dir.join("bad.nnue");
    std::fs::write(&bad, b"VORPALNN but not a network").unwrap();
    let out = run(NNUE, &["compare", "--data", deep_s, "--net", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.nnue"));
    assert_eq!(run(NNUE, &["compare", "--net", "builtin"]).status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}
