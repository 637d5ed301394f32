//! The evaluation weights, embedded at build time from `engine/data/weights.txt` (which
//! `vorpal-tune` writes); `build.rs` checks the file against `layout.rs` before embedding it.

use super::params::{NUM_PARAMS, S};

include!(concat!(env!("OUT_DIR"), "/weights.rs"));
