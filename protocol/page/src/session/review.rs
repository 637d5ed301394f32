//! The session's side of the game report: starting it on the host with callbacks that fold its
//! progress and outcome back into the session, dropping it when the game changes, and the view
//! the page gets.

use super::{PageSession, Shared};
use crate::review::{Review, ReviewFinish, ReviewJob, ReviewProgress, ReviewReport, ReviewView, ReviewedMove};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

impl PageSession {
    /// The main line's nodes and moves.
    fn main_line_moves(&self) -> Vec<(usize, String)> {
        self.tree.line(0)[1..]
            .iter()
            .map(|&n| (n, self.tree.node(n).uci.clone()))
            .collect()
    }

    /// Starts a review of the main line (stopping one that runs). Refused for a game without
    /// moves, or when the host cannot run one.
    pub fn start_review(&mut self, shared: &Arc<Shared>) -> Result<(), String> {
        let nodes = self.main_line_moves();
        if nodes.is_empty() {
            return Err("there is no move to review".into());
        }
        self.review = None;
        let cancel = Arc::new(AtomicBool::new(false));
        let weak = Arc::downgrade(shared);
        let progress: ReviewProgress = {
            let (weak, cancel) = (weak.clone(), cancel.clone());
            Box::new(move |done, total| {
                if cancel.load(Ordering::SeqCst) {
                    return false;
                }
                let Some(shared) = weak.upgrade() else {
                    return false;
                };
                shared.update(|s, _| s.review_progress(&cancel, done.min(total)))
            })
        };
        let finish: ReviewFinish = {
            let cancel = cancel.clone();
            Box::new(move |outcome| {
                if let (Some(outcome), Some(shared)) = (outcome, weak.upgrade()) {
                    shared.update(|s, _| {
                        if let Some(r) = s.review.as_mut().filter(|r| Arc::ptr_eq(&r.cancel, &cancel)) {
                            r.done = r.total;
                            r.outcome = Some(outcome);
                            s.bump();
                        }
                    });
                }
            })
        };
        let job = ReviewJob {
            pgn: self.pgn_text(),
            rules: self.rules(),
            moves: nodes.len(),
            progress,
            finish,
        };
        let total = nodes.len() + 1;
        // The state exists before the host's thread can report on it.
        self.review = Some(Review {
            nodes,
            done: 0,
            total,
            nodes_per_position: 0,
            outcome: None,
            cancel: cancel.clone(),
        });
        match self.host.start_review(job) {
            Ok(per_position) => {
                if let Some(r) = self.review.as_mut() {
                    r.nodes_per_position = per_position;
                }
                self.bump();
                Ok(())
            }
            Err(e) => {
                self.review = None;
                Err(e)
            }
        }
    }

    /// A running review's progress: false (stop) when it is no longer this session's review,
    /// or when the main line changed since it started (its report would be hidden; the review
    /// is then dropped).
    fn review_progress(&mut self, cancel: &Arc<AtomicBool>, done: usize) -> bool {
        let line = self.main_line_moves();
        match self.review.as_mut() {
            Some(r) if Arc::ptr_eq(&r.cancel, cancel) && r.nodes == line => {
                r.done = done;
                self.bump();
                true
            }
            Some(r) if Arc::ptr_eq(&r.cancel, cancel) => {
                self.review = None;
                self.bump();
                false
            }
            _ => false,
        }
    }

    /// Stops and forgets the review (the game changed).
    pub(crate) fn drop_review(&mut self) {
        self.review = None;
    }

    /// A review of the main line in the state given: `done` of `total` positions searched,
    /// `nodes_per_position`, and its outcome if it ended (for tests of the view).
    pub fn settled_review(
        &self,
        done: usize,
        total: usize,
        nodes_per_position: u64,
        outcome: Option<Result<ReviewReport, String>>,
    ) -> Review {
        Review {
            nodes: self.main_line_moves(),
            done,
            total,
            nodes_per_position,
            outcome,
            cancel: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Keeps `review` as the session's game report (as [`PageSession::settled_review`] made it).
    pub fn put_review(&mut self, review: Review) {
        self.review = Some(review);
    }

    /// The last node of the main line.
    pub fn main_line_end(&self) -> usize {
        self.tree.line_end(0)
    }

    /// True while a review is kept (running or finished).
    pub fn has_review(&self) -> bool {
        self.review.is_some()
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
            nodes: r.nodes_per_position,
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
            Some(Ok(report)) => {
                out.state = "done";
                out.moves = Some(
                    r.nodes
                        .iter()
                        .zip(&report.moves)
                        .map(|((node, _), m)| ReviewedMove {
                            node: *node,
                            ..m.clone()
                        })
                        .collect(),
                );
                out.start_cp = Some(report.start_cp);
                out.white = Some(&report.sides[0]);
                out.black = Some(&report.sides[1]);
                out.pgn = Some(report.pgn.as_str());
            }
        }
        Some(out)
    }
}
