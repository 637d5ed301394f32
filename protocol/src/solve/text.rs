//! The text output, after Popeye's layout: key moves with `!`, tries with `?` and `but 1...X !`,
//! `threat:` and `zugzwang.`, defences as `1...X`, helpmate lines as `1.X Y   2.X Y#`; the
//! moves in the project's SAN, a move landing on board A marked `/A`.

use super::problem::Task;
use vorpal_engine::solve::{line_positions, AttackLine, DirectSolution, HelpSolution, Play, Stipulation};
use vorpal_engine::{Move, Position};

/// Indentation of an attacker's move `k` (1-based), as Popeye lays it out.
fn attack_indent(k: u32) -> usize {
    if k == 1 {
        3
    } else {
        10 + 8 * (k as usize - 2)
    }
}

/// Indentation of a defender's move `k`.
fn defence_indent(k: u32) -> usize {
    6 + 8 * (k as usize - 1)
}

/// The heading of a task: the twin label and change, and the stipulation.
pub fn heading(task: &Task) -> String {
    match task.label {
        Some(label) if task.change.is_empty() => format!("{label}) {}", task.stipulation_text),
        Some(label) => format!("{label}) {}  {}", task.change, task.stipulation_text),
        None => task.stipulation_text.clone(),
    }
}

/// How a move is written, with its marks (check, mate, stalemate), in the position it is
/// played in.
pub type Notation = fn(&Position, Move) -> String;

/// The lines of a direct or self play solution: keys first, then tries.
pub fn direct(pos: &Position, solution: &DirectSolution, variations: bool) -> Vec<String> {
    direct_in(pos, solution, variations, san)
}

/// [`direct`] in the notation `san`.
pub fn direct_in(pos: &Position, solution: &DirectSolution, variations: bool, san: Notation) -> Vec<String> {
    let mut out = Vec::new();
    // Reflex play: the attacker must reach the goal at once, so nothing can be a key.
    let forced = in_uci_order(pos, solution.forced.iter().copied());
    // Popeye prints them as one block after a blank line.
    if !forced.is_empty() {
        out.push(String::new());
    }
    for m in forced {
        out.push(format!("{:w$}1.{} ?!?", "", san(pos, m), w = attack_indent(1)));
    }
    for (lines, marker) in [(&solution.keys, "!"), (&solution.tries, "?")] {
        for line in sorted(pos, lines) {
            out.push(String::new());
            attack(pos, line, 1, Some(marker), variations, san, &mut out);
            if !line.refutations.is_empty() {
                out.push("    but".to_string());
                let q = pos.after(line.mv);
                for &r in &line.refutations {
                    // A refutation that mates the attacker: see `mate_as_check`.
                    let text = mate_as_check(san(&q, r));
                    out.push(format!("{:w$}1...{} !", "", text, w = defence_indent(1)));
                    // Reflex play: a refutation may leave the attacker a goal it must take.
                    if let Some(goal) = solution.reflex_goal {
                        let s = q.after(r);
                        for m in in_uci_order(&s, goal.moves_reaching(&s)) {
                            out.push(format!("{:w$}2.{} ?!?", "", san(&s, m), w = attack_indent(2)));
                        }
                    }
                }
            }
        }
    }
    out
}

/// The attacker's moves `lines` from `pos` as the `k`th moves of a tree, each with what
/// follows it as far as the lines hold it (with `variations`, ` threat:` and ` zugzwang.`
/// marks), in UCI order.
pub fn attack_lines_in(pos: &Position, lines: &[AttackLine], k: u32, variations: bool, san: Notation) -> Vec<String> {
    let mut out = Vec::new();
    for line in sorted(pos, lines) {
        attack(pos, line, k, None, variations, san, &mut out);
    }
    out
}

/// `lines` in the order of their moves' UCI text.
/// `moves` of `pos` in the order of their UCI text (the order siblings are printed in).
pub fn in_uci_order(pos: &Position, moves: impl IntoIterator<Item = Move>) -> Vec<Move> {
    let mut v: Vec<Move> = moves.into_iter().collect();
    v.sort_by_key(|&m| pos.move_to_uci(m));
    v
}

/// A defender's move that mates the attacker in direct play, in Popeye's notation: Popeye marks
/// it ` +`, not ` #` (the goal is the attacker's). SAN's own `#` has no space and is kept.
pub fn mate_as_check(text: String) -> String {
    match text.strip_suffix(" #") {
        Some(t) => format!("{t} +"),
        None => text,
    }
}

fn sorted<'a>(pos: &Position, lines: &'a [AttackLine]) -> Vec<&'a AttackLine> {
    let mut v: Vec<&AttackLine> = lines.iter().collect();
    v.sort_by_key(|l| pos.move_to_uci(l.mv));
    v
}

/// The SAN of `mv`, with Popeye's ` =` when it stalemates (SAN marks check and mate itself).
fn san(pos: &Position, mv: Move) -> String {
    let after = pos.after(mv);
    let mut text = pos.move_to_san(mv);
    if !after.in_check() && after.legal_moves().is_empty() {
        text.push_str(" =");
    }
    text
}

/// One attacker's move `k` with what follows it.
fn attack(
    pos: &Position,
    line: &AttackLine,
    k: u32,
    marker: Option<&str>,
    variations: bool,
    san: Notation,
    out: &mut Vec<String>,
) {
    let q = pos.after(line.mv);
    let mut text = format!("{:w$}{k}.{}", "", san(pos, line.mv), w = attack_indent(k));
    if let Some(m) = marker {
        text.push(' ');
        text.push_str(m);
    }
    let open = variations && line.length > 1 && !q.in_check() && !q.legal_moves().is_empty();
    if open && !line.threats.is_empty() {
        text.push_str(" threat:");
    } else if open {
        text.push_str(" zugzwang.");
    }
    out.push(text);
    if !line.threats.is_empty() {
        let mut passed = q;
        passed.make_null_move();
        for threat in sorted(&passed, &line.threats) {
            attack(&passed, threat, k + 1, None, variations, san, out);
        }
    }
    for defence in &line.defences {
        out.push(format!("{:w$}{k}...{}", "", san(&q, defence.mv), w = defence_indent(k)));
        let r = q.after(defence.mv);
        for reply in sorted(&r, &defence.replies) {
            attack(&r, reply, k + 1, None, variations, san, out);
        }
    }
}

/// One helpmate line: `1.X Y   2.X Y#`, or with the half move `1...X   2.X Y   3.X Y#`.
#[cfg(test)]
pub fn help_line(pos: &Position, moves: &[Move], half_move: bool) -> String {
    help_line_in(pos, moves, half_move, san)
}

/// [`help_line`] in the notation `san`.
fn help_line_in(pos: &Position, moves: &[Move], half_move: bool, san: Notation) -> String {
    let mut p = *pos;
    let mut text = String::new();
    for (i, &m) in moves.iter().enumerate() {
        let san = san(&p, m);
        let (number, first) = if half_move {
            (i.div_ceil(2) + 1, i % 2 == 1)
        } else {
            (i / 2 + 1, i % 2 == 0)
        };
        // Move numbers right-aligned in three columns, as Popeye writes them (`  10.`).
        if half_move && i == 0 {
            text.push_str(&format!("  1...{san}"));
        } else if first {
            text.push_str(&format!("{}{number:>3}.{san}", if i == 0 { "" } else { " " }));
        } else {
            text.push_str(&format!(" {san}"));
        }
        p = p.after(m);
    }
    text
}

/// One series line: `1.X   2.Y   3.Z#`, the other side's last move (`ser-h#`, `ser-s#`) on
/// the last series move's number: `3.Z Y#`.
fn series_line_in(pos: &Position, stipulation: &Stipulation, moves: &[Move], san: Notation) -> String {
    let positions = line_positions(pos, stipulation, moves);
    let series_moves = match stipulation.play {
        Play::SeriesDirect => moves.len(),
        _ => moves.len().saturating_sub(1),
    };
    let mut text = String::new();
    for (i, (p, &m)) in positions.iter().zip(moves).enumerate() {
        if i < series_moves {
            // The other side passes after a series move: a stalemate before the last move is
            // no goal, and Popeye marks none.
            let mut written = san(p, m);
            if i + 1 < moves.len() {
                written = written.strip_suffix(" =").map(str::to_string).unwrap_or(written);
            }
            text.push_str(&format!("{}{:>3}.{}", if i == 0 { "" } else { " " }, i + 1, written));
        } else {
            text.push_str(&format!(" {}", san(p, m)));
        }
    }
    text
}

/// The lines of a solution whose solutions are lines (help, help-self and series play, proof
/// games): the short solutions first (shortest first), then the full-length ones, each group
/// sorted by the UCI text, as Popeye solves by increasing length.
pub fn lines(pos: &Position, stipulation: &Stipulation, solution: &HelpSolution) -> Vec<String> {
    lines_in(pos, stipulation, solution, san)
}

/// [`lines`] in the notation `san`.
pub fn lines_in(pos: &Position, stipulation: &Stipulation, solution: &HelpSolution, san: Notation) -> Vec<String> {
    let mut lines: Vec<&Vec<Move>> = solution.short.iter().chain(&solution.lines).collect();
    lines.sort_by_key(|line| (line.len(), super::uci_line(pos, stipulation, line).join(" ")));
    lines
        .into_iter()
        .map(|line| {
            if stipulation.play.is_series() {
                series_line_in(pos, stipulation, line, san)
            } else {
                // A help line of odd length starts with the half move (`1...X`); a proof game
                // numbers its moves from the side that starts it, as Popeye does (`1.a4 b6`, and
                // for an `a=>b` that Black starts `1.Kd8 Ra2`).
                let half = !stipulation.play.is_proof() && line.len() % 2 == 1;
                help_line_in(pos, line, half, san)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use vorpal_engine::Rules;

    #[test]
    fn helpmate_lines_are_numbered_like_popeye() {
        let pos = Position::from_fen("8/8/8/2Q1|k3/8/2|R5/3|p4/K7 b - - 0 1", Rules::default()).unwrap();
        let moves: Vec<Move> = {
            let mut p = pos;
            ["e5f4", "c5f5", "d2d1n", "c3f3"]
                .iter()
                .map(|t| {
                    let m = p.parse_uci(t).unwrap();
                    p = p.after(m);
                    m
                })
                .collect()
        };
        assert_eq!(help_line(&pos, &moves, false), "  1.Kf4/A Qf5   2.d1=N/A Rf3/A#");
        let stalemate = Position::from_fen("k7/8/8/8/8/8/8/1Q2K3 w - - 0 1", Rules::default()).unwrap();
        let mv = stalemate.parse_uci("b1b6").unwrap();
        assert_eq!(san(&stalemate, mv), "Qb6 =");
        assert_eq!(attack_indent(1), 3);
        assert_eq!(attack_indent(3), 18);
        assert_eq!(defence_indent(2), 14);
    }
}
