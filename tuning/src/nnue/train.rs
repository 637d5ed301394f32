//! The training loop: the sigmoid scale fit, the learning-rate schedule, epochs of shuffled
//! mini-batches with parallel gradients, validation and checkpoints.
//!
//! Reproducibility: the starting weights come from the seed, each epoch's order from the seed
//! and the epoch number, and a batch's gradient is always summed over the same
//! [`GRADIENT_PARTS`] slices in the same order. A run therefore gives bit-identical weights
//! for any number of threads, and a run resumed from a checkpoint ends where the
//! uninterrupted run ends.

use super::checkpoint::Checkpoint;
use super::data::Sample;
use super::model::{sigmoid, Gradient, LossConfig, Network};
use super::optim::{AdamConfig, AdamState};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Slices a batch's gradient is split into (one gradient buffer each, run in parallel).
pub const GRADIENT_PARTS: usize = 8;

/// Settings of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// Hidden neurons per perspective (a multiple of 16).
    pub hidden: usize,
    /// Epochs in the whole run (the schedule spans them all).
    pub epochs: u32,
    /// Samples per optimiser step.
    pub batch: usize,
    /// Peak learning rate.
    pub lr: f32,
    /// Learning rate at the end of the run, as a fraction of `lr`.
    pub lr_end: f32,
    /// Optimiser settings (weight decay among them).
    pub adam: AdamConfig,
    /// Weight of the search score in the target.
    pub lambda: f32,
    /// Centipawns per unit of network output.
    pub scale: u32,
    /// Seed of the weights and of the shuffling.
    pub seed: u64,
    /// Train on a board-swapped and/or file-mirrored copy of each position without castling
    /// rights, chosen per sample and epoch ([`Sample::transformed`]).
    pub augment: bool,
    /// Weight of the hand-crafted evaluation in the training target (0 = none).
    pub hce_prior: f32,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            hidden: 128,
            epochs: 10,
            batch: 16384,
            lr: 0.001,
            lr_end: 0.05,
            adam: AdamConfig::default(),
            lambda: 0.75,
            augment: true,
            hce_prior: 0.0,
            scale: 400,
            seed: 1,
        }
    }
}

/// Mean squared error of `σ(score / k)` against the results, White's view.
pub fn k_error(samples: &[Sample], k: f64) -> f64 {
    let sum: f64 = samples
        .par_iter()
        .with_min_len(4096)
        .map(|s| {
            let d = 1.0 / (1.0 + (-(s.score as f64) / k).exp()) - s.result() as f64;
            d * d
        })
        .sum();
    sum / samples.len().max(1) as f64
}

/// The sigmoid scale `K` (centipawns) that best maps search scores to results: golden-section
/// search of [`k_error`] over 10..10,000 cp.
pub fn fit_k(samples: &[Sample]) -> f64 {
    // Search log K: the error is flat for large K, so equal steps in log space converge evenly.
    let f = |x: f64| k_error(samples, x.exp());
    crate::golden::golden_section_min(f, 10f64.ln(), 10_000f64.ln(), |_, steps| steps >= 60).exp()
}

/// Learning rate at `progress` (epochs done, fractional) of `epochs`: cosine decay from `lr`
/// to `lr · lr_end`.
pub fn learning_rate(cfg: &TrainConfig, progress: f64) -> f32 {
    let x = (progress / cfg.epochs.max(1) as f64).clamp(0.0, 1.0);
    let end = cfg.lr as f64 * cfg.lr_end as f64;
    (end + 0.5 * (cfg.lr as f64 - end) * (1.0 + (std::f64::consts::PI * x).cos())) as f32
}

/// What one epoch did.
#[derive(Clone, Debug, PartialEq)]
pub struct EpochReport {
    /// Epoch number, from 1.
    pub epoch: u32,
    /// Mean training loss over the epoch (weights as they were when each batch was seen).
    pub train_loss: f64,
    /// Validation loss after the epoch (`None` without a validation set).
    pub val_loss: Option<f64>,
    /// Learning rate at the end of the epoch.
    pub lr: f32,
    /// Seconds the epoch's batches took.
    pub seconds: f64,
    /// Training positions per second.
    pub positions_per_second: f64,
    /// Checkpoint written, if any.
    pub checkpoint: Option<PathBuf>,
}

/// A network being trained with its optimiser.
pub struct Trainer {
    /// Settings.
    pub cfg: TrainConfig,
    /// Loss settings (scale, K, λ).
    pub loss: LossConfig,
    /// The float network.
    pub net: Network,
    /// Optimiser state.
    pub adam: AdamState,
    /// Epochs completed.
    pub epochs_done: u32,
    parts: Vec<Gradient>,
}

impl Trainer {
    /// A new run with random weights from the seed, K given.
    pub fn new(cfg: TrainConfig, k: f64) -> Trainer {
        let mut rng = StdRng::seed_from_u64(cfg.seed);
        let net = Network::random(cfg.hidden, &mut rng);
        let adam = AdamState::new(cfg.hidden);
        Trainer::with_state(cfg, k, net, adam, 0)
    }

    fn with_state(cfg: TrainConfig, k: f64, net: Network, adam: AdamState, epochs_done: u32) -> Trainer {
        let hidden = net.hidden;
        Trainer {
            loss: LossConfig {
                scale: cfg.scale as f32,
                k: k as f32,
                lambda: cfg.lambda,
                hce_prior: cfg.hce_prior,
            },
            parts: (0..GRADIENT_PARTS).map(|_| Gradient::new(hidden)).collect(),
            cfg,
            net,
            adam,
            epochs_done,
        }
    }

    /// Continues a run from a checkpoint; the checkpoint's K and seed replace `cfg`'s so the
    /// remaining epochs are those of the original run. Refuses a different hidden size.
    pub fn resume(mut cfg: TrainConfig, ck: Checkpoint) -> Result<Trainer, String> {
        if ck.net.hidden != cfg.hidden {
            return Err(format!(
                "the checkpoint has {} hidden neurons, --hidden says {}",
                ck.net.hidden, cfg.hidden
            ));
        }
        cfg.seed = ck.seed;
        Ok(Trainer::with_state(cfg, ck.k as f64, ck.net, ck.adam, ck.epochs_done))
    }

    /// The run's state as a checkpoint.
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            epochs_done: self.epochs_done,
            seed: self.cfg.seed,
            k: self.loss.k,
            net: self.net.clone(),
            adam: self.adam.clone(),
        }
    }

    /// Mean loss of the current network over `samples`.
    pub fn loss_of(&self, samples: &[Sample]) -> f64 {
        set_loss(&self.net, samples, &self.loss)
    }

    /// One epoch over `train` in the epoch's shuffled order; returns the mean training loss.
    pub fn run_epoch(&mut self, train: &[Sample]) -> f64 {
        let epoch = self.epochs_done;
        let mut order: Vec<u32> = (0..train.len() as u32).collect();
        let mut rng = StdRng::seed_from_u64(self.cfg.seed ^ (epoch as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        order.shuffle(&mut rng);
        let batch = self.cfg.batch.max(1);
        let batches = order.len().div_ceil(batch).max(1);
        let mut loss_sum = 0.0;
        for (b, indices) in order.chunks(batch).enumerate() {
            let part_len = indices.len().div_ceil(GRADIENT_PARTS).max(1);
            let net = &self.net;
            let cfg = self.loss;
            let (augment, seed) = (self.cfg.augment, self.cfg.seed);
            self.parts.par_iter_mut().enumerate().for_each(|(p, grad)| {
                grad.clear();
                let start = (p * part_len).min(indices.len());
                let end = ((p + 1) * part_len).min(indices.len());
                for &i in &indices[start..end] {
                    let sample = &train[i as usize];
                    if augment && sample.symmetric() {
                        let transform = (mix(seed ^ ((epoch as u64) << 40) ^ i as u64) & 3) as u8;
                        grad.add_sample(net, &sample.transformed(transform), &cfg);
                    } else {
                        grad.add_sample(net, sample, &cfg);
                    }
                }
            });
            let (first, rest) = self.parts.split_first_mut().expect("gradient parts");
            for other in rest.iter() {
                first.merge(other);
            }
            loss_sum += first.loss_sum;
            let lr = learning_rate(&self.cfg, epoch as f64 + (b + 1) as f64 / batches as f64);
            self.adam.step(&mut self.net, first, indices.len(), lr, &self.cfg.adam);
        }
        self.epochs_done += 1;
        loss_sum / train.len().max(1) as f64
    }

    /// Runs epochs until `cfg.epochs` are done, after each one measuring the validation loss,
    /// writing a checkpoint into `checkpoint_dir` (as `epoch-N.ckpt`) and calling `report`.
    pub fn train(
        &mut self,
        train: &[Sample],
        val: &[Sample],
        checkpoint_dir: Option<&Path>,
        mut report: impl FnMut(&EpochReport),
    ) -> Result<(), String> {
        if let Some(dir) = checkpoint_dir {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        while self.epochs_done < self.cfg.epochs {
            let t = Instant::now();
            let train_loss = self.run_epoch(train);
            let seconds = t.elapsed().as_secs_f64();
            let val_loss = (!val.is_empty()).then(|| self.loss_of(val));
            let checkpoint = match checkpoint_dir {
                Some(dir) => {
                    let path = dir.join(format!("epoch-{}.ckpt", self.epochs_done));
                    std::fs::write(&path, self.checkpoint().to_bytes())
                        .map_err(|e| format!("{}: {e}", path.display()))?;
                    Some(path)
                }
                None => None,
            };
            report(&EpochReport {
                epoch: self.epochs_done,
                train_loss,
                val_loss,
                lr: learning_rate(&self.cfg, self.epochs_done as f64),
                seconds,
                positions_per_second: train.len() as f64 / seconds.max(1e-9),
                checkpoint,
            });
        }
        Ok(())
    }
}

/// Mean loss over `samples` of a predictor that knew each position's search score,
/// `p = σ(score_stm / K)`: the floor the network approaches as it learns the search's scores
/// (all of the loss that comes from the results).
pub fn score_loss(samples: &[Sample], cfg: &LossConfig) -> f64 {
    mean_loss(samples, cfg, |s| s.score_stm())
}

/// Mean squared error over `samples` of `p = σ(eval_cp(s) / K)` against the target, in
/// parallel: the loss of any predictor given as centipawns from the side to move's view.
pub fn mean_loss(samples: &[Sample], cfg: &LossConfig, eval_cp: impl Fn(&Sample) -> f32 + Sync) -> f64 {
    let sum: f64 = samples
        .par_iter()
        .with_min_len(4096)
        .map(|s| {
            let d = (sigmoid(eval_cp(s) / cfg.k) - cfg.target(s)) as f64;
            d * d
        })
        .sum();
    sum / samples.len().max(1) as f64
}

/// A 64-bit mixer (splitmix64's finaliser): the augmentation choice of a sample in an epoch,
/// the same whatever the thread count.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Mean loss over `samples` of the hand-crafted static evaluation, `p = σ(hce_stm / K)`: the
/// baseline a network must beat.
pub fn hand_crafted_loss(samples: &[Sample], cfg: &LossConfig) -> f64 {
    mean_loss(samples, cfg, |s| f32::from(s.hce_stm))
}

/// Mean loss of `net` over `samples`, in parallel.
pub fn set_loss(net: &Network, samples: &[Sample], cfg: &LossConfig) -> f64 {
    let sum: f64 = samples
        .par_chunks(2048)
        .map(|chunk| {
            let mut us = vec![0.0; net.hidden];
            let mut them = vec![0.0; net.hidden];
            chunk
                .iter()
                .map(|s| {
                    net.accumulate(s, s.stm(), &mut us);
                    net.accumulate(s, 1 - s.stm(), &mut them);
                    let p = sigmoid(net.output(&us, &them) * cfg.scale / cfg.k);
                    let d = (p - cfg.target(s)) as f64;
                    d * d
                })
                .sum::<f64>()
        })
        .sum();
    sum / samples.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use vorpal_engine::{Position, Rules};

    fn sample(score: i32, result: f64) -> Sample {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1", Rules::default()).unwrap();
        Sample::from_position(&pos, score, result).unwrap()
    }

    /// Results drawn with probability σ(score / 250): the fit finds 250 within 5%.
    #[test]
    fn k_fit_recovers_a_known_k() {
        use rand::Rng;
        let mut rng = StdRng::seed_from_u64(5);
        let samples: Vec<Sample> = (0..200_000)
            .map(|_| {
                let score = rng.gen_range(-1200..=1200);
                let p = 1.0 / (1.0 + (-(score as f64) / 250.0).exp());
                sample(score, if rng.gen_bool(p) { 1.0 } else { 0.0 })
            })
            .collect();
        let k = fit_k(&samples);
        assert!((k - 250.0).abs() < 12.5, "fitted K = {k}");
    }

    #[test]
    fn the_score_floor_is_the_result_part_of_the_loss() {
        let cfg = LossConfig {
            scale: 400.0,
            k: 200.0,
            lambda: 0.75,
            hce_prior: 0.0,
        };
        // Score 0: p = 0.5; target 0.75 * 0.5 + 0.25 * 1 = 0.625; loss 0.125^2.
        let samples = [sample(0, 1.0), sample(0, 0.5)];
        assert!((score_loss(&samples, &cfg) - 0.125f64.powi(2) / 2.0).abs() < 1e-7);
    }

    #[test]
    fn cosine_schedule_runs_from_lr_to_the_end_rate() {
        let cfg = TrainConfig {
            epochs: 10,
            lr: 0.002,
            lr_end: 0.1,
            ..TrainConfig::default()
        };
        assert!((learning_rate(&cfg, 0.0) - 0.002).abs() < 1e-9);
        assert!((learning_rate(&cfg, 5.0) - 0.0011).abs() < 1e-7);
        assert!((learning_rate(&cfg, 10.0) - 0.0002).abs() < 1e-9);
        assert!(learning_rate(&cfg, 3.0) > learning_rate(&cfg, 4.0));
    }
}
