//! The command line: no arguments = the UCI loop; `analyze ...`; or one command, run as if
//! typed in the UCI loop, after which the program exits (status 1 if it printed an error).

use crate::go::{parse_go, GoRequest};
use crate::output::Output;
use crate::uci::{run_loop, Uci, ENGINE};
use vorpal_engine::Position;

/// Logging to stderr only, filtered by `RUST_LOG` (default: warnings and errors).
pub fn init_logging() {
    let env = env_logger::Env::default().default_filter_or("warn");
    env_logger::Builder::from_env(env)
        .target(env_logger::Target::Stderr)
        .init();
}

const USAGE: &str = "\
usage: vorpal                      the UCI loop on stdin/stdout (for GUIs and match tools)
       vorpal xboard               the CECP (XBoard protocol 2) loop, for XBoard/WinBoard
       vorpal <command> [args]     one command of the UCI loop, then exit, e.g.
                                     vorpal bench 10
                                     vorpal perft 5 \"<FEN>\"
                                     vorpal go depth 10
       vorpal analyze [options]    analyse a position (vorpal analyze --help)
       vorpal --version";

/// Runs the program for `args` (without the program name); returns the exit status.
pub fn run(args: &[String]) -> i32 {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    match words.as_slice() {
        [] => {
            run_loop(&mut std::io::stdin().lock(), Output::stdout());
            0
        }
        ["analyze" | "analyse", rest @ ..] => crate::analyze::run(rest),
        ["solve", rest @ ..] => crate::solve::run(rest),
        ["gui", rest @ ..] => crate::gui::run(rest),
        ["xboard"] => {
            crate::xboard::run_stdin();
            0
        }
        ["--help" | "-h"] => {
            println!("{USAGE}");
            0
        }
        ["--version" | "-V"] => {
            println!("{ENGINE}");
            0
        }
        _ => one_command(&words.join(" ")),
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
                out.error("go: on the command line a search needs a limit (depth, nodes, movetime, mate or a clock); try 'vorpal analyze'");
                return 1;
            }
        }
    }
    let mut uci = Uci::new(out.clone());
    uci.handle_line(line);
    uci.wait();
    if out.error_count() > 0 {
        1
    } else {
        0
    }
}
