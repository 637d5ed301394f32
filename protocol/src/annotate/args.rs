//! The command line of `vorpal annotate` ([`AnnotateArgs`], parsed by clap) and the settings
//! it gives the review ([`Args`]).

use crate::arg_values::{in_range, positive, RunCommand};
use std::time::Duration;
use vorpal_engine::search::{Limits, SearchOptions};
use vorpal_uci_text::go::MAX_DEPTH;
use vorpal_uci_text::options::{HASH_MAX, THREADS_MAX};

/// Nodes per position when no limit is given: a 40-move game (81 positions) in well under a
/// minute on one thread of a 2-core machine.
pub const DEFAULT_NODES: u64 = 300_000;

const AFTER_HELP: &str = "\
Each game gets an evaluation after every move ({ [%eval 0.32] }, pawns from White's side), ?!,
? and ?? on inaccuracies, mistakes and blunders (judged by the winning chances lost), the
engine's line for each mistake and blunder, and per side the accuracy and the average
centipawn loss. Rules come from the Variant, AliceEnPassant and FEN tags. The limits that are
given all apply (default --nodes 300000).
Exit status: 0, 1 if a game could not be read or reviewed (the others are), 2 for a bad
command line. Details: docs/annotate.md";

/// Review games: evaluations, mistakes, better lines, accuracy
#[derive(clap::Args, Debug)]
#[command(after_help = AFTER_HELP, args_override_self = true)]
pub struct AnnotateArgs {
    /// The PGN file (- reads the games from stdin)
    #[arg(value_name = "GAMES.pgn")]
    input: String,
    /// Search N nodes in each position
    #[arg(long, value_name = "N", value_parser = positive())]
    nodes: Option<u64>,
    /// Search MS milliseconds in each position
    #[arg(long, value_name = "MS", value_parser = positive())]
    movetime: Option<u64>,
    /// Search each position D plies deep (1..=127)
    #[arg(long, value_name = "D", value_parser = in_range(1, u64::from(MAX_DEPTH)))]
    depth: Option<u64>,
    /// Search threads (1..=1024) [default: 1]
    #[arg(long, value_name = "N", value_parser = in_range(1, THREADS_MAX as u64))]
    threads: Option<u64>,
    /// Transposition table in MB (1..=65536) [default: 16]
    #[arg(long, value_name = "MB", value_parser = in_range(1, HASH_MAX as u64))]
    hash: Option<u64>,
    /// An empty table for every position (slower; as separate analyze runs)
    #[arg(long)]
    fresh: bool,
    /// One JSON object per move, then one summary per game, instead of PGN
    #[arg(long)]
    json: bool,
    /// Write to FILE instead of stdout
    #[arg(short, long, value_name = "FILE")]
    output: Option<String>,
    /// The progress line on stderr even when it is not a terminal
    #[arg(long)]
    progress: bool,
}

/// What the review is asked to do.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Args {
    /// The PGN file, `-` for stdin.
    pub input: String,
    /// The search of each position.
    pub limits: Limits,
    /// Threads and hash.
    pub options: SearchOptions,
    /// An empty table for every position.
    pub fresh: bool,
    /// JSON lines instead of PGN.
    pub json: bool,
    /// Where to write (None: stdout).
    pub output: Option<String>,
    /// Progress line even when stderr is no terminal.
    pub progress: bool,
}

impl AnnotateArgs {
    /// The settings of the review.
    pub fn settings(self) -> Args {
        let defaults = SearchOptions::default();
        let mut limits = Limits {
            nodes: self.nodes,
            movetime: self.movetime.map(Duration::from_millis),
            depth: self.depth.map(|d| d as u32),
            ..Limits::default()
        };
        if limits.is_unbounded() {
            limits.nodes = Some(DEFAULT_NODES);
        }
        Args {
            input: self.input,
            limits,
            options: SearchOptions {
                threads: self.threads.map_or(defaults.threads, |n| n as usize),
                hash_mb: self.hash.map_or(defaults.hash_mb, |n| n as usize),
                ..defaults
            },
            fresh: self.fresh,
            json: self.json,
            output: self.output,
            progress: self.progress,
        }
    }
}

impl RunCommand for AnnotateArgs {
    fn run(self) -> i32 {
        super::run(self.settings())
    }
}

impl Args {
    /// The limit in words for the closing comment: `300000 nodes per position`.
    pub fn limit_text(&self) -> String {
        let mut parts = Vec::new();
        if let Some(n) = self.limits.nodes {
            parts.push(format!("{n} nodes"));
        }
        if let Some(d) = self.limits.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(t) = self.limits.movetime {
            parts.push(format!("{} ms", t.as_millis()));
        }
        format!("{} per position", parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(clap::Parser)]
    struct Line {
        #[command(flatten)]
        args: AnnotateArgs,
    }

    fn parse_args(words: &[&str]) -> Result<Args, clap::Error> {
        let line = Line::try_parse_from(std::iter::once("annotate").chain(words.iter().copied()))?;
        Ok(line.args.settings())
    }

    #[test]
    fn arguments() {
        let a = parse_args(&["games.pgn", "--depth", "8", "--json", "-o", "out.txt"]).unwrap();
        assert_eq!(a.input, "games.pgn");
        assert_eq!((a.limits.depth, a.limits.nodes), (Some(8), None));
        assert!(a.json && !a.fresh);
        assert_eq!(a.output.as_deref(), Some("out.txt"));
        assert_eq!(a.limit_text(), "depth 8 per position");
        let a = parse_args(&["-", "--threads=2", "--fresh", "--output=x.pgn"]).unwrap();
        assert_eq!((a.input.as_str(), a.options.threads, a.fresh), ("-", 2, true));
        assert_eq!(a.output.as_deref(), Some("x.pgn"));
        assert_eq!(a.limits.nodes, Some(DEFAULT_NODES));
        assert_eq!(a.options.hash_mb, SearchOptions::default().hash_mb);
        for bad in [
            &["--depth", "3"][..],
            &["g.pgn", "--depth", "0"],
            &["g.pgn", "--nodes"],
            &["g.pgn", "--nodes", "x"],
            &["g.pgn", "--threads", "5000"],
            &["g.pgn", "--hash", "0"],
            &["g.pgn", "h.pgn"],
            &["g.pgn", "--frob"],
            &["g.pgn", "--json=yes"],
        ] {
            assert!(parse_args(bad).is_err(), "{bad:?} accepted");
        }
    }
}
