//! The `vorpal` executable's code as a library: the binary (`main.rs`) only calls [`run`], and
//! the fuzz targets (`tests/fuzz`) reach the parsers of every input door through [`doors`].
//! This crate is the only code that prints.

#![forbid(unsafe_code)]

mod analyze;
mod analyze_args;
mod analyze_json;
mod annotate;
mod arg_values;
mod bot;
mod cli;
mod display;
pub mod doors;
mod format;
mod go;
mod gui;
mod input;
mod options;
mod output;
mod panics;
mod position_words;
mod serve;
mod session;
mod solve;
mod status;
mod tb;
mod uci;
mod worker;
mod xboard;

pub use cli::{init_logging, run};
