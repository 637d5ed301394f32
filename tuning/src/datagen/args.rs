//! The command line of `vorpal-datagen` (parsed by clap): generation ([`GenerateArgs`], giving
//! a [`DatagenConfig`]) and the tools on packed files ([`ConvertArgs`], [`MergeArgs`],
//! [`DumpArgs`], [`RelabelArgs`]).

use super::relabel::RelabelConfig;
use super::sink::OutputFormat;
use super::DatagenConfig;
use crate::arg_values::{positive_count, seconds};
use std::path::PathBuf;
use std::time::Duration;

/// A score bound in centipawns, or a number of plies, in a `--resign` or `--draw` rule.
fn rule_value(text: &str) -> Result<u32, String> {
    text.parse::<u32>()
        .ok()
        .filter(|&n| i32::try_from(n).is_ok())
        .ok_or_else(|| format!("'{text}' is not a whole number"))
}

/// The evaluation the searches use.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Eval {
    /// The built-in network.
    #[default]
    Nnue,
    /// The hand-crafted evaluation.
    Hce,
}

/// Self-play games writing '<fen> | <score> | <result>' lines and packed records; rerunning
/// with the same --out and settings continues where the last run stopped
#[derive(clap::Args, Clone, Debug)]
#[command(allow_negative_numbers = true)]
pub struct GenerateArgs {
    /// Text data PATH, packed PATH.bin, progress PATH.progress
    #[arg(long, value_name = "PATH", required = true)]
    out: Option<PathBuf>,
    /// text, packed or both
    #[arg(long, value_name = "F", default_value_t = DatagenConfig::default().format)]
    format: OutputFormat,
    /// Total games wanted, counting recorded ones
    /// [default: 100; no limit with --max-seconds]
    #[arg(long, value_name = "N", verbatim_doc_comment)]
    games: Option<u64>,
    /// Worker threads, one search thread each
    #[arg(long, value_name = "N", default_value_t = DatagenConfig::default().threads, value_parser = positive_count)]
    threads: usize,
    /// Soft node limit per move: no iteration starts past it
    /// [default: 5000, none with --depth alone]
    #[arg(long, value_name = "N", verbatim_doc_comment)]
    nodes: Option<u64>,
    /// Hard node cap per move; a cut iteration is dropped
    /// [default: 4 x --nodes]
    #[arg(long, value_name = "N", verbatim_doc_comment)]
    max_nodes: Option<u64>,
    /// Depth per move (instead of, or with, --nodes)
    #[arg(long, value_name = "D")]
    depth: Option<u32>,
    /// Hash per worker in MB
    #[arg(long, value_name = "MB", default_value_t = DatagenConfig::default().hash_mb)]
    hash: usize,
    /// Base seed
    #[arg(long, value_name = "S", default_value_t = DatagenConfig::default().seed)]
    seed: u64,
    /// Random opening plies
    #[arg(long, value_name = "K", default_value_t = DatagenConfig::default().random_plies)]
    random_plies: u32,
    /// Re-roll openings scoring beyond this (0 = off)
    #[arg(long, value_name = "CP", default_value_t = DatagenConfig::default().opening_window)]
    opening_window: i32,
    /// Plies after the opening not written
    #[arg(long, value_name = "N", default_value_t = DatagenConfig::default().skip_plies)]
    skip_plies: u32,
    /// Skip positions with |score| above CP (0: none)
    #[arg(long, value_name = "CP", default_value_t = DatagenConfig::default().max_score)]
    max_score: i32,
    /// Search with the built-in network (nnue) or the hand-crafted
    /// evaluation (hce)
    #[arg(
        long,
        value_name = "EVAL",
        value_enum,
        default_value_t,
        hide_possible_values = true,
        verbatim_doc_comment
    )]
    eval: Eval,
    /// Adjudicate a draw at this length
    #[arg(long, value_name = "N", default_value_t = DatagenConfig::default().max_plies)]
    max_plies: u32,
    /// Resign when |score| >= CP for PLIES plies (PLIES 0 = off)
    /// [default: 1000 6]
    #[arg(long, num_args = 2, value_names = ["CP", "PLIES"], value_parser = rule_value, verbatim_doc_comment)]
    resign: Option<Vec<u32>>,
    /// Draw when |score| <= CP for PLIES plies after ply AFTER
    /// [default: 10 12 80]
    #[arg(long, num_args = 3, value_names = ["CP", "PLIES", "AFTER"], value_parser = rule_value, verbatim_doc_comment)]
    draw: Option<Vec<u32>>,
    /// Start no new game after S seconds
    #[arg(long, value_name = "S", value_parser = seconds)]
    max_seconds: Option<Duration>,
    /// A progress line on stderr every S seconds [default: 5]
    #[arg(long, value_name = "S", value_parser = seconds)]
    progress_seconds: Option<Duration>,
}

impl GenerateArgs {
    /// The settings of the run.
    pub fn config(self) -> DatagenConfig {
        let defaults = DatagenConfig::default();
        let (resign_cp, resign_plies) = match self.resign.as_deref() {
            Some(&[cp, plies]) => (cp as i32, plies),
            _ => (defaults.resign_cp, defaults.resign_plies),
        };
        let (draw_cp, draw_plies, draw_after) = match self.draw.as_deref() {
            Some(&[cp, plies, after]) => (cp as i32, plies, after),
            _ => (defaults.draw_cp, defaults.draw_plies, defaults.draw_after),
        };
        let nodes = match (self.nodes, self.depth) {
            (None, Some(_)) => None,
            (nodes, _) => nodes.or(defaults.nodes),
        };
        let games = self.games.unwrap_or(if self.max_seconds.is_some() {
            u64::MAX
        } else {
            defaults.games
        });
        DatagenConfig {
            // Required by clap (a subcommand instead of generation leaves it out).
            out: self.out.unwrap_or_default(),
            format: self.format,
            games,
            threads: self.threads,
            nodes,
            max_nodes: self.max_nodes,
            depth: self.depth,
            hash_mb: self.hash,
            seed: self.seed,
            random_plies: self.random_plies,
            opening_window: self.opening_window,
            skip_plies: self.skip_plies,
            max_score: self.max_score,
            hand_crafted: self.eval == Eval::Hce,
            max_plies: self.max_plies,
            resign_cp,
            resign_plies,
            draw_cp,
            draw_plies,
            draw_after,
            max_time: self.max_seconds,
            progress_interval: self.progress_seconds.unwrap_or(defaults.progress_interval),
        }
    }
}

/// Text data to packed records
#[derive(clap::Args, Clone, Debug)]
pub struct ConvertArgs {
    /// The text data
    #[arg(value_name = "IN.txt")]
    pub input: PathBuf,
    /// The packed file to write
    #[arg(value_name = "OUT.bin")]
    pub out: PathBuf,
}

/// Concatenate packed files
#[derive(clap::Args, Clone, Debug)]
pub struct MergeArgs {
    /// The packed file to write
    #[arg(value_name = "OUT.bin")]
    pub out: PathBuf,
    /// The packed files to combine
    #[arg(value_name = "SHARD.bin", required = true)]
    pub shards: Vec<PathBuf>,
}

/// Packed records as text lines on stdout
#[derive(clap::Args, Clone, Debug)]
pub struct DumpArgs {
    /// The packed file
    #[arg(value_name = "IN.bin")]
    pub input: PathBuf,
}

/// Every position searched again (deeper): its score replaced, its result kept
#[derive(clap::Args, Clone, Debug)]
#[command(group = clap::ArgGroup::new("limit").args(["nodes", "depth"]).multiple(true).required(true))]
pub struct RelabelArgs {
    /// The packed positions
    #[arg(value_name = "IN.bin")]
    pub input: PathBuf,
    /// The packed file to write
    #[arg(value_name = "OUT.bin")]
    pub out: PathBuf,
    /// Soft node limit per position (deeper than the data was made with)
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// Hard node cap per position [default: 4 x --nodes]
    #[arg(long, value_name = "N")]
    max_nodes: Option<u64>,
    /// Depth per position
    #[arg(long, value_name = "D")]
    depth: Option<u32>,
    /// Worker threads, one search thread each
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = positive_count)]
    threads: usize,
    /// Hash per worker in MB
    #[arg(long, value_name = "MB", default_value_t = 16)]
    hash: usize,
    /// Search with the built-in network (nnue) or the hand-crafted
    /// evaluation (hce)
    #[arg(
        long,
        value_name = "EVAL",
        value_enum,
        default_value_t,
        hide_possible_values = true,
        verbatim_doc_comment
    )]
    eval: Eval,
}

impl RelabelArgs {
    /// The settings of the relabelling: the limits come from the same settings as
    /// generation's (soft node limit, hard cap, depth).
    pub fn config(&self) -> RelabelConfig {
        let limits_of = DatagenConfig {
            nodes: self.nodes,
            max_nodes: self.max_nodes,
            depth: self.depth,
            ..DatagenConfig::default()
        };
        RelabelConfig {
            limits: limits_of.limits(),
            threads: self.threads,
            hash_mb: self.hash,
            hand_crafted: self.eval == Eval::Hce,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(clap::Parser)]
    struct Generate {
        #[command(flatten)]
        args: GenerateArgs,
    }

    #[derive(clap::Parser)]
    struct Relabel {
        #[command(flatten)]
        args: RelabelArgs,
    }

    fn generate(words: &[&str]) -> Result<DatagenConfig, String> {
        let line = Generate::try_parse_from(std::iter::once("vorpal-datagen").chain(words.iter().copied()));
        Ok(line.map_err(|e| e.to_string())?.args.config())
    }

    #[test]
    fn generation_settings() {
        let c = generate(&[
            "--out", "d", "--depth", "6", "--resign", "800", "4", "--draw", "5", "10", "60",
        ])
        .unwrap();
        assert_eq!((c.nodes, c.depth, c.games), (None, Some(6), 100));
        assert_eq!((c.resign_cp, c.resign_plies), (800, 4));
        assert_eq!((c.draw_cp, c.draw_plies, c.draw_after), (5, 10, 60));
        let c = generate(&["--out=d", "--max-seconds", "1.5", "--eval", "hce", "--format", "packed"]).unwrap();
        assert_eq!(
            (c.games, c.max_time, c.hand_crafted),
            (u64::MAX, Some(Duration::from_millis(1500)), true)
        );
        assert_eq!((c.format, c.nodes), (OutputFormat::Packed, Some(5000)));
        for (bad, flag) in [
            (&["--games", "3"][..], "--out"),
            (&["--out", "x", "--format", "xml"], "--format"),
            (&["--out", "x", "--max-score", "lots"], "--max-score"),
            (&["--out", "x", "--progress-seconds", "-1"], "--progress-seconds"),
            (&["--out", "x", "--threads", "0"], "--threads"),
            (&["--out", "x", "--eval", "both"], "--eval"),
            (&["--out", "x", "--resign", "800"], "--resign"),
            (&["--out", "x", "--bogus"], "--bogus"),
        ] {
            let e = generate(bad).err().unwrap_or_else(|| panic!("{bad:?} accepted"));
            assert!(e.contains(flag), "{bad:?}: {e}");
        }
    }

    #[test]
    fn relabel_needs_a_limit() {
        let parse = |words: &[&str]| Relabel::try_parse_from(std::iter::once("relabel").chain(words.iter().copied()));
        let r = parse(&["a.bin", "b.bin", "--nodes", "2000", "--threads", "2"])
            .unwrap()
            .args;
        assert_eq!((r.config().threads, r.config().limits.soft_nodes), (2, Some(2000)));
        assert!(parse(&["a.bin", "b.bin"]).is_err());
        assert!(parse(&["a.bin", "--depth", "2"]).is_err());
    }
}
