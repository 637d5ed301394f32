//! The command line of `vorpal tb` (parsed by clap): `generate` ([`GenerateArgs`]), `plan`
//! ([`PlanArgs`]) and `probe` ([`ProbeArgs`]).

use crate::arg_values::{in_range, positive_count};
use clap::ArgAction;
use std::path::PathBuf;
use vorpal_engine::tablebase::{Material, MAX_SET_MEN};

const AFTER_HELP: &str = "\
The tables are for standard Alice without castling rights and with en passant off; the
fifty-move rule is ignored (a win longer than 50 moves is flagged).";

/// Alice endgame tablebases: generate and probe
#[derive(clap::Args, Debug)]
#[command(after_help = AFTER_HELP, subcommand_required = true, arg_required_else_help = true)]
pub struct TbArgs {
    #[command(subcommand)]
    pub(super) command: TbCommand,
}

/// The tablebase commands.
#[derive(clap::Subcommand, Debug)]
pub(super) enum TbCommand {
    Generate(GenerateArgs),
    Plan(PlanArgs),
    Probe(ProbeArgs),
}

/// Build tables (and the smaller ones they capture or promote into, when missing)
#[derive(clap::Args, Debug)]
#[command(after_help = AFTER_HELP, args_override_self = true)]
#[command(group = clap::ArgGroup::new("tables").args(["materials", "all"]).multiple(true).required(true))]
pub struct GenerateArgs {
    /// A material named as in chess, stronger side first: KQvK, KRvKN, KQvKP; up to four
    /// men, or five without pawns (KNNvKN: 5.4 GB of memory and disk, hours)
    #[arg(value_name = "MATERIAL", value_parser = material)]
    pub(super) materials: Vec<Material>,
    /// Every material of 3 to N men (N = 3 or 4)
    #[arg(long, value_name = "N", value_parser = men)]
    pub(super) all: Option<usize>,
    /// The directory of the table files (created when missing)
    #[arg(long, value_name = "DIR")]
    pub(super) dir: PathBuf,
    /// Threads [default: all cores]
    #[arg(long, value_name = "N", value_parser = positive_count)]
    pub(super) threads: Option<usize>,
    /// Make the tables again even when their files are present and sound
    #[arg(long)]
    pub(super) force: bool,
    /// One JSON object per table made (counts, longest mates, time)
    #[arg(long)]
    pub(super) json: bool,
}

/// The tables generate would make, in its order, each with the materials it converts into
#[derive(clap::Args, Debug)]
#[command(after_help = AFTER_HELP, args_override_self = true)]
#[command(group = clap::ArgGroup::new("tables").args(["materials", "all"]).multiple(true).required(true))]
pub struct PlanArgs {
    /// A material named as in chess, stronger side first: KQvK, KRvKN, KQvKP
    #[arg(value_name = "MATERIAL", value_parser = material)]
    pub(super) materials: Vec<Material>,
    /// Every material of 3 to N men (N = 3 or 4)
    #[arg(long, value_name = "N", value_parser = men)]
    pub(super) all: Option<usize>,
    /// Also say which tables are present and sound in DIR (generate would keep them)
    #[arg(long, value_name = "DIR")]
    pub(super) dir: Option<PathBuf>,
    /// One JSON object per table: material, men, successors (and present, with --dir)
    #[arg(long)]
    pub(super) json: bool,
}

/// A position's value from the tables, and every legal move's
#[derive(clap::Args, Debug)]
#[command(after_help = AFTER_HELP, args_override_self = true)]
pub struct ProbeArgs {
    /// The directory of the table files
    #[arg(long, value_name = "DIR")]
    pub(super) dir: PathBuf,
    /// The position, quoted or as separate words
    #[arg(long, value_name = "FEN", num_args = 1.., action = ArgAction::Set, required = true)]
    pub(super) fen: Vec<String>,
    /// One object with wdl, dtm (absent for a draw) and moves
    #[arg(long)]
    pub(super) json: bool,
}

/// A material, in the canonical form the tables are named by.
fn material(text: &str) -> Result<Material, String> {
    Ok(Material::parse(text).map_err(|e| e.to_string())?.canonical().0)
}

/// The number of men of `--all`.
fn men(text: &str) -> Result<usize, String> {
    in_range(3, MAX_SET_MEN as u64)(text).map(|n| n as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(clap::Parser, Debug)]
    struct Line {
        #[command(flatten)]
        tb: TbArgs,
    }

    fn parse(words: &[&str]) -> Result<TbCommand, clap::Error> {
        Ok(
            Line::try_parse_from(std::iter::once("tb").chain(words.iter().copied()))?
                .tb
                .command,
        )
    }

    #[test]
    fn generate_and_probe() {
        let Ok(TbCommand::Generate(g)) = parse(&["generate", "KRvK", "KvKQ", "--dir=t", "--threads", "2"]) else {
            panic!("generate")
        };
        let names: Vec<String> = g.materials.iter().map(|m| m.to_string()).collect();
        assert_eq!(names, ["KRvK", "KQvK"]);
        assert_eq!((g.dir, g.threads, g.all), (PathBuf::from("t"), Some(2), None));
        let Ok(TbCommand::Plan(p)) = parse(&["plan", "KRvKN", "--all", "3", "--json", "--dir", "t"]) else {
            panic!("plan")
        };
        assert_eq!((p.materials.len(), p.all, p.json), (1, Some(3), true));
        assert_eq!(p.dir, Some(PathBuf::from("t")));
        let Ok(TbCommand::Probe(p)) = parse(&["probe", "--fen", "8/8/8/8/8/8/8/K6k", "w", "--dir", "t"]) else {
            panic!("probe")
        };
        assert_eq!(p.fen.join(" "), "8/8/8/8/8/8/8/K6k w");
        for bad in [
            &[][..],
            &["frob"],
            &["generate", "--dir", "t"],
            &["generate", "KXvK", "--dir", "t"],
            &["plan"],
            &["plan", "KXvK"],
            &["generate", "--all", "5", "--dir", "t"],
            &["generate", "--all", "3"],
            &["generate", "--all", "3", "--dir", "t", "--threads", "0"],
            &["probe", "--dir", "t"],
            &["probe", "--fen", "x"],
            &["probe", "--dir", "t", "--fen", "x", "--frob"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }
}
