//! The `vorpal-nnue` run: its options (read from the command line by [`super::args`]), the
//! run from loading to the written network, and its progress report.

use super::checkpoint::Checkpoint;
use super::data::{load_samples, split_holdout, LoadReport, Sample};
use super::quant::{quantise, quantised_eval};
use super::train::{fit_k, hand_crafted_loss, score_loss, TrainConfig, Trainer};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Parsed options.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Input files.
    pub data: Vec<PathBuf>,
    /// Output network.
    pub out: PathBuf,
    /// Training settings.
    pub train: TrainConfig,
    /// Fixed K instead of the fit.
    pub k: Option<f64>,
    /// Rayon threads.
    pub threads: Option<usize>,
    /// Checkpoint directory.
    pub checkpoint: Option<PathBuf>,
    /// Checkpoint to resume.
    pub resume: Option<PathBuf>,
    /// Position limit.
    pub max_positions: Option<usize>,
    /// Validation fraction.
    pub val_fraction: f64,
}

/// Validation block: consecutive positions held out together.
pub const VAL_BLOCK: usize = 10_000;

/// Prints a progress line; a closed stdout is not an error worth stopping a run for.
fn say(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}");
    let _ = out.flush();
}

/// Mean |float eval − quantised eval| in centipawns over `samples`.
pub fn quantisation_error(trainer: &Trainer, file: &vorpal_engine::nnue::NetFile, samples: &[Sample]) -> f64 {
    use rayon::prelude::*;
    let sum: f64 = samples
        .par_iter()
        .with_min_len(1024)
        .map(|s| (trainer.net.eval_cp(s, trainer.loss.scale) as f64 - quantised_eval(file, s) as f64).abs())
        .sum();
    sum / samples.len().max(1) as f64
}

fn describe(
    o: &Options,
    trainer: &Trainer,
    report: &LoadReport,
    counts: (usize, usize),
    losses: (f64, Option<f64>),
    command: &str,
) -> String {
    let files: Vec<String> = o
        .data
        .iter()
        .zip(&report.per_file)
        .map(|(p, n)| format!("{} ({n} positions)", p.display()))
        .collect();
    let t = &trainer.cfg;
    format!(
        "vorpal-nnue network\narchitecture: 1536 inputs x2 perspectives -> {h} (shared) -> SCReLU -> 1, side to move's half first\n\
         hidden: {h}\nK: {k:.2}\nscale: {scale}\nlambda: {lambda}\nepochs: {epochs}\nbatch: {batch}\nlr: {lr} cosine to x{lr_end}\nweight decay: {wd}\nseed: {seed}\n\
         data: {files}\ntraining positions: {ntrain}\nvalidation positions: {nval}\nfinal train loss: {tl:.6}\nfinal validation loss: {vl}\ncommand: {command}\n",
        h = t.hidden,
        k = trainer.loss.k,
        scale = t.scale,
        lambda = t.lambda,
        epochs = trainer.epochs_done,
        batch = t.batch,
        lr = t.lr,
        lr_end = t.lr_end,
        wd = t.adam.weight_decay,
        seed = t.seed,
        files = files.join(", "),
        ntrain = counts.0,
        nval = counts.1,
        tl = losses.0,
        vl = losses.1.map_or("-".to_string(), |v| format!("{v:.6}")),
    )
}

/// Runs `vorpal-nnue` with parsed options; `command` is recorded in the network's description.
pub fn run(o: Options, command: &str) -> Result<(), String> {
    if let Some(n) = o.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .map_err(|e| e.to_string())?;
    }
    let t0 = Instant::now();
    let paths: Vec<&Path> = o.data.iter().map(PathBuf::as_path).collect();
    let (samples, report) = load_samples(&paths, o.max_positions).map_err(|e| e.to_string())?;
    say(&format!(
        "loaded {} positions in {:.1} s ({} malformed lines skipped, {} positions of other variants skipped)",
        report.loaded,
        t0.elapsed().as_secs_f64(),
        report.malformed,
        report.skipped_variant
    ));
    let (train, val) = split_holdout(samples, o.val_fraction, VAL_BLOCK);
    if train.is_empty() {
        return Err("no training positions".into());
    }
    say(&format!(
        "training on {} positions, validating on {}",
        train.len(),
        val.len()
    ));
    let mut trainer = match &o.resume {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let ck = Checkpoint::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
            let trainer = Trainer::resume(o.train.clone(), ck)?;
            say(&format!(
                "resumed {} after epoch {} (K = {:.2})",
                path.display(),
                trainer.epochs_done,
                trainer.loss.k
            ));
            trainer
        }
        None => {
            let k = match o.k {
                Some(k) => k,
                None => {
                    let k = fit_k(&train);
                    say(&format!(
                        "fitted K = {k:.2} cp (sigmoid(score / K) against the results)"
                    ));
                    k
                }
            };
            Trainer::new(o.train.clone(), k)
        }
    };
    if !val.is_empty() {
        say(&format!(
            "validation loss of the search score itself (the floor): {:.6}",
            score_loss(&val, &trainer.loss)
        ));
        say(&format!(
            "validation loss of the hand-crafted static evaluation (the baseline): {:.6}",
            hand_crafted_loss(&val, &trainer.loss)
        ));
    }
    let total = trainer.cfg.epochs;
    let start_epoch = trainer.epochs_done;
    let run_start = Instant::now();
    let mut last = (f64::NAN, None);
    let mut best: Option<(u32, f64)> = None;
    trainer.train(&train, &val, o.checkpoint.as_deref(), |r| {
        let done = (r.epoch - start_epoch) as f64;
        let eta = run_start.elapsed().as_secs_f64() / done * (total - r.epoch) as f64;
        last = (r.train_loss, r.val_loss);
        if let Some(v) = r.val_loss {
            if best.is_none_or(|(_, b)| v < b) {
                best = Some((r.epoch, v));
            }
        }
        say(&format!(
            "epoch {}/{total}: train loss {:.6}, validation loss {}, lr {:.6}, {:.0} positions/s, {:.1} s, ETA {:.0} s",
            r.epoch,
            r.train_loss,
            r.val_loss.map_or("-".to_string(), |v| format!("{v:.6}")),
            r.lr,
            r.positions_per_second,
            r.seconds,
            eta
        ));
    })?;
    if let Some((epoch, loss)) = best {
        say(&format!(
            "lowest validation loss {loss:.6} after epoch {epoch} (the network written is the last epoch's)"
        ));
    }
    if last.0.is_nan() {
        last = (
            trainer.loss_of(&train),
            (!val.is_empty()).then(|| trainer.loss_of(&val)),
        );
    }
    let text = describe(&o, &trainer, &report, (train.len(), val.len()), last, command);
    let file = quantise(&trainer.net, trainer.cfg.scale, text);
    let check = if val.is_empty() { &train } else { &val };
    say(&format!(
        "quantised: mean |float eval - quantised eval| = {:.3} cp over {} {} positions",
        quantisation_error(&trainer, &file, check),
        check.len(),
        if val.is_empty() { "training" } else { "validation" }
    ));
    std::fs::write(&o.out, file.to_bytes()).map_err(|e| format!("{}: {e}", o.out.display()))?;
    say(&format!("wrote {} ({} hidden)", o.out.display(), file.hidden));
    Ok(())
}
