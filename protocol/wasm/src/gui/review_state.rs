//! The browser build keeps no game report (see [`super::review`]): a session's `review` slot
//! is always empty here.

/// A review never made in the browser build (no value of it exists).
pub enum Review {}
