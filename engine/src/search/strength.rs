//! Weaker play for human opponents: `Skill Level` and `UCI_LimitStrength`/`UCI_Elo`.
//!
//! A weakened engine searches shallower and then picks, among its best few root moves, one
//! that is worse by a random amount that grows as the level drops.

use super::report::{Score, SearchResult};
use super::thread::RootMove;
use super::tt::TranspositionTable;
use crate::types::Move;

/// Lowest and highest `UCI_Elo` accepted.
pub const ELO_RANGE: (u32, u32) = (600, 2800);

/// The playing level of one search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Skill {
    /// 0..=20; 20 = full strength.
    level: u32,
}

impl Skill {
    /// The level of `Skill Level` (`skill_level`), or of `UCI_Elo` when strength is limited
    /// (`limit_elo`, which wins).
    pub fn new(skill_level: u32, limit_elo: Option<u32>) -> Skill {
        let level = match limit_elo {
            Some(elo) => {
                let (lo, hi) = ELO_RANGE;
                (elo.clamp(lo, hi) - lo) * 20 / (hi - lo)
            }
            None => skill_level.min(20),
        };
        Skill { level }
    }

    fn enabled(self) -> bool {
        self.level < 20
    }

    /// Lines to search so there is a choice of moves.
    pub fn multipv(self) -> usize {
        if self.enabled() {
            4
        } else {
            1
        }
    }

    /// Depth cap for weak levels.
    pub fn depth_cap(self) -> Option<u32> {
        self.enabled().then_some(1 + self.level / 2 * 2)
    }

    /// The result of a search whose lines are `root_moves` (best first) and whose last
    /// completed iteration gave `result`: the move played (chosen among the lines by a
    /// weakened engine) and the move to ponder on (the line's second move, else the
    /// table's move for the position after the best move, when it is legal there).
    pub(crate) fn conclude(
        self,
        pos: &crate::position::Position,
        tt: &TranspositionTable,
        root_moves: &[RootMove],
        multipv: usize,
        result: (Score, u32, Option<Move>),
        nodes: u64,
    ) -> SearchResult {
        let best = self.pick(&root_moves[..multipv.min(root_moves.len())], pos.key());
        let ponder = if best == root_moves[0].mv {
            root_moves[0]
                .pv
                .get(1)
                .copied()
                .or_else(|| reply_from_table(pos, tt, best))
        } else {
            None
        };
        SearchResult {
            best: Some(best),
            ponder,
            score: result.0,
            depth: result.1,
            completed_best: result.2,
            nodes,
        }
    }

    /// Chooses the move to play among the sorted best lines.
    pub fn pick(self, lines: &[RootMove], seed: u64) -> Move {
        if !self.enabled() || lines.len() < 2 {
            return lines[0].mv;
        }
        let mut rng = seed ^ 0x9E37_79B9_7F4A_7C15 ^ crate::clock::entropy();
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let top = lines[0].score;
        let weakness = 120 - 2 * self.level as i32;
        let spread = (top - lines[lines.len() - 1].score.max(top - 100)).min(100);
        let mut best = (i32::MIN, lines[0].mv);
        for line in lines.iter().filter(|l| l.score > -super::MATE) {
            let push = (weakness * (top - line.score) + spread * (next() % weakness as u64) as i32) / 128;
            let value = line.score + push;
            if value > best.0 {
                best = (value, line.mv);
            }
        }
        best.1
    }
}

/// The reply the table holds for the position after `best` (a line cut short after one
/// move still has one to ponder on), when it is legal there.
fn reply_from_table(pos: &crate::position::Position, tt: &TranspositionTable, best: Move) -> Option<Move> {
    let after = pos.after(best);
    let entry = tt.probe(after.key(), 1)?;
    after.is_legal(entry.mv).then_some(entry.mv)
}

#[cfg(test)]
mod ponder_tests {
    use super::*;
    use crate::position::Position;
    use crate::rules::Rules;
    use crate::search::tt::TtBound;

    #[test]
    fn a_one_move_line_ponders_on_the_tables_reply_when_legal() {
        let pos = Position::start(Rules::default());
        let best = pos.parse_uci("e2e4").unwrap();
        let after = pos.after(best);
        let tt = TranspositionTable::new(1).unwrap();
        assert_eq!(reply_from_table(&pos, &tt, best), None, "an empty table has no reply");
        let reply = after.parse_uci("e7e5").unwrap();
        tt.store(after.key(), 1, reply, 0, 0, 3, TtBound::Exact);
        assert_eq!(reply_from_table(&pos, &tt, best), Some(reply));
        // A move the table holds that is not legal there (a collision) is not pondered on.
        let white_move = pos.parse_uci("d2d4").unwrap();
        tt.store(after.key(), 1, white_move, 0, 0, 4, TtBound::Exact);
        assert_eq!(reply_from_table(&pos, &tt, best), None);
    }
}
