//! The two forms of a review: annotated PGN (the original tags and comments, then after every
//! move `{ [%eval 0.32] }`, a mark `?!`/`?`/`??` on the judged moves and the engine's line as a
//! variation for mistakes and blunders, the totals as tags and a closing comment) and JSON
//! lines (one object per move, one summary per game).

use super::games::InputGame;
use super::judge::{Judgement, SideSummary};
use super::review::{GameReview, MoveReview};
use crate::analyze::json::{json_line, ScoreJson};
use serde::Serialize;
use vorpal_client::pgn::PgnGame;
use vorpal_engine::search::Score;
use vorpal_engine::Color;
use vorpal_uci_text::format::{pv_numbered, pv_uci};

/// A score from White's view as PGN's `[%eval]` value: pawns with two decimals (`0.32`,
/// `-1.05`), or `#3` / `#-3` for a mate (negative: Black mates), `#0` for the mated side.
pub fn eval_text(white: Score) -> String {
    match white {
        Score::Cp(cp) => {
            let sign = if cp < 0 { "-" } else { "" };
            format!("{sign}{}.{:02}", cp.abs() / 100, cp.abs() % 100)
        }
        Score::Mate(n) => format!("#{n}"),
    }
}

/// The tags a review adds: accuracy and average centipawn loss per side, and the annotator.
pub fn review_tags(review: &GameReview, annotator: &str) -> Vec<(String, String)> {
    let mut tags = vec![("Annotator".to_string(), annotator.to_string())];
    for (side, name) in [(Color::White, "White"), (Color::Black, "Black")] {
        let s = &review.sides[side as usize];
        if let (Some(acc), Some(acpl)) = (s.accuracy(), s.acpl()) {
            tags.push((format!("{name}Accuracy"), format!("{acc:.1}")));
            tags.push((format!("{name}ACPL"), acpl.to_string()));
        }
    }
    tags
}

/// One side's totals in words: `accuracy 91.2%, average centipawn loss 23, 1 inaccuracy,
/// 0 mistakes, 1 blunder`.
fn side_text(s: &SideSummary) -> String {
    let (Some(acc), Some(acpl)) = (s.accuracy(), s.acpl()) else {
        return "no moves".into();
    };
    let counts: Vec<String> = Judgement::ALL
        .iter()
        .map(|&j| {
            let n = s.count(j);
            format!("{n} {}{}", j.name(), if n == 1 { "" } else { "s" })
        })
        .collect();
    let counts = counts.join(", ").replace("inaccuracys", "inaccuracies");
    format!("accuracy {acc:.1}%, average centipawn loss {acpl}, {counts}")
}

/// The closing comment: who reviewed, with what limit, and both sides' totals.
pub fn summary_text(review: &GameReview, about: &str) -> String {
    format!(
        "{about}. White: {}. Black: {}.",
        side_text(&review.sides[0]),
        side_text(&review.sides[1])
    )
}

/// A comment's text without earlier `[%eval ...]` commands (a game reviewed again).
fn without_evals(comment: &str) -> String {
    let mut out = String::new();
    let mut rest = comment;
    while let Some(at) = rest.find("[%eval") {
        out += &rest[..at];
        rest = rest[at..].find(']').map_or("", |end| &rest[at + end + 1..]);
    }
    out += rest;
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Braces for a comment (a closing brace inside becomes a parenthesis).
fn braced(text: &str) -> String {
    format!("{{ {} }}", text.replace('}', ")"))
}

/// What the review says after a move: its evaluation, and for a marked move the judgement
/// and the engine's move.
fn move_comment(m: &MoveReview) -> String {
    let mut text = format!("[%eval {}]", eval_text(m.white_eval()));
    if let (Some(j), Some(best)) = (m.verdict.judgement, m.best) {
        text += &format!(" {}. {} was best.", j.title(), m.before.move_to_san(best));
    }
    text
}

/// The annotated PGN of a reviewed game (ending with an empty line). `annotator` names the
/// engine for the `Annotator` tag; `about` opens the closing comment.
pub fn annotated_pgn(game: &InputGame, review: &GameReview, annotator: &str, about: &str) -> String {
    let mut pgn: PgnGame = game.pgn.clone();
    for (k, v) in review_tags(review, annotator) {
        pgn.set_tag(&k, v);
    }
    let mut out = String::new();
    let quote = |v: &str| v.replace('\\', "\\\\").replace('"', "\\\"");
    for (k, v) in &pgn.tags {
        out += &format!("[{k} \"{}\"]\n", quote(v));
    }
    out.push('\n');
    let mut tokens: Vec<String> = Vec::new();
    if let Some(c) = pgn.pre_comment.as_deref().map(without_evals).filter(|c| !c.is_empty()) {
        tokens.push(braced(&c));
    }
    // Every move is followed by a comment, so Black's moves carry their number too (`1... e5`).
    for (m, original) in review.moves.iter().zip(&pgn.moves) {
        let number = m.before.fullmove_number();
        match m.mover() {
            Color::White => tokens.push(format!("{number}.")),
            Color::Black => tokens.push(format!("{number}...")),
        }
        let mark = m.verdict.judgement.map_or("", Judgement::suffix);
        tokens.push(format!("{}{mark}", m.san()));
        if let Some(c) = original.comment.as_deref().map(without_evals).filter(|c| !c.is_empty()) {
            tokens.push(braced(&c));
        }
        tokens.push(braced(&move_comment(m)));
        let shows_line = matches!(m.verdict.judgement, Some(Judgement::Mistake | Judgement::Blunder));
        if shows_line && !m.line.is_empty() {
            tokens.push(format!("({})", pv_numbered(&m.before, &m.line)));
        }
    }
    if let Some(c) = pgn.final_comment.as_deref().filter(|c| !c.is_empty()) {
        tokens.push(braced(c));
    }
    tokens.push(braced(&summary_text(review, about)));
    tokens.push(pgn.result.clone().unwrap_or_else(|| "*".into()));
    out += &wrap(&tokens, 80);
    out += "\n\n";
    out
}

/// Tokens joined by spaces into lines of at most `width` characters where possible. A long
/// comment is split between its words, but `{ [%eval 0.32]` stays whole, so that no line
/// starts with `[` (a tag to simple readers) and the command is never cut.
fn wrap(tokens: &[String], width: usize) -> String {
    let mut units: Vec<String> = Vec::new();
    for word in tokens.iter().flat_map(|t| t.split(' ')) {
        let joins = match units.last() {
            Some(last) if last == "{" => word.starts_with("[%"),
            Some(last) => last.contains("[%") && !last.ends_with(']'),
            None => false,
        };
        match units.last_mut() {
            Some(last) if joins => {
                last.push(' ');
                last.push_str(word);
            }
            _ => units.push(word.to_string()),
        }
    }
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for unit in units {
        if !line.is_empty() && line.len() + 1 + unit.len() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line += &unit;
    }
    lines.push(line);
    lines.join("\n")
}

/// One line of `annotate --json`, tagged by its `type`; evaluations from White's view, as
/// `analyze --json` writes a score.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Record<'a> {
    /// One reviewed move.
    Move {
        game: usize,
        ply: usize,
        san: String,
        uci: String,
        eval: ScoreJson,
        best: Option<String>,
        loss: f64,
        judgement: Option<&'static str>,
        line: Vec<String>,
    },
    /// The summary of a reviewed game.
    Summary {
        game: usize,
        white: SideJson,
        black: SideJson,
        start_eval: ScoreJson,
        nodes: u64,
    },
    /// A game that could not be reviewed.
    Error {
        game: usize,
        ply: Option<usize>,
        message: &'a str,
    },
}

/// One side's totals.
#[derive(Debug, Serialize)]
struct SideJson {
    moves: usize,
    accuracy: Option<f64>,
    acpl: Option<i64>,
    inaccuracies: usize,
    mistakes: usize,
    blunders: usize,
}

/// The JSON object of one reviewed move.
pub fn move_json(game: usize, m: &MoveReview) -> String {
    json_line(&Record::Move {
        game,
        ply: m.ply,
        san: m.san(),
        uci: m.uci(),
        eval: m.white_eval().into(),
        best: m.best.map(|b| m.before.move_to_uci(b)),
        loss: (m.verdict.loss * 1000.0).round() / 1000.0,
        judgement: m.verdict.judgement.map(Judgement::name),
        line: pv_uci(&m.before, &m.line),
    })
}

/// One side's totals as JSON.
fn side_json(s: &SideSummary) -> SideJson {
    SideJson {
        moves: s.moves,
        accuracy: s.accuracy(),
        acpl: s.acpl(),
        inaccuracies: s.count(Judgement::Inaccuracy),
        mistakes: s.count(Judgement::Mistake),
        blunders: s.count(Judgement::Blunder),
    }
}

/// The JSON summary of a reviewed game.
pub fn summary_json(game: &InputGame, review: &GameReview) -> String {
    json_line(&Record::Summary {
        game: game.number,
        white: side_json(&review.sides[0]),
        black: side_json(&review.sides[1]),
        start_eval: review.start_eval.into(),
        nodes: review.nodes,
    })
}

/// The JSON object of a game that could not be reviewed.
pub fn error_json(game: usize, ply: Option<usize>, message: &str) -> String {
    json_line(&Record::Error { game, ply, message })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eval_texts() {
        assert_eq!(eval_text(Score::Cp(32)), "0.32");
        assert_eq!(eval_text(Score::Cp(-105)), "-1.05");
        assert_eq!(eval_text(Score::Cp(-5)), "-0.05");
        assert_eq!(eval_text(Score::Cp(0)), "0.00");
        assert_eq!(eval_text(Score::Mate(-3)), "#-3");
        assert_eq!(eval_text(Score::Mate(0)), "#0");
        assert_eq!(json_line(&ScoreJson::from(Score::Mate(2))), r#"{"mate":2}"#);
    }

    #[test]
    fn old_evals_are_dropped_and_lines_wrapped() {
        assert_eq!(without_evals("[%eval 0.3] nice [%eval #2] move"), "nice move");
        assert_eq!(without_evals("[%eval 0.3]"), "");
        let tokens: Vec<String> = (0..40).map(|i| format!("w{i}")).collect();
        let text = wrap(&tokens, 20);
        assert!(text.lines().all(|l| l.len() <= 20));
        assert_eq!(text.split_whitespace().count(), 40);
        let tokens = ["1.", "e4", "{ [%eval 0.32] Mistake. }", "1...", "e5"].map(String::from);
        let text = wrap(&tokens, 12);
        assert_eq!(text, "1. e4\n{ [%eval 0.32]\nMistake. }\n1... e5");
    }

    /// The objects byte for byte as `vorpal annotate --json` printed them before its JSON
    /// became derived types (captured from that code, which joined the fields' texts).
    #[test]
    fn json_objects_are_unchanged() {
        use super::super::games::read_games;
        use super::super::judge::Verdict;
        use vorpal_engine::{Position, Rules};
        let game = read_games("[White \"A\"]\n\n1. e4 d5 *\n", Rules::default())
            .remove(0)
            .unwrap();
        let start = Position::startpos();
        let after = start.after(game.moves[0]);
        let verdict = |loss: f64, judgement| Verdict {
            loss,
            judgement,
            cp_loss: 0,
            accuracy: 0.0,
        };
        let first = MoveReview {
            ply: 1,
            before: start,
            mv: game.moves[0],
            after: Score::Cp(-38),
            best: Some(start.parse_uci("d2d4").unwrap()),
            line: vec![
                start.parse_uci("d2d4").unwrap(),
                start.after(start.parse_uci("d2d4").unwrap()).parse_uci("b8c6").unwrap(),
            ],
            verdict: verdict(0.023_456, None),
        };
        assert_eq!(
            move_json(1, &first),
            r#"{"type":"move","game":1,"ply":1,"san":"e4","uci":"e2e4","eval":{"cp":38},"best":"d2d4","loss":0.023,"judgement":null,"line":["d2d4","b8c6"]}"#
        );
        let second = MoveReview {
            ply: 2,
            before: after,
            mv: game.moves[1],
            after: Score::Mate(2),
            best: None,
            line: Vec::new(),
            verdict: verdict(0.5, Some(Judgement::Blunder)),
        };
        assert_eq!(
            move_json(12, &second),
            r#"{"type":"move","game":12,"ply":2,"san":"d5","uci":"d7d5","eval":{"mate":2},"best":null,"loss":0.5,"judgement":"blunder","line":[]}"#
        );
        let review = GameReview {
            start,
            start_eval: Score::Cp(-5),
            moves: vec![first, second],
            sides: [
                SideSummary {
                    moves: 2,
                    cp_loss_sum: 37,
                    accuracy_sum: 187.63,
                    marks: [1, 0, 0],
                },
                SideSummary::default(),
            ],
            nodes: 34_016,
        };
        assert_eq!(
            summary_json(&game, &review),
            r#"{"type":"summary","game":1,"white":{"moves":2,"accuracy":93.8,"acpl":19,"inaccuracies":1,"mistakes":0,"blunders":0},"black":{"moves":0,"accuracy":null,"acpl":null,"inaccuracies":0,"mistakes":0,"blunders":0},"start_eval":{"cp":-5},"nodes":34016}"#
        );
        assert_eq!(
            error_json(3, Some(7), "bad \"move\" \\ é \u{1}"),
            r#"{"type":"error","game":3,"ply":7,"message":"bad \"move\" \\ é \u0001"}"#
        );
        assert_eq!(
            error_json(4, None, ""),
            r#"{"type":"error","game":4,"ply":null,"message":""}"#
        );
    }
}
