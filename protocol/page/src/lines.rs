//! Engine `info` lines read for the page: the line number (MultiPV), depth, score and principal
//! variation, and the variation replayed by the rules core into SAN with the `/A` suffix (it
//! stops at the first move that is not legal, so a bad engine line never reaches the page).
//! Of the `info string` lines only a tablebase verdict (`info string tablebase: mate in 12`) is
//! kept, its text cut to [`MAX_VERDICT`] characters; every other one is dropped.

use std::collections::BTreeMap;
use vorpal_client::engine_process::UciScore;
use vorpal_engine::{Color, Position};

/// Longest tablebase verdict passed to the page, in characters (engine output is not trusted).
pub const MAX_VERDICT: usize = 120;

/// The engine's latest word on one position: its lines and its tablebase verdict.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    /// Latest analysis lines by MultiPV number.
    pub lines: BTreeMap<u32, EngineLine>,
    /// The tablebase verdict (`tablebase: mate in 12`), when the engine gave one.
    pub tablebase: Option<String>,
    /// The position the lines and the verdict are about (kept after the search stops).
    pub position: Option<Position>,
    /// True when something changed that the page has not been told.
    pub dirty: bool,
}

impl Analysis {
    /// Forgets the lines and the verdict (a new position or a new search).
    pub fn clear(&mut self) {
        self.lines.clear();
        self.tablebase = None;
        self.position = None;
    }

    /// Takes in an `info` line of the search of `position`; other lines change nothing.
    pub fn read(&mut self, position: Position, line: &str) {
        if let Some(verdict) = tablebase_verdict(line) {
            self.tablebase = Some(verdict);
        } else if let Some(l) = parse_line(line) {
            self.lines.insert(l.multipv, l);
        } else {
            return;
        }
        self.position = Some(position);
        self.dirty = true;
    }
}

/// The verdict of an `info string tablebase: ...` line (`tablebase: mated in 3`), in one line
/// of at most [`MAX_VERDICT`] characters without control characters; None for any other line.
pub fn tablebase_verdict(line: &str) -> Option<String> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") || words.next() != Some("string") {
        return None;
    }
    let text: String = words
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_VERDICT)
        .collect();
    let verdict = text.strip_prefix("tablebase:")?;
    (!verdict.trim().is_empty()).then(|| text.trim_end().to_string())
}

/// One analysis line as the engine reported it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineLine {
    /// 1-based MultiPV number.
    pub multipv: u32,
    /// Search depth.
    pub depth: u32,
    /// Score from the side to move's view.
    pub score: Option<UciScore>,
    /// Nodes searched, when reported.
    pub nodes: Option<u64>,
    /// Nodes per second, when reported.
    pub nps: Option<u64>,
    /// The variation as UCI move texts.
    pub pv: Vec<String>,
}

/// Reads an `info` line that carries a principal variation; None for other `info` lines.
pub fn parse_line(line: &str) -> Option<EngineLine> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut out = EngineLine {
        multipv: 1,
        depth: 0,
        score: None,
        nodes: None,
        nps: None,
        pv: Vec::new(),
    };
    let mut i = 1;
    while i < words.len() {
        let next = words.get(i + 1).copied();
        match words[i] {
            "multipv" => out.multipv = next?.parse().ok()?,
            "depth" => out.depth = next?.parse().ok()?,
            "nodes" => out.nodes = next.and_then(|n| n.parse().ok()),
            "nps" => out.nps = next.and_then(|n| n.parse().ok()),
            "score" => {
                // Clamped, so no arithmetic on an engine's score can overflow.
                out.score = UciScore::parse(next?, words.get(i + 2)?);
                i += 1;
            }
            "pv" => {
                out.pv = words[i + 1..].iter().map(|s| s.to_string()).collect();
                break;
            }
            "string" => return None,
            _ => {}
        }
        i += 2;
    }
    (!out.pv.is_empty()).then_some(out)
}

/// The score from White's view in centipawns (mates far beyond any evaluation).
pub fn white_centipawns(score: UciScore, side_to_move: Color) -> i32 {
    let cp = score.centipawns();
    match side_to_move {
        Color::White => cp,
        Color::Black => -cp,
    }
}

/// Score text from White's view: `+0.35`, `-1.20`, `#5`, `#-3`.
pub fn score_text(score: UciScore, side_to_move: Color) -> String {
    let flip = side_to_move == Color::Black;
    match score {
        UciScore::Cp(cp) => {
            let cp = if flip { -cp } else { cp };
            format!(
                "{}{:.2}",
                if cp >= 0 { '+' } else { '-' },
                cp.unsigned_abs() as f64 / 100.0
            )
        }
        UciScore::Mate(m) => format!("#{}", if flip { -m } else { m }),
    }
}

/// The legal prefix of `pv` from `pos`: each move's SAN and its wide UCI text.
pub fn pv_moves(pos: &Position, pv: &[String]) -> Vec<(String, String)> {
    let mut p = *pos;
    let mut out = Vec::new();
    for text in pv {
        let Ok(mv) = p.parse_uci(text) else { break };
        out.push((p.move_to_san(mv), p.move_to_wide(mv)));
        p = p.after(mv);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_info_lines() {
        let l =
            parse_line("info depth 12 seldepth 20 multipv 2 score cp -35 nodes 999 nps 5 pv g1f3 e7e6 f3e5").unwrap();
        assert_eq!(
            (l.multipv, l.depth, l.score, l.nodes),
            (2, 12, Some(UciScore::Cp(-35)), Some(999))
        );
        assert_eq!(l.nps, Some(5));
        assert_eq!(l.pv, ["g1f3", "e7e6", "f3e5"]);
        assert!(parse_line("info depth 3 currmove e2e4 currmovenumber 1").is_none());
        assert!(parse_line("info string pv e2e4").is_none());
        assert!(parse_line("info depth x pv e2e4").is_none());
        assert_eq!(score_text(UciScore::Cp(-35), Color::Black), "+0.35");
        assert_eq!(score_text(UciScore::Mate(3), Color::Black), "#-3");
        assert!(white_centipawns(UciScore::Mate(2), Color::White) > 10_000);
        let huge = parse_line("info depth 1 score cp -2147483648 pv e2e4").unwrap();
        assert_eq!(score_text(huge.score.unwrap(), Color::Black), "+500.00");
        let mate = parse_line("info depth 1 score mate -2147483648 pv e2e4").unwrap();
        assert_eq!(score_text(mate.score.unwrap(), Color::Black), "#10000");
    }

    #[test]
    fn only_tablebase_verdicts_pass_of_the_info_strings() {
        let v = tablebase_verdict;
        assert_eq!(
            v("info string tablebase: mate in 4").as_deref(),
            Some("tablebase: mate in 4")
        );
        assert_eq!(
            v("info  string tablebase:  mated in 3 ").as_deref(),
            Some("tablebase: mated in 3")
        );
        assert_eq!(v("info string tablebase: draw").as_deref(), Some("tablebase: draw"));
        for other in [
            "info string AliceTbPath '/x': not a directory; unchanged",
            "info string error unknown command",
            "info string Tablebase: mate in 4",
            "info string tablebase:",
            "info string  tablebase:   ",
            "info depth 1 string tablebase: mate in 4",
            "info stringtablebase: mate in 4",
            "bestmove e2e4",
        ] {
            assert_eq!(v(other), None, "{other}");
        }
        let long = format!("info string tablebase: {}", "é\u{7}".repeat(500));
        let cut = v(&long).unwrap();
        assert_eq!(cut.chars().count(), MAX_VERDICT);
        assert!(!cut.contains('\u{7}'));
        assert!(parse_line("info string tablebase: mate in 4").is_none());

        let mut a = Analysis::default();
        let pos = Position::startpos();
        a.read(pos, "info string hello");
        assert!(!a.dirty && a.position.is_none());
        a.read(pos, "info string tablebase: mate in 4");
        a.read(pos, "info depth 1 score mate 4 pv e2e4");
        assert!(a.dirty && a.position == Some(pos));
        assert_eq!(
            (a.tablebase.as_deref(), a.lines.len()),
            (Some("tablebase: mate in 4"), 1)
        );
        a.clear();
        assert!(a.tablebase.is_none() && a.lines.is_empty() && a.position.is_none());
    }

    #[test]
    fn variations_become_san_until_an_illegal_move() {
        let pv: Vec<String> = ["g1f3", "e7e6", "f3e5", "f8c5", "e5f7", "e1e1"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let moves = pv_moves(&Position::startpos(), &pv);
        let san: Vec<&str> = moves.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(san, ["Nf3", "e6", "Ne5/A", "Bc5", "Nxf7"]);
        assert_eq!(moves[2].1, "n3e5");
    }
}
