//! Quantisation of the float network into the engine's [`NetFile`], and the engine's integer
//! evaluation of a sample (to measure what quantisation costs).

use super::data::Sample;
use super::model::Network;
use vorpal_engine::nnue::format::MAX_TEXT;
use vorpal_engine::nnue::{NetFile, INPUTS};

/// Accumulator quantisation: activation 1.0 = 255.
pub const QA: i32 = 255;
/// Output weight quantisation: weight 1.0 = 64.
pub const QB: i32 = 64;

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

/// The network quantised: first-layer weights and biases × QA, output weights × QB (all
/// rounded to the nearest i16, clipped), output bias × QA·QB; `scale` centipawns per unit;
/// the description cut to what the file format allows.
pub fn quantise(net: &Network, scale: u32, text: String) -> NetFile {
    let text = fit_description(text);
    // The engine's rows: the factoriser's virtual rows folded into the real ones.
    let net = &net.folded();
    let qa = QA as f32;
    let qb = QB as f32;
    NetFile {
        hidden: net.hidden,
        qa: QA as u32,
        qb: QB as u32,
        scale,
        text,
        ft_weights: net.ft_weights[..INPUTS * net.hidden]
            .iter()
            .map(|&w| round_i16(w * qa))
            .collect(),
        ft_bias: net.ft_bias.iter().map(|&w| round_i16(w * qa)).collect(),
        out_weights: net.out_weights.iter().map(|&w| round_i16(w * qb)).collect(),
        out_bias: (net.out_bias as f64 * (QA * QB) as f64)
            .round()
            .clamp(i32::MIN as f64, i32::MAX as f64) as i32,
    }
}

/// The engine's integer evaluation of `s` in centipawns, side to move's view: i16
/// accumulators `ft_bias + Σ ft_weights[f]` (wrapping, as SIMD lanes do), `v = clamp(acc, 0,
/// qa)`, `Σ v·v·w` in i32 per perspective, then in i64
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
        let mut part: i32 = 0;
        for (a, w) in acc.iter().zip(weights) {
            let v = (*a as i32).clamp(0, qa);
            part = part.wrapping_add(v * v * *w as i32);
        }
        sum += part as i64;
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
