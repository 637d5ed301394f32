//! Popeye's `PostKeyPlay` in direct two-movers: the diagram is the position after the key,
//! the defender to move. Written as Popeye writes the play after a key: ` threat:` with the
//! threats (or ` zugzwang.`), then each defence that defeats every threat, with the attacker's
//! mates or `refutes.`.

use super::notation::popeye_move;
use vorpal_engine::solve::{solve, AttackLine, Solution, SolveControl, SolveOptions, Stipulation};
use vorpal_engine::{Move, Position};

/// The attacker's moves that reach the goal in `moves` from `pos` (the attacker to move).
fn wins(
    pos: &Position,
    stipulation: &Stipulation,
    moves: u32,
    options: &SolveOptions,
    control: &SolveControl,
) -> Vec<AttackLine> {
    let short = Stipulation { moves, ..*stipulation };
    match solve(pos, &short, options, control).solution {
        Solution::Direct(d) => d.keys,
        Solution::Help(_) => Vec::new(),
    }
}

/// The same move (squares, boards and kind) among `moves`.
fn same_move(moves: &[Move], mv: Move) -> Option<Move> {
    moves.iter().copied().find(|&m| m == mv)
}

/// The lines of the play after the key from `pos` (the defender to move) for a two-mover.
pub fn post_key_play(
    pos: &Position,
    stipulation: &Stipulation,
    options: &SolveOptions,
    control: &SolveControl,
) -> Vec<String> {
    let options = SolveOptions {
        tries: false,
        variations: false,
        ..options.clone()
    };
    let one = stipulation.moves.saturating_sub(1).max(1);
    let sorted = |p: &Position, lines: &[AttackLine]| {
        let mut v: Vec<(String, Move)> = lines.iter().map(|l| (p.move_to_uci(l.mv), l.mv)).collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    };
    let mut out = Vec::new();
    let mut threats = Vec::new();
    if !pos.in_check() {
        let mut passed = *pos;
        passed.make_null_move();
        threats = wins(&passed, stipulation, one, &options, control);
        if threats.is_empty() {
            out.push(" zugzwang.".to_string());
        } else {
            out.push(" threat:".to_string());
            for (_, m) in sorted(&passed, &threats) {
                out.push(format!("{:10}2.{}", "", popeye_move(&passed, m)));
            }
        }
    }
    let mut defences: Vec<(String, Move)> = pos.legal_moves().into_iter().map(|d| (pos.move_to_uci(d), d)).collect();
    defences.sort_by(|a, b| a.0.cmp(&b.0));
    for (_, d) in defences {
        let r = pos.after(d);
        let replies = wins(&r, stipulation, one, &options, control);
        // A defence that every threat still beats is not shown.
        if !threats.is_empty() && !replies.is_empty() {
            let moves: Vec<Move> = r.legal_moves().into_iter().collect();
            let reply_moves: Vec<Move> = replies.iter().map(|l| l.mv).collect();
            if threats
                .iter()
                .all(|t| same_move(&moves, t.mv).is_some_and(|m| reply_moves.contains(&m)))
            {
                continue;
            }
        }
        out.push(format!("{:6}1...{}", "", popeye_move(pos, d)));
        if replies.is_empty() {
            out.push(format!("{:8}refutes.", ""));
        }
        for (_, m) in sorted(&r, &replies) {
            out.push(format!("{:10}2.{}", "", popeye_move(&r, m)));
        }
    }
    out
}
