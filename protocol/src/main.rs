use std::time::Instant;
use vorpal_engine::{perft, Position, Rules};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args[1].parse().unwrap();
    let fen = args
        .get(2)
        .cloned()
        .unwrap_or("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into());
    let pos = Position::from_fen(&fen, Rules::default()).unwrap();
    let t = Instant::now();
    let n = perft::perft(&pos, depth);
    let e = t.elapsed().as_secs_f64();
    println!("{n} {:.3}s {:.1} Mnps", e, n as f64 / e / 1e6);
}
