//! Every forced mate of `mates.tsv` is found with the right `mate N` and a mating first move,
//! on one thread, each within generous limits (the actual times are printed).

use std::time::{Duration, Instant};
use vorpal_engine::search::{Limits, Score, SearchControl, SearchOptions, Searcher};
use vorpal_engine::{Game, Position, Rules};
use vorpal_tests::data::tsv_rows;

#[test]
fn finds_every_reference_mate() {
    let rows = tsv_rows("mates.tsv");
    assert!(rows.len() >= 19);
    let mut searcher = Searcher::new(SearchOptions::default());
    for row in &rows {
        let pos = Position::from_fen(&row["fen"], Rules::default()).unwrap();
        let n: i32 = row["mate_in"].parse().unwrap();
        let expected: Vec<&str> = row["best_first_move(s)"].split_whitespace().collect();
        searcher.clear();
        let limits = Limits {
            mate: Some(n as u32),
            movetime: Some(Duration::from_secs(10)),
            ..Limits::default()
        };
        let start = Instant::now();
        let result = searcher.search(&Game::new(pos), &limits, &SearchControl::new(), &mut |_| {});
        let elapsed = start.elapsed();
        let best = pos.move_to_uci(result.best.expect("a move"));
        println!(
            "mate in {n}: {best} {:?} in {} ms ({})",
            result.score,
            elapsed.as_millis(),
            row["fen"]
        );
        assert_eq!(result.score, Score::Mate(n), "{}", row["fen"]);
        assert!(
            expected.contains(&best.as_str()),
            "{best} not in {expected:?} for {}",
            row["fen"]
        );
    }
}
