//! Match runner, statistics, data generation and tuning for Vorpal.

pub mod stats;
