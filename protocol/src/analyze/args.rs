//! The command line of `vorpal analyze` ([`AnalyzeArgs`], parsed by clap) and the settings it
//! gives the analysis ([`Args`]).

use crate::arg_values::{in_range, positive, variant_help};
use clap::ArgAction;
use std::time::Duration;
use vorpal_engine::search::{Limits, SearchOptions};
use vorpal_engine::{EnPassant, Variant};
use vorpal_uci_text::go::MAX_DEPTH;
use vorpal_uci_text::options::{HASH_MAX, MULTIPV_MAX, THREADS_MAX};

/// Thinking time when no limit is given.
pub const DEFAULT_MOVETIME_MS: u64 = 5000;

const AFTER_HELP: &str = "\
The limits that are given all apply; without one it thinks 5 seconds (--movetime 5000).
Scores are in pawns from White's side; SAN marks a move landing on board A with /A.";

/// Analyse a position, for people (a line per depth) or scripts (--json)
#[derive(clap::Args, Debug)]
#[command(after_help = AFTER_HELP, args_override_self = true)]
pub struct AnalyzeArgs {
    /// The position (any FEN form of docs/rules.md), quoted or as separate
    /// words [default: the start position]
    #[arg(long, value_name = "FEN", num_args = 1.., action = ArgAction::Set, verbatim_doc_comment)]
    fen: Vec<String>,
    /// Moves played from it, in UCI or SAN (Nf3, Ne5/A, e2e4), up to the
    /// next option
    #[arg(long, value_name = "MOVE", num_args = 0.., action = ArgAction::Set, verbatim_doc_comment)]
    moves: Vec<String>,
    /// Search N plies deep (1..=127)
    #[arg(long, value_name = "N", value_parser = in_range(1, u64::from(MAX_DEPTH)))]
    depth: Option<u64>,
    /// Search MS milliseconds
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Search N nodes
    #[arg(long, value_name = "N", value_parser = positive())]
    nodes: Option<u64>,
    /// Show the best K lines (1..=256) [default: 1]
    #[arg(long, value_name = "K", value_parser = in_range(1, MULTIPV_MAX as u64))]
    multipv: Option<u64>,
    /// Search threads (1..=1024) [default: 1]
    #[arg(long, value_name = "N", value_parser = in_range(1, THREADS_MAX as u64))]
    threads: Option<u64>,
    /// Transposition table in MB (1..=65536, at most the memory available)
    /// [default: 16]
    #[arg(long, value_name = "MB", value_parser = in_range(1, HASH_MAX as u64), verbatim_doc_comment)]
    hash: Option<u64>,
    #[arg(long, value_name = "NAME", default_value = "alice", help = variant_help())]
    variant: Variant,
    /// Chess960 castling (give the array with --fen)
    #[arg(long)]
    chess960: bool,
    /// En passant (docs/rules.md 3.1): off, normal or double
    #[arg(long, value_name = "MODE", default_value = "off")]
    ep: EnPassant,
    /// The Alice endgame tables (vorpal tb generate): a position in them is
    /// answered from the table ("tablebase: mate in N")
    #[arg(long, value_name = "DIR", verbatim_doc_comment)]
    tb: Option<String>,
    /// One JSON object per line instead of text (position, info lines,
    /// bestmove)
    #[arg(long, verbatim_doc_comment)]
    json: bool,
    /// Show the progress indicator on stderr even when it is not a terminal
    #[arg(long)]
    progress: bool,
}

/// What the analysis is asked to do.
#[derive(Debug, Default)]
pub struct Args {
    /// `--fen`: the start position (None: the variant's).
    pub fen: Option<String>,
    /// `--moves`: played from it.
    pub moves: Vec<String>,
    /// The search limits (`--movetime 5000` when none is given).
    pub limits: Limits,
    /// Threads, hash and lines.
    pub options: SearchOptions,
    /// `--variant`.
    pub variant: Variant,
    /// `--chess960`.
    pub chess960: bool,
    /// `--ep`.
    pub en_passant: EnPassant,
    /// `--json`: JSON lines instead of text.
    pub json: bool,
    /// `--progress`: the progress line even when stderr is no terminal.
    pub progress: bool,
    /// `--tb DIR`: the Alice endgame tables.
    pub tb: Option<String>,
}

impl AnalyzeArgs {
    /// The settings of the analysis.
    pub fn settings(self) -> Args {
        let defaults = SearchOptions::default();
        let mut limits = Limits {
            depth: self.depth.map(|d| d as u32),
            nodes: self.nodes,
            movetime: self.movetime.map(Duration::from_millis),
            ..Limits::default()
        };
        if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none() {
            limits.movetime = Some(Duration::from_millis(DEFAULT_MOVETIME_MS));
        }
        let count = |given: Option<u64>, default: usize| given.map_or(default, |n| n as usize);
        Args {
            fen: (!self.fen.is_empty()).then(|| self.fen.join(" ")),
            moves: self.moves,
            limits,
            options: SearchOptions {
                multipv: count(self.multipv, defaults.multipv),
                threads: count(self.threads, defaults.threads),
                hash_mb: count(self.hash, defaults.hash_mb),
                ..defaults
            },
            variant: self.variant,
            chess960: self.chess960,
            en_passant: self.ep,
            json: self.json,
            progress: self.progress,
            tb: self.tb,
        }
    }
}

/// The settings of the words after `analyze` (for tests).
#[cfg(test)]
pub fn parse_args(words: &[&str]) -> Result<Args, clap::Error> {
    use clap::Parser;
    #[derive(clap::Parser)]
    struct Line {
        #[command(flatten)]
        args: AnalyzeArgs,
    }
    let line = Line::try_parse_from(std::iter::once("analyze").chain(words.iter().copied()))?;
    Ok(line.args.settings())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments() {
        let a = parse_args(&[
            "--fen",
            "4k3/8/8/8/8/8/8/4K2R",
            "w",
            "K",
            "-",
            "0",
            "1",
            "--depth=7",
            "--json",
        ])
        .unwrap();
        assert_eq!(a.fen.as_deref(), Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1"));
        assert_eq!(a.limits.depth, Some(7));
        assert!(a.json);
        let a = parse_args(&["--moves", "e4", "e5", "--multipv", "3"]).unwrap();
        assert_eq!(a.moves, vec!["e4", "e5"]);
        assert_eq!(a.options.multipv, 3);
        assert_eq!(a.options.hash_mb, SearchOptions::default().hash_mb);
        assert_eq!(a.limits.movetime, Some(Duration::from_millis(DEFAULT_MOVETIME_MS)));
        let a = parse_args(&[
            "--fen=8/8/8/8/8/8/8/K6k w - - 0 1",
            "--moves",
            "--depth",
            "2",
            "--depth",
            "3",
        ])
        .unwrap();
        assert_eq!(
            (a.fen.as_deref(), a.moves.len()),
            (Some("8/8/8/8/8/8/8/K6k w - - 0 1"), 0)
        );
        assert_eq!(a.limits.depth, Some(3), "the last of a repeated option counts");
        assert!(parse_args(&["--depth"]).is_err());
        assert!(parse_args(&["--depth", "x"]).is_err());
        assert!(parse_args(&["--frob"]).is_err());
        assert!(parse_args(&["--fen"]).is_err());
        for refused in [
            ["--depth", "0"],
            ["--depth", "1000"],
            ["--nodes", "0"],
            ["--threads", "0"],
            ["--threads", "2000"],
            ["--multipv", "0"],
            ["--multipv", "257"],
            ["--hash", "0"],
            ["--hash", "10000000"],
        ] {
            let e = parse_args(&refused)
                .err()
                .unwrap_or_else(|| panic!("{refused:?} accepted"))
                .to_string();
            assert!(
                e.contains(refused[0]) && e.contains(&format!("{} is not", refused[1])),
                "{refused:?}: {e}"
            );
        }
        assert!(parse_args(&["--json", "yes"]).is_err());
        assert!(parse_args(&["--json=yes"]).is_err());
        let a = parse_args(&["--variant", "looking-glass", "--chess960", "--ep", "double"]).unwrap();
        assert_eq!((a.variant, a.en_passant), (Variant::LookingGlass, EnPassant::Double));
        assert!(a.chess960);
        let e = parse_args(&["--variant", "crazyhouse"]).err().unwrap().to_string();
        assert!(e.contains("--variant") && e.contains("crazyhouse"), "{e}");
    }
}
