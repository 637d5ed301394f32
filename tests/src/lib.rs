//! Workspace test crate: shared helpers (reference data, the fuzz models, the tiers) for the
//! integration tests in `tests/tests/it/` and those that run the binary in `protocol/tests/it/`.

#![forbid(unsafe_code)]

pub mod data;
pub mod doc_examples;
pub mod fuzz;
pub mod module_graph;
pub mod reference;
pub mod rules_check;
pub mod tier;
pub mod variant_check;
pub mod variant_data;
pub mod variant_reference;
