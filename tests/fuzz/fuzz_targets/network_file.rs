//! Network files (`EvalFile`): any bytes are refused with a reason or give a network that
//! evaluates positions. Half the inputs get a correct checksum and a valid header built from
//! their first bytes, so the fuzzer reaches the sizes, the text and the weights.
#![no_main]
use libfuzzer_sys::fuzz_target;
use vorpal_engine::nnue::format::{fnv1a, FORMAT_VERSION};
use vorpal_engine::nnue::{Network, HIDDEN, INPUTS};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let mut bytes = Vec::new();
    if mode & 1 == 1 {
        // A header that passes, the weights cycled from the input, then the checksum.
        let take = |i: usize| rest.get(i).copied().unwrap_or(0) as u32;
        let text_len = take(0) % 40;
        bytes.extend_from_slice(b"VORPALNN");
        let hidden = if mode & 2 == 0 {
            HIDDEN as u32
        } else {
            16 * (1 + take(1) % 4)
        };
        for v in [
            FORMAT_VERSION,
            INPUTS as u32,
            hidden,
            1 + take(2) * 3,
            1 + take(3) * 5,
            1 + take(4) * 7,
            text_len,
        ] {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        bytes.extend(std::iter::repeat_n(b'n', text_len as usize));
        let weights = 2 * (INPUTS * hidden as usize + hidden as usize + 2 * hidden as usize) + 4;
        let fill: Vec<u8> = if rest.len() > 5 { rest[5..].to_vec() } else { vec![0] };
        bytes.extend((0..weights).map(|i| fill[i % fill.len()]));
        if mode & 4 == 4 {
            bytes.extend_from_slice(&rest[..rest.len().min(5)]);
        }
    } else {
        bytes.extend_from_slice(rest);
    }
    if mode & 8 == 0 {
        let sum = fnv1a(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
    }
    if let Ok(net) = Network::<HIDDEN>::from_bytes(&bytes) {
        for fen in vorpal_fuzz_targets::FENS {
            let pos = vorpal_engine::Position::from_fen(fen, Default::default()).expect("FEN");
            let _ = net.evaluate_position(&pos);
        }
    }
});
