//! Copy-makes per node of the bench: `cargo run --release -p vorpal-engine --features stats
//! --example copy_makes [depth]`. Counts every position the search makes from another
//! (children, null-move children, check tests), divided by the nodes searched.

fn main() {
    let depth = std::env::args()
        .nth(1)
        .and_then(|d| d.parse().ok())
        .unwrap_or(vorpal_engine::bench::DEFAULT_DEPTH);
    let result = vorpal_engine::bench::run(depth, &vorpal_engine::Evaluator::default(), &mut |_, _, _| {});
    println!(
        "nodes {} copy-makes {} per node {:.3}",
        result.nodes,
        result.copy_makes,
        result.copy_makes as f64 / result.nodes.max(1) as f64
    );
}
