//! `vorpal-tune`: Texel tuning of the evaluation on `vorpal-datagen` output.
//!
//! ```text
//! vorpal-tune --data /work/data/selfplay.txt --out /work/data/weights_tuned.txt --epochs 2000
//! ```
//!
//! Writes a weights file in the format of `engine/data/weights.txt` (the file the engine's
//! build embeds); the engine's own file is only replaced when `--out` names it.

#![forbid(unsafe_code)]

use clap::Parser;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use vorpal_engine::eval::{EvalParams, NUM_PARAMS, S};
use vorpal_tuning::texel::{self, TuneConfig};

/// Texel tuning of the evaluation on vorpal-datagen output: writes a weights file in the
/// format of engine/data/weights.txt
#[derive(Parser, Debug)]
#[command(name = "vorpal-tune", verbatim_doc_comment, args_override_self = true)]
struct Args {
    /// Data lines '<fen> | <score> | <result>' (repeatable)
    #[arg(long, value_name = "FILE", required = true)]
    data: Vec<PathBuf>,
    /// Weights file to write
    #[arg(long, value_name = "FILE", default_value = "weights_tuned.txt")]
    out: PathBuf,
    /// Starting weights file [default: the engine's compiled-in weights]
    #[arg(long, value_name = "FILE")]
    init: Option<PathBuf>,
    /// Read at most N positions
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    /// Rayon threads [default: all cores]
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    #[command(flatten)]
    tune: TuneOptions,
}

/// The settings of the fit.
#[derive(clap::Args, Debug)]
struct TuneOptions {
    /// Adam steps over the full batch
    #[arg(long, value_name = "N", default_value_t = TuneConfig::default().epochs)]
    epochs: usize,
    /// Adam step size in cp
    #[arg(long, value_name = "X", default_value_t = TuneConfig::default().lr)]
    lr: f64,
    /// Weight of the game result in the target, rest = search score
    #[arg(long, value_name = "X", default_value_t = TuneConfig::default().lambda)]
    lambda: f64,
    /// Scaling constant [default: fitted]
    #[arg(long, value_name = "X")]
    k: Option<f64>,
    /// Fraction held out for validation (blocks of 1024); the epoch with
    /// the lowest validation loss is kept
    #[arg(long, value_name = "X", default_value_t = TuneConfig::default().holdout, verbatim_doc_comment)]
    holdout: f64,
    /// Pull towards the starting weights:
    /// + X * sum(((w - w0) / 100)^2)
    #[arg(long, value_name = "X", default_value_t = TuneConfig::default().l2, verbatim_doc_comment)]
    l2: f64,
    /// Log the loss every N epochs
    #[arg(long, value_name = "N", default_value_t = TuneConfig::default().report_every)]
    report_every: usize,
}

impl TuneOptions {
    /// The settings of the fit.
    fn config(&self) -> TuneConfig {
        TuneConfig {
            epochs: self.epochs,
            lr: self.lr,
            lambda: self.lambda,
            k: self.k,
            holdout: self.holdout,
            l2: self.l2,
            report_every: self.report_every,
        }
    }
}

/// Mean absolute change per group, for the report.
fn group_changes(before: &[S], after: &[S]) -> Vec<(&'static str, f64, f64)> {
    vorpal_engine::eval::params::GROUPS
        .iter()
        .map(|&(name, start, len)| {
            let (mut mg, mut eg) = (0.0, 0.0);
            for i in start..start + len {
                mg += (after[i].0 - before[i].0).abs() as f64;
                eg += (after[i].1 - before[i].1).abs() as f64;
            }
            (name, mg / len as f64, eg / len as f64)
        })
        .collect()
}

fn run(args: Args) -> Result<(), String> {
    let tune = args.tune.config();
    if let Some(n) = args.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .map_err(|e| e.to_string())?;
    }
    let init = match &args.init {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            EvalParams(texel::parse_weights(&text).map_err(|e| format!("{}: {e}", path.display()))?)
        }
        None => EvalParams::default(),
    };
    let t = Instant::now();
    let paths: Vec<&Path> = args.data.iter().map(PathBuf::as_path).collect();
    let (data, lin) = texel::load(&paths, &init, args.limit).map_err(|e| e.to_string())?;
    println!(
        "loaded {} positions ({} bad lines skipped), {:.1} non-zero coefficients per position, in {:.1} s",
        data.len(),
        lin.bad_lines,
        data.num_entries() as f64 / data.len().max(1) as f64,
        t.elapsed().as_secs_f64()
    );
    println!(
        "linearity check on {} positions: max |sparse integer model - evaluate| = {} cp (starting and perturbed \
         weights), max |real-valued model - evaluate| = {:.3} cp (taper truncation)",
        lin.checked, lin.max_int_diff, lin.max_float_diff
    );
    if data.is_empty() {
        return Err("no positions".into());
    }
    let t = Instant::now();
    let result = texel::tune(&data, &init.0, &tune, &mut |epoch, loss, val| {
        let val = val.map_or(String::new(), |v| format!("  validation loss {v:.6}"));
        log::info!(
            "epoch {epoch:5}  train loss {loss:.6}{val}  ({:.1} s)",
            t.elapsed().as_secs_f64()
        );
    });
    println!(
        "K = {:.6}; {} training / {} validation positions; {} of {NUM_PARAMS} parameters frozen (never active); \
         weights of epoch {}",
        result.k, result.sizes.0, result.sizes.1, result.frozen, result.best_epoch
    );
    println!(
        "training loss: before {:.6}, after {:.6} ({:+.2}%)",
        result.train_before,
        result.train_after,
        100.0 * (result.train_after / result.train_before - 1.0)
    );
    if let Some((before, after)) = result.validation {
        println!(
            "validation loss: before {before:.6}, after {after:.6} ({:+.2}%)",
            100.0 * (after / before - 1.0)
        );
    }
    if let (Some((before, after)), true) = (result.validation_results, tune.lambda < 1.0) {
        println!(
            "validation loss against game results only: before {before:.6}, after {after:.6} ({:+.2}%)",
            100.0 * (after / before - 1.0)
        );
    }
    let all = 0..data.len();
    let texel_before = texel::loss_int(&data, all.clone(), &init.0, result.k, 1.0);
    let texel_after = texel::loss_int(&data, all, &result.params, result.k, 1.0);
    println!(
        "all positions, game results only (plain Texel loss): before {texel_before:.6}, after {texel_after:.6} \
         ({:+.2}%)",
        100.0 * (texel_after / texel_before - 1.0)
    );
    println!(
        "tuning took {:.1} s; mean |change| per group (mg, eg):",
        t.elapsed().as_secs_f64()
    );
    for (name, mg, eg) in group_changes(&init.0, &result.params) {
        println!("  {name:<24} {mg:7.1} {eg:7.1}");
    }
    let note = format!(
        "tuned on {} positions, lambda {}, K {:.6}, loss {:.6} -> {:.6}",
        data.len(),
        tune.lambda,
        result.k,
        result.train_before,
        result.train_after
    );
    let source = texel::weights_text(&result.params, &note);
    std::fs::write(&args.out, source).map_err(|e| format!("{}: {e}", args.out.display()))?;
    println!("wrote {}", args.out.display());
    Ok(())
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info")).init();
    match run(Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("vorpal-tune: {e}");
            ExitCode::FAILURE
        }
    }
}
