//! `vorpal-match`: Alice chess engine matches refereed by Vorpal's rules core. See
//! `vorpal-match help` and [`vorpal_tuning::matches::cli`] (and [`vorpal_tuning::spsa::cli`] for `spsa`).

#![forbid(unsafe_code)]

use vorpal_tuning::matches::cli;

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match args.first().map(String::as_str) {
        // SPSA plays its batches through the match runner, so it sits above it.
        Some("spsa") => cli::exit_code(vorpal_tuning::spsa::cli::spsa_command(&args[1..])),
        _ => cli::run(&args),
    };
    std::process::exit(code);
}
