//! Float checkpoints: the network, the optimiser state and where training stands, in a small
//! versioned little-endian binary with an FNV-1a checksum.
//!
//! ```text
//! magic      8 bytes "VORPALCK"
//! version    u32     CHECKPOINT_VERSION
//! hidden     u32
//! epochs     u32     epochs completed
//! step       u64     optimiser steps taken
//! seed       u64     the run's seed
//! k          f32     sigmoid scale of the run
//! params     f32 ×3  network, Adam m, Adam v (each: ft weights, ft bias, out weights, out bias)
//! checksum   u64     FNV-1a of every byte before it
//! ```

use super::model::Network;
use super::model::TRAIN_INPUTS;
use super::optim::AdamState;
use vorpal_engine::nnue::format::fnv1a;
use vorpal_engine::nnue::format::MAX_HIDDEN;

/// Magic bytes of a checkpoint.
pub const CHECKPOINT_MAGIC: &[u8; 8] = b"VORPALCK";
/// Version of the layout above.
pub const CHECKPOINT_VERSION: u32 = 2;

/// Everything needed to continue a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// Epochs completed.
    pub epochs_done: u32,
    /// Seed of the run (shuffling of later epochs depends on it).
    pub seed: u64,
    /// Sigmoid scale the run uses.
    pub k: f32,
    /// The float network.
    pub net: Network,
    /// The optimiser state.
    pub adam: AdamState,
}

fn push_net(out: &mut Vec<u8>, net: &Network) {
    for w in net.ft_weights.iter().chain(&net.ft_bias).chain(&net.out_weights) {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out.extend_from_slice(&net.out_bias.to_le_bytes());
}

const HEADER: usize = 8 + 4 + 4 + 4 + 8 + 8 + 4;

impl Checkpoint {
    /// Serialises the checkpoint with its checksum.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + 12 * self.net.len() + 8);
        out.extend_from_slice(CHECKPOINT_MAGIC);
        out.extend_from_slice(&CHECKPOINT_VERSION.to_le_bytes());
        out.extend_from_slice(&(self.net.hidden as u32).to_le_bytes());
        out.extend_from_slice(&self.epochs_done.to_le_bytes());
        out.extend_from_slice(&self.adam.step.to_le_bytes());
        out.extend_from_slice(&self.seed.to_le_bytes());
        out.extend_from_slice(&self.k.to_le_bytes());
        for net in [&self.net, &self.adam.m, &self.adam.v] {
            push_net(&mut out, net);
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a checkpoint, checking magic, version, size and checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, String> {
        if bytes.len() < HEADER || &bytes[..8] != CHECKPOINT_MAGIC {
            return Err("not a vorpal-nnue checkpoint".into());
        }
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap());
        let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap());
        let version = u32_at(8);
        if version != CHECKPOINT_VERSION {
            return Err(format!(
                "checkpoint version {version}, this build reads {CHECKPOINT_VERSION}"
            ));
        }
        let hidden = u32_at(12) as usize;
        if hidden == 0 || hidden > MAX_HIDDEN {
            return Err(format!("checkpoint hidden size {hidden} out of range"));
        }
        let params = TRAIN_INPUTS * hidden + 3 * hidden + 1;
        let needed = HEADER + 3 * 4 * params + 8;
        if bytes.len() != needed {
            return Err(format!("checkpoint has {} bytes, expected {needed}", bytes.len()));
        }
        if fnv1a(&bytes[..needed - 8]) != u64_at(needed - 8) {
            return Err("checkpoint checksum mismatch (file damaged)".into());
        }
        let epochs_done = u32_at(16);
        let step = u64_at(20);
        let seed = u64_at(28);
        let k = f32::from_le_bytes(bytes[36..40].try_into().unwrap());
        let mut at = HEADER;
        let mut take = |n: usize| -> Vec<f32> {
            let v = bytes[at..at + 4 * n]
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            at += 4 * n;
            v
        };
        let mut nets = Vec::with_capacity(3);
        for _ in 0..3 {
            let ft_weights = take(TRAIN_INPUTS * hidden);
            let ft_bias = take(hidden);
            let out_weights = take(2 * hidden);
            let out_bias = take(1)[0];
            nets.push(Network {
                hidden,
                ft_weights,
                ft_bias,
                out_weights,
                out_bias,
            });
        }
        let v = nets.pop().unwrap();
        let m = nets.pop().unwrap();
        let net = nets.pop().unwrap();
        Ok(Checkpoint {
            epochs_done,
            seed,
            k,
            net,
            adam: AdamState { m, v, step },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    #[test]
    fn round_trip_and_damage() {
        let mut rng = StdRng::seed_from_u64(1);
        let mut adam = AdamState::new(16);
        adam.step = 77;
        adam.m.out_bias = 0.5;
        let ck = Checkpoint {
            epochs_done: 3,
            seed: 42,
            k: 321.5,
            net: Network::random(16, &mut rng),
            adam,
        };
        let bytes = ck.to_bytes();
        assert_eq!(Checkpoint::from_bytes(&bytes).unwrap(), ck);
        let mut bad = bytes.clone();
        bad[100] ^= 4;
        assert!(Checkpoint::from_bytes(&bad).unwrap_err().contains("checksum"));
        assert!(Checkpoint::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(Checkpoint::from_bytes(b"VORPALNN").is_err());
    }
}
