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

/// Every pruning step and extension added to the search is a heuristic: switched the other
/// way from its default one at a time (off, or on for razoring and ProbCut, which are off by
/// default), and all together, the search must still find the short mates, with the same
/// score.
#[test]
fn mates_are_found_with_each_heuristic_switched() {
    use vorpal_engine::search::SearchParams;
    let rows = tsv_rows("mates.tsv");
    let switches: [&[(&str, i32)]; 8] = [
        &[("se_depth", 99)],
        &[("razor_depth", 3)],
        &[("probcut_depth", 5)],
        &[("cont_ply4", 0)],
        &[("tm_node_scale", 0)],
        &[("thread_vote", 0)],
        &[("corr_scale", 100)],
        &[
            ("se_depth", 99),
            ("razor_depth", 3),
            ("probcut_depth", 5),
            ("cont_ply4", 0),
            ("corr_scale", 100),
        ],
    ];
    for switch in switches {
        let mut params = SearchParams::default();
        for &(name, value) in switch {
            params.set(name, value).unwrap();
        }
        let mut searcher = Searcher::new(SearchOptions::default());
        searcher.set_params(params);
        for row in rows.iter().filter(|r| r["mate_in"].parse::<i32>().unwrap() <= 3) {
            let pos = Position::from_fen(&row["fen"], Rules::default()).unwrap();
            let n: i32 = row["mate_in"].parse().unwrap();
            searcher.clear();
            let limits = Limits {
                mate: Some(n as u32),
                movetime: Some(Duration::from_secs(10)),
                ..Limits::default()
            };
            let result = searcher.search(&Game::new(pos), &limits, &SearchControl::new(), &mut |_| {});
            assert_eq!(result.score, Score::Mate(n), "{switch:?}: {}", row["fen"]);
        }
    }
}
