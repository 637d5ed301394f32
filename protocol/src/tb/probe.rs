//! `vorpal tb probe`: a position's value from the tables and every legal move's.

use super::args::ProbeArgs;
use crate::status;
use crate::uci::output::{to_stderr, to_stdout};
use serde_json::{json, Value};
use vorpal_engine::tablebase::{within_fifty_move_clock, Probe, Tablebases, Wdl, MAX_MEN};
use vorpal_engine::{Position, Rules};

/// "win, mate in 3", "loss, mated in 2", "loss, mated", "draw".
pub(crate) fn describe(p: Probe) -> String {
    match (p.wdl, p.dtm()) {
        (Wdl::Win, Some(n)) => format!(
            "win, mate in {n}{}",
            if p.fifty_move_risk() {
                " (beyond the fifty-move rule)"
            } else {
                ""
            }
        ),
        (Wdl::Loss, Some(0)) => "loss, checkmated".into(),
        (Wdl::Loss, Some(n)) => format!("loss, mated in {n}"),
        _ => "draw".into(),
    }
}

fn value_json(p: Probe) -> Value {
    let mut o = json!({"wdl": p.wdl.name()});
    if let Some(n) = p.dtm() {
        o["dtm"] = json!(n);
    }
    if p.fifty_move_risk() {
        o["fifty_move_risk"] = json!(true);
    }
    o
}

/// Runs `vorpal tb probe`.
pub fn run(args: ProbeArgs) -> i32 {
    let (dir, fen, as_json) = (args.dir, args.fen.join(" "), args.json);
    let fail = |e: String| {
        if as_json {
            to_stdout(&format!("{}\n", json!({"error": e})));
        } else {
            to_stderr(&format!("error: {e}\n"));
        }
        status::ERROR_LINE
    };
    let pos = match Position::from_fen(&fen, Rules::default()) {
        Ok(p) => p,
        Err(e) => return fail(format!("bad FEN: {e}")),
    };
    let tables = match Tablebases::open(&dir) {
        Ok(t) => t,
        Err(e) => return fail(e.to_string()),
    };
    let Some(material) = Tablebases::material_of(&pos) else {
        return fail(format!(
            "the position has {} men; the tables hold up to {MAX_MEN}",
            pos.piece_count()
        ));
    };
    let (root, moves) = match (tables.probe(&pos), tables.probe_moves(&pos)) {
        (Ok(Some(root)), Ok(Some(moves))) => (root, moves),
        (Err(e), _) | (_, Err(e)) => return fail(e.to_string()),
        _ => {
            return fail(format!(
                "no table for {material} (or for a position it leads to) in {}",
                dir.display()
            ))
        }
    };
    // The distance to the next capture or pawn move, where the material has that file.
    let dtz = match tables.probe_dtz(&pos) {
        Ok(z) => z,
        Err(e) => return fail(e.to_string()),
    };
    let stands = |z: u32| within_fifty_move_clock(z, pos.halfmove_clock());
    if as_json {
        let mut o = value_json(root);
        o["material"] = json!(material.to_string());
        if let Some(z) = dtz {
            o["dtz"] = json!(z);
            o["fifty_move_win_stands"] = json!(root.wdl == Wdl::Win && stands(z));
        }
        o["moves"] = moves
            .iter()
            .map(|m| {
                let mut v = value_json(m.result);
                v["uci"] = json!(pos.move_to_uci(m.mv));
                v["san"] = json!(pos.move_to_san(m.mv));
                v
            })
            .collect();
        to_stdout(&format!("{o}\n"));
    } else {
        let side = if pos.side_to_move() == vorpal_engine::Color::White {
            "White"
        } else {
            "Black"
        };
        let mut text = format!("{material}, {side} to move: {}\n", describe(root));
        if let Some(z) = dtz {
            let verdict = match (root.wdl, stands(z)) {
                (Wdl::Win, true) => "the win stands under the fifty-move rule",
                (Wdl::Win, false) => "the fifty-move rule makes it a draw",
                (_, true) => "the loss stands under the fifty-move rule",
                (_, false) => "the fifty-move rule saves the draw",
            };
            text.push_str(&format!(
                "  next capture, pawn move or mate within {z} plies: {verdict}\n"
            ));
        }
        for m in &moves {
            text.push_str(&format!("  {:<10} {}\n", pos.move_to_san(m.mv), describe(m.result)));
        }
        to_stdout(&text);
    }
    status::SUCCESS
}
