//! Vorpal's tools around the engine, one room each: [`matches`] (the match runner,
//! `vorpal-match`), [`spsa`] (tuning the search parameters by matches, `vorpal-match spsa`),
//! [`datagen`] (self-play training data, `vorpal-datagen`), [`texel`] (tuning the evaluation
//! weights, `vorpal-tune`) and [`nnue`] (training the network, `vorpal-nnue`). [`arena`] is the
//! UCI client, clock, arbiter and PGN that the match runner and the browser GUI play through;
//! [`golden`] the one-dimensional minimiser the Texel tuner and the trainer share.
//!
//! The rooms import downwards only: `spsa` -> `matches` -> `arena`; `texel` and `nnue` ->
//! `datagen` (the data format they read) and `golden`.

// Unsafe code is refused except in one documented place: `arena::engine_child::die_with_parent`, the
// `pre_exec` hook that makes an engine die with the program that started it (Linux).
#![deny(unsafe_code)]

pub mod arena;
pub mod datagen;
pub mod golden;
pub mod matches;
pub mod nnue;
pub mod spsa;
pub mod texel;
