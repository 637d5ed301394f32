//! Popeye's `SetPlay` in direct, self and reflex play: the defender moves first, and each
//! defence after which the attacker wins within the stipulation's moves less one is shown with
//! the attacker's shortest wins (a defender that reaches the goal at once, in `s#1`, in
//! reflex play, or in self play when every move of it does, shows those moves instead). With `Variation` each win has its threats and variations, as after a key;
//! without, its whole tree: every defence with every shortest win, down to the goal.

use super::battle::shortest;
use super::notation::popeye_move;
use crate::solve::text::{attack_lines_in, in_uci_order};
use vorpal_engine::solve::{AttackLine, DefenceLine, Play, SolveControl, SolveOptions, Stipulation};
use vorpal_engine::{Move, Position};

/// The set play's lines from `start` (the defender to move).
pub fn direct_set_play(
    start: &Position,
    stipulation: &Stipulation,
    variations: bool,
    options: &SolveOptions,
    control: &SolveControl,
) -> Vec<String> {
    let options = SolveOptions {
        tries: false,
        variations,
        ..options.clone()
    };
    // The defender's goal at once ends the set play: in `s#1` and `r#1` (their only play), and
    // in reflex play whenever it has one (it must take it).
    let reflex = matches!(stipulation.play, Play::Reflex | Play::SemiReflex);
    let at_once = stipulation.goal.moves_reaching(start);
    // A one-mover's set play in direct play is empty (Popeye shows none).
    if stipulation.play == Play::Direct && stipulation.moves <= 1 {
        return Vec::new();
    }
    // In self play when every move of the defender reaches the goal it must: those moves.
    let forced = stipulation.play == Play::SelfPlay && stipulation.goal.is_forced(start);
    if stipulation.moves <= 1 || (reflex && !at_once.is_empty()) || forced {
        return in_uci_order(start, at_once)
            .into_iter()
            .map(|d| format!("{:6}1...{}", "", popeye_move(start, d)))
            .collect();
    }
    let left = stipulation.moves - 1;
    let mut out = Vec::new();
    for d in in_uci_order(start, start.legal_moves()) {
        let r = start.after(d);
        let Some((s, lines)) = shortest(&r, stipulation, left, &options, control) else {
            continue;
        };
        let lines: Vec<AttackLine> = if variations {
            lines
        } else {
            lines
                .iter()
                .map(|l| whole_tree(&r, l.mv, s, stipulation, &options, control))
                .collect()
        };
        out.push(format!("{:6}1...{}", "", popeye_move(start, d)));
        out.extend(attack_lines_in(&r, &lines, 2, variations, popeye_move));
    }
    out
}

/// The attacker's move `mv` from `pos`, which wins within `length` moves, with every defence
/// and each of the attacker's shortest wins after it, down to the goal.
fn whole_tree(
    pos: &Position,
    mv: Move,
    length: u32,
    stipulation: &Stipulation,
    options: &SolveOptions,
    control: &SolveControl,
) -> AttackLine {
    let q = pos.after(mv);
    let mut defences = Vec::new();
    let moves = in_uci_order(&q, q.legal_moves());
    let reaching = stipulation.goal.moves_reaching(&q);
    let reaches = |e: Move| reaching.contains(&e);
    let end = |e: Move| DefenceLine {
        mv: e,
        replies: Vec::new(),
    };
    let reflex = matches!(stipulation.play, Play::Reflex | Play::SemiReflex);
    if stipulation.play == Play::Direct {
        // Direct play ends with the attacker's move.
    } else if length == 1 || (reflex && !reaching.is_empty()) {
        // Self and reflex play end with the defender's goal: in self play every move it has
        // reaches it; in reflex play it must take one when it can.
        defences = moves.into_iter().filter(|&e| reaches(e)).map(end).collect();
        return AttackLine {
            mv,
            length,
            threats: Vec::new(),
            defences,
            refutations: Vec::new(),
        };
    }
    if length > 1 {
        for e in moves {
            if stipulation.play == Play::SelfPlay && reaches(e) {
                defences.push(end(e));
                continue;
            }
            let r = q.after(e);
            if let Some((s, replies)) = shortest(&r, stipulation, length - 1, options, control) {
                let replies = replies
                    .iter()
                    .map(|l| whole_tree(&r, l.mv, s, stipulation, options, control))
                    .collect();
                defences.push(DefenceLine { mv: e, replies });
            }
        }
    }
    AttackLine {
        mv,
        length,
        threats: Vec::new(),
        defences,
        refutations: Vec::new(),
    }
}
