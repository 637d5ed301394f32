//! AdamW: Adam with decoupled weight decay (weights only, not biases).
//!
//! Adam keeps per-parameter running means of the gradient and of its square, so the sparse
//! first-layer rows of rare features still take full-size steps. The step is dense over the
//! first layer (1,536 × H); with H = 128 that is well under the cost of the batch's gradient
//! (measured, see docs/nnue.md), so no lazy per-row update is needed.

use super::model::{Gradient, Network};
use rayon::prelude::*;

/// Hyper-parameters of the optimiser.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdamConfig {
    /// First-moment decay.
    pub beta1: f32,
    /// Second-moment decay.
    pub beta2: f32,
    /// Added to the root of the second moment.
    pub epsilon: f32,
    /// Decoupled weight decay per unit of learning rate.
    pub weight_decay: f32,
}

impl Default for AdamConfig {
    fn default() -> Self {
        AdamConfig {
            beta1: 0.9,
            beta2: 0.999,
            epsilon: 1e-8,
            weight_decay: 0.01,
        }
    }
}

/// Optimiser state: moments shaped like the network, and the step count.
#[derive(Clone, Debug, PartialEq)]
pub struct AdamState {
    /// Running mean of the gradient.
    pub m: Network,
    /// Running mean of the squared gradient.
    pub v: Network,
    /// Steps taken.
    pub step: u64,
}

/// Elements per parallel task of the dense update.
const CHUNK: usize = 1 << 14;

impl AdamState {
    /// Fresh state for a network with `hidden` neurons.
    pub fn new(hidden: usize) -> AdamState {
        AdamState {
            m: Network::zeros(hidden),
            v: Network::zeros(hidden),
            step: 0,
        }
    }

    /// One step on `net` with the summed gradient `grad` of `batch` samples and rate `lr`;
    /// then clips the weights to their quantisable ranges.
    pub fn step(&mut self, net: &mut Network, grad: &Gradient, batch: usize, lr: f32, cfg: &AdamConfig) {
        self.step += 1;
        let t = self.step as i32;
        let c = Coefficients {
            lr,
            inv_batch: 1.0 / batch.max(1) as f32,
            beta1: cfg.beta1,
            beta2: cfg.beta2,
            epsilon: cfg.epsilon,
            bias1: 1.0 - cfg.beta1.powi(t),
            bias2: 1.0 - cfg.beta2.powi(t),
        };
        let g = &grad.net;
        update(
            &mut net.ft_weights,
            &g.ft_weights,
            &mut self.m.ft_weights,
            &mut self.v.ft_weights,
            &c,
            cfg.weight_decay,
        );
        update(
            &mut net.ft_bias,
            &g.ft_bias,
            &mut self.m.ft_bias,
            &mut self.v.ft_bias,
            &c,
            0.0,
        );
        update(
            &mut net.out_weights,
            &g.out_weights,
            &mut self.m.out_weights,
            &mut self.v.out_weights,
            &c,
            cfg.weight_decay,
        );
        update(
            std::slice::from_mut(&mut net.out_bias),
            &[g.out_bias],
            std::slice::from_mut(&mut self.m.out_bias),
            std::slice::from_mut(&mut self.v.out_bias),
            &c,
            0.0,
        );
        net.clip();
    }
}

/// Per-step constants.
struct Coefficients {
    lr: f32,
    inv_batch: f32,
    beta1: f32,
    beta2: f32,
    epsilon: f32,
    bias1: f32,
    bias2: f32,
}

fn update(params: &mut [f32], grads: &[f32], m: &mut [f32], v: &mut [f32], c: &Coefficients, wd: f32) {
    let one = |p: &mut f32, g: f32, m: &mut f32, v: &mut f32| {
        let g = g * c.inv_batch;
        *m = c.beta1 * *m + (1.0 - c.beta1) * g;
        *v = c.beta2 * *v + (1.0 - c.beta2) * g * g;
        let m_hat = *m / c.bias1;
        let v_hat = *v / c.bias2;
        *p -= c.lr * (m_hat / (v_hat.sqrt() + c.epsilon) + wd * *p);
    };
    params
        .par_chunks_mut(CHUNK)
        .zip(grads.par_chunks(CHUNK))
        .zip(m.par_chunks_mut(CHUNK))
        .zip(v.par_chunks_mut(CHUNK))
        .for_each(|(((p, g), m), v)| {
            for i in 0..p.len() {
                one(&mut p[i], g[i], &mut m[i], &mut v[i]);
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_step_moves_each_weight_by_the_rate_against_its_gradient() {
        let mut net = Network::zeros(16);
        net.out_weights[3] = 1.0;
        let mut grad = Gradient::new(16);
        grad.net.out_weights[3] = 4.0;
        grad.net.out_bias = -2.0;
        let mut adam = AdamState::new(16);
        let cfg = AdamConfig {
            weight_decay: 0.0,
            ..AdamConfig::default()
        };
        adam.step(&mut net, &grad, 2, 0.01, &cfg);
        assert!((net.out_weights[3] - 0.99).abs() < 1e-5);
        assert!((net.out_bias - 0.01).abs() < 1e-5);
        assert_eq!(net.out_weights[4], 0.0);
        assert_eq!(adam.step, 1);
    }
}
