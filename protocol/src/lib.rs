//! The `vorpal` executable's code as a library: the binary (`main.rs`) only calls [`run`], and
//! the fuzz targets (`tests/fuzz`) reach the parsers of every input door through [`doors`].
//! This crate is the only code that prints.

#![forbid(unsafe_code)]

mod analyze;
mod annotate;
mod arg_values;
mod bot;
mod cli;
pub mod doors;
mod gui;
pub mod popeye;
mod solve;
mod status;
mod tb;
mod uci;
mod xboard;

pub use cli::{init_logging, run};
