//! Popeye's page layout: the header lines centred over the board, the diagram (`-` before a
//! black piece), the stipulation with the piece counts, the squares of each Alice board and
//! the condition, the twin headings and the closing line of each problem.

use super::notation::letter;
use crate::solve::problem::{Meta, Problem, Task};
use vorpal_engine::{BoardId, Color, Position, Square};

/// The width Popeye centres its header lines in (the board's width).
const BOARD_WIDTH: usize = 37;

/// The width of the stipulation line (the piece counts end there).
const STIPULATION_WIDTH: usize = 35;

/// `text` centred over the board as Popeye centres it (no indent when it is too long).
pub fn centred(text: &str) -> String {
    let used = text.chars().count();
    if BOARD_WIDTH > used + 1 {
        format!("{:w$}{text}", "", w = (BOARD_WIDTH - used) / 2)
    } else {
        text.to_string()
    }
}

/// The header lines: authors, origins, awards, titles (Popeye's order), each centred.
pub fn meta(problem: &Problem) -> Vec<String> {
    let mut lines: Vec<&(Meta, String)> = problem.meta.iter().collect();
    lines.sort_by_key(|(kind, _)| *kind);
    lines.iter().map(|(_, text)| centred(text)).collect()
}

/// The pieces of the diagram, rank 8 first, each file a to h.
fn squares_top_down() -> impl Iterator<Item = Square> {
    (0..8u8)
        .rev()
        .flat_map(|rank| (0..8u8).map(move |file| Square::from_coords(file, rank)))
}

/// The diagram: Popeye's board with both Alice boards' pieces on it.
pub fn diagram(pos: &Position) -> Vec<String> {
    let border = "+---a---b---c---d---e---f---g---h---+".to_string();
    let blank = format!("|{:35}|", "");
    let mut out = vec![border.clone(), blank.clone()];
    for rank in (0..8u8).rev() {
        let mut row = format!("{} ", rank + 1);
        for file in 0..8u8 {
            let sq = Square::from_coords(file, rank);
            let cell = match pos.piece_at(sq) {
                None => "  . ".to_string(),
                Some((piece, _)) => {
                    let sign = if piece.color() == Color::Black { '-' } else { ' ' };
                    format!(" {sign}{} ", letter(piece.kind()))
                }
            };
            row.push_str(&cell);
        }
        row.push_str(&format!("  {}", rank + 1));
        out.push(row);
        out.push(blank.clone());
    }
    out.push(border);
    out
}

/// `  #3                        11 + 10`: the stipulation and the pieces of each side.
pub fn stipulation_line(stipulation: &str, pos: &Position) -> String {
    let count = |c: Color| {
        squares_top_down()
            .filter(|&sq| pos.piece_at(sq).is_some_and(|(p, _)| p.color() == c))
            .count()
    };
    let left = format!("  {stipulation}");
    let right = format!("{} + {}", count(Color::White), count(Color::Black));
    let pad = STIPULATION_WIDTH.saturating_sub(left.len() + right.len());
    format!("{left}{:pad$}{right}", "")
}

/// `AliceA b8 e7 ...`, `AliceB a8 a7 ...` and `AliceChess`, centred.
pub fn alice_lines(pos: &Position) -> Vec<String> {
    let list = |board: BoardId, name: &str| {
        let mut text = name.to_string();
        for sq in squares_top_down() {
            if pos.piece_at(sq).is_some_and(|(_, b)| b == board) {
                text.push(' ');
                text.push_str(&sq.to_string());
            }
        }
        centred(&text)
    };
    vec![
        list(BoardId::A, "AliceA"),
        list(BoardId::B, "AliceB"),
        centred("AliceChess"),
    ]
}

/// The heading of a twin: `a) ` or `b) wKh1-->h2  `.
pub fn twin_heading(task: &Task) -> Option<String> {
    let label = task.label?;
    if task.change.is_empty() {
        Some(format!("{label}) "))
    } else {
        Some(format!("{label}) {}  ", task.change))
    }
}

/// The closing line of a problem: `solution finished. Time = 0.063 s`, or Popeye's words
/// after a stop (`solving interrupted.` by the time limit, `Partial solution` by
/// `maxsolutions`).
pub fn closing(complete: bool, by_time: bool, seconds: f64) -> String {
    if complete {
        format!("solution finished. Time = {seconds:.3} s")
    } else if by_time {
        format!("solving interrupted. Time = {seconds:.3} s")
    } else {
        format!("Partial solution Time = {seconds:.3} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centring_as_popeye() {
        assert_eq!(centred("AliceChess"), format!("{:13}AliceChess", ""));
        assert_eq!(
            centred("Thomas Maeder & Kjell Widlert"),
            "    Thomas Maeder & Kjell Widlert"
        );
        let long = "AliceA e7 g7 e6 g6 d5 g4 d3 g3 d2 g2 h1";
        assert_eq!(centred(long), long);
    }

    #[test]
    fn stipulation_and_counts() {
        let pos = Position::from_fen("8/8/8/2Q1|k3/8/2|R5/3|p4/K7 b - - 0 1", vorpal_engine::Rules::default()).unwrap();
        assert_eq!(stipulation_line("h#2", &pos), "  h#2                         3 + 2");
        assert_eq!(alice_lines(&pos)[0], format!("{:12}AliceA c5 a1", ""));
    }
}
