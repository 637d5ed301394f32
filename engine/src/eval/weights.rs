//! The evaluation weights, embedded at build time from `engine/data/weights.txt` (which
//! `vorpal-tune` writes); `build.rs` checks the file against `layout.rs` before embedding it.
//! They are the default parameter table.

use super::params::{EvalParams, NUM_PARAMS, S};

include!(concat!(env!("OUT_DIR"), "/weights.rs"));

impl Default for EvalParams {
    fn default() -> Self {
        EvalParams(WEIGHTS.to_vec())
    }
}
