//! Workspace test crate: shared helpers for the integration tests in `tests/tests/it/` (one test binary).

#![forbid(unsafe_code)]

pub mod data;
pub mod doc_examples;
pub mod fuzz;
pub mod gui_server;
pub mod harness;
pub mod module_graph;
pub mod reference;
pub mod rules_check;
pub mod tier;
pub mod variant_check;
pub mod variant_data;
pub mod variant_reference;
