//! The command line of `vorpal solve` ([`SolveArgs`], parsed by clap) and the settings it
//! gives the solver ([`Args`]).

use crate::arg_values::{variant_help, RunCommand};
use clap::ArgAction;
use vorpal_engine::{EnPassant, Variant};

const AFTER_HELP: &str = "\
Give a problem file, or --fen with --stip: #n, =n, s#n, r#n, semi-r#n, h#n, h#n.5, h=n, hs#n,
ser-#n, ser-h#n, ser-s#n, ser-=n (the FEN's side moves first), or a proof game dian / dian.5
(the FEN is the diagram, the game starts from the start position) or a=>bn (from the position
of --from). The command-line options add to a problem's own options.";

/// Solve Alice problems in Popeye's input language, or one position
#[derive(clap::Args, Debug)]
#[command(after_help = AFTER_HELP, args_override_self = true)]
#[command(group = clap::ArgGroup::new("problem").args(["file", "fen"]).required(true))]
pub struct SolveArgs {
    /// Popeye input (- for stdin)
    #[arg(value_name = "PROBLEM.inp")]
    file: Option<String>,
    /// One position to solve, quoted or as separate words (with --stip)
    #[arg(long, value_name = "FEN", num_args = 1.., action = ArgAction::Set, requires = "stip")]
    fen: Vec<String>,
    /// The stipulation of --fen (e.g. h#2)
    #[arg(long, visible_alias = "stipulation", value_name = "STIP", conflicts_with = "file")]
    stip: Option<String>,
    /// The start position of an a=>b proof game
    #[arg(long, value_name = "FEN", num_args = 1.., action = ArgAction::Set)]
    from: Vec<String>,
    /// Leave out the short solutions (cooks) of line stipulations
    #[arg(long)]
    no_short: bool,
    /// Also tries and their refutations (Popeye's option try)
    #[arg(long)]
    tries: bool,
    /// Also threats and variations (Popeye's option vari)
    #[arg(long)]
    vari: bool,
    /// Stop after N solutions
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    maxsolutions: Option<u64>,
    /// Stop after S seconds
    #[arg(long, value_name = "S", value_parser = clap::value_parser!(u64).range(1..))]
    maxtime: Option<u64>,
    #[arg(long, value_name = "NAME", default_value = "alice", help = variant_help())]
    variant: Variant,
    /// En passant: off (default), normal or double; Popeye plays en passant
    /// on the pawn's board, which is --ep normal (option enpassant implies it)
    #[arg(long, value_name = "MODE", verbatim_doc_comment)]
    ep: Option<EnPassant>,
    /// Endgame tables (vorpal tb generate) decide direct mates (#n) in
    /// positions of at most four men at once; the solutions stay exact
    #[arg(long, value_name = "DIR", verbatim_doc_comment)]
    tb: Option<String>,
    /// Threads [default: all cores]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    threads: Option<u64>,
    /// One JSON object per line per problem or twin
    #[arg(long)]
    json: bool,
    /// The progress line on stderr even when it is not a terminal
    #[arg(long)]
    progress: bool,
    /// The plain full-width search (to check the exact prunings)
    #[arg(long)]
    no_pruning: bool,
}

/// What the solver is asked to do.
#[derive(Debug, Default)]
pub(crate) struct Args {
    pub(crate) file: Option<String>,
    pub(crate) fen: Option<String>,
    pub(crate) from: Option<String>,
    pub(crate) stip: Option<String>,
    pub(crate) no_short: bool,
    pub(crate) tries: bool,
    pub(crate) variations: bool,
    pub(crate) max_solutions: Option<usize>,
    pub(crate) max_time: Option<u64>,
    pub(crate) variant: Variant,
    pub(crate) en_passant: Option<EnPassant>,
    pub(crate) threads: Option<usize>,
    pub(crate) tb_dir: Option<String>,
    pub(crate) json: bool,
    pub(crate) progress: bool,
    pub(crate) no_pruning: bool,
}

impl SolveArgs {
    /// The settings of the run.
    pub(crate) fn settings(self) -> Args {
        let fen = |words: Vec<String>| (!words.is_empty()).then(|| words.join(" "));
        let count = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        Args {
            file: self.file,
            fen: fen(self.fen),
            from: fen(self.from),
            stip: self.stip,
            no_short: self.no_short,
            tries: self.tries,
            variations: self.vari,
            max_solutions: self.maxsolutions.map(count),
            max_time: self.maxtime,
            variant: self.variant,
            en_passant: self.ep,
            threads: self.threads.map(count),
            tb_dir: self.tb,
            json: self.json,
            progress: self.progress,
            no_pruning: self.no_pruning,
        }
    }
}

impl RunCommand for SolveArgs {
    fn run(self) -> i32 {
        super::run(self.settings())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(clap::Parser)]
    struct Line {
        #[command(flatten)]
        args: SolveArgs,
    }

    fn parse_args(words: &[&str]) -> Result<Args, clap::Error> {
        let line = Line::try_parse_from(std::iter::once("solve").chain(words.iter().copied()))?;
        Ok(line.args.settings())
    }

    #[test]
    fn command_line() {
        let args = parse_args(&[
            "--fen",
            "8/8/8/2Q1|k3/8/2|R5/3|p4/K7",
            "b",
            "-",
            "-",
            "0",
            "1",
            "--stip",
            "h#2",
        ])
        .unwrap();
        assert_eq!(args.fen.as_deref(), Some("8/8/8/2Q1|k3/8/2|R5/3|p4/K7 b - - 0 1"));
        assert_eq!(args.stip.as_deref(), Some("h#2"));
        let args = parse_args(&["--stipulation=#2", "--fen=8/8/8/8/8/8/8/K6k w - - 0 1"]).unwrap();
        assert_eq!(args.stip.as_deref(), Some("#2"));
        let args = parse_args(&["p.inp", "--json", "--tries", "--maxtime", "5", "--ep", "normal"]).unwrap();
        assert!(args.json && args.tries && args.max_time == Some(5));
        assert_eq!(args.en_passant, Some(EnPassant::Normal));
        assert_eq!(parse_args(&["-"]).unwrap().file.as_deref(), Some("-"));
        for bad in [
            &["--fen", "x"][..],
            &["--stip", "#2"][..],
            &["a.inp", "--stip", "#2"][..],
            &["a.inp", "--fen", "x", "--stip", "#2"][..],
            &[][..],
            &["a.inp", "b.inp"][..],
            &["a.inp", "--maxtime"][..],
            &["a.inp", "--maxtime", "0"][..],
            &["a.inp", "--frob"][..],
        ] {
            assert!(parse_args(bad).is_err(), "{bad:?}");
        }
    }
}
