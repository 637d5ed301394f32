//! Long fuzz runs:
//! `vorpal-fuzz <uci|all> [--seconds N] [--seed S] [--engine PATH] [--case C]`.
//!
//! Build with the `fuzz` profile (optimized, debug assertions, unwinding panics) so a
//! failing case is caught and printed with its input and its case seed:
//! `cargo run --profile fuzz -p vorpal-tests --bin vorpal-fuzz -- all --seconds 1800`.
//!
//! `uci` runs random command streams through the `vorpal` binary (one process per stream):
//! build it first with `cargo build --release -p vorpal`. `--engine` names the binary; the
//! default is `release/vorpal` in the target directory this program was built in
//! (`$CARGO_TARGET_DIR` or `target`). `--case C` runs the single case of seed `C` (as printed
//! with a failure) and shows its input.

#![forbid(unsafe_code)]

use clap::Parser;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use vorpal_tests::fuzz::PROCESS_TARGETS;

/// A target of either registry, ready to run one case.
type Case<'a> = Box<dyn Fn(&mut StdRng, &mut String) + 'a>;

/// `release/vorpal` next to the directory of this executable's profile.
fn default_engine() -> PathBuf {
    let name = format!("vorpal{}", std::env::consts::EXE_SUFFIX);
    std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.join("release").join(&name)))
        .filter(|p| p.exists())
        .unwrap_or_else(|| Path::new("target/release").join(name))
}

/// Long fuzz runs of the `vorpal` binary (the parsers are fuzzed by tests/fuzz)
#[derive(Parser, Debug)]
#[command(name = "vorpal-fuzz", args_override_self = true)]
struct Args {
    /// The target: uci, or all
    #[arg(default_value = "all")]
    target: String,
    /// Time for all targets together
    #[arg(long, value_name = "N", default_value_t = 60)]
    seconds: u64,
    /// Seed of the first case
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// The engine binary [default: release/vorpal in the target directory
    /// of this program]
    #[arg(long, value_name = "PATH", verbatim_doc_comment)]
    engine: Option<PathBuf>,
    /// Run only the case of this seed (as printed with a failure) and show its input
    #[arg(long, value_name = "C")]
    case: Option<u64>,
}

fn main() {
    let args = Args::parse();
    let (which, seconds, seed) = (args.target.as_str(), args.seconds, args.seed);
    let engine = args.engine.clone().unwrap_or_else(default_engine);
    let mut targets: Vec<(&str, Case)> = Vec::new();
    for (name, target) in PROCESS_TARGETS {
        if which == "all" || name == which {
            if !engine.exists() {
                eprintln!(
                    "{}: no such engine binary; build it with 'cargo build --release -p vorpal' or pass --engine PATH",
                    engine.display()
                );
                std::process::exit(2);
            }
            let engine = engine.clone();
            targets.push((
                name,
                Box::new(move |rng: &mut StdRng, input: &mut String| target(&engine, rng, input)),
            ));
        }
    }
    if targets.is_empty() {
        eprintln!("unknown target '{which}' (uci, all; the parsers are fuzzed by tests/fuzz)");
        std::process::exit(2);
    }
    if let Some(case) = args.case {
        let mut failures = 0;
        for (name, target) in &targets {
            let mut input = String::new();
            let ok = catch_unwind(AssertUnwindSafe(|| {
                target(&mut StdRng::seed_from_u64(case), &mut input)
            }))
            .is_ok();
            println!("{name} case {case}: {}\n{input}", if ok { "passed" } else { "FAILED" });
            failures += usize::from(!ok);
        }
        std::process::exit(i32::from(failures > 0));
    }
    let per_target = Duration::from_secs(seconds) / targets.len() as u32;
    let mut total_failures = 0;
    for (name, target) in &targets {
        let start = Instant::now();
        let mut rng = StdRng::seed_from_u64(seed);
        let mut executions = 0u64;
        let mut failures = 0;
        while start.elapsed() < per_target {
            let case: u64 = rng.gen();
            let mut input = String::new();
            if catch_unwind(AssertUnwindSafe(|| {
                target(&mut StdRng::seed_from_u64(case), &mut input)
            }))
            .is_err()
            {
                eprintln!("FAILURE in {name} (case seed {case}; rerun with --case {case}): {input}");
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
