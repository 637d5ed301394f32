//! `vorpal-match`: Alice chess engine matches refereed by Vorpal's rules core. See
//! `vorpal-match help`, [`vorpal_tuning::matches::args`] and [`vorpal_tuning::matches::cli`]
//! (and [`vorpal_tuning::spsa::cli`] for `spsa`).

#![forbid(unsafe_code)]

use clap::{CommandFactory, Parser, Subcommand};
use vorpal_tuning::matches::args::{MatchArgs, MergeArgs, OpeningsArgs};
use vorpal_tuning::matches::cli::{exit_code, match_command, merge_command, openings_command};
use vorpal_tuning::spsa::args::SpsaArgs;
use vorpal_tuning::spsa::cli::spsa_command;

const AFTER_HELP: &str = "\
ENGINE SETTINGS (after --engine, or --each for all engines):
  cmd=PATH  name=NAME  dir=DIR  arg=ARG (repeatable)  option.NAME=VALUE (setoption)
  tc=10+0.1 | tc=40/60+0 | st=SECONDS | movetime=MS | nodes=N | depth=N

RUST_LOG=trace shows the UCI traffic; engines' stderr and illegal moves are logged at warn.
Progress goes to stderr, the final summary to stdout. Exit code 2 on errors.
'vorpal-match help COMMAND' shows the options of openings, merge and spsa.";

/// Alice chess engine matches refereed by Vorpal's rules core: a match of two or more
/// engines (the options below), or one of the commands
#[derive(Parser, Debug)]
#[command(
    name = "vorpal-match",
    version = vorpal_build_id::VERSION,
    after_help = AFTER_HELP,
    args_conflicts_with_subcommands = true,
    args_override_self = true
)]
#[command(verbatim_doc_comment, next_line_help = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    play: MatchArgs,
}

/// The commands besides a match.
#[derive(Subcommand, Debug)]
enum Command {
    Openings(OpeningsArgs),
    Merge(MergeArgs),
    // SPSA plays its batches through the match runner, so it sits above it.
    Spsa(Box<SpsaArgs>),
}

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    if std::env::args().len() < 2 {
        // Without arguments: the help, as `vorpal-match help`.
        let _ = Cli::command().print_help();
        return;
    }
    let code = exit_code(match Cli::parse() {
        Cli { command: None, play } => match_command(play),
        Cli {
            command: Some(Command::Openings(args)),
            ..
        } => openings_command(args),
        Cli {
            command: Some(Command::Merge(args)),
            ..
        } => merge_command(args),
        Cli {
            command: Some(Command::Spsa(args)),
            ..
        } => spsa_command(*args),
    });
    std::process::exit(code);
}
