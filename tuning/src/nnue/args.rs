//! The command lines of `vorpal-nnue` (parsed by clap): training ([`TrainArgs`], giving
//! [`Options`]) and `compare` ([`CompareArgs`], giving [`CompareOptions`]). Every value is
//! checked as it is read, so a bad one is refused with its option's name.

use super::cli::Options;
use super::compare::CompareOptions;
use super::train::TrainConfig;
use crate::arg_values::positive_count;
use std::path::PathBuf;
use vorpal_engine::nnue::format::MAX_HIDDEN;

/// Train the engine's NNUE network on vorpal-datagen positions (docs/nnue.md, "Training")
#[derive(clap::Args, Clone, Debug)]
#[command(allow_negative_numbers = true)]
pub struct TrainArgs {
    /// Datagen files: packed (.bin) or text lines
    /// '<pipe FEN> | <score cp> | <result>' (White's view)
    #[arg(long, value_name = "FILE", num_args = 1.., action = clap::ArgAction::Append, required = true, verbatim_doc_comment)]
    data: Vec<PathBuf>,
    /// Network file to write
    #[arg(long, value_name = "NET", default_value = "nnue.net")]
    out: PathBuf,
    /// Hidden neurons per perspective, a multiple of 16
    /// up to 2048
    #[arg(long, value_name = "H", verbatim_doc_comment, default_value_t = TrainConfig::default().hidden, value_parser = hidden)]
    hidden: usize,
    /// Epochs
    #[arg(long, value_name = "N", default_value_t = TrainConfig::default().epochs, value_parser = clap::value_parser!(u32).range(1..))]
    epochs: u32,
    /// Positions per optimiser step
    #[arg(long, value_name = "N", default_value_t = TrainConfig::default().batch, value_parser = positive_count)]
    batch: usize,
    /// Peak learning rate, cosine decay to X * --lr-end
    #[arg(long, value_name = "X", default_value_t = TrainConfig::default().lr, value_parser = positive)]
    lr: f32,
    /// Final learning rate as a fraction of --lr (0..=1)
    #[arg(long, value_name = "F", default_value_t = TrainConfig::default().lr_end, value_parser = fraction)]
    lr_end: f32,
    /// AdamW decoupled weight decay (0..=1)
    #[arg(long, value_name = "X", default_value_t = TrainConfig::default().adam.weight_decay, value_parser = fraction)]
    wd: f32,
    /// Weight of the search score in the target, rest = game result
    /// (0..=1)
    #[arg(long, value_name = "X", default_value_t = TrainConfig::default().lambda, value_parser = fraction, verbatim_doc_comment)]
    lambda: f32,
    /// Centipawns per unit of network output (1..=100000)
    #[arg(long, value_name = "CP", default_value_t = TrainConfig::default().scale, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    scale: u32,
    /// Sigmoid scale [default: fitted on the training set]
    #[arg(long, value_name = "CP", value_parser = positive_k)]
    k: Option<f64>,
    /// Seed of weights and shuffling
    #[arg(long, value_name = "N", default_value_t = TrainConfig::default().seed)]
    seed: u64,
    /// Weight of the hand-crafted evaluation in the training target
    #[arg(long, value_name = "X", default_value_t = TrainConfig::default().hce_prior)]
    hce_prior: f32,
    /// No board-swapped / file-mirrored copies of positions without castling
    #[arg(long)]
    no_augment: bool,
    /// Worker threads [default: all cores]
    #[arg(long, value_name = "N", value_parser = positive_count)]
    threads: Option<usize>,
    /// Write a float checkpoint there after every epoch (epoch-N.ckpt)
    #[arg(long, value_name = "DIR")]
    checkpoint: Option<PathBuf>,
    /// Continue the run of a checkpoint (same data and options)
    #[arg(long, value_name = "FILE")]
    resume: Option<PathBuf>,
    /// Read at most N positions
    #[arg(long, value_name = "N")]
    max_positions: Option<usize>,
    /// Fraction held out for validation, by blocks of 10,000 positions
    /// (0..0.5)
    #[arg(long, value_name = "F", default_value_t = 0.05, value_parser = validation_fraction, verbatim_doc_comment)]
    val_fraction: f64,
}

impl TrainArgs {
    /// The options of the run.
    pub fn options(self) -> Options {
        let defaults = TrainConfig::default();
        let mut train = TrainConfig {
            hidden: self.hidden,
            epochs: self.epochs,
            batch: self.batch,
            lr: self.lr,
            lr_end: self.lr_end,
            lambda: self.lambda,
            scale: self.scale,
            seed: self.seed,
            augment: !self.no_augment,
            hce_prior: self.hce_prior,
            ..defaults
        };
        train.adam.weight_decay = self.wd;
        Options {
            data: self.data,
            out: self.out,
            train,
            k: self.k,
            threads: self.threads,
            checkpoint: self.checkpoint,
            resume: self.resume,
            max_positions: self.max_positions,
            val_fraction: self.val_fraction,
        }
    }
}

/// The losses of networks and of the hand-crafted evaluation on labelled positions
#[derive(clap::Args, Clone, Debug)]
#[command(allow_negative_numbers = true)]
pub struct CompareArgs {
    /// Labelled positions: packed (.bin) or text datagen files
    #[arg(long, value_name = "FILE", num_args = 1.., action = clap::ArgAction::Append, required = true)]
    data: Vec<PathBuf>,
    /// A network file, or builtin for the engine's own (repeatable)
    /// [default: builtin]
    #[arg(long, value_name = "NET", verbatim_doc_comment)]
    net: Vec<String>,
    /// Sigmoid scale [default: fitted on these positions]
    #[arg(long, value_name = "CP", value_parser = positive_k)]
    k: Option<f64>,
    /// Weight of the search score in the target (as training)
    #[arg(long, value_name = "X", default_value_t = 0.75, value_parser = fraction)]
    lambda: f32,
    /// Read at most N positions
    #[arg(long, value_name = "N")]
    max_positions: Option<usize>,
}

impl CompareArgs {
    /// The options of the comparison.
    pub fn options(self) -> CompareOptions {
        let nets = if self.net.is_empty() {
            vec!["builtin".to_string()]
        } else {
            self.net
        };
        CompareOptions {
            data: self.data,
            nets,
            k: self.k,
            lambda: self.lambda,
            max_positions: self.max_positions,
        }
    }
}

/// A number, finite.
fn number<T: std::str::FromStr + Into<f64> + Copy>(text: &str) -> Result<T, String> {
    text.parse::<T>()
        .ok()
        .filter(|x| (*x).into().is_finite())
        .ok_or_else(|| format!("'{text}' is not a number"))
}

/// A number above 0.
fn positive(text: &str) -> Result<f32, String> {
    number::<f32>(text).and_then(|x| {
        if x > 0.0 {
            Ok(x)
        } else {
            Err(format!("{text} is not positive"))
        }
    })
}

/// A sigmoid scale: above 0.
fn positive_k(text: &str) -> Result<f64, String> {
    number::<f64>(text).and_then(|x| {
        if x > 0.0 {
            Ok(x)
        } else {
            Err(format!("{text} is not positive"))
        }
    })
}

/// A fraction in 0..=1.
fn fraction(text: &str) -> Result<f32, String> {
    number::<f32>(text).and_then(|x| match (0.0..=1.0).contains(&x) {
        true => Ok(x),
        false => Err(format!("{text} is not in 0..=1")),
    })
}

/// The held-out fraction: in 0..0.5.
fn validation_fraction(text: &str) -> Result<f64, String> {
    number::<f64>(text).and_then(|x| match (0.0..0.5).contains(&x) {
        true => Ok(x),
        false => Err(format!("{text} is not in 0..0.5")),
    })
}

/// A hidden layer size: a positive multiple of 16 up to 2048.
fn hidden(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(h) if h > 0 && h.is_multiple_of(16) && h <= MAX_HIDDEN => Ok(h),
        Ok(h) => Err(format!("{h} is not a positive multiple of 16 up to {MAX_HIDDEN}")),
        Err(_) => Err(format!("'{text}' is not a whole number")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(clap::Parser)]
    struct Train {
        #[command(flatten)]
        args: TrainArgs,
    }

    #[derive(clap::Parser)]
    struct Compare {
        #[command(flatten)]
        args: CompareArgs,
    }

    fn train(words: &[&str]) -> Result<Options, String> {
        let line = Train::try_parse_from(std::iter::once("vorpal-nnue").chain(words.iter().copied()));
        Ok(line.map_err(|e| e.to_string())?.args.options())
    }

    fn compare(words: &[&str]) -> Result<CompareOptions, String> {
        let line = Compare::try_parse_from(std::iter::once("compare").chain(words.iter().copied()));
        Ok(line.map_err(|e| e.to_string())?.args.options())
    }

    #[test]
    fn training_options_and_their_checks() {
        let o = train(&[
            "--data",
            "a.txt",
            "b.bin",
            "--hidden=32",
            "--wd",
            "0.1",
            "--no-augment",
            "--data",
            "c.bin",
        ])
        .unwrap();
        assert_eq!(o.data.len(), 3);
        assert_eq!(
            (o.train.hidden, o.train.adam.weight_decay, o.train.augment),
            (32, 0.1, false)
        );
        assert_eq!((o.out.to_str(), o.val_fraction, o.k), (Some("nnue.net"), 0.05, None));
        assert_eq!(o.train.epochs, TrainConfig::default().epochs);
        for (bad, flag) in [
            (&["--epochs", "3"][..], "--data"),
            (&["--data"], "--data"),
            (&["--data", "x", "--hidden", "100"], "--hidden"),
            (&["--data", "x", "--hidden", "4096"], "--hidden"),
            (&["--data", "x", "--epochs", "0"], "--epochs"),
            (&["--data", "x", "--lr", "0"], "--lr"),
            (&["--data", "x", "--lr-end", "2"], "--lr-end"),
            (&["--data", "x", "--lambda", "2"], "--lambda"),
            (&["--data", "x", "--scale", "0"], "--scale"),
            (&["--data", "x", "--k", "-1"], "--k"),
            (&["--data", "x", "--k", "NaN"], "--k"),
            (&["--data", "x", "--val-fraction", "0.5"], "--val-fraction"),
            (&["--data", "x", "--threads", "0"], "--threads"),
            (&["--data", "x", "--bogus"], "--bogus"),
        ] {
            let e = train(bad).err().unwrap_or_else(|| panic!("{bad:?} accepted"));
            assert!(e.contains(flag), "{bad:?}: {e}");
        }
    }

    #[test]
    fn compare_options() {
        assert!(compare(&["--net", "x"]).unwrap_err().contains("--data"));
        let o = compare(&["--data", "a.bin", "b.bin", "--k", "210"]).unwrap();
        assert_eq!(
            (o.data.len(), o.nets.clone(), o.k, o.lambda),
            (2, vec!["builtin".to_string()], Some(210.0), 0.75)
        );
        let o = compare(&["--data=a.bin", "--net", "builtin", "--net=x.nnue"]).unwrap();
        assert_eq!(o.nets, ["builtin", "x.nnue"]);
        assert!(compare(&["--data", "a.bin", "--json"]).unwrap_err().contains("--json"));
        assert!(compare(&["--data", "a.bin", "--lambda", "1.5"])
            .unwrap_err()
            .contains("--lambda"));
    }
}
