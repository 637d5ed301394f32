//! Engine `info` lines read for the page: the line number (MultiPV), depth, score and principal
//! variation, and the variation replayed by the rules core into SAN with the `/A` suffix (it
//! stops at the first move that is not legal, so a bad engine line never reaches the page).

use vorpal_engine::{Color, Position};
use vorpal_tuning::arena::engine_process::UciScore;

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
