//! The workspace's integration tests of the engine and the workspace as one test binary (one
//! link on a 2-core machine instead of one per file), a module per suite:
//! `cargo test -p vorpal-tests --test it <module>::`. The tests that run the `vorpal` binary
//! live in `protocol/tests/it/`, where Cargo builds the binary for them.

mod argument_parsing;
mod counting_paths;
mod doc_references;
mod eval_terms;
mod fen;
mod fuzz_short;
mod hash_safety;
mod mates;
mod module_graph;
mod perft_suite;
mod protocol_modules;
mod reference_generator;
mod rules;
mod rules_en_passant;
mod search;
mod variants_notation;
mod variants_perft;
mod variants_rules_960_ep;
mod variants_rules_lg_lady;
mod variants_rules_mini_alice3;
mod variants_rules_odonohue_duo;
mod variants_search;
mod variants_walks;
mod walks;
