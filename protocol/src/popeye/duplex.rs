//! Popeye's `HalfDuplex` and `Duplex` for help play: the other side starts and is mated (or
//! stalemated). Solved as the colour-reversed position (ranks mirrored, colours exchanged),
//! whose lines are mapped back square by square.

use crate::uci::mirror_fen;
use vorpal_engine::solve::HelpSolution;
use vorpal_engine::{Move, Position};

/// Rank `r` mirrored (`1` <-> `8`) in every square of `text`.
fn mirror_digits(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '1'..='8' => (b'9' - c as u8 + b'0') as char,
            other => other,
        })
        .collect()
}

/// `pos` with the colours exchanged and the ranks mirrored; the side to move stays the same
/// colour letter, so the other side (in the reversed colours) moves first. None when the
/// result is not a legal position.
pub fn reversed(pos: &Position) -> Option<Position> {
    let fen = pos.to_fen();
    let side = fen.split_whitespace().nth(1)?;
    // The UCI `flip` mirror also hands the move over; HalfDuplex keeps the side's letter.
    let mirrored = mirror_fen(&fen);
    let mut fields: Vec<&str> = mirrored.split_whitespace().collect();
    if fields.len() < 4 {
        return None;
    }
    fields[1] = side;
    Position::from_fen(&fields.join(" "), pos.rules()).ok()
}

/// The lines of `solution`, found from `mirror_start` (the reversed position), as moves from
/// `start` (the original position with the other side to move).
pub fn mapped_back(start: &Position, mirror_start: &Position, solution: &HelpSolution) -> Option<HelpSolution> {
    let map = |line: &Vec<Move>| -> Option<Vec<Move>> {
        let (mut p, mut q) = (*mirror_start, *start);
        let mut out = Vec::with_capacity(line.len());
        for &m in line {
            let uci = mirror_digits(&p.move_to_uci(m));
            let back = q.parse_uci(&uci).ok()?;
            out.push(back);
            p = p.after(m);
            q = q.after(back);
        }
        Some(out)
    };
    Some(HelpSolution {
        lines: solution.lines.iter().map(map).collect::<Option<_>>()?,
        short: solution.short.iter().map(map).collect::<Option<_>>()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use vorpal_engine::Rules;

    #[test]
    fn reversing_twice_is_the_identity() {
        let pos = Position::from_fen("8/8/8/2Q1|k3/8/2|R5/3|p4/K7 b - - 0 1", Rules::default()).unwrap();
        let once = reversed(&pos).unwrap();
        assert_eq!(once.side_to_move(), pos.side_to_move());
        assert_eq!(reversed(&once).unwrap().to_fen(), pos.to_fen());
        assert_eq!(mirror_digits("e2e4"), "e7e5");
    }
}
