//! `vorpal tb`: Alice endgame tablebases from the command line.
//! `vorpal tb generate [MATERIAL ...] [--all N] --dir DIR [--threads N] [--force] [--json]`
//! builds tables (and the smaller ones they need); `vorpal tb probe --dir DIR --fen F [--json]`
//! prints a position's value and every move's.

mod generate;
mod probe;

use crate::output::{to_stderr, to_stdout};
use crate::status;

const USAGE: &str = "\
usage: vorpal tb generate [MATERIAL ...] [--all N] --dir DIR [--threads N] [--force] [--json]
       vorpal tb probe --dir DIR --fen <FEN> [--json]
  MATERIAL      a material named as in chess, stronger side first: KQvK, KRvKN, KQvKP
                (the tables it captures or promotes into are made first when missing)
  --all N       every material of 3 to N men (N = 3 or 4)
  --dir DIR     the directory of the table files (created by generate)
  --threads N   threads (default: all cores)
  --force       make the tables again even when their files are present and sound
  --json        generate: one object per table made (counts, longest mates, time);
                probe: one object with wdl, dtm (absent for a draw) and moves
The tables are for standard Alice without castling rights and with en passant off; the
fifty-move rule is ignored (a win longer than 50 moves is flagged).";

/// Runs `vorpal tb` with the words after `tb`; returns the exit status.
pub fn run(words: &[&str]) -> i32 {
    match words {
        [] | ["--help" | "-h", ..] => {
            to_stdout(&format!("{USAGE}\n"));
            if words.is_empty() {
                status::USAGE
            } else {
                status::SUCCESS
            }
        }
        [_, rest @ ..] if rest.iter().any(|w| matches!(*w, "--help" | "-h")) => {
            to_stdout(&format!("{USAGE}\n"));
            status::SUCCESS
        }
        ["generate", rest @ ..] => generate::run(rest),
        ["probe", rest @ ..] => probe::run(rest),
        [other, ..] => usage(&format!("unknown tb command '{other}' (generate or probe)")),
    }
}

/// Prints the problem and the usage on stderr; returns [`status::USAGE`].
pub(crate) fn usage(problem: &str) -> i32 {
    to_stderr(&format!("vorpal tb: {problem}\n\n{USAGE}\n"));
    status::USAGE
}

/// The value after `flag`, or an error naming the flag.
pub(crate) fn value<'a>(words: &[&'a str], i: usize, what: &str) -> Result<&'a str, String> {
    words
        .get(i + 1)
        .copied()
        .filter(|v| !v.starts_with("--"))
        .ok_or_else(|| format!("{} takes {what}", words[i]))
}
