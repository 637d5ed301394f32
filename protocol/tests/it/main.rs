//! The tests that run the `vorpal` binary (UCI, CECP, the command line, `vorpal gui` over
//! HTTP, the solver, the tables, `annotate`, the documented examples) as one test binary, a
//! module per suite: `cargo test -p vorpal --test it <module>::`. They live in the package that
//! owns the binary, so Cargo builds it for them (`CARGO_BIN_EXE_vorpal`, see
//! [`support::harness::vorpal_binary`]).

mod support;

mod annotate;
mod doc_examples;
mod fuzz_uci;
mod gui_security;
mod gui_tablebase;
mod popeye;
mod protocol_abuse;
mod protocol_cli;
mod protocol_cli_errors;
mod protocol_clients;
mod protocol_docs;
mod protocol_errors;
mod protocol_evalfile;
mod protocol_extensions;
mod protocol_uci;
mod protocol_variants;
mod protocol_xboard;
mod solve;
mod solve_popeye;
mod tablebase;
#[cfg(feature = "long-tier")]
mod tablebase_long;
