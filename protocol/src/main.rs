//! `vorpal`: the Alice chess engine's executable. With no arguments it speaks UCI on
//! stdin/stdout (or CECP after `xboard`); `vorpal xboard` speaks CECP for XBoard;
//! `vorpal <command> [args]` runs one command and exits; `vorpal analyze ...` analyses a
//! position for a person or a script. This crate is the only code that prints.

#![forbid(unsafe_code)]

mod analyze;
mod annotate;
mod cli;
mod display;
mod format;
mod go;
mod gui;
mod input;
mod json;
mod options;
mod output;
mod panics;
mod serve;
mod session;
mod solve;
mod status;
mod tb;
mod uci;
mod worker;
mod xboard;

fn main() {
    cli::init_logging();
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(cli::run(&args));
}
