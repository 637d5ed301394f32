//! The game report of `vorpal gui`: a review of the main line run on a server thread with the
//! same analysis as `vorpal annotate` (the engine library's search in-process, a modest node
//! budget per position, the table kept from one position to the next). A running review holds
//! a place of the server's engine cap (`--max-engines`) and stops when the session ends, the
//! game changes or the server shuts down. The page's side (its state, progress and view) is
//! `vorpal_page::review`; this module runs the analysis and turns it into the page's report.
//!
//! The only door: [`start`], which the server's [`super::host::ServerHost`] calls.

use super::engine_pool::EnginePool;
use crate::annotate::{
    annotated_pgn, clamped_cp, eval_text, read_games, review_game, GameReview, InputGame, Judgement, LocalAnalyst,
    MoveReview, ReviewError, SideSummary,
};
use crate::uci::session::ENGINE;
use std::sync::Arc;
use vorpal_engine::search::{Limits, Score, SearchOptions, Searcher};
use vorpal_engine::Color;
use vorpal_page::review::{ReviewJob, ReviewReport, ReviewedMove, SideTotals};
use vorpal_uci_text::format::pv_numbered;

/// Nodes searched per position: a 40-move game takes well under a minute on one core.
pub const REVIEW_NODES: u64 = 100_000;

/// Stack of the review thread (the search recurses deeply with copy-make positions).
const STACK_BYTES: usize = 64 << 20;

/// Transposition table of a review, in MB.
const HASH_MB: usize = 16;

/// Starts the review of `job` on a thread holding a place of `pool`: the session's PGN is read
/// back as `vorpal annotate` reads a game (variations skipped, tags and comments kept). Refused
/// when the game does not read back, or when the server's engine cap is reached.
pub fn start(pool: &Arc<EnginePool>, job: ReviewJob) -> Result<u64, String> {
    let game = read_games(&job.pgn, job.rules)
        .into_iter()
        .next()
        .ok_or("no game to review")?
        .map_err(|e| format!("the game cannot be reviewed: {e}"))?;
    if game.moves.len() != job.moves {
        return Err("the game could not be read back for its review".into());
    }
    let slot = pool.reserve()?;
    let ReviewJob {
        mut progress, finish, ..
    } = job;
    std::thread::Builder::new()
        .name("review".into())
        .stack_size(STACK_BYTES)
        .spawn(move || {
            let outcome = run(&game, &mut |done, total| {
                slot.child.is_running() && progress(done, total)
            });
            drop(slot);
            finish(outcome);
        })
        .map_err(|e| format!("cannot start the review: {e}"))?;
    Ok(REVIEW_NODES)
}

/// Reviews `game` with the in-process search; None when stopped (`progress` said so: the
/// session's review changed or ended, or the server is shutting down), else the report, or
/// the engine's failure.
fn run(game: &InputGame, progress: &mut dyn FnMut(usize, usize) -> bool) -> Option<Result<ReviewReport, String>> {
    let searcher = Searcher::new(SearchOptions {
        threads: 1,
        hash_mb: HASH_MB,
        ..SearchOptions::default()
    });
    let limits = Limits {
        nodes: Some(REVIEW_NODES),
        ..Limits::default()
    };
    let mut analyst = LocalAnalyst::new(searcher, limits, false);
    match review_game(&game.start, &game.moves, &mut analyst, progress) {
        Ok(review) => {
            let about = format!("{ENGINE} review, {REVIEW_NODES} nodes per position");
            let pgn = annotated_pgn(game, &review, ENGINE, &about);
            Some(Ok(report(&review, pgn)))
        }
        Err(ReviewError::Cancelled) => None,
        Err(ReviewError::Engine { ply, message }) => Some(Err(format!("the review failed at ply {ply}: {message}"))),
    }
}

/// The page's report of a finished review with its annotated `pgn`.
pub fn report(review: &GameReview, pgn: String) -> ReviewReport {
    ReviewReport {
        moves: review.moves.iter().map(move_view).collect(),
        start_cp: white_cp(review.start_eval, Color::White),
        sides: [
            side_view(&review.sides[Color::White.index()]),
            side_view(&review.sides[Color::Black.index()]),
        ],
        pgn,
    }
}

/// The review of one move (its node in the tree is the session's to fill in).
fn move_view(m: &MoveReview) -> ReviewedMove {
    let white = m.white_eval();
    ReviewedMove {
        best: m.best.map(|b| m.before.move_to_san(b)),
        cp: white_cp(m.after, m.mover().flip()),
        eval: eval_text(white),
        judgement: m.verdict.judgement.map(Judgement::name),
        line: (!m.line.is_empty()).then(|| pv_numbered(&m.before, &m.line)),
        loss: (m.verdict.loss * 1000.0).round() / 1000.0,
        mark: m.verdict.judgement.map(Judgement::suffix),
        mate: matches!(white, Score::Mate(_)),
        node: 0,
        ply: m.ply,
        san: m.san(),
    }
}

/// One side's totals for the page.
fn side_view(s: &SideSummary) -> SideTotals {
    SideTotals {
        accuracy: s.accuracy().map(|a| (a * 10.0).round() / 10.0),
        acpl: s.acpl(),
        blunders: s.count(Judgement::Blunder),
        inaccuracies: s.count(Judgement::Inaccuracy),
        mistakes: s.count(Judgement::Mistake),
    }
}

/// Centipawns clamped to the model's ±10 pawns from White's view, of `score` from the view of
/// `side` (the side to move; mated when the score is `Mate(0)`, so mates lie at the edge).
fn white_cp(score: Score, side: Color) -> i32 {
    match side {
        Color::White => clamped_cp(score),
        Color::Black => -clamped_cp(score),
    }
}

#[cfg(test)]
mod tests {
    use super::super::host::ServerHost;
    use super::*;
    use crate::annotate::Verdict;
    use serde_json::Value;
    use std::time::Duration;
    use vorpal_client::engine_process::EngineConfig;
    use vorpal_engine::Move;
    use vorpal_page::requests::Command;
    use vorpal_page::session::Shared;

    /// A session whose engine cannot start, with a cap of `max` engines.
    fn session(max: usize) -> Arc<Shared> {
        let engines = vec![EngineConfig {
            name: "none".into(),
            cmd: "/nonexistent/engine".into(),
            ..EngineConfig::default()
        }];
        Shared::new(Arc::new(engines), ServerHost::new(EnginePool::new(max)))
    }

    fn import(shared: &Arc<Shared>, text: &str) {
        shared
            .update(|s, sh| {
                s.game_command(
                    sh,
                    Command::Pgn {
                        text: text.into(),
                        game: None,
                    },
                )
            })
            .unwrap();
    }

    /// Starts a review once the cap has room (within five seconds).
    fn start_soon(shared: &Arc<Shared>) -> bool {
        (0..500).any(|_| {
            let ok = shared.update(|s, sh| s.start_review(sh)).is_ok();
            if !ok {
                std::thread::sleep(Duration::from_millis(10));
            }
            ok
        })
    }

    /// The review as the page gets it (null when none).
    fn review_json(shared: &Arc<Shared>) -> Value {
        serde_json::to_value(shared.lock().review_view()).unwrap()
    }

    fn wait_done(shared: &Arc<Shared>) -> Value {
        for _ in 0..3000 {
            let view = review_json(shared);
            if view["state"] != "running" {
                return view;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("the review did not finish");
    }

    #[test]
    fn a_known_blunder_gets_two_question_marks() {
        let shared = session(2);
        import(&shared, include_str!("../../../docs/examples/blunder.pgn"));
        // The engine of this session never starts, so the cap has room for the review.
        shared.update(|s, sh| s.start_review(sh)).unwrap();
        let view = wait_done(&shared);
        assert_eq!(view["state"], "done", "{view}");
        let moves = view["moves"].as_array().unwrap();
        assert_eq!(moves.len(), 17);
        let h5 = &moves[15];
        assert_eq!(h5["san"], "h5");
        assert_eq!(h5["mark"], "??", "{h5}");
        assert_eq!(h5["eval"], "#1");
        assert!(h5["line"].as_str().is_some_and(|l| l.starts_with("8...")), "{h5}");
        assert_eq!(moves[16]["cp"], 1000, "the mate is at the graph's edge");
        assert!(view["black"]["blunders"].as_u64().unwrap() >= 1);
        assert!(view["white"]["accuracy"].as_f64().is_some());
        let pgn = view["pgn"].as_str().unwrap();
        assert!(pgn.contains("8... h5??"), "{pgn}");
        assert!(pgn.contains("[White \"Tweedledum\"]"), "{pgn}");
    }

    #[test]
    fn the_cap_refuses_and_a_new_game_stops_the_review() {
        let shared = session(0);
        import(&shared, include_str!("../../../docs/examples/blunder.pgn"));
        let refused = shared.update(|s, sh| s.start_review(sh)).unwrap_err();
        assert!(refused.contains("--max-engines"), "{refused}");
        let shared = session(1);
        assert!(shared
            .update(|s, sh| s.start_review(sh))
            .unwrap_err()
            .contains("no move"));
        import(&shared, include_str!("../../../docs/examples/blunder.pgn"));
        // (The failing engine may hold the one place for a moment.)
        assert!(start_soon(&shared));
        assert_eq!(review_json(&shared)["state"], "running");
        import(&shared, "1. e4 e5 *");
        assert!(review_json(&shared).is_null(), "a new game drops the review");
        // The stopped review frees its place: a new one may start.
        assert!(start_soon(&shared));
        let view = wait_done(&shared);
        assert_eq!(view["moves"].as_array().unwrap().len(), 2);
        // A changed main line stops a running review and frees its place.
        import(&shared, include_str!("../../../docs/examples/blunder.pgn"));
        assert!(start_soon(&shared));
        shared
            .update(|s, sh| {
                let last = s.main_line_end();
                s.game_command(sh, Command::Delete { node: last as u64 })
            })
            .unwrap();
        let stopped = (0..1000).any(|_| {
            std::thread::sleep(Duration::from_millis(10));
            !shared.lock().has_review()
        });
        assert!(stopped, "the review stops when the main line changes");
        assert!(start_soon(&shared), "its place is free again");
    }

    /// The page's report of a hand-made review of `1. e4 d5`: a good move, then a blunder
    /// into mate (the page's golden transcript shows the same report).
    #[test]
    fn a_hand_made_review_gives_the_golden_report() {
        let shared = session(0);
        import(&shared, "1. e4 d5 *");
        let got = report(&game_review(&shared), "pgn".into());
        let moves: Vec<_> = got
            .moves
            .iter()
            .map(|m| {
                (
                    m.best.as_deref(),
                    m.cp,
                    m.eval.as_str(),
                    m.judgement,
                    m.line.as_deref(),
                    m.loss,
                    m.mark,
                )
            })
            .collect();
        assert_eq!(
            moves,
            [
                (Some("d4"), 20, "0.20", None, Some("1. d4"), 0.012, None),
                (None, 1000, "#2", Some("blunder"), None, 0.457, Some("??")),
            ]
        );
        let sides: Vec<_> = got.sides.iter().map(|s| (s.accuracy, s.acpl, s.blunders)).collect();
        assert_eq!(sides, [(Some(97.3), Some(4), 0), (Some(11.0), Some(1012), 1)]);
        assert_eq!((got.start_cp, got.pgn.as_str()), (12, "pgn"));
    }

    /// A hand-made report of the session's two moves: a good move, then a blunder into mate.
    fn game_review(shared: &Arc<Shared>) -> GameReview {
        let s = shared.lock();
        let line = s.tree().line(0);
        let start = *s.tree().start();
        let d4 = start.parse_uci("d2d4").unwrap();
        let review = |ply: usize, after: Score, best: Option<Move>, loss: f64, judgement| {
            let node = s.tree().node(line[ply]);
            MoveReview {
                ply,
                before: s.tree().node(line[ply - 1]).position,
                mv: node.mv.unwrap(),
                after,
                best,
                line: best.into_iter().collect(),
                verdict: Verdict {
                    loss,
                    judgement,
                    cp_loss: 0,
                    accuracy: 0.0,
                },
            }
        };
        GameReview {
            start,
            start_eval: Score::Cp(12),
            moves: vec![
                review(1, Score::Cp(-20), Some(d4), 0.012_34, None),
                review(2, Score::Mate(2), None, 0.4567, Some(Judgement::Blunder)),
            ],
            sides: [
                SideSummary {
                    moves: 1,
                    cp_loss_sum: 4,
                    accuracy_sum: 97.26,
                    marks: [0, 0, 0],
                },
                SideSummary {
                    moves: 1,
                    cp_loss_sum: 1012,
                    accuracy_sum: 11.0,
                    marks: [0, 0, 1],
                },
            ],
            nodes: 300,
        }
    }
}
