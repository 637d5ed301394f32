//! The in-process analyst of `vorpal annotate`: the engine's own search (the one `vorpal
//! analyze` runs), with its transposition table and histories kept from one position to the
//! next unless `fresh` asks for an empty table at every position.

use super::review::{Analyst, PositionEval};
use vorpal_engine::search::{Bound, Limits, Report, SearchControl, Searcher};
use vorpal_engine::Game;

/// The engine's search as an [`Analyst`].
pub struct LocalAnalyst {
    searcher: Searcher,
    limits: Limits,
    fresh: bool,
}

impl LocalAnalyst {
    /// An analyst searching each position with `limits`; with `fresh` every search starts
    /// from an empty table (as separate `vorpal analyze` runs would).
    pub fn new(searcher: Searcher, limits: Limits, fresh: bool) -> LocalAnalyst {
        LocalAnalyst {
            searcher,
            limits,
            fresh,
        }
    }
}

impl Analyst for LocalAnalyst {
    fn new_game(&mut self) -> Result<(), String> {
        self.searcher.clear();
        Ok(())
    }

    fn evaluate(&mut self, game: &Game) -> Result<PositionEval, String> {
        if self.fresh {
            self.searcher.clear();
        }
        let control = SearchControl::new();
        let mut line = Vec::new();
        let mut report = |r: Report| {
            if let Report::Info(info) = r {
                if info.multipv == 1 && info.bound == Bound::Exact && !info.pv.is_empty() {
                    line = info.pv;
                }
            }
        };
        let result = self.searcher.search(game, &self.limits, &control, &mut report);
        let best = result.best.ok_or("the search found no move")?;
        if line.first() != Some(&best) {
            line = std::iter::once(best).chain(result.ponder).collect();
        }
        // Keep the legal prefix only (a line is replayed to be printed).
        let mut pos = *game.position();
        let legal = line
            .iter()
            .take_while(|&&mv| {
                let ok = pos.is_legal(mv);
                if ok {
                    pos = pos.after(mv);
                }
                ok
            })
            .count();
        line.truncate(legal);
        Ok(PositionEval {
            score: result.score,
            best: Some(best),
            line,
            nodes: result.nodes,
        })
    }
}
