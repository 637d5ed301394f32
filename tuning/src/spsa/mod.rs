//! SPSA (simultaneous perturbation stochastic approximation) of the search parameters, with the
//! gain schedule fishtest uses: every parameter is moved at once by ±c_k (a random sign each),
//! the engine with θ + c_k·δ plays the engine with θ − c_k·δ, and θ moves along δ by the score
//! difference times r_k·c_k. Per parameter, `c_end` is its `step`, and `r_end` the learning rate
//! at the end: c_k = c·k^−γ with c = c_end·N^γ, a_k = a·(A + k)^−α with a = r_end·c_end²·(A + N)^α
//! and A = 0.1·N, r_k = a_k / c_k², where k counts game pairs and N is the total.
//!
//! The driver is independent of how games are played (the `play` callback): `vorpal-match spsa`
//! plays them with the match runner; the tests use a simulated engine.
//!
//! The tool is run by `vorpal-match spsa` ([`cli`], its command line [`args`]); it sits above the match runner
//! ([`crate::matches`]), whose command-line parsing and games it uses.

pub mod args;
pub mod cli;

use crate::matches::openings::SplitMix64;
use std::fmt::Write as _;
use vorpal_engine::search::ParamSpec;

/// Gains and budget of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaSettings {
    /// Game pairs in the whole run (N).
    pub pairs: u64,
    /// Game pairs played with one perturbation.
    pub batch: u64,
    /// Learning rate at the end of the run.
    pub r_end: f64,
    /// Decay exponent of a_k (α).
    pub alpha: f64,
    /// Decay exponent of c_k (γ).
    pub gamma: f64,
    /// Seed of the perturbation signs.
    pub seed: u64,
}

impl Default for SpsaSettings {
    fn default() -> Self {
        SpsaSettings {
            pairs: 1000,
            batch: 2,
            r_end: 0.002,
            alpha: 0.602,
            gamma: 0.101,
            seed: 1,
        }
    }
}

/// One tuned parameter: its current value θ and its range.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaParam {
    /// Parameter name (a `SearchParams` field, also the `tune` build's UCI option).
    pub name: String,
    /// Current value.
    pub value: f64,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// Perturbation at the end of the run (c_end).
    pub c_end: f64,
}

impl SpsaParam {
    /// A parameter starting from its default.
    pub fn from_spec(spec: &ParamSpec) -> SpsaParam {
        SpsaParam {
            name: spec.name.to_string(),
            value: spec.default as f64,
            min: spec.min as f64,
            max: spec.max as f64,
            c_end: spec.step as f64,
        }
    }

    /// The value the engine is given: rounded and inside the range.
    pub fn engine_value(&self, value: f64) -> i32 {
        value.clamp(self.min, self.max).round() as i32
    }
}

/// The two engines of one batch.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    /// Game pairs played before this batch (k − 1).
    pub pairs_done: u64,
    /// Sign of each parameter's perturbation.
    pub signs: Vec<f64>,
    /// c_k of each parameter.
    pub c: Vec<f64>,
    /// Engine values of the first engine (θ + c_k·δ).
    pub plus: Vec<i32>,
    /// Engine values of the second engine (θ − c_k·δ).
    pub minus: Vec<i32>,
}

/// A run in progress.
#[derive(Clone, Debug, PartialEq)]
pub struct Spsa {
    /// Gains and budget.
    pub settings: SpsaSettings,
    /// The parameters.
    pub params: Vec<SpsaParam>,
    /// Game pairs played so far.
    pub pairs_done: u64,
}

impl Spsa {
    /// A run of `params` from their current values.
    pub fn new(settings: SpsaSettings, params: Vec<SpsaParam>) -> Result<Spsa, String> {
        if settings.pairs == 0 || settings.batch == 0 {
            return Err("spsa: the run needs at least one game pair and a batch of at least one".into());
        }
        if params.is_empty() {
            return Err("spsa: no parameters to tune".into());
        }
        Ok(Spsa {
            settings,
            params,
            pairs_done: 0,
        })
    }

    /// True when every game pair of the run is played.
    pub fn finished(&self) -> bool {
        self.pairs_done >= self.settings.pairs
    }

    fn big_a(&self) -> f64 {
        0.1 * self.settings.pairs as f64
    }

    /// c_k of `p` at game pair `k` (1-based).
    pub fn c_k(&self, p: &SpsaParam, k: u64) -> f64 {
        let n = self.settings.pairs as f64;
        p.c_end * n.powf(self.settings.gamma) / (k as f64).powf(self.settings.gamma)
    }

    /// r_k = a_k / c_k² of `p` at game pair `k` (1-based).
    pub fn r_k(&self, p: &SpsaParam, k: u64) -> f64 {
        let (n, a_big, alpha) = (self.settings.pairs as f64, self.big_a(), self.settings.alpha);
        let a = self.settings.r_end * p.c_end * p.c_end * (a_big + n).powf(alpha);
        let a_k = a / (a_big + k as f64).powf(alpha);
        let c_k = self.c_k(p, k);
        a_k / (c_k * c_k)
    }

    /// The perturbation of the next batch; the signs depend only on the seed and `pairs_done`.
    pub fn next_perturbation(&self) -> Perturbation {
        let k = self.pairs_done + 1;
        let mut rng = SplitMix64::new(self.settings.seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let signs: Vec<f64> = self
            .params
            .iter()
            .map(|_| if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 })
            .collect();
        let c: Vec<f64> = self.params.iter().map(|p| self.c_k(p, k)).collect();
        let shifted = |dir: f64| -> Vec<i32> {
            self.params
                .iter()
                .zip(signs.iter().zip(&c))
                .map(|(p, (s, c))| p.engine_value(p.value + dir * s * c))
                .collect()
        };
        Perturbation {
            pairs_done: self.pairs_done,
            plus: shifted(1.0),
            minus: shifted(-1.0),
            signs,
            c,
        }
    }

    /// Applies a batch's result: `score` is the first engine's points minus the second's over
    /// the batch's games (wins minus losses), `pairs` the game pairs played.
    pub fn update(&mut self, pert: &Perturbation, score: f64, pairs: u64) {
        let k = pert.pairs_done + 1;
        let rates: Vec<f64> = self.params.iter().map(|p| self.r_k(p, k)).collect();
        for (i, p) in self.params.iter_mut().enumerate() {
            p.value = (p.value + rates[i] * pert.c[i] * score * pert.signs[i]).clamp(p.min, p.max);
        }
        self.pairs_done += pairs;
    }

    /// The state file: game pairs played and every parameter's value, one per line.
    pub fn state_text(&self) -> String {
        let mut s = format!("# vorpal spsa state\npairs_done {}\n", self.pairs_done);
        for p in &self.params {
            let _ = writeln!(s, "{} {:.6}", p.name, p.value);
        }
        s
    }

    /// Restores `pairs_done` and the values of a state file written by [`Spsa::state_text`].
    pub fn restore(&mut self, text: &str) -> Result<(), String> {
        for line in text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let (key, value) = line
                .split_once(' ')
                .ok_or_else(|| format!("spsa state: bad line '{line}'"))?;
            let bad = || format!("spsa state: bad value in '{line}'");
            if key == "pairs_done" {
                self.pairs_done = value.trim().parse().map_err(|_| bad())?;
                continue;
            }
            let p = self
                .params
                .iter_mut()
                .find(|p| p.name == key)
                .ok_or_else(|| format!("spsa state: '{key}' is not a tuned parameter"))?;
            let v: f64 = value.trim().parse().map_err(|_| bad())?;
            if !v.is_finite() {
                return Err(bad());
            }
            p.value = v.clamp(p.min, p.max);
        }
        Ok(())
    }

    /// One line with the current values, for progress output.
    pub fn values_line(&self) -> String {
        let values: Vec<String> = self
            .params
            .iter()
            .map(|p| format!("{}={:.2}", p.name, p.value))
            .collect();
        values.join(" ")
    }
}

/// Runs batches until the run is finished: `play` plays `pairs` game pairs between the two
/// engines of the perturbation and returns the first engine's points minus the second's;
/// `after` sees the run after every batch (to save state and report).
pub fn run(
    spsa: &mut Spsa,
    mut play: impl FnMut(&Perturbation, u64) -> Result<f64, String>,
    mut after: impl FnMut(&Spsa, &Perturbation, f64) -> Result<(), String>,
) -> Result<(), String> {
    while !spsa.finished() {
        let pairs = spsa.settings.batch.min(spsa.settings.pairs - spsa.pairs_done);
        let pert = spsa.next_perturbation();
        let score = play(&pert, pairs)?;
        spsa.update(&pert, score, pairs);
        after(spsa, &pert, score)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(name: &str, value: f64, c_end: f64) -> SpsaParam {
        SpsaParam {
            name: name.into(),
            value,
            min: -1000.0,
            max: 1000.0,
            c_end,
        }
    }

    #[test]
    fn gains_reach_their_end_values_at_the_last_pair() {
        let settings = SpsaSettings {
            pairs: 500,
            ..SpsaSettings::default()
        };
        let s = Spsa::new(settings, vec![param("x", 0.0, 4.0)]).unwrap();
        let p = &s.params[0];
        assert!((s.c_k(p, 500) - 4.0).abs() < 1e-9);
        assert!((s.r_k(p, 500) - 0.002).abs() < 1e-12);
        // Perturbations and learning rates shrink as the run goes on.
        assert!(s.c_k(p, 1) > s.c_k(p, 250) && s.c_k(p, 250) > s.c_k(p, 500));
        assert!(s.r_k(p, 1) * s.c_k(p, 1).powi(2) > s.r_k(p, 500) * 16.0);
    }

    #[test]
    fn perturbations_are_seeded_symmetric_and_in_range() {
        let params = vec![param("x", 10.0, 2.0), param("y", 0.0, 1.0)];
        let s = Spsa::new(SpsaSettings::default(), params).unwrap();
        let a = s.next_perturbation();
        assert_eq!(a, s.next_perturbation());
        for i in 0..2 {
            let v = s.params[i].value;
            assert_eq!(a.plus[i] as f64 - v, -(a.minus[i] as f64 - v));
        }
        let mut clamped = s.clone();
        clamped.params[0].max = 10.0;
        let b = clamped.next_perturbation();
        assert!(b.plus[0] <= 10 && b.minus[0] <= 10);
    }

    #[test]
    fn state_round_trips() {
        let mut s = Spsa::new(
            SpsaSettings::default(),
            vec![param("x", 3.25, 1.0), param("y", -7.5, 1.0)],
        )
        .unwrap();
        s.pairs_done = 42;
        let text = s.state_text();
        let mut t = Spsa::new(
            SpsaSettings::default(),
            vec![param("x", 0.0, 1.0), param("y", 0.0, 1.0)],
        )
        .unwrap();
        t.restore(&text).unwrap();
        assert_eq!(t, s);
        assert!(t.restore("z 1.0").is_err());
        assert!(t.restore("x nan").is_err());
    }

    /// A simulated match: the engine's strength peaks at x = 40, y = -20; a game pair's score
    /// is drawn from the logistic win probability of the strength difference.
    #[test]
    fn converges_towards_the_optimum_of_a_simulated_engine() {
        let settings = SpsaSettings {
            pairs: 6000,
            batch: 4,
            r_end: 0.02,
            seed: 7,
            ..SpsaSettings::default()
        };
        let params = vec![param("x", 0.0, 4.0), param("y", 0.0, 4.0)];
        let mut spsa = Spsa::new(settings, params).unwrap();
        let strength = |v: &[i32]| -> f64 {
            let (x, y) = (v[0] as f64, v[1] as f64);
            -((x - 40.0).powi(2) + (y + 20.0).powi(2)) / 400.0
        };
        let mut rng = SplitMix64::new(99);
        let mut uniform = move || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        run(
            &mut spsa,
            |pert, pairs| {
                let p = 1.0 / (1.0 + (-(strength(&pert.plus) - strength(&pert.minus))).exp());
                let mut score = 0.0;
                for _ in 0..pairs * 2 {
                    score += if uniform() < p { 1.0 } else { -1.0 };
                }
                Ok(score)
            },
            |_, _, _| Ok(()),
        )
        .unwrap();
        let (x, y) = (spsa.params[0].value, spsa.params[1].value);
        assert!(
            (x - 40.0).abs() < 10.0 && (y + 20.0).abs() < 10.0,
            "ended at x={x:.1} y={y:.1}"
        );
        assert_eq!(spsa.pairs_done, 6000);
    }
}
