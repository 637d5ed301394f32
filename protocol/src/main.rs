//! `vorpal`: the Alice chess engine's executable. With no arguments it speaks UCI on
//! stdin/stdout (or CECP after `xboard`); `vorpal xboard` speaks CECP for XBoard;
//! `vorpal <command> [args]` runs one command and exits; `vorpal analyze ...` analyses a
//! position for a person or a script. The code is in the library (`lib.rs`).

#![forbid(unsafe_code)]

fn main() {
    let program = std::env::args().next().unwrap_or_default();
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Started as Popeye (a symlink or copy named `py`, `popeye`, `pywin64.exe`): Popeye's
    // command line, as Olive starts its Popeye.
    if vorpal_protocol::popeye::is_popeye_name(&program) {
        vorpal_protocol::init_logging();
        std::process::exit(vorpal_protocol::popeye::run(&args));
    }
    std::process::exit(vorpal_protocol::run(&args));
}
