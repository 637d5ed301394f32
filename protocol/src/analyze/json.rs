//! The records of `vorpal analyze --json`, one JSON object per line: `position` first, then
//! `info` for every finished line of an iteration (and `tablebase` when the tables answer),
//! and `bestmove` at the end; `end` instead of a search when the position has no legal move.
//! Each record is a variant of [`Record`], whose fields are written in their declared order
//! after the `type` tag.

use serde::Serialize;
use vorpal_engine::search::{Bound, Score, SearchInfo};
use vorpal_engine::{EndReason, GameResult, Move, Position};
use vorpal_uci_text::format::{pv_san, pv_uci};

/// A score as the JSON lines write it: `{"cp":31}` or `{"mate":-3}` (`annotate --json` writes
/// its evaluations in this form too).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ScoreJson {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: the side it is seen from is mated).
    Mate(i32),
}

impl From<Score> for ScoreJson {
    fn from(score: Score) -> ScoreJson {
        match score {
            Score::Cp(cp) => ScoreJson::Cp(cp),
            Score::Mate(n) => ScoreJson::Mate(n),
        }
    }
}

/// One line of `analyze --json`, tagged by its `type`.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Record<'a> {
    /// The position searched.
    Position { fen: String, legal_moves: usize },
    /// A position without a legal move: the result and why.
    End { result: &'static str, reason: &'static str },
    /// One line of an iteration; the score from the side to move's view.
    Info {
        depth: u32,
        seldepth: u32,
        multipv: u32,
        score: ScoreJson,
        bound: &'static str,
        wdl: [u32; 3],
        nodes: u64,
        nps: u64,
        hashfull: u32,
        time_ms: u64,
        pv: Vec<String>,
        pv_san: Vec<String>,
    },
    /// A tablebase verdict.
    Tablebase { text: &'a str },
    /// The search's answer.
    Bestmove {
        bestmove: String,
        san: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        ponder: Option<String>,
        score: ScoreJson,
        depth: u32,
        nodes: u64,
    },
}

/// The JSON text of a derived record (no map with other than text keys, so it always
/// serializes).
pub fn json_line<T: Serialize>(record: &T) -> String {
    serde_json::to_string(record).expect("a derived record of texts and numbers always serializes")
}

/// The first record: the position searched and how many legal moves it has.
pub fn position(pos: &Position) -> String {
    json_line(&Record::Position {
        fen: pos.to_fen(),
        legal_moves: pos.legal_moves().len(),
    })
}

/// The record of a position without a legal move: the game's result and why.
pub fn end(result: GameResult, reason: EndReason) -> String {
    json_line(&Record::End {
        result: result.pgn(),
        reason: reason.text(),
    })
}

/// The record of a tablebase verdict (`tablebase: mate in 4`).
pub fn tablebase(text: &str) -> String {
    json_line(&Record::Tablebase { text })
}

/// The last record: the best move (and the expected reply, when it is legal), with the score,
/// depth and nodes of the search.
pub fn bestmove(pos: &Position, best: Move, ponder: Option<Move>, score: Score, depth: u32, nodes: u64) -> String {
    json_line(&Record::Bestmove {
        bestmove: pos.move_to_uci(best),
        san: pos.move_to_san(best),
        ponder: ponder.map(|p| pos.after(best).move_to_uci(p)),
        score: score.into(),
        depth,
        nodes,
    })
}

/// The record of one line of an iteration, its variation in UCI and in SAN.
pub fn info(info: &SearchInfo, pos: &Position) -> String {
    let bound = match info.bound {
        Bound::Exact => "exact",
        Bound::Lower => "lower",
        Bound::Upper => "upper",
    };
    let (w, d, l) = info.wdl;
    json_line(&Record::Info {
        depth: info.depth,
        seldepth: info.seldepth,
        multipv: info.multipv,
        score: info.score.into(),
        bound,
        wdl: [w, d, l],
        nodes: info.nodes,
        nps: info.nps,
        hashfull: info.hashfull,
        time_ms: info.time_ms,
        pv: pv_uci(pos, &info.pv),
        pv_san: pv_san(pos, &info.pv),
    })
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
