//! The network built into the binary: `engine/data/vorpal.nnue`, with its recipe (architecture,
//! data, training command, losses, match result) in `engine/data/vorpal.nnue.md`.

use super::network::Network;
use std::sync::Arc;

/// The bytes of the default network file.
pub const EMBEDDED_NET: &[u8] = include_bytes!("../../data/vorpal.nnue");

/// The default network. The file is checked like any other (`embedded_network_loads` tests it).
pub fn embedded_network() -> Arc<Network> {
    Arc::new(Network::from_bytes(EMBEDDED_NET).expect("engine/data/vorpal.nnue is a valid network"))
}
