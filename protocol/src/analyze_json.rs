//! The records of `vorpal analyze --json`, one JSON object per line: `position` first, then
//! `info` for every finished line of an iteration (and `tablebase` when the tables answer),
//! and `bestmove` at the end; `end` instead of a search when the position has no legal move.

use crate::format::{pv_san, pv_uci};
use crate::json::Object;
use vorpal_engine::search::{Bound, Score, SearchInfo};
use vorpal_engine::{EndReason, GameResult, Move, Position};

/// The first record: the position searched and how many legal moves it has.
pub fn position(pos: &Position) -> String {
    Object::new()
        .str("type", "position")
        .str("fen", &pos.to_fen())
        .num("legal_moves", pos.legal_moves().len() as i64)
        .finish()
}

/// The record of a position without a legal move: the game's result and why.
pub fn end(result: GameResult, reason: EndReason) -> String {
    Object::new()
        .str("type", "end")
        .str("result", result.pgn())
        .str("reason", reason.text())
        .finish()
}

/// The record of a tablebase verdict (`tablebase: mate in 4`).
pub fn tablebase(text: &str) -> String {
    Object::new().str("type", "tablebase").str("text", text).finish()
}

/// The last record: the best move (and the expected reply, when it is legal), with the score,
/// depth and nodes of the search.
pub fn bestmove(pos: &Position, best: Move, ponder: Option<Move>, score: Score, depth: u32, nodes: u64) -> String {
    let mut o = Object::new()
        .str("type", "bestmove")
        .str("bestmove", &pos.move_to_uci(best))
        .str("san", &pos.move_to_san(best));
    if let Some(p) = ponder {
        o = o.str("ponder", &pos.after(best).move_to_uci(p));
    }
    o.object("score", json_score(score))
        .num("depth", depth)
        .num("nodes", nodes)
        .finish()
}

/// `{"cp":31}` or `{"mate":-3}`.
fn json_score(score: Score) -> Object {
    match score {
        Score::Cp(cp) => Object::new().num("cp", cp),
        Score::Mate(n) => Object::new().num("mate", n),
    }
}

/// The record of one line of an iteration, its variation in UCI and in SAN.
pub fn info(info: &SearchInfo, pos: &Position) -> String {
    let bound = match info.bound {
        Bound::Exact => "exact",
        Bound::Lower => "lower",
        Bound::Upper => "upper",
    };
    let (w, d, l) = info.wdl;
    Object::new()
        .str("type", "info")
        .num("depth", info.depth)
        .num("seldepth", info.seldepth)
        .num("multipv", info.multipv)
        .object("score", json_score(info.score))
        .str("bound", bound)
        .value("wdl", vec![w, d, l])
        .num("nodes", info.nodes)
        .num("nps", info.nps)
        .num("hashfull", info.hashfull)
        .num("time_ms", info.time_ms)
        .strs("pv", &pv_uci(pos, &info.pv))
        .strs("pv_san", &pv_san(pos, &info.pv))
        .finish()
}

#[cfg(test)]
mod tests {
    //! The records byte for byte as `vorpal analyze --json` printed them before its JSON
    //! became derived types (captured from that code, which built each object field by field).
    use super::*;
    use vorpal_engine::{Color, Rules, Variant};

    fn moves(pos: &Position, ucis: &[&str]) -> Vec<Move> {
        let mut p = *pos;
        ucis.iter()
            .map(|u| {
                let mv = p.parse_uci(u).unwrap();
                p = p.after(mv);
                mv
            })
            .collect()
    }

    #[test]
    fn position_and_end_records_are_unchanged() {
        let start = Position::startpos();
        assert_eq!(
            position(&start),
            r#"{"type":"position","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","legal_moves":20}"#
        );
        let mut mated = start;
        for mv in moves(&start, &["e2m4", "d7l5", "f1m2", "l5e4", "m2b5"]) {
            mated = mated.after(mv);
        }
        assert_eq!(
            position(&mated),
            r#"{"type":"position","fen":"rnbqkbnr/ppp1pppp/8/1B6/4p3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3","legal_moves":0}"#
        );
        let duo = Position::start(Rules::for_variant(Variant::Duo));
        assert_eq!(
            position(&duo),
            format!(
                r#"{{"type":"position","fen":"{}","legal_moves":{}}}"#,
                duo.to_fen(),
                duo.count_legal()
            )
        );
        assert_eq!(
            end(GameResult::win_for(Color::White), EndReason::Checkmate),
            r#"{"type":"end","result":"1-0","reason":"checkmate"}"#
        );
        assert_eq!(
            end(GameResult::Draw, EndReason::Stalemate),
            r#"{"type":"end","result":"1/2-1/2","reason":"stalemate"}"#
        );
        assert_eq!(
            tablebase("tablebase: mate in 6"),
            r#"{"type":"tablebase","text":"tablebase: mate in 6"}"#
        );
        assert_eq!(
            tablebase("a \"quoted\" \\ é \u{1} text"),
            r#"{"type":"tablebase","text":"a \"quoted\" \\ é \u0001 text"}"#
        );
    }

    #[test]
    fn info_and_bestmove_records_are_unchanged() {
        let start = Position::startpos();
        let pv = moves(&start, &["e2m4", "d7l5", "f1m2"]);
        let line = SearchInfo {
            depth: 7,
            seldepth: 12,
            multipv: 1,
            score: Score::Cp(31),
            bound: Bound::Exact,
            wdl: (104, 880, 16),
            nodes: 123_456,
            nps: 987_654,
            hashfull: 3,
            time_ms: 125,
            pv: pv.clone(),
        };
        assert_eq!(
            info(&line, &start),
            r#"{"type":"info","depth":7,"seldepth":12,"multipv":1,"score":{"cp":31},"bound":"exact","wdl":[104,880,16],"nodes":123456,"nps":987654,"hashfull":3,"time_ms":125,"pv":["e2e4","d7d5","f1e2"],"pv_san":["e4","d5","Be2"]}"#
        );
        let lower = SearchInfo {
            multipv: 2,
            score: Score::Mate(-3),
            bound: Bound::Lower,
            nodes: u64::MAX,
            pv: Vec::new(),
            ..line.clone()
        };
        assert_eq!(
            info(&lower, &start),
            r#"{"type":"info","depth":7,"seldepth":12,"multipv":2,"score":{"mate":-3},"bound":"lower","wdl":[104,880,16],"nodes":18446744073709551615,"nps":987654,"hashfull":3,"time_ms":125,"pv":[],"pv_san":[]}"#
        );
        let upper = SearchInfo {
            score: Score::Cp(-2),
            bound: Bound::Upper,
            ..line
        };
        assert!(info(&upper, &start).contains(r#""score":{"cp":-2},"bound":"upper""#));
        assert_eq!(
            bestmove(&start, pv[0], Some(pv[1]), Score::Cp(31), 7, 123_456),
            r#"{"type":"bestmove","bestmove":"e2e4","san":"e4","ponder":"d7d5","score":{"cp":31},"depth":7,"nodes":123456}"#
        );
        assert_eq!(
            bestmove(&start, pv[0], None, Score::Mate(5), 1, 0),
            r#"{"type":"bestmove","bestmove":"e2e4","san":"e4","score":{"mate":5},"depth":1,"nodes":0}"#
        );
    }
}
