//! Popeye's `SetPlay` in direct and self play: the defender moves first, and each defence after which
//! the attacker wins within the stipulation's moves less one is shown with the attacker's
//! shortest wins. With `Variation` each win has its threats and variations, as after a key;
//! without, its whole tree: every defence with every shortest win, down to the goal.

use super::battle::shortest;
use super::notation::popeye_move;
use crate::solve::text::attack_lines_in;
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
    // Set play of `s#1`: the defender's moves that reach the goal at once.
    if stipulation.play == Play::SelfPlay && stipulation.moves == 1 {
        let mut out: Vec<(String, String)> = start
            .legal_moves()
            .into_iter()
            .filter(|&d| stipulation.goal.reached_in(&start.after(d)))
            .map(|d| (start.move_to_uci(d), format!("{:6}1...{}", "", popeye_move(start, d))))
            .collect();
        out.sort();
        return out.into_iter().map(|(_, line)| line).collect();
    }
    let left = stipulation.moves.saturating_sub(1).max(1);
    let mut defences: Vec<_> = start
        .legal_moves()
        .into_iter()
        .map(|d| (start.move_to_uci(d), d))
        .collect();
    defences.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out = Vec::new();
    for (_, d) in defences {
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
    let mut moves: Vec<_> = q.legal_moves().into_iter().map(|e| (q.move_to_uci(e), e)).collect();
    moves.sort_by(|a, b| a.0.cmp(&b.0));
    if length == 1 && stipulation.play == Play::SelfPlay {
        // Self play ends with the defender's forced goal: every move it has reaches it.
        defences = moves
            .into_iter()
            .map(|(_, e)| DefenceLine {
                mv: e,
                replies: Vec::new(),
            })
            .collect();
    } else if length > 1 {
        for (_, e) in moves {
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
