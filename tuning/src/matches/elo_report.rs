//! What a match report may say about strength. The interval of [`crate::matches::stats`] is a normal
//! approximation; on a handful of games it is far too confident (one game: "Elo 1130 +/- 376,
//! LOS 100 %"; two drawn pairs: "Elo 0 +/- 17"). So an estimate is reported only from
//! [`MIN_PAIRS`] complete game pairs on (or [`MIN_GAMES`] games where the match has no pairs)
//! and only when the results differ, since a sample where every pair scored the same has no
//! measurable spread. Until then the report says "n/a" and why.

use crate::matches::stats::{EloEstimate, Pentanomial, Sprt, Trinomial};
use std::fmt;

/// Complete game pairs needed before an Elo estimate is reported.
pub const MIN_PAIRS: u64 = 10;
/// Games needed before an Elo estimate is reported for a match without game pairs.
pub const MIN_GAMES: u64 = 20;

/// Why a report gives no Elo estimate yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoEstimate {
    /// Fewer samples than the minimum: `have` of `need` game pairs (or games).
    TooFew { have: u64, need: u64, pairs: bool },
    /// Every one of `samples` game pairs (or games) ended with the same score.
    NoSpread { samples: u64, pairs: bool },
}

impl fmt::Display for NoEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unit = |pairs: bool| if pairs { "game pairs" } else { "games" };
        match *self {
            NoEstimate::TooFew { have, need, pairs } => write!(f, "n/a ({have} of {need} {})", unit(pairs)),
            NoEstimate::NoSpread { samples, pairs } => {
                write!(f, "n/a (all {samples} {} scored the same)", unit(pairs))
            }
        }
    }
}

/// The Elo estimate a report may print for these results: from the complete game pairs when
/// there are any, else from the single games.
pub fn reportable_estimate(tri: &Trinomial, penta: Option<&Pentanomial>) -> Result<EloEstimate, NoEstimate> {
    let (counts, pairs): (Vec<u64>, bool) = match penta.filter(|p| p.pairs() > 0) {
        Some(p) => (p.0.to_vec(), true),
        None => (tri.counts_by_score().to_vec(), false),
    };
    let samples: u64 = counts.iter().sum();
    let need = if pairs { MIN_PAIRS } else { MIN_GAMES };
    if samples < need {
        return Err(NoEstimate::TooFew {
            have: samples,
            need,
            pairs,
        });
    }
    if counts.iter().filter(|&&c| c > 0).count() < 2 {
        return Err(NoEstimate::NoSpread { samples, pairs });
    }
    let estimate = match penta.filter(|p| p.pairs() > 0) {
        Some(p) => p.elo_estimate(),
        None => tri.elo_estimate(),
    };
    Ok(estimate.expect("a non-empty sample has an estimate"))
}

/// One summary line for a pairing: Elo with its 95 % interval and LOS (or "n/a" and why), the
/// draw ratio and, with an SPRT, the log-likelihood ratio with its bounds.
pub fn summary_line(tri: &Trinomial, penta: Option<&Pentanomial>, sprt: Option<&Sprt>) -> String {
    let mut line = match reportable_estimate(tri, penta) {
        Ok(e) => format!("Elo: {:.1} +/- {:.1}, LOS: {:.1} %", e.elo, e.elo_error, 100.0 * e.los),
        Err(why) => format!("Elo: {why}, LOS: n/a"),
    };
    if tri.games() > 0 {
        line += &format!(", DrawRatio: {:.1} %", 100.0 * tri.draw_ratio());
    } else {
        line += ", DrawRatio: n/a";
    }
    if let Some(sprt) = sprt {
        let llr = match penta.filter(|p| p.pairs() > 0) {
            Some(p) => sprt.llr(p),
            None => sprt.llr_trinomial(tri),
        };
        line += &format!(
            ", LLR: {:.2} ({:.2}, {:.2}) [{:.2}, {:.2}]",
            llr,
            sprt.lower_bound(),
            sprt.upper_bound(),
            sprt.elo0,
            sprt.elo1
        );
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::stats::EloModel;

    fn sprt(elo0: f64, elo1: f64, model: EloModel) -> Sprt {
        Sprt::new(elo0, elo1, 0.05, 0.05, model).unwrap()
    }

    #[test]
    fn few_games_give_no_estimate() {
        // The cases: one game won; 1.5 of 2; 2-2 in four games (two pairs, each 1-1).
        let one = Trinomial::new(1, 0, 0);
        assert_eq!(
            reportable_estimate(&one, None),
            Err(NoEstimate::TooFew {
                have: 1,
                need: MIN_GAMES,
                pairs: false
            })
        );
        let two = Pentanomial::new([0, 0, 0, 1, 0]);
        assert_eq!(
            reportable_estimate(&Trinomial::new(1, 1, 0), Some(&two)),
            Err(NoEstimate::TooFew {
                have: 1,
                need: MIN_PAIRS,
                pairs: true
            })
        );
        let four = Pentanomial::new([0, 0, 2, 0, 0]);
        assert_eq!(
            summary_line(&Trinomial::new(2, 0, 2), Some(&four), None),
            "Elo: n/a (2 of 10 game pairs), LOS: n/a, DrawRatio: 0.0 %"
        );
    }

    #[test]
    fn pairs_that_all_score_the_same_give_no_estimate() {
        let p = Pentanomial::new([0, 0, 12, 0, 0]);
        let why = reportable_estimate(&Trinomial::new(12, 0, 12), Some(&p)).unwrap_err();
        assert_eq!(why.to_string(), "n/a (all 12 game pairs scored the same)");
        let sweep = Trinomial::new(25, 0, 0);
        assert_eq!(
            reportable_estimate(&sweep, None),
            Err(NoEstimate::NoSpread {
                samples: 25,
                pairs: false
            })
        );
    }

    #[test]
    fn from_the_minimum_on_the_estimate_is_the_statistics_one() {
        let p = Pentanomial::new([1, 2, 4, 2, 1]);
        let t = Trinomial::new(8, 4, 8);
        assert_eq!(reportable_estimate(&t, Some(&p)), Ok(p.elo_estimate().unwrap()));
        let t = Trinomial::new(9, 2, 9);
        assert_eq!(reportable_estimate(&t, None), Ok(t.elo_estimate().unwrap()));
        // Ten pairs is still a small sample: the interval is wide.
        assert!(p.elo_estimate().unwrap().elo_error > 100.0);
    }

    #[test]
    fn summary_line_format() {
        let tri = Trinomial::new(60, 20, 20);
        let s = sprt(0.0, 5.0, EloModel::Logistic);
        assert_eq!(
            summary_line(&tri, None, Some(&s)),
            "Elo: 147.2 +/- 66.0, LOS: 100.0 %, DrawRatio: 20.0 %, LLR: 0.71 (-2.94, 2.94) [0.00, 5.00]"
        );
        assert_eq!(
            summary_line(&tri, None, None),
            "Elo: 147.2 +/- 66.0, LOS: 100.0 %, DrawRatio: 20.0 %"
        );
        // Pentanomial data takes precedence for Elo, LOS and LLR.
        let p = Pentanomial::new([34, 54, 63, 64, 75]);
        let tri = Trinomial::new(210, 180, 190);
        assert_eq!(
            summary_line(&tri, Some(&p), Some(&s)),
            "Elo: 55.6 +/- 27.7, LOS: 100.0 %, DrawRatio: 31.0 %, LLR: 1.34 (-2.94, 2.94) [0.00, 5.00]"
        );
        // No data yet; an empty pentanomial falls back to the trinomial.
        let s = sprt(-1.75, 0.25, EloModel::Normalized);
        assert_eq!(
            summary_line(&Trinomial::default(), Some(&Pentanomial::default()), Some(&s)),
            "Elo: n/a (0 of 20 games), LOS: n/a, DrawRatio: n/a, LLR: 0.00 (-2.94, 2.94) [-1.75, 0.25]"
        );
    }
}
