//! The command line, parsed by clap: no arguments = the UCI loop; `xboard` = the CECP loop;
//! a subcommand of [`Command`] (`analyze ...`, `solve ...`); or one command, run as if typed in
//! the UCI loop, after which the program exits (status 1 if it printed an error). Mistakes in
//! the command line itself (an unknown `-option`) get clap's message on stderr and status 2;
//! every subcommand answers `--help`.
//!
//! Adding a subcommand is one line in the `subcommands!` list below, `Name(path::NameArgs),`,
//! where `NameArgs` derives `clap::Args` (its doc comment is its line in `vorpal --help`) and
//! implements [`RunCommand`].

use crate::arg_values::{report, RunCommand};
use crate::status;
use crate::uci::output::{to_stdout, Output, StdStream};
use crate::uci::serve::serve;
use crate::uci::session::EngineSession;
use crate::uci::{command_help, error_text, Uci};
use crate::xboard::Xboard;
use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};
use vorpal_engine::Position;
use vorpal_uci_text::go::{parse_go, GoRequest};

/// Logging to stderr only, filtered by `RUST_LOG` (default: warnings and errors, and the bot's
/// events). A failed write ends the program like any other write to stderr. [`run`] starts it
/// for every command but `vorpal bot`, which starts its own once it knows its log file; a
/// second start is ignored.
pub fn init_logging() {
    let env = env_logger::Env::default().default_filter_or("warn,vorpal_protocol::bot=info");
    let _ = env_logger::Builder::from_env(env)
        .target(env_logger::Target::Pipe(Box::new(StdStream(std::io::stderr()))))
        .try_init();
}

const ABOUT: &str = "\
Vorpal, an engine for Alice chess. Without a command it runs the UCI loop on stdin/stdout (for
GUIs and match tools).";

const AFTER_HELP: &str = "\
Any other command is one command of the UCI loop, run once; the program then exits (status 1
after an error line):
  vorpal bench 10
  vorpal perft 5 \"<FEN>\"
  vorpal go depth 10
'vorpal help' lists those commands; 'vorpal <command> --help' shows the help of any command.";

/// `vorpal [COMMAND]`: the whole command line.
#[derive(Parser, Debug)]
#[command(
    name = "vorpal",
    display_name = "Vorpal",
    version = vorpal_build_id::VERSION,
    about = ABOUT,
    after_help = AFTER_HELP,
    disable_help_subcommand = true,
    args_override_self = true
)]
struct Cli {
    /// The subcommand; none: the UCI loop.
    #[command(subcommand)]
    command: Option<Command>,
}

/// Declares [`Command`], one variant per subcommand, and its dispatch to [`RunCommand::run`].
macro_rules! subcommands {
    ($($(#[$attribute:meta])* $name:ident($args:ty),)+) => {
        /// What the command line asks for besides the UCI loop.
        #[derive(clap::Subcommand, Debug)]
        enum Command {
            $($(#[$attribute])* $name($args),)+
            /// Any other word: one command of the UCI loop with its arguments, run once.
            #[command(external_subcommand)]
            Uci(Vec<String>),
        }

        impl Command {
            /// Runs the command; returns the exit status.
            fn run(self) -> i32 {
                match self {
                    $(Command::$name(args) => RunCommand::run(args),)+
                    Command::Uci(words) => one_shot(&words),
                }
            }
        }
    };
}

subcommands! {
    Xboard(XboardArgs),
    #[command(visible_alias = "analyse")]
    Analyze(crate::analyze::args::AnalyzeArgs),
    Annotate(crate::annotate::AnnotateArgs),
    Solve(crate::solve::SolveArgs),
    Popeye(crate::popeye::PopeyeArgs),
    Gui(crate::gui::GuiArgs),
    Tb(crate::tb::TbArgs),
    Bot(crate::bot::BotArgs),
}

/// The UCI adapter of a session that may switch to CECP: its `xboard` command hands the
/// session to a new [`Xboard`].
pub(crate) fn uci_switching_to_cecp() -> Uci {
    Uci::switching_to(|| Box::new(Xboard::new()))
}

/// Runs the program for `args` (without the program name); returns the exit status.
pub fn run(args: &[String]) -> i32 {
    let line = std::iter::once("vorpal").chain(args.iter().map(String::as_str));
    match Cli::try_parse_from(line) {
        Err(answer) => report(&answer),
        Ok(Cli {
            command: Some(Command::Bot(args)),
        }) => RunCommand::run(args),
        Ok(Cli { command: Some(command) }) => {
            init_logging();
            command.run()
        }
        Ok(Cli { command: None }) => {
            init_logging();
            let session = EngineSession::new(Output::stdout());
            session.out().line(&Uci::banner());
            serve(&mut std::io::stdin().lock(), session, Box::new(uci_switching_to_cecp()));
            status::SUCCESS
        }
    }
}

const XBOARD_AFTER_HELP: &str = "\
Speaks CECP (the XBoard/WinBoard engine protocol, version 2) on stdin/stdout until 'quit' or the
end of input. The engine defines the Alice boards (XBoard draws them side by side) and referees
every move, so XBoard's own legality test must be off:
  xboard -fcp 'vorpal xboard' -xlegal
The commands and the output are described in docs/protocol.md (CECP).";

/// The CECP (XBoard protocol 2) loop, for XBoard and WinBoard
#[derive(clap::Args, Debug)]
#[command(after_help = XBOARD_AFTER_HELP)]
struct XboardArgs {}

impl RunCommand for XboardArgs {
    fn run(self) -> i32 {
        let session = EngineSession::new(Output::stdout());
        serve(&mut std::io::stdin().lock(), session, Box::new(Xboard::new()));
        status::SUCCESS
    }
}

/// `vorpal <command> [args]`: `words` (the command and its arguments) as one line of the UCI
/// loop, or that command's entry of `help` when the arguments ask for help.
fn one_shot(words: &[String]) -> i32 {
    let Some((command, rest)) = words.split_first() else {
        return status::SUCCESS;
    };
    if !rest.iter().any(|w| w == "--help" || w == "-h") {
        return one_command(&words.join(" "));
    }
    match command_help(command) {
        Some(text) => {
            to_stdout(&format!(
                "{text}\nOn the command line: vorpal {command} [args] runs it once, then exits (status 1 after an error line).\n"
            ));
            status::SUCCESS
        }
        None => report(&Cli::command().error(ErrorKind::InvalidSubcommand, format!("unknown command '{command}'"))),
    }
}

/// Runs one command line and waits for a search it started.
fn one_command(line: &str) -> i32 {
    let out = Output::stdout();
    let words: Vec<&str> = line.split_whitespace().collect();
    if let ["go", rest @ ..] = words.as_slice() {
        let mut ignored = Vec::new();
        if let GoRequest::Search(limits) = parse_go(rest, &Position::startpos(), &mut ignored) {
            if limits.infinite || limits.ponder || limits.is_unbounded() {
                out.error_line(&error_text("go: on the command line a search needs a limit (depth, nodes, movetime, mate or a clock); try 'vorpal analyze'"));
                return status::ERROR_LINE;
            }
        }
    }
    let mut session = EngineSession::new(out.clone());
    Uci::new().handle_line(&mut session, line);
    session.wait();
    if out.error_count() > 0 {
        status::ERROR_LINE
    } else {
        status::SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parser_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn subcommands_uci_commands_and_the_loop() {
        let parse = |words: &[&str]| Cli::try_parse_from(std::iter::once("vorpal").chain(words.iter().copied()));
        assert!(parse(&[]).unwrap().command.is_none());
        assert!(matches!(
            parse(&["analyse", "--depth=3"]).unwrap().command,
            Some(Command::Analyze(_))
        ));
        let Some(Command::Uci(words)) = parse(&["perft", "5", "--threads", "2", "-x"]).unwrap().command else {
            panic!("a UCI command")
        };
        assert_eq!(words, ["perft", "5", "--threads", "2", "-x"]);
        for (words, kind) in [
            (&["-x"][..], ErrorKind::UnknownArgument),
            (&["xboard", "extra"], ErrorKind::UnknownArgument),
            (&["--version"], ErrorKind::DisplayVersion),
            (&["tb", "probe", "--help"], ErrorKind::DisplayHelp),
        ] {
            assert_eq!(parse(words).unwrap_err().kind(), kind, "{words:?}");
        }
    }
}
