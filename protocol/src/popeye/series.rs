//! Popeye's `SetPlay`, `HalfDuplex` and `Duplex` in series play (`ser-#n`, `ser-=n`,
//! `ser-h#n`, `ser-h=n`, `ser-s#n`), as Popeye 4.104 plays them:
//!
//! - `SetPlay` in `ser-h#n`, `ser-h=n` and `ser-s#n`: the series side plays none of its moves,
//!   the other side reaches the goal at once (`  1...Qg1-g6B #`; in `ser-s#n` only when every
//!   move of it does: it must), in a paragraph of its own before the solution (an empty one
//!   when it cannot; none when the position with the other side to move is illegal). In `ser-#n` and `ser-=n` Popeye says
//!   `SetPlay not applicable - ignored` and solves the problem without it.
//! - `HalfDuplex`: the other side plays the series (Black in `ser-#n`, White in `ser-h#n`);
//!   `Duplex`: the solution, then the other side's. The series solver plays the side to move,
//!   so the other side's series is the same stipulation from the position with the other side
//!   to move.

use super::notation::popeye_move;
use crate::solve::text::in_uci_order;
use vorpal_engine::solve::{Play, Stipulation};
use vorpal_engine::Position;

/// Popeye's notice for `SetPlay` in direct series play, printed before each solution.
pub const SET_PLAY_IGNORED: &str = "SetPlay not applicable - ignored";

/// Whether `SetPlay` applies to series play `stipulation` (not to `ser-#n` and `ser-=n`).
pub fn set_play_applies(stipulation: &Stipulation) -> bool {
    stipulation.play != Play::SeriesDirect
}

/// The set play of series play from `passed` (the position with the other side to move, the
/// series side having played none of its moves): its moves that reach the goal at once.
pub fn set_play(passed: &Position, stipulation: &Stipulation) -> Vec<String> {
    // In `ser-s#n` the other side must reach the goal: only when every move of it does.
    if stipulation.play == Play::SeriesSelf && !stipulation.goal.is_forced(passed) {
        return Vec::new();
    }
    in_uci_order(passed, stipulation.goal.moves_reaching(passed))
        .into_iter()
        .map(|m| format!("  1...{}", popeye_move(passed, m)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use vorpal_engine::Rules;

    #[test]
    fn set_play_is_the_other_sides_goal_at_once() {
        // White to move after Black's series of none: Qg1-g6 (landing on B) mates the king
        // on f5 of board B (a position of Popeye 4.104's own ser-h#2 output).
        let fen = "1Q6/2|B4|K/8/5|k2/8/7|p/8/3b2Q1 w - - 0 1";
        let pos = Position::from_fen(fen, Rules::default()).unwrap();
        let stipulation: Stipulation = "ser-h#2".parse().unwrap();
        assert!(set_play_applies(&stipulation));
        assert!(!set_play_applies(&"ser-#2".parse().unwrap()));
        let lines = set_play(&pos, &stipulation);
        assert_eq!(lines, ["  1...Qb8-e5B #", "  1...Qg1-g6B #"]);
        // In ser-s#2 White is not forced to mate here: no set play.
        assert!(set_play(&pos, &"ser-s#2".parse().unwrap()).is_empty());
    }
}
