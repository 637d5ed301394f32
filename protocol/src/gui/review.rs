//! The game report: a review of the main line run in the background with the same analysis as
//! `vorpal annotate` (the engine library's search in-process, a modest node budget per
//! position, the table kept from one position to the next). A running review holds a place of
//! the server's engine cap (`--max-engines`) and stops when the session ends, the game changes
//! or the server shuts down. The page sees its progress, then every move's evaluation and
//! judgement, the better lines, both sides' totals and the annotated PGN.
//!
//! The only door: [`PageSession::start_review`] and [`PageSession::review_view`].

use super::review_state::Review;
use super::session::{PageSession, Shared};
use crate::annotate::{
    annotated_pgn, clamped_cp, eval_text, read_games, review_game, GameReview, InputGame, Judgement, LocalAnalyst,
    MoveReview, ReviewError, SideSummary,
};
use crate::format::pv_numbered;
use crate::session::ENGINE;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};
use vorpal_engine::search::{Limits, Score, SearchOptions, Searcher};
use vorpal_engine::Color;

/// Nodes searched per position: a 40-move game takes well under a minute on one core.
pub const REVIEW_NODES: u64 = 100_000;

/// Stack of the review thread (the search recurses deeply with copy-make positions).
const STACK_BYTES: usize = 64 << 20;

/// Transposition table of a review, in MB.
const HASH_MB: usize = 16;

impl PageSession {
    /// The main line's nodes and moves.
    fn main_line_moves(&self) -> Vec<(usize, String)> {
        self.tree.line(0)[1..]
            .iter()
            .map(|&n| (n, self.tree.node(n).uci.clone()))
            .collect()
    }

    /// Starts a review of the main line (stopping one that runs). Refused for a game without
    /// moves, or when the server's engine cap is reached.
    pub fn start_review(&mut self, shared: &Arc<Shared>) -> Result<(), String> {
        let nodes = self.main_line_moves();
        if nodes.is_empty() {
            return Err("there is no move to review".into());
        }
        let game = self.review_input()?;
        if game.moves.len() != nodes.len() {
            return Err("the game could not be read back for its review".into());
        }
        self.review = None;
        let slot = self.pool().reserve()?;
        let cancel = Arc::new(AtomicBool::new(false));
        self.review = Some(Review {
            nodes,
            done: 0,
            total: game.moves.len() + 1,
            outcome: None,
            cancel: cancel.clone(),
        });
        self.bump();
        let weak = Arc::downgrade(shared);
        let spawned = std::thread::Builder::new()
            .name("review".into())
            .stack_size(STACK_BYTES)
            .spawn(move || {
                let outcome = run(&game, &cancel, &|| slot.child.is_running(), &weak);
                drop(slot);
                if let (Some(outcome), Some(shared)) = (outcome, weak.upgrade()) {
                    shared.update(|s, _| {
                        if let Some(r) = s.review.as_mut().filter(|r| Arc::ptr_eq(&r.cancel, &cancel)) {
                            r.done = r.total;
                            r.outcome = Some(outcome);
                            s.bump();
                        }
                    });
                }
            });
        if let Err(e) = spawned {
            self.review = None;
            return Err(format!("cannot start the review: {e}"));
        }
        Ok(())
    }

    /// The main line as a game to review: the session's own PGN read back (variations are
    /// skipped by the reader), so the export keeps the game's tags and comments.
    fn review_input(&self) -> Result<InputGame, String> {
        read_games(&self.pgn_text(), self.rules())
            .into_iter()
            .next()
            .ok_or("no game to review")?
            .map_err(|e| format!("the game cannot be reviewed: {e}"))
    }

    /// Stops and forgets the review (the game changed).
    pub(super) fn drop_review(&mut self) {
        self.review = None;
    }

    /// The review for the page (None when there is none, or when the main line changed since
    /// it started).
    pub fn review_view(&self) -> Option<ReviewView<'_>> {
        let r = self.review.as_ref()?;
        if r.nodes != self.main_line_moves() {
            return None;
        }
        let mut out = ReviewView {
            black: None,
            done: r.done,
            message: None,
            moves: None,
            nodes: REVIEW_NODES,
            pgn: None,
            start_cp: None,
            state: "running",
            total: r.total,
            white: None,
        };
        match &r.outcome {
            None => {}
            Some(Err(e)) => {
                out.state = "failed";
                out.message = Some(e.as_str());
            }
            Some(Ok((review, pgn))) => {
                out.state = "done";
                out.moves = Some(
                    r.nodes
                        .iter()
                        .zip(&review.moves)
                        .map(|((node, _), m)| move_view(*node, m))
                        .collect(),
                );
                out.start_cp = Some(white_cp(review.start_eval, Color::White));
                out.white = Some(side_view(&review.sides[Color::White.index()]));
                out.black = Some(side_view(&review.sides[Color::Black.index()]));
                out.pgn = Some(pgn.as_str());
            }
        }
        Some(out)
    }
}

/// The game report for the page: its state (`running`, `failed` with a `message`, `done`)
/// and progress; when done, every move's evaluation and judgement, the better lines, both
/// sides' totals and the annotated PGN. Fields in alphabetical order, as the page has always
/// received them; the report's own fields are left out until it is done.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReviewView<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    black: Option<SideView>,
    /// Positions searched so far.
    done: usize,
    /// Why it failed.
    message: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<ReviewedMove>>,
    /// Nodes searched per position.
    nodes: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pgn: Option<&'a str>,
    /// The start position's evaluation (White's centipawns).
    #[serde(skip_serializing_if = "Option::is_none")]
    start_cp: Option<i32>,
    state: &'static str,
    /// Positions in all.
    total: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    white: Option<SideView>,
}

/// One reviewed move: evaluations from White's view.
#[derive(Debug, Serialize)]
struct ReviewedMove {
    /// The engine's move (SAN), when it named one.
    best: Option<String>,
    /// Centipawns clamped to ±10 pawns (mates at the edge).
    cp: i32,
    /// `0.32`, `#-3`.
    eval: String,
    judgement: Option<&'static str>,
    /// The engine's line, numbered SAN.
    line: Option<String>,
    /// Winning chances given away, 0..1.
    loss: f64,
    /// `?!`, `?` or `??`.
    mark: Option<&'static str>,
    mate: bool,
    /// The move's node in the tree.
    node: usize,
    ply: usize,
    san: String,
}

/// One side's totals.
#[derive(Debug, Serialize)]
struct SideView {
    accuracy: Option<f64>,
    acpl: Option<i64>,
    blunders: usize,
    inaccuracies: usize,
    mistakes: usize,
}

/// The review of the move at `node`.
fn move_view(node: usize, m: &MoveReview) -> ReviewedMove {
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
        node,
        ply: m.ply,
        san: m.san(),
    }
}

/// One side's totals for the page.
fn side_view(s: &SideSummary) -> SideView {
    SideView {
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

/// Reviews `game` with the in-process search; None when stopped (by `cancel`, the slot's end or
/// the session's, or a changed main line), else the review with its annotated PGN, or the engine's failure.
fn run(
    game: &InputGame,
    cancel: &AtomicBool,
    slot_alive: &dyn Fn() -> bool,
    session: &Weak<Shared>,
) -> Option<Result<(GameReview, String), String>> {
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
    let mut progress = |done: usize, total: usize| {
        if cancel.load(Ordering::SeqCst) || !slot_alive() {
            return false;
        }
        let Some(shared) = session.upgrade() else {
            return false;
        };
        // A main line changed since the start stops the review (its report would be hidden).
        shared.update(|s, _| {
            let line = s.main_line_moves();
            match s.review.as_mut() {
                Some(r) if std::ptr::eq(Arc::as_ptr(&r.cancel), cancel) && r.nodes == line => {
                    r.done = done.min(total);
                    s.bump();
                    true
                }
                Some(r) if std::ptr::eq(Arc::as_ptr(&r.cancel), cancel) => {
                    s.review = None;
                    s.bump();
                    false
                }
                _ => false,
            }
        })
    };
    match review_game(&game.start, &game.moves, &mut analyst, &mut progress) {
        Ok(review) => {
            let about = format!("{ENGINE} review, {REVIEW_NODES} nodes per position");
            let pgn = annotated_pgn(game, &review, ENGINE, &about);
            Some(Ok((review, pgn)))
        }
        Err(ReviewError::Cancelled) => None,
        Err(ReviewError::Engine { ply, message }) => Some(Err(format!("the review failed at ply {ply}: {message}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::super::engine_pool::EnginePool;
    use super::super::requests::Command;
    use super::*;
    use serde_json::Value;
    use std::time::Duration;
    use vorpal_client::engine_process::EngineConfig;

    /// A session whose engine cannot start, with a cap of `max` engines.
    fn session(max: usize) -> Arc<Shared> {
        let engines = vec![EngineConfig {
            name: "none".into(),
            cmd: "/nonexistent/engine".into(),
            ..EngineConfig::default()
        }];
        Shared::new(Arc::new(engines), EnginePool::new(max))
    }

    fn import(shared: &Arc<Shared>, text: &str) {
        shared
            .update(|s, sh| s.game_command(sh, Command::Pgn { text: text.into() }))
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
                let last = s.tree.line_end(0);
                s.game_command(sh, Command::Delete { node: last as u64 })
            })
            .unwrap();
        let stopped = (0..1000).any(|_| {
            std::thread::sleep(Duration::from_millis(10));
            shared.lock().review.is_none()
        });
        assert!(stopped, "the review stops when the main line changes");
        assert!(start_soon(&shared), "its place is free again");
    }
}
