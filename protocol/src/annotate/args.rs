//! The command line of `vorpal annotate`.

use crate::go::MAX_DEPTH;
use crate::options::{HASH_MAX, THREADS_MAX};
use std::time::Duration;
use vorpal_engine::search::{Limits, SearchOptions};

/// Nodes per position when no limit is given: a 40-move game (81 positions) in well under a
/// minute on one thread of a 2-core machine.
pub const DEFAULT_NODES: u64 = 300_000;

/// The usage text.
pub const USAGE: &str = "\
usage: vorpal annotate GAMES.pgn [options]      (- reads the games from stdin)
  Reviews every game: an evaluation after every move ({ [%eval 0.32] }, pawns from White's
  side), ?!, ? and ?? on inaccuracies, mistakes and blunders (judged by the winning chances
  lost), the engine's line for each mistake and blunder, and per side the accuracy and the
  average centipawn loss. Rules come from the Variant, AliceEnPassant and FEN tags.
  --nodes N, --movetime MS, --depth D
              the search of each position (all that are given apply; default --nodes 300000)
  --threads N search threads (default 1)
  --hash MB   transposition table (default 16)
  --fresh     an empty table for every position (slower; as separate analyze runs)
  --json      one JSON object per move, then one summary per game, instead of PGN
  -o FILE     write to FILE instead of stdout
  --progress  the progress line on stderr even when it is not a terminal
Exit status: 0, 1 if a game could not be read or reviewed (the others are), 2 for a bad
command line. Details: docs/annotate.md";

/// The parsed command line.
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

/// Parses the words after `annotate`.
pub fn parse_args(words: &[&str]) -> Result<Args, String> {
    let mut args = Args::default();
    let mut input = None;
    let mut i = 0;
    while i < words.len() {
        let (flag, inline) = match words[i].split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v)),
            _ => (words[i], None),
        };
        i += 1;
        let takes_value = matches!(
            flag,
            "--nodes" | "--movetime" | "--depth" | "--threads" | "--hash" | "-o" | "--output"
        );
        let value = match (takes_value, inline) {
            (true, Some(v)) => Some(v),
            (true, None) => {
                let v = words.get(i).copied().ok_or_else(|| format!("{flag} needs a value"))?;
                i += 1;
                Some(v)
            }
            (false, Some(v)) => return Err(format!("{flag} takes no value, found '{v}'")),
            (false, None) => None,
        };
        let number = |min: u64, max: u64| -> Result<u64, String> {
            let v = value.unwrap_or_default();
            let n: u64 = v.parse().map_err(|_| format!("{flag}: '{v}' is not a number"))?;
            match (min..=max).contains(&n) {
                true => Ok(n),
                false if max == u64::MAX => Err(format!("{flag} {n} is not at least {min}")),
                false => Err(format!("{flag} {n} is not in {min}..={max}")),
            }
        };
        match flag {
            "--nodes" => args.limits.nodes = Some(number(1, u64::MAX)?),
            "--movetime" => args.limits.movetime = Some(Duration::from_millis(number(1, u64::MAX)?)),
            "--depth" => args.limits.depth = Some(number(1, u64::from(MAX_DEPTH))? as u32),
            "--threads" => args.options.threads = number(1, THREADS_MAX as u64)? as usize,
            "--hash" => args.options.hash_mb = number(1, HASH_MAX as u64)? as usize,
            "-o" | "--output" => args.output = value.map(str::to_string),
            "--fresh" => args.fresh = true,
            "--json" => args.json = true,
            "--progress" => args.progress = true,
            "-" => input = input.map_or(Ok(Some("-".to_string())), |f| Err(format!("two inputs: '{f}' and '-'")))?,
            f if f.starts_with('-') => return Err(format!("unknown option '{f}'")),
            file => {
                if let Some(first) = &input {
                    return Err(format!("one input file only, found '{first}' and '{file}'"));
                }
                input = Some(file.to_string());
            }
        }
    }
    args.input = input.ok_or("give a PGN file (or - for stdin)")?;
    if args.limits.is_unbounded() {
        args.limits.nodes = Some(DEFAULT_NODES);
    }
    Ok(args)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments() {
        let a = parse_args(&["games.pgn", "--depth", "8", "--json", "-o", "out.txt"]).unwrap();
        assert_eq!(a.input, "games.pgn");
        assert_eq!((a.limits.depth, a.limits.nodes), (Some(8), None));
        assert!(a.json && !a.fresh);
        assert_eq!(a.output.as_deref(), Some("out.txt"));
        assert_eq!(a.limit_text(), "depth 8 per position");
        let a = parse_args(&["-", "--threads=2", "--fresh"]).unwrap();
        assert_eq!((a.input.as_str(), a.options.threads, a.fresh), ("-", 2, true));
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
