//! Vorpal's tools around the engine, one room each: [`matches`] (the match runner,
//! `vorpal-match`), [`spsa`] (tuning the search parameters by matches, `vorpal-match spsa`),
//! [`datagen`] (self-play training data, `vorpal-datagen`), [`texel`] (tuning the evaluation
//! weights, `vorpal-tune`) and [`nnue`] (training the network, `vorpal-nnue`); [`golden`] is
//! the one-dimensional minimiser the Texel tuner and the trainer share, [`arg_values`] the
//! value parsers of the tools' command lines (clap). The UCI client, clock,
//! arbiter and PGN the match runner plays through are the `vorpal-client` crate's.
//!
//! The rooms import downwards only: `spsa` -> `matches` (-> `vorpal_client`); `texel` and
//! `nnue` -> `datagen` (the data format they read) and `golden`.

#![forbid(unsafe_code)]

pub mod arg_values;
pub mod datagen;
pub mod golden;
pub mod matches;
pub mod nnue;
pub mod spsa;
pub mod texel;
