//! The UCI text of Vorpal's engine hosts, in one place: the lines every host prints (`info` in
//! Stockfish's field order, `bestmove`, `option`, `perft`, `bench`; [`format`]) and the reading
//! of what a GUI sends (`go` as search limits, [`go`]; `position` as a game, [`position_words`];
//! `setoption` as a checked change, [`options`]). The `vorpal` binary (its UCI and CECP
//! sessions, `analyze`, `solve`) and the WebAssembly engine (`protocol/wasm`) both use it, so the
//! two hosts print and read alike. Nothing here prints or keeps state.

#![forbid(unsafe_code)]

pub mod format;
pub mod go;
pub mod options;
pub mod position_words;
