//! `vorpal-nnue`: training the engine's network on datagen positions.
//!
//! [`data`] loads positions into compact samples and holds out validation blocks; [`model`]
//! is the float network with its gradient; [`optim`] the AdamW step; [`train`] the K fit,
//! schedule and epoch loop; [`checkpoint`] the float checkpoints; [`quant`] the export to
//! the engine's `NetFile` and the engine's integer evaluation; [`cli`] the run of the command
//! line ([`args`]) and [`compare`] the comparison of networks.

pub mod args;
pub mod checkpoint;
pub mod cli;
pub mod compare;
pub mod data;
pub mod model;
pub mod optim;
pub mod quant;
pub mod train;
