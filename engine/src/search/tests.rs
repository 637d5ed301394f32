//! Search behaviour tests that need the searcher's internals.

use super::{Limits, SearchControl, SearchOptions, SearchResult, Searcher};
use crate::game::Game;
use crate::position::Position;
use crate::rules::Rules;

fn bench_positions() -> Vec<Position> {
    crate::bench::BENCH_FENS
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|fen| Position::from_fen(fen, Rules::default()).unwrap())
        .collect()
}

/// A search with the hand-crafted evaluation: the cases below were chosen with it.
fn fresh_hand_crafted_search(pos: &Position, limits: &Limits) -> SearchResult {
    let mut searcher = Searcher::new(SearchOptions::default());
    searcher.set_evaluator(crate::Evaluator::hand_crafted(Default::default()));
    searcher.search(&Game::new(*pos), limits, &SearchControl::new(), &mut |_| {})
}

#[test]
fn a_better_move_of_an_unfinished_iteration_is_kept() {
    // The search mechanics are tested with the hand-crafted evaluation: a cut one node before
    // the end finds the new best move only if it was established before the last root move's
    // re-search, which holds for the bench positions under that evaluation (with another
    // evaluation the new best can be the last move re-searched, legitimately dropped).
    // Find positions whose best move changes from depth d - 1 to depth d, then stop a search
    // just before iteration d ends (one thread: node limits are exact and the search is
    // deterministic). The move found by iteration d must be played, not the older one.
    let mut checked = 0;
    for pos in bench_positions().iter().take(20) {
        for depth in 4..=8 {
            let before = fresh_hand_crafted_search(pos, &Limits::depth(depth - 1));
            let after = fresh_hand_crafted_search(pos, &Limits::depth(depth));
            if before.best == after.best || after.depth != depth {
                continue;
            }
            let cut = fresh_hand_crafted_search(pos, &Limits::nodes(after.nodes - 1));
            assert_eq!(
                cut.depth,
                depth - 1,
                "{}: iteration {depth} is unfinished",
                pos.to_fen()
            );
            assert_eq!(
                cut.best,
                after.best,
                "{}: the better move of the unfinished iteration {depth} was dropped",
                pos.to_fen()
            );
            checked += 1;
            break;
        }
        if checked >= 3 {
            break;
        }
    }
    assert!(
        checked >= 1,
        "no bench position changes its best move between iterations"
    );
}

#[test]
fn improving_looks_past_a_node_in_check() {
    use super::alphabeta::improving;
    use super::thread::StackEntry;
    use super::INFINITY;
    let stack = |evals: &[i32]| -> Vec<StackEntry> {
        evals
            .iter()
            .map(|&static_eval| StackEntry {
                static_eval,
                ..StackEntry::default()
            })
            .collect()
    };
    // Two plies back we were in check: compare with four plies back.
    let s = stack(&[100, 0, -INFINITY, 0, 50]);
    assert!(!improving(&s, 4, 50), "50 is worse than 100 four plies back");
    assert!(improving(&s, 4, 150));
    // Ordinary case and the edges.
    let s = stack(&[0, 0, 20, 0, 30]);
    assert!(improving(&s, 4, 30) && !improving(&s, 4, 10));
    assert!(!improving(&s, 4, -INFINITY), "in check now");
    assert!(!improving(&s, 1, 30), "nothing to compare with");
    let s = stack(&[-INFINITY, 0, -INFINITY, 0, 30]);
    assert!(!improving(&s, 4, 30), "in check at both earlier nodes");
}

#[test]
fn repetitions_are_not_found_across_a_null_move() {
    use super::thread::repetition;
    // Path: positions 1 2 3 4, and now position 1 again (four plies later): a repetition
    // on the path.
    let keys = [1, 2, 3, 4];
    assert!(repetition(&keys, 0, 1, 10));
    assert!(!repetition(&keys, 0, 1, 3), "the halfmove clock bounds the reach");
    // A null move after the second position: the search sees only the keys after it.
    assert!(!repetition(&keys[2..], 0, 1, 10), "key 1 lies before the null move");
    // Threefold with the game history before the root.
    let game = [7, 0, 7, 0, 1, 2];
    assert!(repetition(&game, 4, 7, 20));
    assert!(!repetition(&game, 4, 7, 5));
}

#[test]
fn killers_are_cleared_between_searches() {
    let positions = bench_positions();
    let mut searcher = Searcher::new(SearchOptions::default());
    let control = SearchControl::new();
    searcher.search(&Game::new(positions[1]), &Limits::depth(9), &control, &mut |_| {});
    assert!(
        searcher.killers(0).iter().skip(2).any(|k| !k[0].is_none()),
        "a deep search leaves killers"
    );
    // A depth-1 search reaches main-search nodes only at the root (ply 0) and ply 1: no killer
    // of a deeper ply may survive from the previous search.
    searcher.search(&Game::new(positions[5]), &Limits::depth(1), &control, &mut |_| {});
    assert!(searcher
        .killers(0)
        .iter()
        .skip(2)
        .all(|k| k[0].is_none() && k[1].is_none()));
}

#[test]
fn correction_history_follows_the_search_results_within_bounds() {
    use super::history::History;
    let pos = Position::startpos();
    let mut history = History::new(false);
    assert_eq!(history.correction(&pos), 0);
    // Searches come out 40 cp above the raw evaluation; the error is measured against the
    // corrected evaluation, so the correction settles at 40.
    for _ in 0..300 {
        let error = 40 - history.correction(&pos);
        history.update_correction(&pos, 10, error);
    }
    let c = history.correction(&pos);
    assert!((36..=40).contains(&c), "converges towards the error, got {c}");
    for _ in 0..500 {
        history.update_correction(&pos, 16, 10_000);
    }
    assert_eq!(history.correction(&pos), 128, "bounded");
    // The other side to move has its own entry.
    let other = Position::from_fen(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
        Rules::default(),
    )
    .unwrap();
    assert_eq!(history.correction(&other), 0);
}

#[test]
fn correction_history_searches_when_enabled() {
    // The default build leaves it off (corr_scale 0); switched on it must search soundly.
    let mut searcher = Searcher::new(SearchOptions::default());
    let mut params = searcher.params().clone();
    params.set("corr_scale", 100).unwrap();
    searcher.set_params(params);
    let game = Game::new(bench_positions()[3]);
    let result = searcher.search(&game, &Limits::depth(8), &SearchControl::new(), &mut |_| {});
    assert!(result.best.is_some() && result.depth == 8);
}

#[test]
fn effort_gives_less_time_when_the_best_move_took_most_nodes() {
    use super::root::effort_scale;
    let params = super::SearchParams::default();
    let clear = effort_scale(&params, 900, 1000, 10);
    let unclear = effort_scale(&params, 200, 1000, 10);
    assert!(clear < 1.0 && unclear > 1.0, "{clear} {unclear}");
    assert!(effort_scale(&params, 500, 1000, 10) > clear);
    assert_eq!(effort_scale(&params, 900, 1000, 4), 1.0, "not before depth 5");
    let mut off = params.clone();
    off.tm_node_scale = 0;
    assert_eq!(effort_scale(&off, 900, 1000, 10), 1.0);
}

#[test]
fn threads_vote_for_the_move_played() {
    use super::root::voted_helper;
    use super::thread::RootMove;
    use super::MATE;
    let moves = Position::startpos().legal_moves();
    let (a, b) = (moves[0], moves[1]);
    let rm = |mv, score| RootMove {
        mv,
        score,
        previous_score: score,
        pv: vec![mv],
        seldepth: 0,
        nodes: 0,
    };
    // Two helpers at the main thread's depth agree on b: b wins, by the first such helper.
    let main = rm(a, 30);
    let helpers = [(rm(b, 25), 12), (rm(b, 28), 12), (rm(a, 10), 11)];
    assert_eq!(
        voted_helper((&main, 12), &helpers),
        Some(1),
        "the better-scored of b's voters"
    );
    // One helper against the main thread at the same depth and score: the main thread stays.
    assert_eq!(voted_helper((&main, 12), &[(rm(b, 30), 12)]), None);
    // A helper agreeing with the main thread changes nothing.
    assert_eq!(voted_helper((&main, 12), &[(rm(a, 90), 14)]), None);
    // A helper with nothing completed has no vote.
    assert_eq!(voted_helper((&main, 12), &[(rm(b, 500), 0)]), None);
    // A proven mate wins whatever the votes.
    let helpers = [(rm(a, 40), 12), (rm(a, 40), 12), (rm(b, MATE - 5), 9)];
    assert_eq!(voted_helper((&main, 12), &helpers), Some(2));
}

#[test]
fn each_search_switch_changes_the_search() {
    // The switches the mate tests turn must each change a fixed-depth search, else they
    // switch nothing (one thread: node counts are deterministic).
    let nodes = |switch: Option<(&str, i32)>| {
        let mut searcher = Searcher::new(SearchOptions::default());
        let mut params = searcher.params().clone();
        if let Some((name, value)) = switch {
            params.set(name, value).unwrap();
        }
        searcher.set_params(params);
        bench_positions()
            .iter()
            .take(6)
            .map(|pos| {
                searcher
                    .search(&Game::new(*pos), &Limits::depth(10), &SearchControl::new(), &mut |_| {})
                    .nodes
            })
            .sum::<u64>()
    };
    let defaults = nodes(None);
    // Each switched the other way from its default (razoring and ProbCut are off by default).
    for switch in [
        ("se_depth", 99),
        ("razor_depth", 3),
        ("probcut_depth", 5),
        ("cont_ply4", 0),
    ] {
        assert_ne!(nodes(Some(switch)), defaults, "{switch:?} changes nothing");
    }
}

#[test]
fn correction_history_shares_what_positions_have_in_common() {
    use super::history::History;
    let trained = Position::startpos();
    // The same pieces and material with one pawn elsewhere: only the pawn table differs.
    let other_pawns = Position::from_fen(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1",
        Rules::default(),
    )
    .unwrap();
    let mut history = History::new(false);
    for _ in 0..300 {
        let error = 40 - history.correction(&trained);
        history.update_correction(&trained, 10, error);
    }
    let (full, shared) = (history.correction(&trained), history.correction(&other_pawns));
    assert!((36..=40).contains(&full), "{full}");
    assert!(
        shared > 0 && shared < full,
        "material and non-pawn tables carry over: {shared} of {full}"
    );
}

/// The last completed iteration's line as reported (depth, score, first move).
fn search_with_reports(pos: &Position, limits: &Limits) -> (SearchResult, Option<super::SearchInfo>) {
    let mut searcher = Searcher::new(SearchOptions::default());
    let mut last = None;
    let r = searcher.search(&Game::new(*pos), limits, &SearchControl::new(), &mut |report| {
        if let super::Report::Info(info) = report {
            if info.bound == super::Bound::Exact && info.multipv == 1 {
                last = Some(info);
            }
        }
    });
    (r, last)
}

#[test]
fn a_soft_node_limit_ends_the_search_between_iterations() {
    for pos in bench_positions().iter().take(8) {
        let soft = 3_000;
        let limits = Limits {
            soft_nodes: Some(soft),
            ..Limits::default()
        };
        let (r, last) = search_with_reports(pos, &limits);
        let last = last.expect("an iteration completed");
        assert!(r.nodes >= soft, "{}: stopped at {} nodes", pos.to_fen(), r.nodes);
        // Whole iterations only: the result is the last one's, and one fewer would not do.
        assert_eq!((r.depth, r.score), (last.depth, last.score), "{}", pos.to_fen());
        assert_eq!(r.best, r.completed_best);
        assert_eq!(r.completed_best, last.pv.first().copied());
        let shorter = search_with_reports(pos, &Limits::depth(r.depth - 1)).0;
        assert!(
            shorter.nodes < soft,
            "{}: depth {} was enough",
            pos.to_fen(),
            r.depth - 1
        );
    }
}

#[test]
fn the_completed_best_move_is_the_one_the_score_belongs_to() {
    // A hard cap just past a soft limit cuts most last iterations; whatever `best` says, the
    // completed iteration's move and score come as a pair.
    let mut cut = 0;
    let mut differs = 0;
    for pos in bench_positions() {
        let limits = Limits {
            soft_nodes: Some(2_000),
            nodes: Some(2_500),
            ..Limits::default()
        };
        let (r, last) = search_with_reports(&pos, &limits);
        let last = last.expect("an iteration completed");
        assert_eq!(r.completed_best, last.pv.first().copied(), "{}", pos.to_fen());
        assert_eq!((r.score, r.depth), (last.score, last.depth), "{}", pos.to_fen());
        cut += (r.nodes >= 2_500) as u32;
        differs += (r.best != r.completed_best) as u32;
    }
    assert!(cut > 0, "no search reached the hard cap");
    eprintln!("{cut} searches cut by the hard cap, {differs} with another best move");
}
