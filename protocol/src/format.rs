//! Text forms of search output: the UCI `info` line in Stockfish's field order, scores for
//! people, and principal variations in UCI or numbered SAN.

use vorpal_engine::search::{Bound, Score, SearchInfo};
use vorpal_engine::{Color, Move, Position};

/// `cp 25` or `mate -3`.
pub fn uci_score(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// The legal prefix of `pv` from `root`, each move with the position it is played in. A
/// move that is not legal where it stands (it should never happen) ends the line.
pub fn walk_pv(root: &Position, pv: &[Move]) -> Vec<(Position, Move)> {
    let mut pos = *root;
    let mut out = Vec::with_capacity(pv.len());
    for &mv in pv {
        if !pos.is_legal(mv) {
            log::warn!("PV move {mv:?} is not legal in {}", pos.to_fen());
            break;
        }
        out.push((pos, mv));
        pos = pos.after(mv);
    }
    out
}

/// The PV as UCI move texts.
pub fn pv_uci(root: &Position, pv: &[Move]) -> Vec<String> {
    walk_pv(root, pv).iter().map(|(p, m)| p.move_to_uci(*m)).collect()
}

/// The PV as SAN texts (with landing-board suffixes).
pub fn pv_san(root: &Position, pv: &[Move]) -> Vec<String> {
    walk_pv(root, pv).iter().map(|(p, m)| p.move_to_san(*m)).collect()
}

/// The PV in numbered SAN: `1. Nf3 d5 2. e4` or, with Black to move, `1... d5 2. e4`.
pub fn pv_numbered(root: &Position, pv: &[Move]) -> String {
    let mut out = String::new();
    for (i, (pos, mv)) in walk_pv(root, pv).iter().enumerate() {
        if !out.is_empty() {
            out.push(' ');
        }
        let number = pos.fullmove_number();
        match pos.side_to_move() {
            Color::White => out.push_str(&format!("{number}. ")),
            Color::Black if i == 0 => out.push_str(&format!("{number}... ")),
            Color::Black => {}
        }
        out.push_str(&pos.move_to_san(*mv));
    }
    out
}

/// A UCI `info` line: `info depth seldepth multipv score [lowerbound|upperbound] [wdl w d l]
/// nodes nps hashfull tbhits time pv ...` (Stockfish's order; `tbhits` is always 0).
pub fn info_line(info: &SearchInfo, root: &Position, show_wdl: bool) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {}",
        info.depth,
        info.seldepth,
        info.multipv,
        uci_score(info.score)
    );
    match info.bound {
        Bound::Exact => {}
        Bound::Lower => s.push_str(" lowerbound"),
        Bound::Upper => s.push_str(" upperbound"),
    }
    if show_wdl {
        let (w, d, l) = info.wdl;
        s.push_str(&format!(" wdl {w} {d} {l}"));
    }
    s.push_str(&format!(
        " nodes {} nps {} hashfull {} tbhits 0 time {}",
        info.nodes, info.nps, info.hashfull, info.time_ms
    ));
    let pv = pv_uci(root, &info.pv);
    if !pv.is_empty() {
        s.push_str(" pv ");
        s.push_str(&pv.join(" "));
    }
    s
}

/// A score for people, from White's side: `+0.35`, `-1.20`, `mate in 3 for White`.
pub fn human_score(score: Score, side_to_move: Color) -> String {
    let sign = if side_to_move == Color::White { 1 } else { -1 };
    match score {
        Score::Cp(cp) => {
            let cp = cp * sign;
            let sign = if cp < 0 { '-' } else { '+' };
            format!("{sign}{}.{:02}", cp.abs() / 100, cp.abs() % 100)
        }
        Score::Mate(n) => {
            let winner = if (n > 0) == (side_to_move == Color::White) {
                "White"
            } else {
                "Black"
            };
            format!("mate in {} for {winner}", n.abs())
        }
    }
}

/// Counts for people: `950`, `12.3k`, `4.56M`, `1.23G`.
pub fn human_count(n: u64) -> String {
    match n {
        0..=9_999 => n.to_string(),
        10_000..=999_999 => format!("{:.1}k", n as f64 / 1e3),
        1_000_000..=999_999_999 => format!("{:.2}M", n as f64 / 1e6),
        _ => format!("{:.2}G", n as f64 / 1e9),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(bound: Bound, pv: Vec<Move>) -> SearchInfo {
        SearchInfo {
            depth: 5,
            seldepth: 9,
            multipv: 1,
            score: Score::Cp(-12),
            bound,
            wdl: (100, 800, 100),
            nodes: 1234,
            nps: 5678,
            hashfull: 3,
            time_ms: 217,
            pv,
        }
    }

    #[test]
    fn info_line_has_stockfish_order() {
        let pos = Position::startpos();
        let e4 = pos.parse_uci("e2e4").unwrap();
        let e5 = pos.after(e4).parse_uci("e7e5").unwrap();
        assert_eq!(
            info_line(&info(Bound::Exact, vec![e4, e5]), &pos, false),
            "info depth 5 seldepth 9 multipv 1 score cp -12 nodes 1234 nps 5678 hashfull 3 tbhits 0 time 217 pv e2e4 e7e5"
        );
        assert_eq!(
            info_line(&info(Bound::Lower, vec![]), &pos, true),
            "info depth 5 seldepth 9 multipv 1 score cp -12 lowerbound wdl 100 800 100 nodes 1234 nps 5678 hashfull 3 tbhits 0 time 217"
        );
    }

    #[test]
    fn illegal_pv_moves_are_cut() {
        let pos = Position::startpos();
        let e4 = pos.parse_uci("e2e4").unwrap();
        assert_eq!(pv_uci(&pos, &[e4, e4]), vec!["e2e4"]);
    }

    #[test]
    fn numbered_san() {
        let pos = Position::startpos();
        let e4 = pos.parse_uci("e2e4").unwrap();
        let after = pos.after(e4);
        let d5 = after.parse_uci("d7d5").unwrap();
        assert_eq!(pv_numbered(&pos, &[e4, d5]), "1. e4 d5");
        assert_eq!(pv_numbered(&after, &[d5]), "1... d5");
    }

    #[test]
    fn scores_for_people() {
        assert_eq!(human_score(Score::Cp(35), Color::White), "+0.35");
        assert_eq!(human_score(Score::Cp(35), Color::Black), "-0.35");
        assert_eq!(human_score(Score::Cp(-5), Color::White), "-0.05");
        assert_eq!(human_score(Score::Mate(3), Color::Black), "mate in 3 for Black");
        assert_eq!(human_score(Score::Mate(-2), Color::Black), "mate in 2 for White");
        assert_eq!(human_count(4_560_000), "4.56M");
    }
}
