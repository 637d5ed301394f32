//! Match statistics: win/draw/loss and game-pair counts, Elo estimates with
//! 95 % confidence intervals, likelihood of superiority, normalized Elo and
//! the sequential probability ratio test (SPRT) used to stop engine matches.
//!
//! Conventions (the same as fishtest and fastchess):
//!
//! * Every count is taken from the point of view of the *first* engine.
//! * Scores are normalized to `[0, 1]` per game: a win is 1, a draw ½, a loss 0.
//!   A game pair (same opening, colours swapped) scores 0, ¼, ½, ¾ or 1 per game,
//!   i.e. 0, ½, 1, 1½ or 2 points for the pair.
//! * "Logistic" Elo is `-400 * log10(1 / score - 1)`.
//! * "Normalized" Elo (nElo) is `(score - ½) / σ * 800 / ln 10`, where σ is the
//!   per-game standard deviation of the score (for pentanomial data σ is
//!   `√2` times the standard deviation of the per-game-normalized pair score).
//!   An nElo difference is, up to the constant, the t-value of one game, so it
//!   is (almost) independent of draw rate and opening book.
//!
//! The Elo confidence interval is obtained by mapping `score ± 1.96·σ̂` through
//! the inverse logistic function and taking half the width, as fishtest's
//! `stat_util.get_elo` and fastchess do; σ̂ is the standard error of the mean
//! score computed from the per-game (trinomial) or per-pair (pentanomial)
//! variance. The likelihood of superiority is `Φ((score - ½) / σ̂)`, computed
//! with an `erf` implemented here (std has none on stable). Unlike fishtest,
//! empty outcome categories get a pseudo-count only when all results fall in
//! a single category (otherwise the variance would be zero), so ordinary
//! counts give the plain textbook estimates.
//!
//! The SPRT log-likelihood ratio is the generalized (GSPRT) one used by
//! fishtest's `LLRcalc`: for each hypothesis the maximum-likelihood
//! distribution of the outcome categories that satisfies the hypothesis
//! (expected score for logistic Elo, t-value for normalized Elo) is computed
//! from the observed frequencies, and the LLR is the log-likelihood ratio of
//! the observed data under those two distributions. See Michel Van den Bergh,
//! "Comments on normalized Elo" and "Support for the MLE of a multinomial
//! distribution" (cantate.be/Fishtest). A cheaper normal (Brownian)
//! approximation is available as [`Sprt::llr_approx`].

use std::f64::consts::{PI, SQRT_2};
use std::ops::{Add, AddAssign};

/// Two-sided 95 % quantile of the standard normal distribution, `Φ⁻¹(0.975)`.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Normalized Elo per unit of t-value: `800 / ln 10 ≈ 347.4356`.
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// Pseudo-count substituted for empty outcome categories (fishtest's
/// `LLRcalc.regularize`), so that likelihoods and variances stay finite.
const REGULARIZATION: f64 = 1e-3;

/// Scores are clamped to `[SCORE_CLAMP, 1 - SCORE_CLAMP]` before converting
/// them to Elo in estimates (±1199.8 Elo), as fishtest's `stat_util.elo` does.
const SCORE_CLAMP: f64 = 1e-3;

/// Result of a single game from the first engine's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameOutcome {
    /// The first engine won.
    Win,
    /// The game was drawn.
    Draw,
    /// The first engine lost.
    Loss,
}

impl GameOutcome {
    /// Half-points scored by the first engine: 2 for a win, 1 for a draw, 0 for a loss.
    pub const fn half_points(self) -> usize {
        match self {
            GameOutcome::Win => 2,
            GameOutcome::Draw => 1,
            GameOutcome::Loss => 0,
        }
    }

    /// Score of the first engine: 1, ½ or 0.
    pub fn score(self) -> f64 {
        self.half_points() as f64 / 2.0
    }

    /// The same game seen from the other engine's side.
    pub const fn flipped(self) -> Self {
        match self {
            GameOutcome::Win => GameOutcome::Loss,
            GameOutcome::Draw => GameOutcome::Draw,
            GameOutcome::Loss => GameOutcome::Win,
        }
    }
}

/// Win/draw/loss counts of single games (the trinomial model).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Trinomial {
    /// Games won by the first engine.
    pub wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games lost by the first engine.
    pub losses: u64,
}

impl Trinomial {
    /// Counts from the given numbers of wins, draws and losses.
    pub const fn new(wins: u64, draws: u64, losses: u64) -> Self {
        Trinomial { wins, draws, losses }
    }

    /// Records one game.
    pub fn add_game(&mut self, outcome: GameOutcome) {
        match outcome {
            GameOutcome::Win => self.wins += 1,
            GameOutcome::Draw => self.draws += 1,
            GameOutcome::Loss => self.losses += 1,
        }
    }

    /// Number of games played.
    pub const fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points scored by the first engine (wins + ½ draws).
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Mean score per game in `[0, 1]`; ½ when no game has been played.
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => self.points() / n as f64,
        }
    }

    /// Fraction of drawn games in `[0, 1]`; 0 when no game has been played.
    pub fn draw_ratio(&self) -> f64 {
        match self.games() {
            0 => 0.0,
            n => self.draws as f64 / n as f64,
        }
    }

    /// The counts from the other engine's point of view.
    pub const fn flipped(&self) -> Self {
        Trinomial::new(self.losses, self.draws, self.wins)
    }

    /// Counts ordered by increasing score: `[losses, draws, wins]`.
    pub const fn counts_by_score(&self) -> [u64; 3] {
        [self.losses, self.draws, self.wins]
    }

    /// Elo, confidence interval, LOS and nElo from the per-game score
    /// variance; `None` when no game has been played.
    pub fn elo_estimate(&self) -> Option<EloEstimate> {
        estimate(self.counts_by_score(), 1.0)
    }
}

impl AddAssign for Trinomial {
    fn add_assign(&mut self, rhs: Self) {
        self.wins += rhs.wins;
        self.draws += rhs.draws;
        self.losses += rhs.losses;
    }
}

impl Add for Trinomial {
    type Output = Trinomial;

    fn add(mut self, rhs: Self) -> Self {
        self += rhs;
        self
    }
}

/// Game-pair counts (the pentanomial model), indexed by the first engine's
/// points in the pair times two: `[LL, LD, DD + WL, WD, WW]`, i.e. pairs
/// scoring 0, ½, 1, 1½ and 2 points.
///
/// Pairs are games played from the same opening with colours reversed; their
/// results are correlated, so the pair is the independent sample and the
/// pentanomial variance is the honest one (the trinomial model overestimates
/// it when openings are unbalanced).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Index of pairs lost twice (0 points).
    pub const LL: usize = 0;
    /// Index of pairs with a loss and a draw (½ point).
    pub const LD: usize = 1;
    /// Index of pairs with two draws or a win and a loss (1 point).
    pub const DD_WL: usize = 2;
    /// Index of pairs with a win and a draw (1½ points).
    pub const WD: usize = 3;
    /// Index of pairs won twice (2 points).
    pub const WW: usize = 4;

    /// Counts from `[LL, LD, DD + WL, WD, WW]`.
    pub const fn new(counts: [u64; 5]) -> Self {
        Pentanomial(counts)
    }

    /// Records a pair from the two games' outcomes, both from the first
    /// engine's point of view (order does not matter).
    pub fn add_pair(&mut self, first: GameOutcome, second: GameOutcome) {
        self.add_pair_half_points(first.half_points() + second.half_points());
    }

    /// Records a pair worth `half_points` half-points (0..=4) to the first engine.
    ///
    /// # Panics
    /// If `half_points > 4`.
    pub fn add_pair_half_points(&mut self, half_points: usize) {
        assert!(half_points <= 4, "a game pair scores 0..=4 half-points");
        self.0[half_points] += 1;
    }

    /// Number of game pairs.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Number of games (two per pair).
    pub fn games(&self) -> u64 {
        2 * self.pairs()
    }

    /// Mean score per game in `[0, 1]`; ½ when no pair has been played.
    pub fn score(&self) -> f64 {
        match self.pairs() {
            0 => 0.5,
            n => {
                let quarters: f64 = self.0.iter().enumerate().map(|(i, &c)| i as f64 * c as f64).sum();
                quarters / (4.0 * n as f64)
            }
        }
    }

    /// The counts from the other engine's point of view.
    pub fn flipped(&self) -> Self {
        let mut c = self.0;
        c.reverse();
        Pentanomial(c)
    }

    /// Elo, confidence interval, LOS and nElo from the per-pair score
    /// variance; `None` when no pair has been played.
    pub fn elo_estimate(&self) -> Option<EloEstimate> {
        // Per-game variance = 2 × variance of the per-game-normalized pair score.
        estimate(self.0, 2.0)
    }
}

impl AddAssign for Pentanomial {
    fn add_assign(&mut self, rhs: Self) {
        for (a, b) in self.0.iter_mut().zip(rhs.0) {
            *a += b;
        }
    }
}

impl Add for Pentanomial {
    type Output = Pentanomial;

    fn add(mut self, rhs: Self) -> Self {
        self += rhs;
        self
    }
}

/// Strength estimate derived from match counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Mean score per game in `[0, 1]`.
    pub score: f64,
    /// Standard error of `score` (σ of the sample divided by √samples).
    pub score_std_error: f64,
    /// Logistic Elo difference of the mean score.
    pub elo: f64,
    /// Half-width of the 95 % confidence interval in logistic Elo.
    pub elo_error: f64,
    /// Lower end of the 95 % confidence interval (Elo of `score - 1.96·σ̂`).
    pub elo_lower: f64,
    /// Upper end of the 95 % confidence interval (Elo of `score + 1.96·σ̂`).
    pub elo_upper: f64,
    /// Likelihood of superiority `Φ((score - ½) / σ̂)` in `[0, 1]`.
    pub los: f64,
    /// Normalized Elo difference.
    pub nelo: f64,
    /// Half-width of the 95 % confidence interval in normalized Elo.
    pub nelo_error: f64,
}

/// Logistic Elo difference corresponding to an expected score in `[0, 1]`:
/// `-400 · log10(1 / score - 1)`. Returns ±∞ at 0 and 1 and NaN outside.
pub fn logistic_elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Expected score of a logistic Elo difference: `1 / (1 + 10^(-elo / 400))`.
pub fn logistic_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, accurate to about 1e-15 relative error.
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        x
    } else if x.abs() < 1.5 {
        erf_series(x)
    } else {
        x.signum() * (1.0 - erfc_continued_fraction(x.abs()))
    }
}

/// The complementary error function `1 - erf(x)`, accurate in both tails.
pub fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        x
    } else if x.abs() < 1.5 {
        1.0 - erf_series(x)
    } else if x > 0.0 {
        erfc_continued_fraction(x)
    } else {
        2.0 - erfc_continued_fraction(-x)
    }
}

/// Standard normal cumulative distribution function `Φ(x)`.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / SQRT_2)
}

/// `erf(x) = 2/√π · e^(-x²) · Σ 2ⁿ x^(2n+1) / (1·3·…·(2n+1))`; every term has
/// the sign of `x`, so there is no cancellation. Used for `|x| < 1.5`.
fn erf_series(x: f64) -> f64 {
    let x2 = x * x;
    let mut term = x;
    let mut sum = x;
    let mut n = 0.0;
    while term.abs() > 1e-17 * sum.abs() {
        n += 1.0;
        term *= 2.0 * x2 / (2.0 * n + 1.0);
        sum += term;
    }
    2.0 / PI.sqrt() * (-x2).exp() * sum
}

/// `erfc(x) = e^(-x²)/√π / (x + (1/2)/(x + 1/(x + (3/2)/(x + …))))` for `x ≥ 1.5`,
/// evaluated bottom-up with a fixed depth that is ample for that range.
fn erfc_continued_fraction(x: f64) -> f64 {
    let mut f = x;
    for k in (1..=100).rev() {
        f = x + (k as f64 / 2.0) / f;
    }
    (-x * x).exp() / PI.sqrt() / f
}

/// Mean and variance of the values `i / (N - 1)` under the weights `w`
/// (which must sum to `total`).
fn mean_var<const N: usize>(w: &[f64; N], total: f64) -> (f64, f64) {
    let value = |i: usize| i as f64 / (N - 1) as f64;
    let mean = (0..N).map(|i| w[i] * value(i)).sum::<f64>() / total;
    let var = (0..N).map(|i| w[i] * (value(i) - mean).powi(2)).sum::<f64>() / total;
    (mean, var)
}

/// Clamps a score for conversion to a finite Elo value.
fn clamp_score(s: f64) -> f64 {
    s.clamp(SCORE_CLAMP, 1.0 - SCORE_CLAMP)
}

/// Shared estimator for trinomial (`N = 3`) and pentanomial (`N = 5`) counts
/// ordered by increasing score. `per_game_var_factor` converts the variance
/// of one sample's normalized score into a per-game variance (1 for single
/// games, 2 for pairs).
fn estimate<const N: usize>(counts: [u64; N], per_game_var_factor: f64) -> Option<EloEstimate> {
    if counts.iter().all(|&c| c == 0) {
        return None;
    }
    // With a single non-empty category the variance is zero; mix in
    // fishtest's small prior so that the interval and LOS stay defined.
    let degenerate = counts.iter().filter(|&&c| c > 0).count() < 2;
    let w = counts.map(|c| if degenerate && c == 0 { REGULARIZATION } else { c as f64 });
    let n: f64 = w.iter().sum();
    let (score, var) = mean_var(&w, n);
    let se = (var / n).sqrt();
    let elo_lower = logistic_elo(clamp_score(score - Z_95 * se));
    let elo_upper = logistic_elo(clamp_score(score + Z_95 * se));
    let sd_per_game = (var * per_game_var_factor).sqrt();
    Some(EloEstimate {
        score,
        score_std_error: se,
        elo: logistic_elo(clamp_score(score)),
        elo_error: (elo_upper - elo_lower) / 2.0,
        elo_lower,
        elo_upper,
        los: normal_cdf((score - 0.5) / se),
        nelo: (score - 0.5) / sd_per_game * NELO_PER_T,
        nelo_error: Z_95 * se / sd_per_game * NELO_PER_T,
    })
}

/// How the SPRT bounds `elo0` / `elo1` are expressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EloModel {
    /// Logistic Elo: the hypotheses are expected scores `logistic_score(elo)`.
    Logistic,
    /// Normalized Elo: the hypotheses are per-game t-values `nelo / NELO_PER_T`
    /// (fishtest's default for Stockfish tests).
    Normalized,
}

/// Decision of a sequential probability ratio test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SprtStatus {
    /// The LLR is between the bounds: keep playing.
    Continue,
    /// The LLR reached the lower bound: H0 (`elo = elo0`) is accepted.
    AcceptH0,
    /// The LLR reached the upper bound: H1 (`elo = elo1`) is accepted.
    AcceptH1,
}

/// Parameters of a sequential probability ratio test of H0: `elo = elo0`
/// against H1: `elo = elo1` with type I error `alpha` and type II error `beta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference under the null hypothesis H0.
    pub elo0: f64,
    /// Elo difference under the alternative hypothesis H1 (`> elo0`).
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds (false positive).
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds (false negative).
    pub beta: f64,
    /// Scale in which `elo0` and `elo1` are given.
    pub model: EloModel,
}

impl Sprt {
    /// A validated test; see [`Sprt::validate`] for the conditions.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64, model: EloModel) -> Result<Self, String> {
        let sprt = Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        };
        sprt.validate()?;
        Ok(sprt)
    }

    /// Checks that the bounds are finite with `elo0 < elo1`, that `alpha` and
    /// `beta` lie in `(0, 1)` and that `alpha + beta < 1`.
    pub fn validate(&self) -> Result<(), String> {
        if !(self.elo0.is_finite() && self.elo1.is_finite()) {
            return Err(format!(
                "SPRT: elo0 ({}) and elo1 ({}) must be finite",
                self.elo0, self.elo1
            ));
        }
        if self.elo0 >= self.elo1 {
            return Err(format!(
                "SPRT: elo0 ({}) must be less than elo1 ({})",
                self.elo0, self.elo1
            ));
        }
        for (name, p) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(p > 0.0 && p < 1.0) {
                return Err(format!("SPRT: {name} ({p}) must be strictly between 0 and 1"));
            }
        }
        if self.alpha + self.beta >= 1.0 {
            return Err(format!(
                "SPRT: alpha + beta ({}) must be less than 1",
                self.alpha + self.beta
            ));
        }
        Ok(())
    }

    /// Lower LLR bound `ln(beta / (1 - alpha))`; reaching it accepts H0.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Upper LLR bound `ln((1 - beta) / alpha)`; reaching it accepts H1.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// Generalized log-likelihood ratio of H1 versus H0 for pentanomial data,
    /// computed as fishtest's `LLR_logistic` / `LLR_normalized`: empty
    /// categories get a pseudo-count of 0.001, the constrained maximum
    /// likelihood distributions are found by solving the secular equation
    /// (logistic: prescribed expected score; normalized: prescribed t-value,
    /// by fixed-point iteration), and the LLR is the observed data's
    /// log-likelihood ratio under them. Returns 0 when no pair has been played.
    /// Falls back to [`Sprt::llr_approx`] if the maximum likelihood problem
    /// has no solution (only conceivable for absurd bounds).
    pub fn llr(&self, penta: &Pentanomial) -> f64 {
        self.gsprt(penta.0).unwrap_or_else(|| self.approx(penta.0))
    }

    /// Generalized log-likelihood ratio for games not played in pairs
    /// (trinomial data); same method as [`Sprt::llr`].
    pub fn llr_trinomial(&self, tri: &Trinomial) -> f64 {
        let counts = tri.counts_by_score();
        self.gsprt(counts).unwrap_or_else(|| self.approx(counts))
    }

    /// Normal (Brownian motion) approximation of the GSPRT log-likelihood
    /// ratio for pentanomial data (fishtest's `LLR_alt2`):
    /// `N · (s1 - s0) · (2·s - s0 - s1) / (2·σ²)`, where `s` and `σ²` are the
    /// mean and variance of the per-game-normalized pair score over `N` pairs
    /// and `s0`, `s1` the scores of the hypotheses (for normalized Elo,
    /// `½ + t·σ` with the pair t-value `t = √2 · nelo / NELO_PER_T`).
    /// Close to [`Sprt::llr`] for small Elo differences and many pairs.
    pub fn llr_approx(&self, penta: &Pentanomial) -> f64 {
        self.approx(penta.0)
    }

    /// Normal approximation of the log-likelihood ratio for trinomial data;
    /// see [`Sprt::llr_approx`].
    pub fn llr_trinomial_approx(&self, tri: &Trinomial) -> f64 {
        self.approx(tri.counts_by_score())
    }

    /// Decision for pentanomial data, using [`Sprt::llr`].
    pub fn status(&self, penta: &Pentanomial) -> SprtStatus {
        self.status_for_llr(self.llr(penta))
    }

    /// Decision for trinomial data, using [`Sprt::llr_trinomial`].
    pub fn status_trinomial(&self, tri: &Trinomial) -> SprtStatus {
        self.status_for_llr(self.llr_trinomial(tri))
    }

    /// Decision for a given LLR: H1 at or above the upper bound, H0 at or
    /// below the lower bound, otherwise continue.
    pub fn status_for_llr(&self, llr: f64) -> SprtStatus {
        if llr >= self.upper_bound() {
            SprtStatus::AcceptH1
        } else if llr <= self.lower_bound() {
            SprtStatus::AcceptH0
        } else {
            SprtStatus::Continue
        }
    }

    /// Hypothesis parameters for `N` outcome categories: expected scores
    /// (logistic) or t-values of one sample (normalized; a pair's t-value is
    /// √2 times the per-game one).
    fn hypotheses<const N: usize>(&self) -> (f64, f64) {
        match self.model {
            EloModel::Logistic => (logistic_score(self.elo0), logistic_score(self.elo1)),
            EloModel::Normalized => {
                let scale = if N == 5 { SQRT_2 } else { 1.0 };
                (scale * self.elo0 / NELO_PER_T, scale * self.elo1 / NELO_PER_T)
            }
        }
    }

    /// Exact GSPRT LLR; `None` if a constrained MLE does not exist.
    fn gsprt<const N: usize>(&self, counts: [u64; N]) -> Option<f64> {
        let emp = Empirical::new(counts)?;
        let (h0, h1) = self.hypotheses::<N>();
        let (p0, p1) = match self.model {
            EloModel::Logistic => (emp.mle_with_mean(h0)?, emp.mle_with_mean(h1)?),
            EloModel::Normalized => (emp.mle_with_t(0.5, h0)?, emp.mle_with_t(0.5, h1)?),
        };
        let per_sample: f64 = (0..N).map(|i| emp.probs[i] * (p1[i].ln() - p0[i].ln())).sum();
        let llr = emp.total * per_sample;
        llr.is_finite().then_some(llr)
    }

    /// Normal approximation of the LLR (0 for empty data).
    fn approx<const N: usize>(&self, counts: [u64; N]) -> f64 {
        let Some(emp) = Empirical::new(counts) else {
            return 0.0;
        };
        let (mean, var) = mean_var(&emp.probs, 1.0);
        let (h0, h1) = self.hypotheses::<N>();
        let (s0, s1) = match self.model {
            EloModel::Logistic => (h0, h1),
            EloModel::Normalized => (0.5 + h0 * var.sqrt(), 0.5 + h1 * var.sqrt()),
        };
        emp.total * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }
}

/// Regularized empirical distribution over the scores `i / (N - 1)`.
struct Empirical<const N: usize> {
    /// Number of samples (after regularization).
    total: f64,
    /// Observed frequency of each category.
    probs: [f64; N],
}

impl<const N: usize> Empirical<N> {
    /// `None` for empty data; otherwise zero counts become 0.001 as in fishtest.
    fn new(counts: [u64; N]) -> Option<Self> {
        if counts.iter().all(|&c| c == 0) {
            return None;
        }
        let w = counts.map(|c| if c == 0 { REGULARIZATION } else { c as f64 });
        let total: f64 = w.iter().sum();
        Some(Empirical {
            total,
            probs: w.map(|x| x / total),
        })
    }

    fn value(i: usize) -> f64 {
        i as f64 / (N - 1) as f64
    }

    /// Maximum likelihood distribution with expected score `s`:
    /// `p_i = p̂_i / (1 + x·(a_i - s))` with `x` the root of the secular equation.
    fn mle_with_mean(&self, s: f64) -> Option<[f64; N]> {
        let d: [f64; N] = std::array::from_fn(|i| Self::value(i) - s);
        let x = solve_secular(&self.probs, &d)?;
        Some(std::array::from_fn(|i| self.probs[i] / (1.0 + x * d[i])))
    }

    /// Maximum likelihood distribution with t-value `(μ - reference) / σ = t`,
    /// by the fixed-point iteration of Van den Bergh ("Comments on normalized
    /// Elo", section 4.1), started from the uniform distribution.
    fn mle_with_t(&self, reference: f64, t: f64) -> Option<[f64; N]> {
        const MAX_ITERATIONS: usize = 200;
        const TOLERANCE: f64 = 1e-13;
        let mut p = [1.0 / N as f64; N];
        for _ in 0..MAX_ITERATIONS {
            let (mu, var) = mean_var(&p, 1.0);
            let sigma = var.sqrt();
            if sigma.is_nan() || sigma <= 0.0 {
                return None;
            }
            let phi: [f64; N] = std::array::from_fn(|i| {
                let a = Self::value(i);
                let z = (a - mu) / sigma;
                a - reference - 0.5 * t * sigma * (1.0 + z * z)
            });
            let x = solve_secular(&self.probs, &phi)?;
            let next: [f64; N] = std::array::from_fn(|i| self.probs[i] / (1.0 + x * phi[i]));
            let change = (0..N).map(|i| (next[i] - p[i]).abs()).fold(0.0, f64::max);
            p = next;
            if change < TOLERANCE {
                break;
            }
        }
        Some(p)
    }
}

/// Root `x` of the secular equation `Σ p_i·d_i / (1 + x·d_i) = 0` on the
/// interval where every `1 + x·d_i > 0`. The left side decreases strictly
/// from +∞ to -∞ there, so bisection down to adjacent floating-point numbers
/// finds the unique root. `None` unless the `d_i` take both signs.
fn solve_secular<const N: usize>(p: &[f64; N], d: &[f64; N]) -> Option<f64> {
    let d_min = d.iter().copied().fold(f64::INFINITY, f64::min);
    let d_max = d.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(d_min < 0.0 && d_max > 0.0) {
        return None;
    }
    let f = |x: f64| (0..N).map(|i| p[i] * d[i] / (1.0 + x * d[i])).sum::<f64>();
    let (mut lo, mut hi) = (-1.0 / d_max, -1.0 / d_min);
    for _ in 0..2100 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        let v = f(mid);
        if v > 0.0 {
            lo = mid;
        } else if v < 0.0 {
            hi = mid;
        } else {
            return Some(mid);
        }
    }
    Some(0.5 * (lo + hi))
}

#[cfg(test)]
mod tests {
    //! Reference values come from two places:
    //!
    //! * "fishtest": fishtest's own `server/fishtest/stats/LLRcalc.py` and
    //!   `stat_util.py` (run unmodified in Python with pure-Python stand-ins
    //!   for `scipy.optimize.brentq` / `scipy.stats.norm`), printed to full
    //!   precision, cross-checked by an independent pure-Python
    //!   implementation of the same formulas that iterates the MLE to
    //!   convergence (agreement ≤ 1e-11).
    //! * "fastchess": numbers published in fastchess's unit tests
    //!   (`app/tests/elo_test.cpp`, `app/tests/sprt_test.cpp`), given there
    //!   to two decimals.

    use super::*;

    #[track_caller]
    fn close(actual: f64, expected: f64, tol: f64) {
        assert!(
            (actual - expected).abs() <= tol,
            "expected {expected} ± {tol}, got {actual} (diff {})",
            actual - expected
        );
    }

    fn sprt(elo0: f64, elo1: f64, model: EloModel) -> Sprt {
        Sprt::new(elo0, elo1, 0.05, 0.05, model).unwrap()
    }

    /// Fastchess's `Stats(ll, ld, wl, dd, wd, ww)` as a pentanomial.
    fn fastchess_penta(ll: u64, ld: u64, wl: u64, dd: u64, wd: u64, ww: u64) -> Pentanomial {
        Pentanomial::new([ll, ld, wl + dd, wd, ww])
    }

    #[test]
    fn logistic_elo_reference_values() {
        close(logistic_elo(0.5), 0.0, 1e-12);
        close(logistic_elo(0.75), 190.848501887865, 1e-9);
        close(logistic_elo(0.25), -190.848501887865, 1e-9);
        close(logistic_elo(0.6), 70.43650362227247, 1e-9);
        close(logistic_elo(0.9), 381.69700377572985, 1e-9);
        assert_eq!(logistic_elo(1.0), f64::INFINITY);
        assert_eq!(logistic_elo(0.0), f64::NEG_INFINITY);
        close(logistic_score(100.0), 0.6400649998028851, 1e-14);
        close(logistic_score(-200.0), 0.2402530733520421, 1e-14);
        for s in [0.01, 0.3, 0.5, 0.77, 0.99] {
            close(logistic_score(logistic_elo(s)), s, 1e-14);
        }
    }

    #[test]
    fn erf_and_normal_cdf_reference_values() {
        // Python math.erf / math.erfc.
        close(erf(0.0), 0.0, 0.0);
        close(erf(0.5), 0.5204998778130465, 1e-15);
        close(erf(1.0), 0.8427007929497149, 1e-15);
        close(erf(-1.0), -0.8427007929497149, 1e-15);
        close(erf(2.0), 0.9953222650189527, 1e-15);
        close(erfc(3.0) / 2.2090496998585438e-05, 1.0, 1e-13);
        close(erfc(5.0) / 1.5374597944280351e-12, 1.0, 1e-13);
        close(erfc(-2.0), 1.0 + 0.9953222650189527, 1e-15);
        close(normal_cdf(Z_95), 0.975, 1e-15);
        close(normal_cdf(-1.0), 0.15865525393145707, 1e-15);
        close(normal_cdf(0.0), 0.5, 0.0);
        close(NELO_PER_T, 347.43558552260146, 1e-12);
    }

    #[test]
    fn counting_helpers() {
        let mut t = Trinomial::default();
        for o in [GameOutcome::Win, GameOutcome::Win, GameOutcome::Draw, GameOutcome::Loss] {
            t.add_game(o);
        }
        assert_eq!(t, Trinomial::new(2, 1, 1));
        assert_eq!(t.games(), 4);
        close(t.points(), 2.5, 0.0);
        close(t.score(), 0.625, 1e-15);
        close(t.draw_ratio(), 0.25, 1e-15);
        assert_eq!(t.flipped(), Trinomial::new(1, 1, 2));
        assert_eq!(t + t, Trinomial::new(4, 2, 2));
        close(Trinomial::default().score(), 0.5, 0.0);
        close(Trinomial::default().draw_ratio(), 0.0, 0.0);

        let mut p = Pentanomial::default();
        use GameOutcome::*;
        p.add_pair(Loss, Loss);
        p.add_pair(Draw, Loss);
        p.add_pair(Loss, Draw);
        p.add_pair(Draw, Draw);
        p.add_pair(Win, Loss);
        p.add_pair(Loss, Win);
        p.add_pair(Win, Draw);
        p.add_pair(Win, Win);
        p.add_pair_half_points(4);
        assert_eq!(p, Pentanomial::new([1, 2, 3, 1, 2]));
        assert_eq!(p.0[Pentanomial::DD_WL], 3);
        assert_eq!(p.pairs(), 9);
        assert_eq!(p.games(), 18);
        close(p.score(), (2.0 * 0.25 + 3.0 * 0.5 + 0.75 + 2.0) / 9.0, 1e-15);
        assert_eq!(p.flipped(), Pentanomial::new([2, 1, 3, 2, 1]));
        assert_eq!(p + p, Pentanomial::new([2, 4, 6, 2, 4]));
        assert_eq!(Win.flipped(), Loss);
        close(Draw.score(), 0.5, 0.0);
    }

    #[test]
    #[should_panic(expected = "half-points")]
    fn pair_half_points_out_of_range_panics() {
        Pentanomial::default().add_pair_half_points(5);
    }

    #[test]
    fn trinomial_60_20_20() {
        // fishtest stat_util.get_elo([20, 20, 60]) = (147.19071411783776, 66.01338122038536, 0.9999997133484281)
        let e = Trinomial::new(60, 20, 20).elo_estimate().unwrap();
        close(e.score, 0.7, 1e-15);
        close(e.elo, 147.19071411783776, 1e-9);
        close(e.elo_error, 66.01338122038536, 1e-9);
        close(e.los, 0.9999997133484281, 1e-12);
        // Independent formula evaluation (Python).
        // Per-game variance 0.16 over 100 games -> standard error 0.04.
        close(e.score_std_error, 0.04, 1e-15);
        close(e.elo_lower, 86.2250152003, 1e-8);
        close(e.elo_upper, 218.2517776411, 1e-8);
        close(e.nelo, 173.7177927613, 1e-8);
        close(e.nelo_error, 68.0961234572, 1e-8);
        close(Trinomial::new(60, 20, 20).draw_ratio(), 0.2, 1e-15);
    }

    #[test]
    fn trinomial_fastchess_elo_wdl() {
        // fastchess EloWDL 1: Stats(wins 76, losses 89, draws 123):
        // nElo -20.76 +/- 40.13, LOS "15.53 %".
        let e = Trinomial::new(76, 123, 89).elo_estimate().unwrap();
        close(e.nelo, -20.76, 0.005);
        close(e.nelo_error, 40.13, 0.005);
        close(100.0 * e.los, 15.53, 0.005);
        // fishtest get_elo([89, 123, 76]).
        close(e.elo, -15.693520705432237, 1e-9);
        close(e.elo_error, 30.45800071698045, 1e-9);
        close(e.los, 0.15532643492749837, 1e-12);

        // fastchess EloWDL 2: Stats(wins 136, losses 96, draws 111):
        // Elo 40.70 +/- 30.43, nElo 49.77 +/- 36.77, LOS "99.60 %".
        let e = Trinomial::new(136, 111, 96).elo_estimate().unwrap();
        close(e.elo, 40.70, 0.005);
        close(e.elo_error, 30.43, 0.005);
        close(e.nelo, 49.77, 0.005);
        close(e.nelo_error, 36.77, 0.005);
        close(100.0 * e.los, 99.60, 0.005);
        close(e.elo, 40.702458186527075, 1e-9);
        close(e.elo_error, 30.42721794360099, 1e-9);
        close(e.los, 0.9960102357334972, 1e-12);

        // fastchess EloWDL 3: Stats(wins 34, losses 356, draws 0): nElo -508.44 +/- 34.48.
        let e = Trinomial::new(34, 0, 356).elo_estimate().unwrap();
        close(e.nelo, -508.44, 0.005);
        close(e.nelo_error, 34.48, 0.005);
        close(e.elo, -407.9884323722, 1e-8);
        close(e.elo_error, 63.1645147358, 1e-8);
    }

    #[test]
    fn pentanomial_fastchess_elo() {
        // fastchess EloPentanomial 1: Stats(34, 54, 31, 32, 64, 75):
        // Elo 55.58 +/- 27.65, nElo 57.94 +/- 28.28, LOS "100.00 %".
        let e = fastchess_penta(34, 54, 31, 32, 64, 75).elo_estimate().unwrap();
        close(e.elo, 55.58, 0.005);
        close(e.elo_error, 27.65, 0.005);
        close(e.nelo, 57.94, 0.005);
        close(e.nelo_error, 28.28, 0.005);
        close(100.0 * e.los, 100.0, 0.005);
        // fishtest get_elo([34, 54, 63, 64, 75]).
        close(e.elo, 55.57978042044588, 1e-9);
        close(e.elo_error, 27.65342950639345, 1e-9);
        close(e.los, 0.9999703930084313, 1e-12);
        close(e.elo_lower, 28.2761597574, 1e-8);
        close(e.elo_upper, 83.5830187702, 1e-8);

        // fastchess EloPentanomial 2: Elo -8.64 +/- 10.33, nElo -9.17 +/- 10.96, LOS "5.05 %".
        let e = fastchess_penta(332, 433, 457, 41, 333, 334).elo_estimate().unwrap();
        close(e.elo, -8.64, 0.005);
        close(e.elo_error, 10.33, 0.005);
        close(e.nelo, -9.17, 0.005);
        close(e.nelo_error, 10.96, 0.005);
        close(100.0 * e.los, 5.05, 0.005);
        close(e.elo, -8.64266726796901, 1e-9);
        close(e.elo_error, 10.334194424393056, 1e-9);
        close(e.los, 0.05047006698252936, 1e-12);

        // fastchess EloPentanomial 3: Elo -21.04 +/- 2.95, nElo -19.01 +/- 2.65.
        let e = fastchess_penta(7895, 8757, 5485, 200, 568, 9999)
            .elo_estimate()
            .unwrap();
        close(e.elo, -21.04, 0.005);
        close(e.elo_error, 2.95, 0.005);
        close(e.nelo, -19.01, 0.005);
        close(e.nelo_error, 2.65, 0.005);
        close(e.elo, -21.04352057817286, 1e-9);
        close(e.elo_error, 2.945280868527817, 1e-9);
    }

    #[test]
    fn pentanomial_fishtest_example() {
        // The pentanomial from fishtest's stat_util self-test; get_elo gives
        // (-0.7735773359165423, 1.2775798957280218, 0.11765885803277504).
        let p = Pentanomial::new([10789, 19328, 33806, 19402, 10543]);
        let e = p.elo_estimate().unwrap();
        close(e.elo, -0.7735773359165423, 1e-9);
        close(e.elo_error, 1.2775798957280218, 1e-9);
        close(e.los, 0.11765885803277504, 1e-12);
        close(e.nelo, -0.9516290045, 1e-8);
        close(e.nelo_error, 1.5716238441, 1e-8);
        // Flipping the point of view negates the Elo.
        let f = p.flipped().elo_estimate().unwrap();
        close(f.elo, -e.elo, 1e-9);
        close(f.los, 1.0 - e.los, 1e-12);
    }

    #[test]
    fn degenerate_and_empty_estimates() {
        assert!(Trinomial::default().elo_estimate().is_none());
        assert!(Pentanomial::default().elo_estimate().is_none());
        // fishtest get_elo([0, 0, 10]) = (1199.8261952903777, 170.5057564466158, 1.0).
        let e = Trinomial::new(10, 0, 0).elo_estimate().unwrap();
        close(e.elo, 1199.8261952903777, 1e-9);
        close(e.elo_error, 170.5057564466158, 1e-9);
        close(e.los, 1.0, 1e-12);
        // fishtest get_elo([0, 0, 0, 0, 104]) = (1199.8261952903777, 0.0, 1.0).
        let e = Pentanomial::new([0, 0, 0, 0, 104]).elo_estimate().unwrap();
        close(e.elo, 1199.8261952903777, 1e-9);
        close(e.elo_error, 0.0, 1e-9);
        // All draws: exactly zero Elo, finite interval.
        let e = Trinomial::new(0, 50, 0).elo_estimate().unwrap();
        close(e.elo, 0.0, 1e-12);
        close(e.los, 0.5, 1e-12);
        assert!(e.elo_error.is_finite() && e.elo_error > 0.0);
    }

    #[test]
    fn sprt_bounds() {
        let s = sprt(0.0, 5.0, EloModel::Logistic);
        close(s.lower_bound(), -2.9444389791664403, 1e-12);
        close(s.upper_bound(), 2.9444389791664403, 1e-12);
        let s = Sprt::new(0.0, 5.0, 0.1, 0.05, EloModel::Normalized).unwrap();
        close(s.lower_bound(), -2.8903717578961645, 1e-12);
        close(s.upper_bound(), 2.251291798606495, 1e-12);
    }

    #[test]
    fn sprt_validation() {
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05, EloModel::Logistic).is_err());
        assert!(Sprt::new(0.0, 0.0, 0.05, 0.05, EloModel::Logistic).is_err());
        assert!(Sprt::new(0.0, f64::INFINITY, 0.05, 0.05, EloModel::Logistic).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05, EloModel::Logistic).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.05, 1.0, EloModel::Logistic).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.6, 0.5, EloModel::Logistic).is_err());
        assert!(Sprt::new(-1.75, 0.25, 0.05, 0.05, EloModel::Normalized).is_ok());
    }

    /// Checks [`Sprt::llr`] against fishtest's value (to 1e-7) and, when
    /// given, fastchess's published two-decimal value.
    #[track_caller]
    fn check_llr(s: Sprt, p: Pentanomial, fishtest: f64, fastchess: Option<f64>) {
        let llr = s.llr(&p);
        close(llr, fishtest, 1e-7);
        if let Some(published) = fastchess {
            close(llr, published, 0.005);
        }
    }

    /// Same as `check_llr` for [`Sprt::llr_trinomial`].
    #[track_caller]
    fn check_llr_tri(s: Sprt, t: Trinomial, fishtest: f64, fastchess: Option<f64>) {
        let llr = s.llr_trinomial(&t);
        close(llr, fishtest, 1e-7);
        if let Some(published) = fastchess {
            close(llr, published, 0.005);
        }
    }

    #[test]
    fn pentanomial_llr_matches_fishtest_and_fastchess() {
        use EloModel::{Logistic, Normalized};
        // fastchess sprt_test.cpp "normalized pentanomial 1", "... 2",
        // "logistic pentanomial 1", "... 2".
        let p = fastchess_penta(365, 16618, 36029, 200, 16974, 390);
        check_llr(sprt(0.0, 2.0, Normalized), p, 2.250367703551081, Some(2.25));
        let p = fastchess_penta(127, 4883, 10311, 401, 5150, 104);
        check_llr(sprt(-1.75, 0.25, Normalized), p, 3.0101541966056997, Some(3.01));
        let p = fastchess_penta(223, 9863, 20279, 1000, 10037, 246);
        check_llr(sprt(0.5, 2.5, Logistic), p, -3.074126439586767, Some(-3.07));
        let p = fastchess_penta(871, 26175, 55003, 980, 26678, 821);
        check_llr(sprt(0.0, 2.0, Logistic), p, -4.9786728634511785, Some(-4.98));
        // Pentanomials from fishtest's stat_util self-test.
        let p = Pentanomial::new([10789, 19328, 33806, 19402, 10543]);
        check_llr(sprt(-3.0, 1.0, Logistic), p, 2.131067811785043, None);
        let p = Pentanomial::new([39, 2226, 31451, 2412, 40]);
        check_llr(sprt(0.2, 0.9, Logistic), p, 2.1625425800500317, None);
        check_llr(sprt(0.764, 3.439, Normalized), p, 2.1629408695841628, None);
        // A small sample, where the exact and approximate LLR differ.
        let p = Pentanomial::new([34, 54, 63, 64, 75]);
        check_llr(sprt(0.0, 5.0, Logistic), p, 1.3373739869435979, None);
        check_llr(sprt(0.0, 5.0, Normalized), p, 1.3014363770275006, None);
        // Degenerate: only WW pairs (empty categories regularized to 0.001).
        // fastchess's "normalized pentanomial 3" pins 2.94 here; fishtest
        // (and this code, with the MLE iterated to convergence) give 2.09.
        let p = Pentanomial::new([0, 0, 0, 0, 104]);
        check_llr(sprt(0.0, 5.0, Normalized), p, 2.094954527648198, None);
    }

    #[test]
    fn trinomial_llr_matches_fishtest_and_fastchess() {
        use EloModel::{Logistic, Normalized};
        // fastchess sprt_test.cpp "normalized trinomial 1", "... 2",
        // "logistic trinomial 1", "... 2"; its Stats(wins, losses, draws)
        // becomes Trinomial::new(wins, draws, losses).
        let t = Trinomial::new(36433, 68692, 36027);
        check_llr_tri(sprt(0.0, 2.0, Normalized), t, 0.9232934509459172, Some(0.92));
        let t = Trinomial::new(10871, 20431, 10650);
        check_llr_tri(sprt(-1.75, 0.25, Normalized), t, 2.2975004071050735, Some(2.30));
        let t = Trinomial::new(21404, 40708, 21184);
        check_llr_tri(sprt(0.5, 2.5, Logistic), t, -1.5718887926942657, Some(-1.57));
        let t = Trinomial::new(57433, 106593, 57030);
        check_llr_tri(sprt(0.0, 2.0, Logistic), t, -2.59302416354122, Some(-2.59));
        let t = Trinomial::new(60, 20, 20);
        check_llr_tri(sprt(0.0, 5.0, Logistic), t, 0.7072473475900674, None);
        check_llr_tri(sprt(0.0, 5.0, Normalized), t, 0.6333481402808759, None);
        // Degenerate: all draws. fastchess's "normalized trinomial 3" pins
        // 2.97 here; fishtest gives -3.45 (no evidence of a positive Elo).
        let t = Trinomial::new(0, 16700, 0);
        check_llr_tri(sprt(0.0, 5.0, Normalized), t, -3.450539774139151, None);
    }

    #[test]
    fn approximate_llr() {
        // Expected: fishtest LLRcalc.LLR_alt2 on the regularized pdf, times N
        // (normalized bounds mapped to scores 0.5 + t·σ).
        let s = sprt(0.0, 2.0, EloModel::Normalized);
        let p = fastchess_penta(365, 16618, 36029, 200, 16974, 390);
        close(s.llr_approx(&p), 2.2504311966533517, 1e-7);
        close(s.llr_approx(&p), s.llr(&p), 1e-3);
        let s = sprt(0.0, 2.0, EloModel::Logistic);
        let p = fastchess_penta(871, 26175, 55003, 980, 26678, 821);
        close(s.llr_approx(&p), -4.9782167864190505, 1e-7);
        close(s.llr_approx(&p), s.llr(&p), 1e-3);
        let s = sprt(0.5, 2.5, EloModel::Logistic);
        let t = Trinomial::new(21404, 40708, 21184);
        close(s.llr_trinomial_approx(&t), -1.5718591075632922, 1e-7);
        let s = sprt(0.0, 5.0, EloModel::Normalized);
        let t = Trinomial::new(60, 20, 20);
        close(s.llr_trinomial_approx(&t), 0.7092025718136081, 1e-7);
        close(s.llr_approx(&Pentanomial::default()), 0.0, 0.0);
    }

    #[test]
    fn empty_data_llr_is_zero() {
        for model in [EloModel::Logistic, EloModel::Normalized] {
            let s = sprt(0.0, 5.0, model);
            close(s.llr(&Pentanomial::default()), 0.0, 0.0);
            close(s.llr_trinomial(&Trinomial::default()), 0.0, 0.0);
            assert_eq!(s.status(&Pentanomial::default()), SprtStatus::Continue);
        }
    }

    #[test]
    fn mle_distributions_satisfy_their_constraints() {
        let emp = Empirical::new([34u64, 54, 63, 64, 75]).unwrap();
        let p = emp.mle_with_mean(0.52).unwrap();
        let (mu, _) = mean_var(&p, 1.0);
        close(p.iter().sum::<f64>(), 1.0, 1e-12);
        close(mu, 0.52, 1e-12);
        let p = emp.mle_with_t(0.5, 0.03).unwrap();
        let (mu, var) = mean_var(&p, 1.0);
        close(p.iter().sum::<f64>(), 1.0, 1e-12);
        close((mu - 0.5) / var.sqrt(), 0.03, 1e-10);
    }

    #[test]
    fn sprt_status() {
        // fastchess "normalized pentanomial 2": LLR 3.01 > 2.944 -> H1.
        let s = sprt(-1.75, 0.25, EloModel::Normalized);
        let p = fastchess_penta(127, 4883, 10311, 401, 5150, 104);
        assert_eq!(s.status(&p), SprtStatus::AcceptH1);
        // fastchess "logistic pentanomial 2": LLR -4.98 < -2.944 -> H0.
        let s = sprt(0.0, 2.0, EloModel::Logistic);
        let p = fastchess_penta(871, 26175, 55003, 980, 26678, 821);
        assert_eq!(s.status(&p), SprtStatus::AcceptH0);
        // fishtest self-test pentanomial, LLR 2.13 -> continue.
        let s = sprt(-3.0, 1.0, EloModel::Logistic);
        let p = Pentanomial::new([10789, 19328, 33806, 19402, 10543]);
        assert_eq!(s.status(&p), SprtStatus::Continue);
        // Trinomial: fastchess "logistic trinomial 2" (-2.59) continues,
        // all-draw normalized case (-3.45) accepts H0.
        let s = sprt(0.0, 2.0, EloModel::Logistic);
        assert_eq!(
            s.status_trinomial(&Trinomial::new(57433, 106593, 57030)),
            SprtStatus::Continue
        );
        let s = sprt(0.0, 5.0, EloModel::Normalized);
        assert_eq!(s.status_trinomial(&Trinomial::new(0, 16700, 0)), SprtStatus::AcceptH0);
        // Bounds are inclusive.
        let s = sprt(0.0, 5.0, EloModel::Logistic);
        assert_eq!(s.status_for_llr(s.upper_bound()), SprtStatus::AcceptH1);
        assert_eq!(s.status_for_llr(s.lower_bound()), SprtStatus::AcceptH0);
        assert_eq!(s.status_for_llr(0.0), SprtStatus::Continue);
    }
}
