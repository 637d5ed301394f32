//! Match runner, statistics, data generation and tuning for Vorpal.

// Unsafe code is refused except in one documented place: `engine_child::die_with_parent`, the
// `pre_exec` hook that makes an engine die with the program that started it (Linux).
#![deny(unsafe_code)]

pub mod adjudication;
pub mod arbiter;
pub mod cli;
pub mod datagen;
pub mod datagen_progress;
pub mod datagen_sink;
pub mod datagen_tools;
pub mod elo_report;
pub mod engine_child;
pub mod engine_output;
pub mod engine_process;
pub mod gameplay;
pub mod golden;
pub mod matchrunner;
pub mod merge;
pub mod nnue;
pub mod openings;
pub mod output;
pub mod packed;
pub mod pgn;
pub mod results;
pub mod schedule;
pub mod spsa;
pub mod spsa_cli;
pub mod stats;
pub mod texel;
pub mod timecontrol;
pub mod variant_tag;
