//! The page's JSON byte for byte: the answers to a scripted series of commands, views with
//! engine lines, a search and a tablebase verdict, and the three states of a game report,
//! compared with `testdata/answers.txt`, which was captured from the code that built this
//! JSON field by field with `serde_json`'s `json` macro (before the commands and views became
//! derived types). The file keeps each answer's status, length and FNV-1a hash, and the whole
//! text of two of them (a small position's answer and a view with engine lines) to show
//! the shapes. Two refusals of mistyped or missing fields (`goto` with `ply` -3, `comment`
//! without `text`) have the texts of the typed reader since then ("bad 'goto' command: ...");
//! every other answer is as it was, until the nodes of the view gained their `nags` (the move
//! marks) and the file was written again, and again when leaving an engine game for two people
//! or analysis named the players by their colours. Today's date in the PGN is masked.
//! `VORPAL_GOLDEN_OUT=FILE` writes the full transcript to FILE (to look at a difference);
//! `VORPAL_GOLDEN_WRITE=1` writes `testdata/answers.txt` anew after an intended change.

use crate::commands::page_command;
use crate::review::{ReviewReport, ReviewedMove, SideTotals};
use crate::session::{Search, Shared};
use crate::test_host::TestHost;
use serde_json::Value;
use std::sync::Arc;
use vorpal_engine::nnue::format::fnv1a;

/// The commands, one JSON body a line: moves, variations, comments, refusals, imports, modes,
/// Chess960, a promotion position, a mate and a restore.
const SCRIPT: &str = r#"{"cmd":"move","uci":"e2m4"}
{"cmd":"move","san":"d5"}
{"cmd":"goto","ply":1}
{"cmd":"move","uci":"g8n6"}
{"cmd":"comment","node":3,"text":"a \"note\" é"}
{"cmd":"promote","node":3}
{"cmd":"goto","node":99}
{"cmd":"goto","ply":-3}
{"cmd":"fly"}
{}
[1,2]
{"cmd":"move"}
{"cmd":"comment","node":1}
{"cmd":"delete","node":3}
{"cmd":"new","variant":"alice","chess960":true,"number":960}
{"cmd":"pgn","text":"[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 d5 {good} (1... e5) 1-0"}
{"cmd":"settings","mode":"play","color":"black","limit":"clock","base":60000,"inc":1000,"skill":5}
{"cmd":"showEngine","on":true}
{"cmd":"settings","mode":"watch","limit":"movetime","movetime":500}
{"cmd":"settings","mode":"fly"}
{"cmd":"settings","mode":"human","multipv":9}
{"cmd":"settings","mode":"human"}
{"cmd":"fen","fen":"4k3/P7/8/8/8/8/8/4K2R w K - 0 1"}
{"cmd":"fen","fen":"not a fen"}
{"cmd":"new","variant":"alice","chess960":true,"number":518,"enPassant":"off"}
{"cmd":"new","variant":"duo"}
{"cmd":"new","variant":"alice"}
{"cmd":"move","uci":"e2m4"}
{"cmd":"move","uci":"d7l5"}
{"cmd":"move","uci":"f1m2"}
{"cmd":"move","uci":"l5e4"}
{"cmd":"move","uci":"m2b5"}
{"cmd":"move","uci":"e8e7"}
{"cmd":"undo"}
{"cmd":"review"}
{"cmd":"stop"}
{"cmd":"restart"}
{"cmd":"restore","pgn":"1. e4 e5 2. Nf3 *","path":["e2m4","e7m5"],"settings":{"cmd":"settings","mode":"analysis","multipv":2},"showEngine":true}
{"cmd":"goto","node":0}"#;

/// The text as compared: today's date masked.
fn masked(text: &str) -> String {
    text.replace(&vorpal_client::pgn::today(), "????.??.??")
}

/// The refusal of `vorpal gui --max-engines 0`, which the file was captured with.
const NO_ENGINE: &str = "too many engines running (0 at most; `vorpal gui --max-engines N` allows \
                         more). Close another page of this GUI, then press Restart engine";

/// A session without engines (each start fails at once, the same way every time).
fn session() -> Arc<Shared> {
    Shared::new(Arc::new(Vec::new()), TestHost::refusing(NO_ENGINE))
}

/// The page's answer to `cmd`: its HTTP status and body.
fn command(shared: &Arc<Shared>, cmd: &Value) -> (u16, String) {
    let (done, body) = page_command(shared, cmd);
    (if done { 200 } else { 400 }, body)
}

/// The labels whose whole text the file keeps.
const SHOWN: [&str; 2] = [r#"{"cmd":"fen","fen":"4k3/P7/8/8/8/8/8/4K2R w K - 0 1"}"#, "analysis"];

fn view_line(out: &mut String, label: &str, shared: &Arc<Shared>) {
    let view = serde_json::to_string(&shared.lock().view()).unwrap();
    out.push_str(&format!("{label}\tview\t{}\n", masked(&view)));
}

/// The transcript as the file keeps it: label, status, length and hash of each answer, and
/// the whole text of the [`SHOWN`] ones.
fn summary(transcript: &str) -> String {
    let mut out = String::new();
    for line in transcript.lines() {
        let mut fields = line.splitn(3, '\t');
        let (label, status, body) = (fields.next().unwrap(), fields.next().unwrap(), fields.next().unwrap());
        out.push_str(&format!(
            "{label}\t{status}\t{}\t{:016x}\n",
            body.len(),
            fnv1a(body.as_bytes())
        ));
        if SHOWN.contains(&label) {
            out.push_str(&format!("{body}\n"));
        }
    }
    out
}

/// Every answer of the script, then views that only the engines or a review produce.
fn transcript() -> String {
    let mut out = String::new();
    let shared = session();
    view_line(&mut out, "start", &shared);
    for line in SCRIPT.lines() {
        let cmd: Value = serde_json::from_str(line).unwrap();
        let (status, body) = command(&shared, &cmd);
        out.push_str(&format!("{line}\t{status}\t{}\n", masked(&body)));
    }
    shared.close();

    // Analysis of a small position: the engine's lines, its search and a tablebase verdict.
    let shared = session();
    for cmd in [
        r#"{"cmd":"settings","mode":"analysis","multipv":2}"#,
        r#"{"cmd":"fen","fen":"4k3/8/8/8/8/8/8/4K2R w K - 0 1"}"#,
    ] {
        command(&shared, &serde_json::from_str(cmd).unwrap());
    }
    shared.update(|s, _| {
        let pos = *s.shown();
        s.analysis.read(
            pos,
            "info depth 12 seldepth 20 multipv 1 score mate 7 nodes 9999 nps 5000 pv h1h8 e8d7 h8a8",
        );
        s.analysis
            .read(pos, "info depth 11 multipv 2 score cp -35 pv e1f2 e8d7 x9x9");
        s.analysis.read(pos, "info string tablebase: mate in 7");
        s.search = Some(Search {
            id: 4,
            slot: 0,
            position: pos,
            analysis: true,
        });
        s.engine[0].ready = true;
        s.engine[0].name = "Test \"engine\"".into();
        s.engine[0].options = vec!["MultiPV".into(), "Skill Level".into()];
    });
    view_line(&mut out, "analysis", &shared);
    shared.update(|s, _| {
        s.search.as_mut().unwrap().analysis = false;
        s.search.as_mut().unwrap().position = *s.tree.start();
    });
    view_line(&mut out, "thinking", &shared);
    shared.close();

    // The game report: running, failed and done.
    let shared = session();
    command(
        &shared,
        &serde_json::from_str(r#"{"cmd":"pgn","text":"[White \"A\"]\n\n1. e4 d5 *"}"#).unwrap(),
    );
    for (label, outcome) in [
        ("review running", None),
        (
            "review failed",
            Some(Err("the review failed at ply 2: gone".to_string())),
        ),
        (
            "review done",
            Some(Ok(report("[Event \"?\"]\n\n1. e4 d5 *\n".to_string()))),
        ),
    ] {
        shared.update(|s, _| {
            let done = if outcome.is_some() { 3 } else { 1 };
            s.put_review(s.settled_review(done, 3, 100_000, outcome));
        });
        view_line(&mut out, label, &shared);
    }
    shared.close();
    out
}

/// A hand-made report of the session's two moves (`1. e4 d5`): a good move, then a blunder
/// into mate. `vorpal gui`'s own review makes the same report of the same analysis (its test
/// `a_hand_made_review_gives_the_golden_report`).
pub fn report(pgn: String) -> ReviewReport {
    ReviewReport {
        moves: vec![
            ReviewedMove {
                best: Some("d4".into()),
                cp: 20,
                eval: "0.20".into(),
                judgement: None,
                line: Some("1. d4".into()),
                loss: 0.012,
                mark: None,
                mate: false,
                node: 0,
                ply: 1,
                san: "e4".into(),
            },
            ReviewedMove {
                best: None,
                cp: 1000,
                eval: "#2".into(),
                judgement: Some("blunder"),
                line: None,
                loss: 0.457,
                mark: Some("??"),
                mate: true,
                node: 0,
                ply: 2,
                san: "d5".into(),
            },
        ],
        start_cp: 12,
        sides: [
            SideTotals {
                accuracy: Some(97.3),
                acpl: Some(4),
                blunders: 0,
                inaccuracies: 0,
                mistakes: 0,
            },
            SideTotals {
                accuracy: Some(11.0),
                acpl: Some(1012),
                blunders: 1,
                inaccuracies: 0,
                mistakes: 0,
            },
        ],
        pgn,
    }
}

#[test]
fn the_page_gets_the_same_json_as_before() {
    let full = transcript();
    if let Some(path) = std::env::var_os("VORPAL_GOLDEN_OUT") {
        std::fs::write(path, &full).unwrap();
    }
    let actual = summary(&full);
    if std::env::var_os("VORPAL_GOLDEN_WRITE").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/testdata/answers.txt");
        std::fs::write(path, &actual).unwrap();
        return;
    }
    let expected = include_str!("testdata/answers.txt");
    for (i, (a, e)) in actual.lines().zip(expected.lines()).enumerate() {
        assert_eq!(a, e, "line {} differs", i + 1);
    }
    assert_eq!(actual.lines().count(), expected.lines().count());
}
