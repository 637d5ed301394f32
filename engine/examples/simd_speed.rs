//! Bench speed of the network's vector kernels against the portable ones, in one process with
//! the same network: `cargo run --release -p vorpal-engine --example simd_speed [pairs] [depth]
//! [path] [base]`. Runs the bench alternately with the `base` kernels (default: the portable
//! ones) and with `path` (default: the one the engine chooses, `SimdPath::automatic`), the order inside each pair
//! alternating too, and prints each
//! pair's nodes per second and ratio, then the medians. Both runs of a pair must search the
//! same nodes (the kernels agree bit for bit); a difference stops the run.
//!
//! Nodes per second are counted per second of this thread's CPU time (Linux'
//! `/proc/thread-self/schedstat`), which a machine loaded by other work disturbs far less than
//! the wall clock; where that file is missing the wall clock of the bench is used.

use std::sync::Arc;
use vorpal_engine::bench;
use vorpal_engine::eval::EvalParams;
use vorpal_engine::nnue::{embedded_network, SimdPath};
use vorpal_engine::Evaluator;

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

/// This thread's CPU time in nanoseconds, if the system says.
fn cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Runs the bench; returns its nodes and nodes per CPU second (or per wall second).
fn measure(depth: u32, evaluator: &Evaluator) -> (u64, f64) {
    let before = cpu_ns();
    let result = bench::run(depth, evaluator, &mut |_, _, _| {});
    match (before, cpu_ns()) {
        (Some(a), Some(b)) if b > a => (result.nodes, result.nodes as f64 * 1e9 / (b - a) as f64),
        _ => (result.nodes, result.nps as f64),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let pairs: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(5);
    let depth: u32 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(bench::DEFAULT_DEPTH);
    let path_arg = |i: usize, default: SimdPath| match args.get(i) {
        Some(name) => SimdPath::parse(name).filter(|p| p.is_supported()).unwrap_or_else(|| {
            eprintln!("simd_speed: '{name}' is not a path this processor runs");
            std::process::exit(2);
        }),
        None => default,
    };
    let fast = path_arg(2, SimdPath::automatic());
    let base = path_arg(3, SimdPath::Portable);
    let net = embedded_network();
    let evaluator = |path: SimdPath| {
        let net = net.with_simd(path).expect("a supported path");
        Evaluator::with_network(EvalParams::default(), Arc::new(net))
    };
    let (portable, vector) = (evaluator(base), evaluator(fast));
    println!("bench depth {depth}, {pairs} pairs, {base} against {fast}");
    let (mut slow_nps, mut fast_nps, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for pair in 0..pairs {
        let run = |e: &Evaluator| measure(depth, e);
        // Alternate which runs first, so a drift of the machine's load favours neither.
        let (p, v) = if pair % 2 == 0 {
            let p = run(&portable);
            (p, run(&vector))
        } else {
            let v = run(&vector);
            (run(&portable), v)
        };
        assert_eq!(p.0, v.0, "the paths searched different trees");
        let ratio = v.1 / p.1;
        println!(
            "pair {}: nodes {} {base} {:.0} nps, {fast} {:.0} nps, ratio {ratio:.3}",
            pair + 1,
            p.0,
            p.1,
            v.1
        );
        slow_nps.push(p.1);
        fast_nps.push(v.1);
        ratios.push(ratio);
    }
    println!(
        "median: {base} {:.0} nps, {fast} {:.0} nps, ratio of medians {:.3}, median ratio {:.3}",
        median(&mut slow_nps),
        median(&mut fast_nps),
        median(&mut fast_nps.clone()) / median(&mut slow_nps.clone()),
        median(&mut ratios)
    );
}
