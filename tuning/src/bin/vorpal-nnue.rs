//! `vorpal-nnue`: trains the engine's NNUE network on `vorpal-datagen` positions.
//!
//! ```text
//! vorpal-nnue --data /work/data/hce1.txt --epochs 10 --out nets/first.net
//! vorpal-nnue compare --data held-deep.bin --net builtin --net nets/first.net
//! ```
//!
//! Options and the method: `docs/nnue.md`, section "Training"; the command line:
//! [`vorpal_tuning::nnue::args`].

#![forbid(unsafe_code)]

use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;
use vorpal_tuning::nnue::args::{CompareArgs, TrainArgs};
use vorpal_tuning::nnue::{cli, compare};

/// Train the engine's NNUE network on vorpal-datagen positions (docs/nnue.md, "Training"),
/// or compare networks
#[derive(Parser, Debug)]
#[command(verbatim_doc_comment)]
#[command(
    name = "vorpal-nnue",
    args_conflicts_with_subcommands = true,
    args_override_self = true,
    subcommand_negates_reqs = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    train: TrainArgs,
}

/// The commands besides training.
#[derive(Subcommand, Debug)]
enum Command {
    Compare(CompareArgs),
}

/// Reports an error on stderr; a closed stderr is ignored (the exit status still tells).
fn complain(text: &str) {
    let _ = writeln!(std::io::stderr(), "vorpal-nnue: {text}");
}

/// `vorpal-nnue compare ...`: the losses of networks and the hand-crafted evaluation on one set.
fn compare_main(args: CompareArgs) -> ExitCode {
    let mut say = |line: &str| {
        let _ = writeln!(std::io::stdout(), "{line}");
    };
    match compare::run_compare(&args.options(), &mut say) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            complain(&e);
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    let command = std::iter::once("vorpal-nnue".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ");
    let train = match Cli::parse() {
        Cli {
            command: Some(Command::Compare(args)),
            ..
        } => return compare_main(args),
        Cli { train, .. } => train,
    };
    match cli::run(train.options(), &command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            complain(&e);
            ExitCode::FAILURE
        }
    }
}
