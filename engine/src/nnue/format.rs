//! The network file: a versioned little-endian binary with a checksum.
//!
//! ```text
//! magic        8 bytes  "VORPALNN"
//! version      u32      FORMAT_VERSION
//! inputs       u32      1536 (features::INPUTS)
//! hidden       u32      H, a multiple of 16, at most MAX_HIDDEN
//! qa           u32      accumulator quantisation (activation 1.0 = qa)
//! qb           u32      output weight quantisation (weight 1.0 = qb)
//! scale        u32      centipawns per unit of the float output
//! text length  u32      at most MAX_TEXT
//! text         bytes    UTF-8 description (architecture, data, training command)
//! ft weights   i16 x inputs x H   feature-major: the H weights of feature 0, then feature 1...
//! ft biases    i16 x H
//! out weights  i16 x 2H           first the side to move's half, then the other side's
//! out bias     i32                quantised by qa * qb
//! checksum     u64      FNV-1a of every byte before it
//! ```
//!
//! Float semantics (what the trainer optimises): `acc = ft_bias + sum of ft_weights[f]` over the
//! active features of a perspective; `y = out_bias + sum(screlu(acc_stm) * w_stm) +
//! sum(screlu(acc_other) * w_other)` with `screlu(x) = clamp(x, 0, 1)^2`; the evaluation is
//! `y * scale` centipawns from the side to move's view. Quantised: weights and biases of the
//! first layer times `qa`, output weights times `qb`, output bias times `qa * qb`.

use super::features::INPUTS;
use std::fmt;

/// File magic.
pub const MAGIC: &[u8; 8] = b"VORPALNN";
/// Version of the layout above.
pub const FORMAT_VERSION: u32 = 1;
/// Largest hidden layer a file may declare.
pub const MAX_HIDDEN: usize = 2048;
/// Longest description.
pub const MAX_TEXT: usize = 1 << 16;

/// A network's parameters as stored (quantised).
#[derive(Clone, PartialEq, Eq)]
pub struct NetFile {
    /// Hidden neurons per perspective.
    pub hidden: usize,
    /// Accumulator quantisation.
    pub qa: u32,
    /// Output weight quantisation.
    pub qb: u32,
    /// Centipawns per unit of float output.
    pub scale: u32,
    /// Free text: architecture, data, training command, losses.
    pub text: String,
    /// `INPUTS * hidden`, feature-major.
    pub ft_weights: Vec<i16>,
    /// `hidden`.
    pub ft_bias: Vec<i16>,
    /// `2 * hidden`: side to move, then the other side.
    pub out_weights: Vec<i16>,
    /// Output bias, quantised by `qa * qb`.
    pub out_bias: i32,
}

impl fmt::Debug for NetFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "NetFile {{ hidden: {}, qa: {}, qb: {}, scale: {} }}",
            self.hidden, self.qa, self.qb, self.scale
        )
    }
}

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// Not a Vorpal network (magic bytes differ).
    NotANetwork,
    /// A version this build does not read.
    Version(u32),
    /// The file ends before its declared content.
    Truncated { needed: usize, have: usize },
    /// A header field is out of range.
    Header(String),
    /// Bytes after the checksum.
    TrailingBytes(usize),
    /// The checksum does not match the content.
    Checksum,
    /// Reading the file failed.
    Io(String),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::NotANetwork => write!(f, "not a Vorpal network file (bad magic)"),
            NetError::Version(v) => write!(f, "network format version {v}, this build reads {FORMAT_VERSION}"),
            NetError::Truncated { needed, have } => {
                write!(f, "network file truncated: {have} bytes, the header needs {needed}")
            }
            NetError::Header(what) => write!(f, "bad network header: {what}"),
            NetError::TrailingBytes(n) => write!(f, "{n} unexpected bytes after the network's checksum"),
            NetError::Checksum => write!(f, "network checksum mismatch (file damaged)"),
            NetError::Io(e) => write!(f, "cannot read network file: {e}"),
        }
    }
}

impl std::error::Error for NetError {}

/// 64-bit FNV-1a.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

const HEADER: usize = 8 + 4 * 7;

impl NetFile {
    /// Serialises the network (with its checksum).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + self.text.len() + 2 * self.ft_weights.len() + 64);
        out.extend_from_slice(MAGIC);
        for v in [
            FORMAT_VERSION,
            INPUTS as u32,
            self.hidden as u32,
            self.qa,
            self.qb,
            self.scale,
            self.text.len() as u32,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(self.text.as_bytes());
        for w in self.ft_weights.iter().chain(&self.ft_bias).chain(&self.out_weights) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.out_bias.to_le_bytes());
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a network from its bytes, checking magic, version, sizes and checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<NetFile, NetError> {
        if bytes.len() < 8 || &bytes[..8] != MAGIC {
            return Err(NetError::NotANetwork);
        }
        if bytes.len() < HEADER {
            return Err(NetError::Truncated {
                needed: HEADER,
                have: bytes.len(),
            });
        }
        let word = |i: usize| u32::from_le_bytes(bytes[8 + 4 * i..12 + 4 * i].try_into().unwrap());
        let version = word(0);
        if version != FORMAT_VERSION {
            return Err(NetError::Version(version));
        }
        let (inputs, hidden, qa, qb, scale, text_len) = (
            word(1) as usize,
            word(2) as usize,
            word(3),
            word(4),
            word(5),
            word(6) as usize,
        );
        if inputs != INPUTS {
            return Err(NetError::Header(format!("{inputs} inputs, expected {INPUTS}")));
        }
        if hidden == 0 || hidden > MAX_HIDDEN || hidden % 16 != 0 {
            return Err(NetError::Header(format!(
                "hidden size {hidden} (must be a multiple of 16 up to {MAX_HIDDEN})"
            )));
        }
        if !(1..=4096).contains(&qa) || !(1..=4096).contains(&qb) || !(1..=100_000).contains(&scale) {
            return Err(NetError::Header(format!(
                "qa {qa}, qb {qb}, scale {scale} out of range"
            )));
        }
        if text_len > MAX_TEXT {
            return Err(NetError::Header(format!("description of {text_len} bytes")));
        }
        let weights = INPUTS * hidden + hidden + 2 * hidden;
        let needed = HEADER + text_len + 2 * weights + 4 + 8;
        if bytes.len() < needed {
            return Err(NetError::Truncated {
                needed,
                have: bytes.len(),
            });
        }
        if bytes.len() > needed {
            return Err(NetError::TrailingBytes(bytes.len() - needed));
        }
        let stored = u64::from_le_bytes(bytes[needed - 8..].try_into().unwrap());
        if fnv1a(&bytes[..needed - 8]) != stored {
            return Err(NetError::Checksum);
        }
        let text = String::from_utf8(bytes[HEADER..HEADER + text_len].to_vec())
            .map_err(|_| NetError::Header("description is not UTF-8".into()))?;
        let mut at = HEADER + text_len;
        let mut take = |n: usize| -> Vec<i16> {
            let v = bytes[at..at + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * n;
            v
        };
        let ft_weights = take(INPUTS * hidden);
        let ft_bias = take(hidden);
        let out_weights = take(2 * hidden);
        let out_bias = i32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        Ok(NetFile {
            hidden,
            qa,
            qb,
            scale,
            text,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
        })
    }

    /// Reads a network file from disk.
    pub fn load(path: &std::path::Path) -> Result<NetFile, NetError> {
        let bytes = std::fs::read(path).map_err(|e| NetError::Io(format!("{}: {e}", path.display())))?;
        NetFile::from_bytes(&bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> NetFile {
        let hidden = 16;
        NetFile {
            hidden,
            qa: 255,
            qb: 64,
            scale: 400,
            text: "test net".into(),
            ft_weights: (0..INPUTS * hidden).map(|i| (i % 97) as i16 - 48).collect(),
            ft_bias: (0..hidden as i16).collect(),
            out_weights: (0..2 * hidden as i16).map(|i| i - 16).collect(),
            out_bias: -1234,
        }
    }

    #[test]
    fn round_trip() {
        let net = small();
        assert_eq!(NetFile::from_bytes(&net.to_bytes()).unwrap(), net);
    }

    #[test]
    fn damaged_files_are_refused_with_the_reason() {
        let bytes = small().to_bytes();
        assert_eq!(NetFile::from_bytes(b"hello"), Err(NetError::NotANetwork));
        assert!(matches!(
            NetFile::from_bytes(&bytes[..bytes.len() - 9]),
            Err(NetError::Truncated { .. })
        ));
        assert!(matches!(
            NetFile::from_bytes(&bytes[..20]),
            Err(NetError::Truncated { .. })
        ));
        let mut flipped = bytes.clone();
        flipped[200] ^= 1;
        assert_eq!(NetFile::from_bytes(&flipped), Err(NetError::Checksum));
        let mut version = bytes.clone();
        version[8] = 9;
        assert_eq!(NetFile::from_bytes(&version), Err(NetError::Version(9)));
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(NetFile::from_bytes(&longer), Err(NetError::TrailingBytes(1)));
        let mut hidden = bytes;
        hidden[16] = 17;
        assert!(matches!(NetFile::from_bytes(&hidden), Err(NetError::Header(_))));
    }
}
