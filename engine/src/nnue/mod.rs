//! Efficiently updated neural evaluation (NNUE) for standard Alice.
//!
//! Architecture: 1,536 sparse inputs per perspective ([`features`]) into a hidden layer of H
//! neurons (one weight set shared by both perspectives), the side to move's accumulator and
//! the other side's concatenated, a squared clipped ReLU, one output. The file layout and the
//! float semantics are in [`format`].

mod accumulator;
mod embedded;
pub mod features;
pub mod format;
mod network;
#[allow(unsafe_code)]
pub mod simd;

pub use accumulator::{AccumulatorStack, FeatureChange};
pub use embedded::{embedded_network, EMBEDDED_NET};
pub use features::{feature_index, INPUTS};
pub use format::{NetError, NetFile, FORMAT_VERSION};
pub use network::{Accumulator, Network, PieceAt, HIDDEN, MAX_EVAL, MAX_QA};
pub use simd::SimdPath;
#[cfg(test)]
mod simd_tests;
#[cfg(test)]
mod tests;
