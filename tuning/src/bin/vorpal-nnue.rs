//! `vorpal-nnue`: trains the engine's NNUE network on `vorpal-datagen` positions.
//!
//! ```text
//! vorpal-nnue --data /work/data/hce1.txt --epochs 10 --out nets/first.net
//! vorpal-nnue compare --data held-deep.bin --net builtin --net nets/first.net
//! ```
//!
//! Options and the method: `docs/nnue.md`, section "Training".

#![forbid(unsafe_code)]

use std::io::Write;
use std::process::ExitCode;
use vorpal_tuning::nnue::cli::{parse_args, run, USAGE};
use vorpal_tuning::nnue::compare;

/// Reports an error on stderr; a closed stderr is ignored (the exit status still tells).
fn complain(text: &str) {
    let _ = writeln!(std::io::stderr(), "vorpal-nnue: {text}");
}

/// `vorpal-nnue compare ...`: the losses of networks and the hand-crafted evaluation on one set.
fn compare_main(args: &[String]) -> ExitCode {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        let _ = writeln!(std::io::stdout(), "{}", compare::USAGE);
        return ExitCode::SUCCESS;
    }
    let options = match compare::parse_compare_args(args) {
        Ok(o) => o,
        Err(e) => {
            complain(&format!("{e}\n{}", compare::USAGE));
            return ExitCode::from(2);
        }
    };
    let mut say = |line: &str| {
        let _ = writeln!(std::io::stdout(), "{line}");
    };
    match compare::run_compare(&options, &mut say) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            complain(&e);
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "compare") {
        return compare_main(&args[1..]);
    }
    if args.iter().any(|a| a == "-h" || a == "--help") {
        let _ = writeln!(std::io::stdout(), "{USAGE}");
        return ExitCode::SUCCESS;
    }
    let command = std::iter::once("vorpal-nnue".to_string())
        .chain(args.iter().cloned())
        .collect::<Vec<_>>()
        .join(" ");
    let options = match parse_args(args) {
        Ok(o) => o,
        Err(e) => {
            complain(&format!("{e}\n{USAGE}"));
            return ExitCode::from(2);
        }
    };
    match run(options, &command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            complain(&e);
            ExitCode::FAILURE
        }
    }
}
