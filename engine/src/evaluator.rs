//! The one evaluation choice of the engine: the network where a net exists for the variant
//! (standard Alice), the hand-crafted evaluation elsewhere. The hand-crafted evaluation stays
//! available for the `eval` breakdown and the Texel tuner.

use crate::eval::{self, EvalParams};
use crate::nnue::Network;
use crate::position::Position;
use std::sync::Arc;

/// What the search evaluates with.
#[derive(Clone, Debug)]
pub struct Evaluator {
    /// Weights of the hand-crafted evaluation.
    pub params: EvalParams,
    /// The network, if one is in use.
    net: Option<Arc<Network>>,
}

/// The default: the built-in network with the default hand-crafted weights.
impl Default for Evaluator {
    fn default() -> Self {
        Evaluator::with_network(EvalParams::default(), crate::nnue::embedded_network())
    }
}

impl Evaluator {
    /// The hand-crafted evaluation only.
    pub fn hand_crafted(params: EvalParams) -> Evaluator {
        Evaluator { params, net: None }
    }

    /// The network where it applies, the hand-crafted evaluation elsewhere.
    pub fn with_network(params: EvalParams, net: Arc<Network>) -> Evaluator {
        Evaluator { params, net: Some(net) }
    }

    /// The network if it evaluates `pos` (its variant has a net).
    #[inline]
    pub fn network_for(&self, pos: &Position) -> Option<&Network> {
        self.net.as_deref().filter(|_| Network::applies_to(pos))
    }

    /// Static evaluation in centipawns from the side to move's view (a full network refresh,
    /// for callers outside the search).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        match self.network_for(pos) {
            Some(net) => net.evaluate_position(pos),
            None => eval::evaluate(pos, &self.params),
        }
    }
}
