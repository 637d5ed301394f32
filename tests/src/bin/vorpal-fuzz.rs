//! Long fuzz runs: `vorpal-fuzz <fen|moves|makeundo|all> [--seconds N] [--seed S]`.
//! Build with the `fuzz` profile (optimized, debug assertions, unwinding panics) so a
//! failing case is caught and printed with its input:
//! `cargo run --profile fuzz -p vorpal-tests --bin vorpal-fuzz -- all --seconds 1800`.

use rand::rngs::StdRng;
use rand::SeedableRng;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};
use vorpal_tests::fuzz::TARGETS;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let which = args.first().map(String::as_str).unwrap_or("all");
    let value = |flag: &str, default: u64| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let seconds = value("--seconds", 60);
    let seed = value("--seed", 1);
    let targets: Vec<_> = TARGETS
        .iter()
        .filter(|(name, _)| which == "all" || *name == which)
        .collect();
    if targets.is_empty() {
        eprintln!("unknown target '{which}' (fen, moves, makeundo, all)");
        std::process::exit(2);
    }
    let per_target = Duration::from_secs(seconds) / targets.len() as u32;
    let mut total_failures = 0;
    for (name, target) in targets {
        let start = Instant::now();
        let mut rng = StdRng::seed_from_u64(seed);
        let mut executions = 0u64;
        let mut failures = 0;
        while start.elapsed() < per_target {
            let mut case_rng = StdRng::seed_from_u64(rand::Rng::gen(&mut rng));
            let mut input = String::new();
            if catch_unwind(AssertUnwindSafe(|| target(&mut case_rng, &mut input))).is_err() {
                eprintln!("FAILURE in {name}: {input}");
                failures += 1;
            }
            executions += 1;
        }
        println!(
            "{name}: {executions} executions in {:.0} s, {failures} failures",
            start.elapsed().as_secs_f64()
        );
        total_failures += failures;
    }
    std::process::exit(if total_failures > 0 { 1 } else { 0 });
}
