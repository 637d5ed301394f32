//! Optional adjudication by the engines' scores: resign (both engines agree one side is lost
//! for several moves), draw (both engines see a level game for several moves after some move
//! number) and a maximum game length.

use vorpal_engine::{Color, GameResult};

/// Resign rule: the game is won when, for `move_count` consecutive moves of each side, the
/// engines' scores (converted to one side's view) are all at least `score` centipawns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Consecutive moves per side.
    pub move_count: u32,
    /// Threshold in centipawns.
    pub score: i32,
}

/// Draw rule: from full move `move_number` on, when for `move_count` consecutive moves of each
/// side every score is within `score` centipawns of zero, the game is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// First full move number at which the rule may apply.
    pub move_number: u32,
    /// Consecutive moves per side.
    pub move_count: u32,
    /// Threshold in centipawns.
    pub score: i32,
}

/// All adjudication settings of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// Resign rule, if any.
    pub resign: Option<ResignRule>,
    /// Draw rule, if any.
    pub draw: Option<DrawRule>,
    /// Draw after this many full moves, if set.
    pub max_moves: Option<u32>,
}

/// Adjudication state of one game.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    rules: Adjudication,
    /// Consecutive plies with a score of at least the resign threshold for White (positive)
    /// or for Black (negative).
    resign_run: i32,
    /// Consecutive plies with a level score.
    draw_run: u32,
}

impl Adjudicator {
    /// Fresh state for one game.
    pub fn new(rules: Adjudication) -> Adjudicator {
        Adjudicator {
            rules,
            resign_run: 0,
            draw_run: 0,
        }
    }

    /// Records the move just played by `mover` with its engine's score (centipawns from the
    /// mover's view, `None` when no score was reported); `plies` is the number of plies played
    /// in the game so far (this one included). Returns a decision and its explanation.
    pub fn record(&mut self, mover: Color, score: Option<i32>, plies: usize) -> Option<(GameResult, String)> {
        let white_view = score.map(|s| if mover == Color::White { s } else { -s });
        if let Some(rule) = self.rules.resign {
            self.resign_run = match white_view {
                Some(s) if s >= rule.score => self.resign_run.max(0) + 1,
                Some(s) if s <= -rule.score => self.resign_run.min(0) - 1,
                _ => 0,
            };
            if self.resign_run.unsigned_abs() >= 2 * rule.move_count {
                let winner = if self.resign_run > 0 {
                    Color::White
                } else {
                    Color::Black
                };
                let loser = if winner == Color::White { "Black" } else { "White" };
                return Some((GameResult::win_for(winner), format!("{loser} resigns (adjudication)")));
            }
        }
        if let Some(rule) = self.rules.draw {
            let full_moves = plies.div_ceil(2) as u32;
            self.draw_run = match white_view {
                Some(s) if s.abs() <= rule.score && full_moves >= rule.move_number => self.draw_run + 1,
                _ => 0,
            };
            if self.draw_run >= 2 * rule.move_count {
                return Some((GameResult::Draw, "Draw by adjudication".into()));
            }
        }
        if let Some(max) = self.rules.max_moves {
            if plies >= 2 * max as usize {
                return Some((GameResult::Draw, "Draw by maximum game length (adjudication)".into()));
            }
        }
        None
    }
}

/// Parses `key=value` settings into the rule fields (`movecount`, `score`, `movenumber`).
fn settings(tokens: &[String], allowed: &[&str]) -> Result<Vec<(String, i64)>, String> {
    tokens
        .iter()
        .map(|t| {
            let (k, v) = t
                .split_once('=')
                .ok_or_else(|| format!("expected key=value, found '{t}'"))?;
            if !allowed.contains(&k) {
                return Err(format!("unknown setting '{k}' (expected {})", allowed.join(", ")));
            }
            let v: i64 = v.parse().map_err(|_| format!("bad number in '{t}'"))?;
            if v < 0 {
                return Err(format!("'{t}' must not be negative"));
            }
            Ok((k.to_string(), v))
        })
        .collect()
}

fn get(values: &[(String, i64)], key: &str) -> Option<i64> {
    values.iter().rev().find(|(k, _)| k == key).map(|&(_, v)| v)
}

impl ResignRule {
    /// Parses `movecount=M score=N`.
    pub fn parse(tokens: &[String]) -> Result<ResignRule, String> {
        let v = settings(tokens, &["movecount", "score"])?;
        Ok(ResignRule {
            move_count: get(&v, "movecount").ok_or("--resign needs movecount=M")? as u32,
            score: get(&v, "score").ok_or("--resign needs score=N")? as i32,
        })
    }
}

impl DrawRule {
    /// Parses `movenumber=K movecount=M score=N`.
    pub fn parse(tokens: &[String]) -> Result<DrawRule, String> {
        let v = settings(tokens, &["movenumber", "movecount", "score"])?;
        Ok(DrawRule {
            move_number: get(&v, "movenumber").unwrap_or(0) as u32,
            move_count: get(&v, "movecount").ok_or("--draw needs movecount=M")? as u32,
            score: get(&v, "score").ok_or("--draw needs score=N")? as i32,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resign_needs_both_engines_for_the_move_count() {
        let mut a = Adjudicator::new(Adjudication {
            resign: Some(ResignRule {
                move_count: 2,
                score: 500,
            }),
            ..Adjudication::default()
        });
        // White +600 (White's view), Black -700 (Black's view) = +700 for White.
        assert!(a.record(Color::White, Some(600), 1).is_none());
        assert!(a.record(Color::Black, Some(-700), 2).is_none());
        assert!(a.record(Color::White, Some(550), 3).is_none());
        // A missing score breaks the run.
        assert!(a.record(Color::Black, None, 4).is_none());
        assert!(a.record(Color::White, Some(900), 5).is_none());
        assert!(a.record(Color::Black, Some(-900), 6).is_none());
        assert!(a.record(Color::White, Some(900), 7).is_none());
        let (r, why) = a.record(Color::Black, Some(-100_000), 8).unwrap();
        assert_eq!(r, GameResult::WhiteWins);
        assert_eq!(why, "Black resigns (adjudication)");
    }

    #[test]
    fn draw_after_move_number_and_max_moves() {
        let mut a = Adjudicator::new(Adjudication {
            draw: Some(DrawRule {
                move_number: 3,
                move_count: 1,
                score: 10,
            }),
            max_moves: Some(5),
            ..Adjudication::default()
        });
        for ply in 1..=4 {
            assert!(a.record(Color::White, Some(0), ply).is_none(), "ply {ply}");
        }
        assert!(a.record(Color::White, Some(0), 5).is_none());
        assert_eq!(a.record(Color::Black, Some(-5), 6).unwrap().0, GameResult::Draw);
        let mut a = Adjudicator::new(Adjudication {
            max_moves: Some(2),
            ..Adjudication::default()
        });
        assert!(a.record(Color::White, None, 3).is_none());
        assert!(a.record(Color::Black, None, 4).unwrap().1.contains("maximum"));
    }

    #[test]
    fn parsing() {
        let t = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        assert_eq!(
            ResignRule::parse(&t("movecount=3 score=600")).unwrap(),
            ResignRule {
                move_count: 3,
                score: 600
            }
        );
        assert!(ResignRule::parse(&t("score=600")).is_err());
        assert_eq!(
            DrawRule::parse(&t("movenumber=40 movecount=8 score=10"))
                .unwrap()
                .move_number,
            40
        );
        assert!(DrawRule::parse(&t("movecount=8 score=10 foo=1")).is_err());
    }
}
