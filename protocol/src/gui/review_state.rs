//! What a session keeps of its game review: the state that `review` (which runs the review on
//! a thread and reads it out for the page) updates. Kept apart so that the session can hold a
//! review without importing the module that drives it.

use crate::annotate::GameReview;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A review of the main line, running or finished. Dropping it stops the search.
pub struct Review {
    /// The main line's nodes (after the root) and their moves (wide UCI) when it started.
    pub(super) nodes: Vec<(usize, String)>,
    /// Positions searched so far and in all.
    pub(super) done: usize,
    pub(super) total: usize,
    /// The finished review with its annotated PGN, or why it failed.
    pub(super) outcome: Option<Result<(GameReview, String), String>>,
    /// Set to stop the search.
    pub(super) cancel: Arc<AtomicBool>,
}

impl Drop for Review {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::SeqCst);
    }
}
