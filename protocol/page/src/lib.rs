//! The page of `vorpal gui`, whatever hosts it: one game per page (the move tree with its
//! variations, notation, PGN import and export, settings, clocks, engines and their lines, the
//! game report's state), the commands the page sends and the views it gets back, and the files
//! of the page itself. Two programs host it: `vorpal gui`'s HTTP server (engines are processes
//! driven by threads, the report runs on a server thread) and the WebAssembly module of the
//! static site (engines are Web Workers). What a host provides is the [`host::PageHost`] trait;
//! nothing here speaks HTTP, starts a thread or a process.

#![forbid(unsafe_code)]

pub mod assets;
pub mod commands;
pub mod engine_talk;
pub mod host;
pub mod lines;
pub mod notation;
pub mod pgn_file;
pub mod pgn_io;
pub mod requests;
pub mod review;
pub mod session;
pub mod settings;
pub mod tree;
pub mod view;

#[cfg(test)]
mod test_host;

#[cfg(test)]
mod golden;
