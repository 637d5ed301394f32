//! Texel tuning of the evaluation parameters, run by `vorpal-tune` on `vorpal-datagen` output.
//!
//! The evaluation reports every term it uses to a [`Trace`](vorpal_engine::eval::Trace): with a
//! [`CoefficientTrace`] we get, per parameter, how often it counts for White minus how often
//! for Black, and the game phase. The terms' counts do not depend on the weights, so from
//! White's view
//!
//! ```text
//! eval(θ) = trunc((Σᵢ cᵢ·θᵢ.mg · phase + Σᵢ cᵢ·θᵢ.eg · (24 − phase)) / 24)
//! ```
//!
//! with no other (fixed) part: tempo is a parameter too. The only non-linear bit is the integer
//! truncation of the taper, so the sparse integer model here reproduces `evaluate` exactly and
//! the real-valued model the tuner differentiates is within 1 cp of it. [`load`] checks both
//! claims on every position it reads, with the starting weights and with randomly perturbed
//! ones, so tuned and played terms cannot drift apart unnoticed.
//!
//! The loss is the mean squared error between `σ(K·eval)` and the target
//! `λ·result + (1 − λ)·σ(K·search score)` (plain Texel for λ = 1). `K` is fitted first by a
//! golden-section search with the starting weights against the results, then the weights are
//! optimised by Adam on the full-batch gradient, computed in parallel with rayon. Parameters
//! that never have a non-zero coefficient in the training data (king material, pawn squares on
//! the first and last ranks, unreachable mobility counts, king entries of per-kind tables) are
//! frozen at their starting values. With a validation set (`holdout`), the weights of the epoch
//! with the lowest validation loss are kept: on small self-play sets (a few thousand games) the
//! full table overfits the game results within a few hundred epochs. [`weights_text`] writes
//! the result in the format of the engine's weights file, `engine/data/weights.txt`.

use crate::datagen::parse_line;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use std::io::{self, BufRead, BufReader};
use std::ops::Range;
use std::path::Path;
use vorpal_engine::eval::params::GROUPS;
use vorpal_engine::eval::{
    evaluate, evaluate_traced, weights_file, CoefficientTrace, EvalParams, MAX_PHASE, NUM_PARAMS, S,
};
use vorpal_engine::{Color, Position, Rules};

/// Real-valued parameters: (middlegame, endgame) per parameter.
pub type Theta = Vec<[f64; 2]>;

/// Positions as sparse coefficient lists, with phase, search score and result.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// (parameter index, White-minus-Black coefficient), non-zero only, all positions.
    entries: Vec<(u16, i16)>,
    /// Position `i` owns `entries[offsets[i]..offsets[i + 1]]`.
    offsets: Vec<usize>,
    phase: Vec<u8>,
    score: Vec<i32>,
    result: Vec<f32>,
}

impl Dataset {
    /// An empty data set.
    pub fn new() -> Dataset {
        Dataset {
            offsets: vec![0],
            ..Dataset::default()
        }
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.phase.len()
    }

    /// True when there are no positions.
    pub fn is_empty(&self) -> bool {
        self.phase.is_empty()
    }

    /// Stored (non-zero) coefficients over all positions.
    pub fn num_entries(&self) -> usize {
        self.entries.len()
    }

    /// Adds a position: its trace, search score and result (both from White's view).
    pub fn push(&mut self, trace: &CoefficientTrace, score: i32, result: f64) {
        let coefficients: Vec<(u16, i16)> = sparse(trace).collect();
        self.push_sparse(&coefficients, trace.phase, score, result);
    }

    /// Adds a position given by its non-zero coefficients and phase.
    pub fn push_sparse(&mut self, coefficients: &[(u16, i16)], phase: i32, score: i32, result: f64) {
        self.entries.extend_from_slice(coefficients);
        self.offsets.push(self.entries.len());
        self.phase.push(phase as u8);
        self.score.push(score);
        self.result.push(result as f32);
    }

    /// The sparse coefficients of position `i`.
    pub fn coefficients(&self, i: usize) -> &[(u16, i16)] {
        &self.entries[self.offsets[i]..self.offsets[i + 1]]
    }

    /// Phase of position `i` (0..=24).
    pub fn phase(&self, i: usize) -> i32 {
        self.phase[i] as i32
    }

    /// Game result of position `i`.
    pub fn result(&self, i: usize) -> f64 {
        self.result[i] as f64
    }

    /// Evaluation of position `i` from White's view, in integers exactly as the engine does it.
    pub fn eval_int(&self, i: usize, params: &[S]) -> i32 {
        eval_sparse_int(self.coefficients(i), self.phase(i), params)
    }

    /// Real-valued evaluation of position `i` from White's view (no truncation).
    pub fn eval_f(&self, i: usize, theta: &[[f64; 2]]) -> f64 {
        eval_sparse_f(self.coefficients(i), self.phase(i), |p| theta[p])
    }

    /// Splits off a validation set: every `round(1 / fraction)`-th block of `block` consecutive
    /// positions (smaller blocks for small sets). A data file holds whole games in order, so
    /// blocks keep games mostly apart and the held-out games are spread over the whole run.
    /// Returns the data reordered with the training positions first, and the number of
    /// validation positions at the end.
    pub fn holdout_split(&self, fraction: f64, block: usize) -> (Dataset, usize) {
        if fraction <= 0.0 {
            return (self.clone(), 0);
        }
        let mut out = Dataset::new();
        let n = self.len();
        let every = ((1.0 / fraction.min(0.5)).round() as usize).max(2);
        // Small data sets get smaller blocks, so that at least four blocks are held out.
        let block = block.min(n / (4 * every)).max(1);
        let held = |i: usize| (i / block) % every == every - 1;
        for i in (0..n).filter(|&i| !held(i)).chain((0..n).filter(|&i| held(i))) {
            out.push_sparse(self.coefficients(i), self.phase(i), self.score[i], self.result(i));
        }
        let n_val = (0..n).filter(|&i| held(i)).count();
        (out, n_val)
    }

    /// Per parameter: does any position in `range` give it a non-zero coefficient?
    pub fn active(&self, range: Range<usize>) -> Vec<bool> {
        let mut active = vec![false; NUM_PARAMS];
        for &(p, _) in &self.entries[self.offsets[range.start]..self.offsets[range.end]] {
            active[p as usize] = true;
        }
        active
    }

    /// The target of position `i`: result blended with the search score's win probability.
    fn target(&self, i: usize, k: f64, lambda: f64) -> f64 {
        if lambda >= 1.0 {
            self.result(i)
        } else {
            lambda * self.result(i) + (1.0 - lambda) * sigmoid(k * self.score[i] as f64)
        }
    }
}

/// The non-zero coefficients of a trace as (parameter index, coefficient).
pub fn sparse(trace: &CoefficientTrace) -> impl Iterator<Item = (u16, i16)> + '_ {
    trace
        .coefficients
        .iter()
        .enumerate()
        .filter(|(_, &c)| c != 0)
        .map(|(i, &c)| {
            let c = i16::try_from(c).expect("coefficient fits in i16");
            (i as u16, c)
        })
}

/// White-view evaluation from sparse coefficients, in integers exactly as the engine tapers.
pub fn eval_sparse_int(coefficients: &[(u16, i16)], phase: i32, params: &[S]) -> i32 {
    let mut total = S::default();
    for &(p, c) in coefficients {
        total += params[p as usize] * c as i32;
    }
    (total.0 * phase + total.1 * (MAX_PHASE - phase)) / MAX_PHASE
}

/// White-view evaluation from sparse coefficients with real parameters (no truncation).
#[inline]
pub fn eval_sparse_f(coefficients: &[(u16, i16)], phase: i32, param: impl Fn(usize) -> [f64; 2]) -> f64 {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(p, c) in coefficients {
        let t = param(p as usize);
        mg += t[0] * c as f64;
        eg += t[1] * c as f64;
    }
    let ph = phase as f64;
    (mg * ph + eg * (MAX_PHASE as f64 - ph)) / MAX_PHASE as f64
}

/// Logistic function.
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Converts integer parameters to real ones.
pub fn to_theta(params: &[S]) -> Theta {
    params.iter().map(|s| [s.0 as f64, s.1 as f64]).collect()
}

/// Rounds real parameters to integers.
pub fn round_theta(theta: &[[f64; 2]]) -> Vec<S> {
    theta
        .iter()
        .map(|t| S(t[0].round() as i32, t[1].round() as i32))
        .collect()
}

/// How well the sparse linear model matched `evaluate` on the loaded positions.
#[derive(Clone, Debug, Default)]
pub struct LinearityReport {
    /// Positions compared.
    pub checked: usize,
    /// Largest |integer model − evaluate| (starting and perturbed weights); 0 = exact.
    pub max_int_diff: i64,
    /// Largest |real model − evaluate| with the starting weights (taper truncation, < 1).
    pub max_float_diff: f64,
    /// Lines that could not be parsed and were skipped.
    pub bad_lines: usize,
}

/// A parsed line: sparse coefficients, phase, score, result, integer and real-valued mismatch.
type Traced = (Vec<(u16, i16)>, i32, i32, f64, i64, f64);

/// The sparse trace and phase of `pos`, and the linearity check against `evaluate` with
/// `params` and `perturbed`.
fn trace_and_check(pos: &Position, params: &EvalParams, perturbed: &EvalParams) -> (Vec<(u16, i16)>, i32, i64, f64) {
    let mut trace = CoefficientTrace::default();
    let sign = if pos.side_to_move() == Color::White { 1 } else { -1 };
    let traced = evaluate_traced(pos, params, &mut trace) * sign;
    let coefficients: Vec<(u16, i16)> = sparse(&trace).collect();
    let mut int_diff = (eval_sparse_int(&coefficients, trace.phase, &params.0) - traced).abs() as i64;
    let reference = evaluate(pos, perturbed) * sign;
    int_diff = int_diff.max((eval_sparse_int(&coefficients, trace.phase, &perturbed.0) - reference).abs() as i64);
    let real = eval_sparse_f(&coefficients, trace.phase, |p| {
        let s = params.get(p);
        [s.0 as f64, s.1 as f64]
    });
    let float_diff = (real - traced as f64).abs();
    (coefficients, trace.phase, int_diff, float_diff)
}

/// Loads data lines from `paths` (at most `limit` positions), tracing every position with
/// `params` and checking the linear model against `evaluate`.
pub fn load(paths: &[&Path], params: &EvalParams, limit: Option<usize>) -> io::Result<(Dataset, LinearityReport)> {
    let mut rng = StdRng::seed_from_u64(0x7e7e);
    let perturbed = EvalParams(
        params
            .0
            .iter()
            .map(|s| S(s.0 + rng.gen_range(-50..=50), s.1 + rng.gen_range(-50..=50)))
            .collect(),
    );
    let limit = limit.unwrap_or(usize::MAX);
    let mut data = Dataset::new();
    let mut report = LinearityReport::default();
    let mut batch: Vec<String> = Vec::new();
    let flush = |batch: &mut Vec<String>, data: &mut Dataset, report: &mut LinearityReport| {
        let parsed: Vec<Option<Traced>> = batch
            .par_iter()
            .map(|line| {
                let l = parse_line(line).ok()?;
                let pos = Position::from_fen(&l.fen, Rules::default()).ok()?;
                let (coefficients, phase, di, df) = trace_and_check(&pos, params, &perturbed);
                Some((coefficients, phase, l.score, l.result, di, df))
            })
            .collect();
        for item in parsed {
            match item {
                Some((coefficients, phase, score, result, di, df)) => {
                    data.push_sparse(&coefficients, phase, score, result);
                    report.checked += 1;
                    report.max_int_diff = report.max_int_diff.max(di);
                    report.max_float_diff = report.max_float_diff.max(df);
                }
                None => report.bad_lines += 1,
            }
        }
        batch.clear();
    };
    'files: for path in paths {
        for line in BufReader::new(std::fs::File::open(path)?).lines() {
            let line = line?;
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            if data.len() + batch.len() >= limit {
                break 'files;
            }
            batch.push(line);
            if batch.len() >= 1 << 14 {
                flush(&mut batch, &mut data, &mut report);
            }
        }
    }
    flush(&mut batch, &mut data, &mut report);
    Ok((data, report))
}

/// Mean squared error over `range` with real parameters.
pub fn loss(data: &Dataset, range: Range<usize>, theta: &[[f64; 2]], k: f64, lambda: f64) -> f64 {
    let n = range.len().max(1) as f64;
    range
        .into_par_iter()
        .with_min_len(4096)
        .map(|i| {
            let d = sigmoid(k * data.eval_f(i, theta)) - data.target(i, k, lambda);
            d * d
        })
        .sum::<f64>()
        / n
}

/// Mean squared error over `range` of fixed evaluations `evals` (indexed from `range.start`).
fn loss_of_evals(data: &Dataset, range: Range<usize>, evals: &[f64], k: f64, lambda: f64) -> f64 {
    let n = range.len().max(1) as f64;
    let start = range.start;
    range
        .into_par_iter()
        .with_min_len(4096)
        .map(|i| {
            let d = sigmoid(k * evals[i - start]) - data.target(i, k, lambda);
            d * d
        })
        .sum::<f64>()
        / n
}

/// Mean squared error over `range` with integer parameters, evaluated exactly as the engine does.
pub fn loss_int(data: &Dataset, range: Range<usize>, params: &[S], k: f64, lambda: f64) -> f64 {
    let evals: Vec<f64> = range
        .clone()
        .into_par_iter()
        .map(|i| data.eval_int(i, params) as f64)
        .collect();
    loss_of_evals(data, range, &evals, k, lambda)
}

/// Fits the scaling constant K for `params` by golden-section search on [lo, hi].
pub fn fit_k(data: &Dataset, range: Range<usize>, params: &[S], lambda: f64, lo: f64, hi: f64) -> f64 {
    let evals: Vec<f64> = range
        .clone()
        .into_par_iter()
        .map(|i| data.eval_int(i, params) as f64)
        .collect();
    let f = |k: f64| loss_of_evals(data, range.clone(), &evals, k, lambda);
    crate::golden::golden_section_min(f, lo, hi, |width, _| width <= 1e-7)
}

/// Loss and gradient of the mean squared error over `range` (gradient per parameter, mg/eg).
pub fn gradient(data: &Dataset, range: Range<usize>, theta: &[[f64; 2]], k: f64, lambda: f64) -> (f64, Theta) {
    let n = range.len().max(1) as f64;
    let (loss, mut grad) = range
        .into_par_iter()
        .with_min_len(4096)
        .fold(
            || (0.0, vec![[0.0; 2]; NUM_PARAMS]),
            |(mut loss, mut grad), i| {
                let p = sigmoid(k * data.eval_f(i, theta));
                let d = p - data.target(i, k, lambda);
                loss += d * d;
                // d(d²)/d(eval) = 2·d·p·(1 − p)·K; the taper splits it by phase.
                let g = 2.0 * d * p * (1.0 - p) * k;
                let ph = data.phase(i) as f64 / MAX_PHASE as f64;
                let (gm, ge) = (g * ph, g * (1.0 - ph));
                for &(idx, c) in data.coefficients(i) {
                    let slot: &mut [f64; 2] = &mut grad[idx as usize];
                    slot[0] += gm * c as f64;
                    slot[1] += ge * c as f64;
                }
                (loss, grad)
            },
        )
        .reduce(
            || (0.0, vec![[0.0; 2]; NUM_PARAMS]),
            |(la, mut ga), (lb, gb)| {
                for (a, b) in ga.iter_mut().zip(&gb) {
                    a[0] += b[0];
                    a[1] += b[1];
                }
                (la + lb, ga)
            },
        );
    for g in &mut grad {
        g[0] /= n;
        g[1] /= n;
    }
    (loss / n, grad)
}

/// Consecutive positions per validation block (about twenty games of `vorpal-datagen` data).
pub const HOLDOUT_BLOCK: usize = 1024;

/// Settings of a tuning run.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// Full-batch Adam steps.
    pub epochs: usize,
    /// Adam step size, in cp.
    pub lr: f64,
    /// Weight of the game result in the target (1 = pure Texel; the rest is the search score).
    pub lambda: f64,
    /// Scaling constant; fitted when `None`.
    pub k: Option<f64>,
    /// Fraction of positions held out for validation, in blocks of [`HOLDOUT_BLOCK`] spread over
    /// the data (0 = none). With a validation set the weights of the epoch with the lowest
    /// validation loss are returned (early stopping).
    pub holdout: f64,
    /// L2 pull towards the starting weights: adds `l2 · Σ ((θ − θ₀) / 100)²` to the loss.
    pub l2: f64,
    /// Log the loss every this many epochs (0 = never).
    pub report_every: usize,
}

impl Default for TuneConfig {
    fn default() -> Self {
        TuneConfig {
            epochs: 1000,
            lr: 0.2,
            lambda: 1.0,
            k: None,
            holdout: 0.0,
            l2: 0.0,
            report_every: 100,
        }
    }
}

/// Outcome of a tuning run.
#[derive(Clone, Debug)]
pub struct TuneResult {
    /// Tuned parameters, rounded.
    pub params: Vec<S>,
    /// Scaling constant used.
    pub k: f64,
    /// Training positions and validation positions.
    pub sizes: (usize, usize),
    /// Parameters left at their starting values (no coefficient in the training data).
    pub frozen: usize,
    /// Epoch whose weights were returned (the last, or the best on validation).
    pub best_epoch: usize,
    /// Training loss of the starting weights (engine integer evaluation, no L2 term).
    pub train_before: f64,
    /// Training loss of the rounded tuned weights (engine integer evaluation, no L2 term).
    pub train_after: f64,
    /// Validation loss before and after, when there is a validation set.
    pub validation: Option<(f64, f64)>,
    /// Validation loss against the game results alone (λ = 1), before and after.
    pub validation_results: Option<(f64, f64)>,
}

/// Tunes `init` on `data`: fits K (unless given), then runs Adam; `progress` gets
/// (epoch, training loss, validation loss) every `report_every` epochs.
pub fn tune(
    data: &Dataset,
    init: &[S],
    cfg: &TuneConfig,
    progress: &mut dyn FnMut(usize, f64, Option<f64>),
) -> TuneResult {
    let (split, n_val) = data.holdout_split(cfg.holdout, HOLDOUT_BLOCK);
    let data = &split;
    let n = data.len();
    let train = 0..n - n_val;
    let val = n - n_val..n;
    // K maps an evaluation to a result probability, so it is fitted on the results alone
    // (a blended target would depend on K itself and pull it towards 0).
    let k = cfg
        .k
        .unwrap_or_else(|| fit_k(data, train.clone(), init, 1.0, 1e-4, 0.05));
    let active = data.active(train.clone());
    let frozen = active.iter().filter(|a| !**a).count();
    let train_before = loss_int(data, train.clone(), init, k, cfg.lambda);
    let val_before = (n_val > 0).then(|| loss_int(data, val.clone(), init, k, cfg.lambda));
    let val_results_before = (n_val > 0).then(|| loss_int(data, val.clone(), init, k, 1.0));

    let theta0 = to_theta(init);
    let mut theta = theta0.clone();
    let mut best = (loss(data, val.clone(), &theta, k, cfg.lambda), 0, theta.clone());
    let (beta1, beta2, eps): (f64, f64, f64) = (0.9, 0.999, 1e-8);
    let mut m = vec![[0.0; 2]; NUM_PARAMS];
    let mut v = vec![[0.0; 2]; NUM_PARAMS];
    for epoch in 1..=cfg.epochs {
        let (l, mut grad) = gradient(data, train.clone(), &theta, k, cfg.lambda);
        let (c1, c2) = (1.0 - beta1.powi(epoch as i32), 1.0 - beta2.powi(epoch as i32));
        for p in (0..NUM_PARAMS).filter(|&p| active[p]) {
            for j in 0..2 {
                grad[p][j] += cfg.l2 * 2.0 * (theta[p][j] - theta0[p][j]) / 1e4;
                m[p][j] = beta1 * m[p][j] + (1.0 - beta1) * grad[p][j];
                v[p][j] = beta2 * v[p][j] + (1.0 - beta2) * grad[p][j] * grad[p][j];
                theta[p][j] -= cfg.lr * (m[p][j] / c1) / ((v[p][j] / c2).sqrt() + eps);
            }
        }
        let report = cfg.report_every > 0 && (epoch == 1 || epoch % cfg.report_every == 0);
        let check = n_val > 0 && (epoch % 10 == 0 || epoch == cfg.epochs);
        let val_loss = ((report || check) && n_val > 0).then(|| loss(data, val.clone(), &theta, k, cfg.lambda));
        if let (true, Some(vl)) = (check, val_loss) {
            if vl < best.0 {
                best = (vl, epoch, theta.clone());
            }
        }
        if report {
            progress(epoch, l, val_loss);
        }
    }
    let best_epoch = if n_val > 0 {
        theta = best.2;
        best.1
    } else {
        cfg.epochs
    };
    let mut params = round_theta(&theta);
    for (p, s) in params.iter_mut().enumerate() {
        if !active[p] {
            *s = init[p];
        }
    }
    let train_after = loss_int(data, train.clone(), &params, k, cfg.lambda);
    let validation = val_before.map(|b| (b, loss_int(data, val.clone(), &params, k, cfg.lambda)));
    let validation_results = val_results_before.map(|b| (b, loss_int(data, val.clone(), &params, k, 1.0)));
    TuneResult {
        params,
        k,
        sizes: (train.len(), n_val),
        frozen,
        best_epoch,
        train_before,
        train_after,
        validation,
        validation_results,
    }
}

/// The text of a weights file holding `params` (the format of `engine/data/weights.txt`),
/// whose first comment line says where the weights come from (`note`).
pub fn weights_text(params: &[S], note: &str) -> String {
    assert_eq!(params.len(), NUM_PARAMS, "parameter count");
    let values: Vec<(i32, i32)> = params.iter().map(|s| (s.0, s.1)).collect();
    weights_file::write(&format!("Evaluation weights: {note}"), &GROUPS, &values)
}

/// Reads the parameter table back from a weights file's text, checked against the layout.
pub fn parse_weights(text: &str) -> Result<Vec<S>, String> {
    let file = weights_file::parse_checked(text, &GROUPS)?;
    Ok(file.flat().into_iter().map(|(mg, eg)| S(mg, eg)).collect())
}
