//! Search behaviour through the library API: determinism, threads, MultiPV, searchmoves,
//! draws and mates, stopping.

use std::sync::Arc;
use std::time::{Duration, Instant};
use vorpal_engine::search::{Limits, Report, Score, SearchControl, SearchOptions, Searcher};
use vorpal_engine::{Game, Position, Rules};

fn game(fen: &str) -> Game {
    Game::new(Position::from_fen(fen, Rules::default()).unwrap())
}

const MIDDLEGAME: &str = "r1b1k1nr/p1p2ppp/2|n5/1P|b|p|p3/4q3/8/1PPPBPPP/RNBQK1NR w Kkq - 4 8";

#[test]
fn go_nodes_is_deterministic_on_one_thread() {
    let run = || {
        let mut s = Searcher::new(SearchOptions::default());
        let r = s.search(
            &game(MIDDLEGAME),
            &Limits::nodes(30_000),
            &SearchControl::new(),
            &mut |_| {},
        );
        (r.best, r.nodes, r.score)
    };
    let a = run();
    assert_eq!(a, run());
    assert!(a.1 >= 30_000 && a.1 < 31_000, "node limit respected: {}", a.1);
}

#[test]
fn sane_results_with_1_to_64_threads() {
    let g = game(MIDDLEGAME);
    for threads in [1, 2, 3, 8, 64] {
        let mut s = Searcher::new(SearchOptions {
            threads,
            ..SearchOptions::default()
        });
        let r = s.search(&g, &Limits::depth(7), &SearchControl::new(), &mut |_| {});
        let best = r.best.expect("a move");
        assert!(g.position().is_legal(best), "{threads} threads");
        assert!(r.depth >= 7 || threads > 1);
        match r.score {
            Score::Cp(cp) => assert!(cp.abs() < 2000, "{threads} threads: {cp}"),
            Score::Mate(_) => panic!("no mate here"),
        }
    }
}

#[test]
fn multipv_reports_distinct_lines_in_order() {
    let mut s = Searcher::new(SearchOptions {
        multipv: 3,
        ..SearchOptions::default()
    });
    let mut last_depth_lines = Vec::new();
    s.search(&game(MIDDLEGAME), &Limits::depth(6), &SearchControl::new(), &mut |r| {
        if let Report::Info(i) = r {
            if i.depth == 6 {
                last_depth_lines.push(i);
            }
        }
    });
    let lines: Vec<_> = last_depth_lines.iter().filter(|i| i.multipv <= 3).collect();
    let tail = &lines[lines.len() - 3..];
    assert_eq!(tail.iter().map(|i| i.multipv).collect::<Vec<_>>(), vec![1, 2, 3]);
    let firsts: Vec<_> = tail.iter().map(|i| i.pv[0]).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    let cp = |s: Score| if let Score::Cp(c) = s { c } else { 0 };
    assert!(cp(tail[0].score) >= cp(tail[1].score) && cp(tail[1].score) >= cp(tail[2].score));
}

#[test]
fn searchmoves_restricts_the_root() {
    let g = game(MIDDLEGAME);
    let only = g.position().parse_uci("h2h3").unwrap();
    let mut s = Searcher::new(SearchOptions::default());
    let limits = Limits {
        depth: Some(6),
        search_moves: vec![only],
        ..Limits::default()
    };
    let r = s.search(&g, &limits, &SearchControl::new(), &mut |_| {});
    assert_eq!(r.best, Some(only));
}

#[test]
fn no_legal_move_reports_mate_or_stalemate() {
    let mut s = Searcher::new(SearchOptions::default());
    let mated = game("rnbqkbnr/ppp1pppp/8/1B6/4p3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3");
    let r = s.search(&mated, &Limits::depth(5), &SearchControl::new(), &mut |_| {});
    assert_eq!((r.best, r.score), (None, Score::Mate(0)));
    let stalemate = game("7k/8/6|Q1/8/8/8/8/K7 b - - 0 1");
    let r = s.search(&stalemate, &Limits::depth(5), &SearchControl::new(), &mut |_| {});
    assert_eq!((r.best, r.score), (None, Score::Cp(0)));
}

#[test]
fn mated_side_sees_negative_mate() {
    // mates.tsv: White mates in 2 starting with d6e5. After it, every Black move allows a mate
    // in one: from Black's side (the side to move) the score is "mated in 1", and the move the
    // search returns is still a legal move.
    let mut g = game("rnbqk1nr/pppp|bppp/3|Q|p3/8/3|P4/8/PPP1PPPP/RNB1KBNR w KQkq - 2 3");
    let key = g.position().parse_uci("d6e5").unwrap();
    assert!(g.play(key));
    let mut s = Searcher::new(SearchOptions::default());
    let r = s.search(&g, &Limits::depth(6), &SearchControl::new(), &mut |_| {});
    assert_eq!(r.score, Score::Mate(-1), "Black is mated in one whatever it plays");
    assert!(g.position().is_legal(r.best.expect("Black has moves")));
}

#[test]
fn repetition_in_game_history_is_a_draw() {
    // Bare material aside, White (up a rook) must avoid a move that repeats a position
    // that already occurred twice; with only kings and a shuffling knight pair the
    // engine scores the repetition line as 0.
    let start = Position::from_fen("4k3/8/8/8/8/8/8/1N2K1n1 w - - 0 1", Rules::default()).unwrap();
    let mut g = Game::new(start);
    for _ in 0..2 {
        for mv in ["b1c3", "g1f3", "c3b1", "f3g1"] {
            let m = g.position().parse_uci(mv).unwrap();
            assert!(g.play(m));
        }
    }
    // The start position has occurred 3 times now: the game is drawn.
    assert_eq!(g.outcome().map(|o| o.1), Some(vorpal_engine::EndReason::Threefold));
    g.undo();
    // One ply before: playing f3g1 would repeat a third time; the search knows that line is 0.
    let m = g.position().parse_uci("f3g1").unwrap();
    let mut s = Searcher::new(SearchOptions::default());
    let limits = Limits {
        depth: Some(4),
        search_moves: vec![m],
        ..Limits::default()
    };
    let r = s.search(&g, &limits, &SearchControl::new(), &mut |_| {});
    assert_eq!(r.score, Score::Cp(0));
}

#[test]
fn stop_ends_an_infinite_search_quickly() {
    let control = Arc::new(SearchControl::new());
    let c = control.clone();
    let handle = std::thread::spawn(move || {
        let mut s = Searcher::new(SearchOptions {
            threads: 2,
            ..SearchOptions::default()
        });
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        s.search(&game(MIDDLEGAME), &limits, &c, &mut |_| {})
    });
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    control.stop();
    let r = handle.join().unwrap();
    // Normally a few milliseconds; the bound holds on a machine loaded four times over.
    assert!(t.elapsed() < Duration::from_secs(3), "stopped in {:?}", t.elapsed());
    assert!(r.best.is_some());
}
