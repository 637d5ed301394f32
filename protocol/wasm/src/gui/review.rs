//! The game report in the browser build: not offered. `vorpal gui` runs it on a server
//! thread with the engine in process; here the page's own thread would freeze for its
//! minutes, so the command is refused with the reason and the view never carries a report.

use super::session::{PageSession, Shared};
use serde::Serialize;
use std::marker::PhantomData;
use std::sync::Arc;

/// The report's part of the view: never present in the browser build.
#[derive(Debug, Serialize)]
pub struct ReviewView<'a>(PhantomData<&'a ()>);

impl PageSession {
    /// Refuses the game report, saying where it is.
    pub fn start_review(&mut self, _shared: &Arc<Shared>) -> Result<(), String> {
        Err("the game report is not in the browser build yet: it runs in `vorpal gui`".into())
    }

    /// Nothing to stop.
    pub(super) fn drop_review(&mut self) {
        self.review = None;
    }

    /// No report.
    pub fn review_view(&self) -> Option<ReviewView<'_>> {
        None
    }
}
