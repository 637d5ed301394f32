//! `vorpal-match`: Alice chess engine matches refereed by Vorpal's rules core. See
//! `vorpal-match help` and [`vorpal_tuning::cli`].

#![forbid(unsafe_code)]

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(vorpal_tuning::cli::run(&args));
}
