//! Workspace test crate: shared helpers for the integration tests in `tests/tests/`.

pub mod data;
pub mod reference;
pub mod rules_check;
