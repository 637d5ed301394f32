//! The float network and its gradient.
//!
//! Semantics (those of `vorpal_engine::nnue::format`): per perspective
//! `acc = ft_bias + Σ ft_weights[f]` over its active features; the output
//! `y = out_bias + Σ screlu(acc_stm)·w_stm + Σ screlu(acc_other)·w_other` with
//! `screlu(x) = clamp(x, 0, 1)²`; the evaluation is `y · scale` centipawns from the side to
//! move's view. Training predicts `p = σ(y · scale / K)` and minimises the mean of
//! `(p − t)²`, `t = λ·σ(score_stm / K) + (1 − λ)·result_stm`.

use super::data::Sample;
use rand::rngs::StdRng;
use rand::Rng;
use vorpal_engine::nnue::INPUTS;

/// Virtual features of the factoriser: (relative colour, kind, square) whatever the board.
pub const VIRTUAL_SQUARES: usize = 12 * 64;
/// Virtual features of the factoriser: (board, relative colour, kind), material per board.
pub const VIRTUAL_MATERIAL: usize = 2 * 12;
/// Rows trained: the 1,536 real features, then the virtual ones. A virtual row is shared by
/// every real feature it generalises (a piece on a square of either board; a piece kind on a
/// board), so what little data there is teaches all of them at once; [`Network::folded`] adds
/// the virtual rows into the real ones for export, which changes no evaluation.
pub const TRAIN_INPUTS: usize = INPUTS + VIRTUAL_SQUARES + VIRTUAL_MATERIAL;

/// The trained rows of real feature `f`: itself and its two virtual features.
#[inline(always)]
pub fn expand(f: usize) -> [usize; 3] {
    let square = f % 64;
    let colour_kind = (f / 64) % 12;
    let board = f / (12 * 64);
    [
        f,
        INPUTS + colour_kind * 64 + square,
        INPUTS + VIRTUAL_SQUARES + board * 12 + colour_kind,
    ]
}

/// Largest |float output weight|: quantised by 64 it must fit 127 (an i8 range the engine's
/// SIMD may rely on).
pub const OUT_WEIGHT_LIMIT: f32 = 127.0 / 64.0;

/// Largest |float first-layer weight or bias|: with 255 per unit, a bias plus 32 weights stay
/// inside the engine's i16 accumulator whatever the position (33 · 3.87 · 255 < 32,767).
pub const FT_WEIGHT_LIMIT: f32 = 3.87;

/// The float parameters, laid out like the network file.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// Hidden neurons per perspective.
    pub hidden: usize,
    /// `TRAIN_INPUTS * hidden`, feature-major (real rows, then the factoriser's virtual rows).
    pub ft_weights: Vec<f32>,
    /// `hidden`.
    pub ft_bias: Vec<f32>,
    /// `2 * hidden`: side to move first.
    pub out_weights: Vec<f32>,
    /// Output bias.
    pub out_bias: f32,
}

/// Squared clipped ReLU.
#[inline(always)]
pub fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// Logistic function.
#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Loss settings shared by training and evaluation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LossConfig {
    /// Centipawns per unit of output.
    pub scale: f32,
    /// Sigmoid scale fitted on the data (centipawns).
    pub k: f32,
    /// Weight of the search score in the target (the rest is the game result).
    pub lambda: f32,
    /// Weight of the hand-crafted evaluation in the training target (a prior that keeps a
    /// network trained on few positions near what the hand-crafted evaluation knows; the
    /// validation loss is always measured against [`LossConfig::target`]).
    pub hce_prior: f32,
}

impl LossConfig {
    /// Training target of `s`, side to move's view.
    #[inline]
    pub fn target(&self, s: &Sample) -> f32 {
        self.lambda * sigmoid(s.score_stm() / self.k) + (1.0 - self.lambda) * s.result_stm()
    }

    /// What training fits: the target blended with the hand-crafted evaluation's prediction
    /// (`hce_prior` of it); minimising `(p − t)² + μ(p − h)²` is fitting this blend.
    #[inline]
    pub fn training_target(&self, s: &Sample) -> f32 {
        if self.hce_prior == 0.0 {
            return self.target(s);
        }
        (1.0 - self.hce_prior) * self.target(s) + self.hce_prior * sigmoid(s.hce_stm as f32 / self.k)
    }
}

impl Network {
    /// A network of zeros.
    pub fn zeros(hidden: usize) -> Network {
        Network {
            hidden,
            ft_weights: vec![0.0; TRAIN_INPUTS * hidden],
            ft_bias: vec![0.0; hidden],
            out_weights: vec![0.0; 2 * hidden],
            out_bias: 0.0,
        }
    }

    /// Random starting weights: first layer uniform in ±0.1 (an accumulator of ~30 features
    /// then spreads over about ±0.3, mostly inside SCReLU's live range), output uniform in
    /// ±1/√(2H).
    pub fn random(hidden: usize, rng: &mut StdRng) -> Network {
        let mut net = Network::zeros(hidden);
        // Virtual rows start at zero: the starting network is the plain random one.
        for w in &mut net.ft_weights[..INPUTS * hidden] {
            *w = rng.gen_range(-0.1..0.1);
        }
        let a = 1.0 / ((2 * hidden) as f32).sqrt();
        for w in &mut net.out_weights {
            *w = rng.gen_range(-a..a);
        }
        net
    }

    /// Number of parameters (all arrays plus the output bias).
    pub fn len(&self) -> usize {
        self.ft_weights.len() + self.ft_bias.len() + self.out_weights.len() + 1
    }

    /// Never empty (there is always the output bias); for clippy's `len` rule.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The accumulator of `perspective` for `s`, written into `acc` (length `hidden`).
    #[inline]
    pub fn accumulate(&self, s: &Sample, perspective: usize, acc: &mut [f32]) {
        let h = self.hidden;
        acc.copy_from_slice(&self.ft_bias);
        for &f in s.active(perspective).iter() {
            for r in expand(f as usize) {
                let row = &self.ft_weights[r * h..(r + 1) * h];
                for (a, w) in acc.iter_mut().zip(row) {
                    *a += w;
                }
            }
        }
    }

    /// The first-layer weights of the 1,536 real features with the virtual rows added in:
    /// the network the engine runs (same evaluations, clipped to what quantisation stores).
    pub fn folded(&self) -> Network {
        let h = self.hidden;
        let mut ft_weights = vec![0.0; INPUTS * h];
        for f in 0..INPUTS {
            let dst = &mut ft_weights[f * h..(f + 1) * h];
            for r in expand(f) {
                for (d, w) in dst.iter_mut().zip(&self.ft_weights[r * h..(r + 1) * h]) {
                    *d += w;
                }
            }
        }
        for w in &mut ft_weights {
            *w = w.clamp(-FT_WEIGHT_LIMIT, FT_WEIGHT_LIMIT);
        }
        let mut ft_full = ft_weights;
        ft_full.resize(TRAIN_INPUTS * h, 0.0);
        Network {
            hidden: h,
            ft_weights: ft_full,
            ft_bias: self.ft_bias.clone(),
            out_weights: self.out_weights.clone(),
            out_bias: self.out_bias,
        }
    }

    /// Output `y` from the side to move's and the other side's accumulators.
    #[inline]
    pub fn output(&self, acc_stm: &[f32], acc_other: &[f32]) -> f32 {
        let h = self.hidden;
        let mut y = 0.0;
        for (a, w) in acc_stm.iter().zip(&self.out_weights[..h]) {
            y += screlu(*a) * w;
        }
        for (a, w) in acc_other.iter().zip(&self.out_weights[h..]) {
            y += screlu(*a) * w;
        }
        y + self.out_bias
    }

    /// Evaluation of `s` in centipawns, side to move's view (float model).
    pub fn eval_cp(&self, s: &Sample, scale: f32) -> f32 {
        let mut us = vec![0.0; self.hidden];
        let mut them = vec![0.0; self.hidden];
        self.accumulate(s, s.stm(), &mut us);
        self.accumulate(s, 1 - s.stm(), &mut them);
        self.output(&us, &them) * scale
    }

    /// Squared error of `s`.
    pub fn sample_loss(&self, s: &Sample, cfg: &LossConfig) -> f32 {
        let p = sigmoid(self.eval_cp(s, cfg.scale) / cfg.k);
        let d = p - cfg.target(s);
        d * d
    }

    /// Clips the weights to what quantisation can store (see the limits above).
    pub fn clip(&mut self) {
        for w in self.ft_weights.iter_mut().chain(&mut self.ft_bias) {
            *w = w.clamp(-FT_WEIGHT_LIMIT, FT_WEIGHT_LIMIT);
        }
        for w in &mut self.out_weights {
            *w = w.clamp(-OUT_WEIGHT_LIMIT, OUT_WEIGHT_LIMIT);
        }
    }
}

/// Gradient buffers of one worker: dense arrays shaped like [`Network`], and which first-layer
/// rows were touched (only those are summed across workers).
#[derive(Clone, Debug)]
pub struct Gradient {
    /// Gradient with respect to each parameter, same layout as the network.
    pub net: Network,
    /// Per feature: was its row written since the last [`Gradient::clear`]?
    pub touched: Vec<bool>,
    /// Sum of squared errors of the samples added.
    pub loss_sum: f64,
    acc: [Vec<f32>; 2],
    dacc: Vec<f32>,
}

impl Gradient {
    /// Zero gradient for a network with `hidden` neurons.
    pub fn new(hidden: usize) -> Gradient {
        Gradient {
            net: Network::zeros(hidden),
            touched: vec![false; TRAIN_INPUTS],
            loss_sum: 0.0,
            acc: [vec![0.0; hidden], vec![0.0; hidden]],
            dacc: vec![0.0; hidden],
        }
    }

    /// Resets to zero (only the touched first-layer rows need it).
    pub fn clear(&mut self) {
        let h = self.net.hidden;
        for (f, t) in self.touched.iter_mut().enumerate() {
            if *t {
                self.net.ft_weights[f * h..(f + 1) * h].fill(0.0);
                *t = false;
            }
        }
        self.net.ft_bias.fill(0.0);
        self.net.out_weights.fill(0.0);
        self.net.out_bias = 0.0;
        self.loss_sum = 0.0;
    }

    /// Adds the gradient of `(p − t)²` for `s` (not divided by the batch size).
    pub fn add_sample(&mut self, net: &Network, s: &Sample, cfg: &LossConfig) {
        let h = net.hidden;
        let stm = s.stm();
        let [acc_us, acc_them] = &mut self.acc;
        net.accumulate(s, stm, acc_us);
        net.accumulate(s, 1 - stm, acc_them);
        let y = net.output(acc_us, acc_them);
        let p = sigmoid(y * cfg.scale / cfg.k);
        let d = p - cfg.training_target(s);
        self.loss_sum += (d * d) as f64;
        // dL/dy through the square and the sigmoid.
        let dy = 2.0 * d * p * (1.0 - p) * cfg.scale / cfg.k;
        self.net.out_bias += dy;
        for (side, (acc, perspective)) in [(&*acc_us, stm), (&*acc_them, 1 - stm)].into_iter().enumerate() {
            let w_out = &net.out_weights[side * h..(side + 1) * h];
            let g_out = &mut self.net.out_weights[side * h..(side + 1) * h];
            for j in 0..h {
                let a = acc[j];
                g_out[j] += dy * screlu(a);
                // screlu'(a) = 2a inside (0, 1), else 0.
                self.dacc[j] = if a > 0.0 && a < 1.0 {
                    dy * w_out[j] * 2.0 * a
                } else {
                    0.0
                };
            }
            for (g, d) in self.net.ft_bias.iter_mut().zip(&self.dacc) {
                *g += d;
            }
            for &f in s.active(perspective).iter() {
                for r in expand(f as usize) {
                    self.touched[r] = true;
                    let row = &mut self.net.ft_weights[r * h..(r + 1) * h];
                    for (g, d) in row.iter_mut().zip(&self.dacc) {
                        *g += d;
                    }
                }
            }
        }
    }

    /// Adds `other` into `self` (touched rows only).
    pub fn merge(&mut self, other: &Gradient) {
        let h = self.net.hidden;
        for f in 0..TRAIN_INPUTS {
            if other.touched[f] {
                self.touched[f] = true;
                let dst = &mut self.net.ft_weights[f * h..(f + 1) * h];
                for (a, b) in dst.iter_mut().zip(&other.net.ft_weights[f * h..(f + 1) * h]) {
                    *a += b;
                }
            }
        }
        for (a, b) in self.net.ft_bias.iter_mut().zip(&other.net.ft_bias) {
            *a += b;
        }
        for (a, b) in self.net.out_weights.iter_mut().zip(&other.net.out_weights) {
            *a += b;
        }
        self.net.out_bias += other.net.out_bias;
        self.loss_sum += other.loss_sum;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use vorpal_engine::{Position, Rules};

    fn samples() -> Vec<Sample> {
        [
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 20, 0.5),
            (
                "rnbqkbnr/pppp1ppp/8/4|p3/4|P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
                -35,
                0.0,
            ),
            ("4k3/8/8/8/8/8/3|Q4/4K3 b - - 0 1", 900, 1.0),
        ]
        .iter()
        .map(|(fen, score, result)| {
            let pos = Position::from_fen(fen, Rules::default()).unwrap();
            Sample::from_position(&pos, *score, *result).unwrap()
        })
        .collect()
    }

    fn param(n: &mut Network, array: usize, i: usize) -> &mut f32 {
        match array {
            0 => &mut n.ft_weights[i],
            1 => &mut n.ft_bias[i],
            2 => &mut n.out_weights[i],
            _ => &mut n.out_bias,
        }
    }

    /// Central finite differences of the loss agree with the analytic gradient.
    #[test]
    fn gradient_matches_finite_differences() {
        let mut rng = StdRng::seed_from_u64(7);
        let mut net = Network::random(16, &mut rng);
        // Larger first-layer weights and biases so many neurons sit inside (0, 1).
        for w in &mut net.ft_weights {
            *w *= 3.0;
        }
        for b in &mut net.ft_bias {
            *b = rng.gen_range(0.0..0.6);
        }
        let cfg = LossConfig {
            scale: 400.0,
            k: 300.0,
            lambda: 0.6,
            hce_prior: 0.0,
        };
        let data = samples();
        let mut grad = Gradient::new(16);
        for s in &data {
            grad.add_sample(&net, s, &cfg);
        }
        let loss = |n: &Network| data.iter().map(|s| n.sample_loss(s, &cfg) as f64).sum::<f64>();
        let feature = data[0].active(0)[3] as usize;
        let mut checked = 0;
        let eps = 1e-3;
        // (array, index) pairs: 0 ft weights, 1 ft bias, 2 out weights, 3 out bias.
        let mut probes: Vec<(usize, usize)> = (0..16).map(|j| (0, feature * 16 + j)).collect();
        // The factoriser's two virtual rows of that feature.
        for row in &expand(feature)[1..] {
            probes.extend((0..16).map(|j| (0, row * 16 + j)));
        }
        probes.extend((0..16).map(|j| (1, j)));
        probes.extend((0..32).map(|j| (2, j)));
        probes.push((3, 0));
        for (array, i) in probes {
            let (mut plus, mut minus) = (net.clone(), net.clone());
            *param(&mut plus, array, i) += eps;
            *param(&mut minus, array, i) -= eps;
            let numeric = (loss(&plus) - loss(&minus)) / (2.0 * eps as f64);
            let analytic = *param(&mut grad.net.clone(), array, i) as f64;
            let tol = 2e-3 * numeric.abs().max(analytic.abs()) + 2e-5;
            assert!(
                (numeric - analytic).abs() <= tol,
                "param ({array}, {i}): numeric {numeric}, analytic {analytic}"
            );
            if analytic.abs() > 1e-5 {
                checked += 1;
            }
        }
        assert!(checked > 20, "only {checked} parameters had a non-trivial gradient");
    }

    /// Folding the virtual rows into the real ones changes no evaluation.
    #[test]
    fn the_folded_network_evaluates_like_the_factorised_one() {
        let mut rng = StdRng::seed_from_u64(5);
        let mut net = Network::random(16, &mut rng);
        for w in &mut net.ft_weights[INPUTS * 16..] {
            *w = rng.gen_range(-0.2..0.2);
        }
        for b in &mut net.ft_bias {
            *b = rng.gen_range(0.0..0.5);
        }
        let folded = net.folded();
        assert!(folded.ft_weights[INPUTS * 16..].iter().all(|&w| w == 0.0));
        for s in samples() {
            let (a, b) = (net.eval_cp(&s, 400.0), folded.eval_cp(&s, 400.0));
            assert!((a - b).abs() < 1e-2, "{a} vs {b}");
        }
        // Every real feature has distinct virtual rows of the right kind.
        assert_eq!(expand(0), [0, INPUTS, INPUTS + VIRTUAL_SQUARES]);
        assert_eq!(
            expand(INPUTS - 1),
            [INPUTS - 1, INPUTS + VIRTUAL_SQUARES - 1, TRAIN_INPUTS - 1]
        );
        assert_eq!(
            expand(5)[1],
            expand(5 + 12 * 64)[1],
            "a square shares its row across boards"
        );
    }

    #[test]
    fn merging_sums_and_clearing_zeroes() {
        let mut rng = StdRng::seed_from_u64(3);
        let net = Network::random(16, &mut rng);
        let cfg = LossConfig {
            scale: 400.0,
            k: 300.0,
            lambda: 0.5,
            hce_prior: 0.0,
        };
        let data = samples();
        let mut all = Gradient::new(16);
        for s in &data {
            all.add_sample(&net, s, &cfg);
        }
        let mut a = Gradient::new(16);
        let mut b = Gradient::new(16);
        a.add_sample(&net, &data[0], &cfg);
        b.add_sample(&net, &data[1], &cfg);
        b.add_sample(&net, &data[2], &cfg);
        a.merge(&b);
        for (x, y) in a.net.ft_weights.iter().zip(&all.net.ft_weights) {
            assert!((x - y).abs() < 1e-6);
        }
        assert!((a.net.out_bias - all.net.out_bias).abs() < 1e-6);
        a.clear();
        assert!(a.net.ft_weights.iter().all(|&w| w == 0.0) && a.net.out_bias == 0.0);
    }
}
