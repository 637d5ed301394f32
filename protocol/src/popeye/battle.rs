//! The attacker's winning moves as `PostKeyPlay` and `SetPlay` show them: from a position
//! with the attacker to move, the moves that win within n moves and the shortest such length.

use vorpal_engine::solve::{solve, AttackLine, Solution, SolveControl, SolveOptions, Stipulation};
use vorpal_engine::Position;

/// The attacker's moves that reach the goal within `moves` from `pos` (the attacker to move),
/// with their play as `options` asks for it.
pub fn wins(
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

/// The shortest length within `max` in which the attacker wins from `pos`, with those moves.
pub fn shortest(
    pos: &Position,
    stipulation: &Stipulation,
    max: u32,
    options: &SolveOptions,
    control: &SolveControl,
) -> Option<(u32, Vec<AttackLine>)> {
    (1..=max).find_map(|s| {
        let lines = wins(pos, stipulation, s, options, control);
        (!lines.is_empty()).then_some((s, lines))
    })
}
