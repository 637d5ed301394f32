//! Quantisation of the float network into the engine's [`NetFile`], and the engine's integer
//! evaluation of a sample (to measure what quantisation costs).

use super::data::Sample;
use super::model::Network;
use vorpal_engine::nnue::format::MAX_TEXT;
use vorpal_engine::nnue::simd::OUTPUT_CHUNK;
use vorpal_engine::nnue::{NetFile, INPUTS};

/// Accumulator quantisation: activation 1.0 = 255.
pub const QA: i32 = 255;
/// The coarsest output weight quantisation: weight 1.0 = 64 (what
/// [`super::model::OUT_WEIGHT_LIMIT`] was chosen for).
pub const QB: i32 = 64;
/// The finest output weight quantisation a file may use (the format's own bound).
pub const MAX_QB: i32 = 4096;

/// The output weight quantisation of `net`: the largest power of two from [`QB`] up to
/// [`MAX_QB`] at which every output weight still rounds into ±127 (the engine's bound,
/// `qa · |w| ≤ 32767`). Trained output weights are small (|w| about 0.3 at most), so a fixed 64
/// kept only about 20 levels of them and cost 20 cp of rounding a position; 256 keeps 4 times
/// as many (measured in `engine/data/vorpal.nnue.md`).
pub fn output_quantisation(net: &Network) -> i32 {
    let largest = net.out_weights.iter().fold(0.0f32, |m, w| m.max(w.abs()));
    let mut qb = QB;
    while qb < MAX_QB && (largest * (2 * qb) as f32).round() <= 127.0 {
        qb *= 2;
    }
    qb
}

fn round_i16(x: f32) -> i16 {
    x.round().clamp(i16::MIN as f32, i16::MAX as f32) as i16
}

/// `text` cut to the longest description a network file may hold (at a character boundary).
fn fit_description(mut text: String) -> String {
    if text.len() > MAX_TEXT {
        let mut end = MAX_TEXT;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
    }
    text
}

/// The network quantised: first-layer weights and biases × QA, output weights × qb (all
/// rounded to the nearest i16, clipped; qb from [`output_quantisation`]), output bias × QA·qb;
/// `scale` centipawns per unit; the description cut to what the file format allows.
pub fn quantise(net: &Network, scale: u32, text: String) -> NetFile {
    let text = fit_description(text);
    // The engine's rows: the factoriser's virtual rows folded into the real ones.
    let net = &net.folded();
    let qb_int = output_quantisation(net);
    let qa = QA as f32;
    let qb = qb_int as f32;
    NetFile {
        hidden: net.hidden,
        qa: QA as u32,
        qb: qb_int as u32,
        scale,
        text,
        ft_weights: net.ft_weights[..INPUTS * net.hidden]
            .iter()
            .map(|&w| round_i16(w * qa))
            .collect(),
        ft_bias: net.ft_bias.iter().map(|&w| round_i16(w * qa)).collect(),
        out_weights: net.out_weights.iter().map(|&w| round_i16(w * qb)).collect(),
        out_bias: (net.out_bias as f64 * (QA * qb_int) as f64)
            .round()
            .clamp(i32::MIN as f64, i32::MAX as f64) as i32,
    }
}

/// The engine's integer evaluation of `s` in centipawns, side to move's view: i16
/// accumulators `ft_bias + Σ ft_weights[f]` (wrapping, as SIMD lanes do), `v = clamp(acc, 0,
/// qa)`, `Σ v·v·w` in i32 per chunk of 128 neurons (the engine's `OUTPUT_CHUNK`: a wider
/// layer could pass 2^31 in one sum), then in i64
/// `(sum / qa + out_bias) · scale / (qa · qb)` (truncating divisions).
pub fn quantised_eval(net: &NetFile, s: &Sample) -> i32 {
    let h = net.hidden;
    debug_assert_eq!(net.ft_weights.len(), INPUTS * h);
    let qa = net.qa as i32;
    let mut acc = vec![0i16; h];
    let mut sum: i64 = 0;
    for (side, perspective) in [s.stm(), 1 - s.stm()].into_iter().enumerate() {
        acc.copy_from_slice(&net.ft_bias);
        for &f in s.active(perspective).iter() {
            let row = &net.ft_weights[f as usize * h..(f as usize + 1) * h];
            for (a, w) in acc.iter_mut().zip(row) {
                *a = a.wrapping_add(*w);
            }
        }
        let weights = &net.out_weights[side * h..(side + 1) * h];
        for (a, w) in acc.chunks(OUTPUT_CHUNK).zip(weights.chunks(OUTPUT_CHUNK)) {
            let mut part: i32 = 0;
            for (a, w) in a.iter().zip(w) {
                let v = (*a as i32).clamp(0, qa);
                part = part.wrapping_add(v * v * *w as i32);
            }
            sum += part as i64;
        }
    }
    let out = (sum / qa as i64 + net.out_bias as i64) * net.scale as i64 / (qa as i64 * net.qb as i64);
    out as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use vorpal_engine::{Position, Rules};

    const FENS: [&str; 4] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppp1ppp/8/4|p3/4|P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
        "4k3/8/8/8/8/8/3|Q4/4K3 b - - 0 1",
        "r3k2r/ppp2ppp/2n|b1n2/3|q4/3|Q4/2N|B1N2/PPP2PPP/R3K2R w KQkq - 0 1",
    ];

    /// Random weights spread over the live range of the accumulators and output weights.
    fn random_net(rng: &mut StdRng) -> Network {
        let mut net = Network::random(32, rng);
        for w in &mut net.ft_weights {
            *w = rng.gen_range(-0.15..0.15);
        }
        for b in &mut net.ft_bias {
            *b = rng.gen_range(-0.2..0.6);
        }
        for w in &mut net.out_weights {
            *w = rng.gen_range(-0.5..0.5);
        }
        net.out_bias = 0.37;
        net
    }

    /// Largest |float eval - quantised eval| in centipawns over the test positions.
    fn max_diff(net: &Network) -> f32 {
        let file = quantise(net, 400, String::new());
        FENS.iter()
            .map(|fen| {
                let pos = Position::from_fen(fen, Rules::default()).unwrap();
                let s = Sample::from_position(&pos, 0, 0.5).unwrap();
                (net.eval_cp(&s, 400.0) - quantised_eval(&file, &s) as f32).abs()
            })
            .fold(0.0, f32::max)
    }

    /// With every weight on the quantisation grid the integer eval is the float eval up to
    /// the two truncating divisions (under 1 cp each).
    #[test]
    fn quantised_eval_is_the_float_eval_on_grid_weights() {
        let mut rng = StdRng::seed_from_u64(11);
        let mut net = random_net(&mut rng);
        let snap = |x: &mut f32, q: f32| *x = (*x * q).round() / q;
        for w in net.ft_weights.iter_mut().chain(&mut net.ft_bias) {
            snap(w, QA as f32);
        }
        for w in &mut net.out_weights {
            snap(w, QB as f32);
        }
        snap(&mut net.out_bias, (QA * QB) as f32);
        let d = max_diff(&net);
        assert!(d <= 2.0, "grid weights: float and quantised differ by {d} cp");
    }

    /// Off-grid random weights: rounding moves each accumulator by about 0.0065 (33 terms of
    /// ±1/510), which through 64 neurons with output weights of ±0.5 and 400 cp per unit is an
    /// eval error of about 5 cp standard deviation; allowed: 25 cp (5 sigma).
    #[test]
    fn quantised_eval_follows_the_float_eval_on_random_weights() {
        let mut rng = StdRng::seed_from_u64(12);
        for _ in 0..5 {
            let net = random_net(&mut rng);
            let d = max_diff(&net);
            assert!(d <= 25.0, "random weights: float and quantised differ by {d} cp");
        }
    }

    /// The output weights get the finest power-of-two grid that still stores them in ±127, and
    /// the finer grid is what makes small trained weights evaluate closer to the float model.
    #[test]
    fn output_quantisation_is_the_finest_grid_the_weights_fit() {
        let mut net = Network::zeros(16);
        let with_largest = |net: &mut Network, w: f32| {
            net.out_weights[3] = w;
            output_quantisation(net)
        };
        assert_eq!(with_largest(&mut net, 1.9), 64);
        assert_eq!(with_largest(&mut net, -0.9), 128);
        assert_eq!(with_largest(&mut net, 0.3), 256);
        assert_eq!(with_largest(&mut net, 0.0), MAX_QB);
        let mut rng = StdRng::seed_from_u64(13);
        let mut small = random_net(&mut rng);
        for w in &mut small.out_weights {
            *w *= 0.5;
        }
        assert_eq!(quantise(&small, 400, String::new()).qb, 256);
        let fine = max_diff(&small);
        assert!(
            fine <= 8.0,
            "small output weights on the finer grid differ by {fine} cp"
        );
    }

    #[test]
    fn quantisation_scales_and_rounds() {
        let mut net = Network::zeros(16);
        net.ft_weights[5] = 0.5;
        net.ft_bias[2] = -0.1;
        net.out_weights[31] = -1.0;
        net.out_bias = 0.25;
        let f = quantise(&net, 400, "x".into());
        assert_eq!(f.ft_weights[5], 128);
        assert_eq!(f.ft_bias[2], -26);
        assert_eq!(f.out_weights[31], -64);
        assert_eq!(f.out_bias, 4080);
        assert_eq!((f.qa, f.qb, f.scale, f.hidden), (255, 64, 400, 16));
        let long = quantise(&net, 400, "é".repeat(MAX_TEXT));
        assert!(long.text.len() <= MAX_TEXT && long.text.len() > MAX_TEXT - 2);
        assert!(NetFile::from_bytes(&long.to_bytes()).is_ok());
    }
}
