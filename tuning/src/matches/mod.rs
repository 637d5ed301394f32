//! The match runner, run by the `vorpal-match` binary: engines play each other under the
//! client crate's arbiter ([`vorpal_client::arbiter`]) and the results are reported with Elo and SPRT.
//!
//! [`cli`] is the command line (a match, `openings`, `merge`); [`schedule`] orders the games
//! and splits them into shards; [`openings`] reads and generates opening books;
//! [`matchrunner`] runs the games on worker threads and [`gameplay`] plays one game, with
//! [`adjudication`] ending games early; [`output`] writes the PGN and results files,
//! [`results`] reads and tallies them and [`merge`] combines shards; [`stats`] holds the Elo
//! and SPRT statistics and [`elo_report`] what a report may say about strength.

pub mod adjudication;
pub mod args;
pub mod cli;
pub mod elo_report;
pub mod gameplay;
pub mod matchrunner;
pub mod merge;
pub mod openings;
pub mod output;
pub mod results;
pub mod schedule;
pub mod stats;
