//! The command line: no arguments = the UCI loop; `xboard` = the CECP loop; `analyze ...`; or
//! one command, run as if typed in the UCI loop, after which the program exits (status 1 if it
//! printed an error). Mistakes in the command line itself (an unknown `-option`) get a usage
//! message on stderr and status 2; every subcommand answers `--help`.

use crate::go::{parse_go, GoRequest};
use crate::output::{to_stderr, to_stdout, Output, StdStream};
use crate::serve::serve;
use crate::session::{EngineSession, ENGINE};
use crate::status;
use crate::uci::{command_help, error_text, Uci};
use crate::xboard::Xboard;
use vorpal_engine::Position;

/// Logging to stderr only, filtered by `RUST_LOG` (default: warnings and errors, and the bot's
/// events). A failed write ends the program like any other write to stderr.
pub fn init_logging() {
    let env = env_logger::Env::default().default_filter_or("warn,vorpal_protocol::bot=info");
    env_logger::Builder::from_env(env)
        .target(env_logger::Target::Pipe(Box::new(StdStream(std::io::stderr()))))
        .init();
}

const USAGE: &str = "\
usage: vorpal                      the UCI loop on stdin/stdout (for GUIs and match tools)
       vorpal xboard               the CECP (XBoard protocol 2) loop, for XBoard/WinBoard
       vorpal <command> [args]     one command of the UCI loop, then exit, e.g.
                                     vorpal bench 10
                                     vorpal perft 5 \"<FEN>\"
                                     vorpal go depth 10
                                   (vorpal help lists the commands; vorpal <command> --help)
       vorpal analyze [options]    analyse a position (vorpal analyze --help)
       vorpal annotate GAMES.pgn   review games: evaluations, mistakes, better lines,
                                   accuracy (vorpal annotate --help)
       vorpal solve PROBLEM.inp    solve Alice problems in Popeye's input language, or
       vorpal solve --fen <FEN> --stip <stipulation>   one position (vorpal solve --help)
       vorpal gui [options]        play and analyse in the browser (vorpal gui --help)
       vorpal tb generate|probe    Alice endgame tablebases (vorpal tb --help)
       vorpal --help | -h          this text
       vorpal --version | -V       the version";

const XBOARD_USAGE: &str = "\
usage: vorpal xboard
  Speaks CECP (the XBoard/WinBoard engine protocol, version 2) on stdin/stdout until 'quit'
  or the end of input. The engine defines the Alice boards (XBoard draws them side by side)
  and referees every move, so XBoard's own legality test must be off:
    xboard -fcp 'vorpal xboard' -xlegal
  The commands and the output are described in docs/protocol.md (CECP).";

/// Runs the program for `args` (without the program name); returns the exit status.
pub fn run(args: &[String]) -> i32 {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    match words.as_slice() {
        [] => {
            let session = EngineSession::new(Output::stdout());
            session.out().line(&Uci::banner());
            serve(&mut std::io::stdin().lock(), session, Box::new(Uci::new()));
            status::SUCCESS
        }
        ["analyze" | "analyse", rest @ ..] => crate::analyze::run(rest),
        ["annotate", rest @ ..] => crate::annotate::run(rest),
        ["bot", rest @ ..] => crate::bot::run(rest),
        ["solve", rest @ ..] => crate::solve::run(rest),
        ["gui", rest @ ..] => crate::gui::run(rest),
        ["tb", rest @ ..] => crate::tb::run(rest),
        ["xboard"] => {
            let session = EngineSession::new(Output::stdout());
            serve(&mut std::io::stdin().lock(), session, Box::new(Xboard::new()));
            status::SUCCESS
        }
        ["xboard", rest @ ..] if asks_for_help(rest) => {
            to_stdout(&format!("{XBOARD_USAGE}\n"));
            status::SUCCESS
        }
        ["xboard", rest @ ..] => usage_error(&format!("'xboard' takes no arguments, found '{}'", rest.join(" "))),
        ["--help" | "-h", ..] => {
            to_stdout(&format!("{USAGE}\n"));
            status::SUCCESS
        }
        ["--version" | "-V", ..] => {
            to_stdout(&format!("{ENGINE}\n"));
            status::SUCCESS
        }
        [flag, ..] if flag.starts_with('-') => usage_error(&format!("unknown option '{flag}'")),
        [command, rest @ ..] if asks_for_help(rest) => match command_help(command) {
            Some(text) => {
                to_stdout(&format!(
                    "{text}\nOn the command line: vorpal {command} [args] runs it once, then exits (status 1 after an error line).\n"
                ));
                status::SUCCESS
            }
            None => usage_error(&format!("unknown command '{command}'")),
        },
        _ => one_command(&words.join(" ")),
    }
}

/// True when the words after a subcommand ask for its help.
fn asks_for_help(words: &[&str]) -> bool {
    words.iter().any(|w| matches!(*w, "--help" | "-h"))
}

/// Prints `problem` and the usage on stderr; returns [`status::USAGE`].
fn usage_error(problem: &str) -> i32 {
    to_stderr(&format!("vorpal: {problem}\n\n{USAGE}\n"));
    status::USAGE
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
