//! Text forms of search output: the UCI `info` line in Stockfish's field order, scores for
//! people, principal variations in UCI or numbered SAN, and the other lines every UCI host
//! prints alike (`bestmove`, `info string`, `perft`).

use vorpal_engine::bench::BenchResult;
use vorpal_engine::search::{Bound, Report, Score, SearchInfo};
use vorpal_engine::{Color, Move, Position, Variant};

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

/// Makes `text` safe to print as one protocol line: control characters and replaced invalid
/// UTF-8 become `?`, and the text is cut (with `...`) beyond 200 characters.
pub fn one_line(text: &str) -> String {
    const MAX: usize = 200;
    let mut out: String = text
        .chars()
        .take(MAX)
        .map(|c| {
            if c.is_control() || c == char::REPLACEMENT_CHARACTER {
                '?'
            } else {
                c
            }
        })
        .collect();
    if text.chars().nth(MAX).is_some() {
        out.push_str("...");
    }
    out.trim_end().to_string()
}

/// `info string <message>`: a note.
pub fn note_text(message: &str) -> String {
    format!("info string {}", one_line(message))
}

/// `info string error <message>`: the one answer to every bad input.
pub fn error_text(message: &str) -> String {
    format!("info string error {}", one_line(message))
}

/// `bestmove <m> [ponder <m>]` or `bestmove (none)`; the ponder move is dropped unless legal.
pub fn bestmove_line(pos: &Position, best: Option<Move>, ponder: Option<Move>) -> String {
    let Some(best) = best else {
        return "bestmove (none)".to_string();
    };
    let mut line = format!("bestmove {}", pos.move_to_uci(best));
    let next = pos.after(best);
    if let Some(p) = ponder.filter(|&p| next.is_legal(p)) {
        line.push_str(&format!(" ponder {}", next.move_to_uci(p)));
    }
    line
}

/// The `info` line of a search's progress report from the root `pos`.
pub fn report_line(pos: &Position, report: Report, show_wdl: bool) -> String {
    match report {
        Report::Info(info) => info_line(&info, pos, show_wdl),
        Report::CurrMove { depth, mv, number } => format!(
            "info depth {depth} currmove {} currmovenumber {number}",
            pos.move_to_uci(mv)
        ),
        Report::Note(text) => note_text(&text),
    }
}

/// The one `info` line of a `go` in a position without legal moves (mated or stalemated).
pub fn no_legal_move_line(pos: &Position) -> &'static str {
    if pos.in_check() {
        "info depth 0 score mate 0"
    } else {
        "info depth 0 score cp 0"
    }
}

/// Engine name and version (UCI `id name`, CECP `myname`).
pub const ENGINE: &str = concat!("Vorpal ", env!("CARGO_PKG_VERSION"));
/// The authors (UCI `id author`).
pub const AUTHOR: &str = "the Vorpal developers";

/// The answer to `uci`: the engine's name and author, the `option` lines, `uciok`.
pub fn uci_text(option_lines: &[String]) -> String {
    let mut text = format!("id name {ENGINE}\nid author {AUTHOR}\n");
    for line in option_lines {
        text.push_str(line);
        text.push('\n');
    }
    text.push_str("uciok");
    text
}

/// The note that announces a new variant (Fairy-Stockfish's line) with its start position.
pub fn variant_text(variant: Variant, start: &Position) -> String {
    format!(
        "variant {} files {} ranks 8 pocket 0 template fairy startpos {}",
        variant.name(),
        variant.files(),
        start.to_fen()
    )
}

/// The summary `bench` prints: nodes, speed and time.
pub fn bench_text(result: &BenchResult) -> String {
    format!(
        "Nodes searched  : {}\nNodes/second    : {}\nTotal time (ms) : {}",
        result.nodes, result.nps, result.time_ms
    )
}

/// The answer to `perft`: `<move>: <count>` per root move of `pos` (`counts`, as
/// `perft::divide` gives them), a blank line, and `Nodes searched: N` (1 at depth 0, where
/// `counts` is empty); and N.
pub fn perft_text(pos: &Position, depth: u32, counts: &[(Move, u64)]) -> (String, u64) {
    let mut text = String::new();
    for (mv, n) in counts {
        text.push_str(&format!("{}: {n}\n", pos.move_to_uci(*mv)));
    }
    let total = if depth == 0 {
        1
    } else {
        counts.iter().map(|(_, n)| n).sum()
    };
    text.push_str(&format!("\nNodes searched: {total}"));
    (text, total)
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
