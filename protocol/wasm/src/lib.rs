//! Vorpal as WebAssembly, for a browser's Web Worker or node: a UCI engine that searches in
//! slices ([`UciEngine`]: the host feeds it command lines and calls [`UciEngine::step`]
//! between its own events, so `stop` is heard without threads or SharedArrayBuffer) and the
//! rules of Alice chess for a page ([`rules::query`]: legal moves, SAN and UCI, FEN checks,
//! game end, perft).
//!
//! The text every UCI host prints (`info`, `bestmove`, `option` lines, `perft`, `bench`) and
//! the reading of `go`, `position` and `setoption` come from the `vorpal-uci-text` crate that the
//! `vorpal` binary uses too, so the two hosts cannot drift apart. The
//! exports a JavaScript host calls are in `ffi.rs` (WebAssembly only); `js/` holds the
//! package's JavaScript and `build.sh` builds it.

// `unsafe` only in the WebAssembly exports (`ffi`), where JavaScript hands back the
// engine's address.
#![deny(unsafe_code)]

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
mod ffi;
pub mod gui;
pub mod rules;
mod uci_engine;

pub use uci_engine::{Step, UciEngine, SLICE};
