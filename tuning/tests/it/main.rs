//! The tuning crate's integration tests as one test binary, a module per suite:
//! `cargo test -p vorpal-tuning --test it <module>::`.

mod common;
mod datagen;
mod datagen_packed;
mod held_out;
mod match_arbiter;
mod match_fake;
mod match_real;
mod match_real_variants;
mod match_variants;
mod nnue;
mod packed;
mod texel;
