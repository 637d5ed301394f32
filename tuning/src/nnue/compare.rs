//! `vorpal-nnue compare`: the loss of networks and of the hand-crafted evaluation on one set of
//! labelled positions, the measure by which a new network is accepted (docs/nnue.md, "Choosing
//! a network"). Give it a held-out set relabelled by deeper searches than any candidate was
//! trained on (`vorpal-datagen relabel`), so that no candidate is scored against its own
//! teacher.
//!
//! Every predictor is scored the same way: `p = σ(eval_stm / K)` against the target
//! `λ·σ(score_stm / K) + (1 − λ)·result_stm`, squared error averaged over the positions, with
//! one `K` for all (fitted on these positions' scores and results unless `--k` is given). The
//! networks are evaluated with the engine's integer inference (the quantised file as the
//! engine plays it), the hand-crafted evaluation statically, as in training's baseline.

use super::data::{load_samples, Sample};
use super::model::LossConfig;
use super::quant::quantised_eval;
use super::train::{fit_k, hand_crafted_loss, mean_loss, score_loss};
use std::path::{Path, PathBuf};
use vorpal_engine::nnue::{NetFile, EMBEDDED_NET};

/// What to compare (read from the command line by [`super::args`]).
#[derive(Clone, Debug, Default)]
pub struct CompareOptions {
    /// Data files.
    pub data: Vec<PathBuf>,
    /// Network files (`builtin` for the embedded network).
    pub nets: Vec<String>,
    /// A fixed `K`, or None to fit it.
    pub k: Option<f64>,
    /// Weight of the search score in the target.
    pub lambda: f32,
    /// Read at most this many positions.
    pub max_positions: Option<usize>,
}

/// The losses on one set.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Positions scored.
    pub positions: usize,
    /// The sigmoid scale used.
    pub k: f64,
    /// The loss of the labels' own scores (the floor no evaluation can pass).
    pub floor: f64,
    /// The hand-crafted static evaluation's loss.
    pub hand_crafted: f64,
    /// Each network's loss, in the order given.
    pub nets: Vec<(String, f64)>,
}

/// The network file named `name` (`builtin`: the engine's own), checked like any other.
pub fn load_net(name: &str) -> Result<NetFile, String> {
    if name == "builtin" {
        return NetFile::from_bytes(EMBEDDED_NET).map_err(|e| format!("the built-in network: {e}"));
    }
    NetFile::load(Path::new(name)).map_err(|e| format!("{name}: {e}"))
}

/// The mean loss of `net` (integer inference) over `samples`.
pub fn net_loss(net: &NetFile, samples: &[Sample], cfg: &LossConfig) -> f64 {
    mean_loss(samples, cfg, |s| quantised_eval(net, s) as f32)
}

/// Scores the hand-crafted evaluation and each of `nets` on `samples` with one `K`.
pub fn compare(samples: &[Sample], nets: &[(String, NetFile)], k: Option<f64>, lambda: f32) -> Comparison {
    let k = k.unwrap_or_else(|| fit_k(samples));
    let cfg = LossConfig {
        scale: 400.0,
        k: k as f32,
        lambda,
        hce_prior: 0.0,
    };
    Comparison {
        positions: samples.len(),
        k,
        floor: score_loss(samples, &cfg),
        hand_crafted: hand_crafted_loss(samples, &cfg),
        nets: nets
            .iter()
            .map(|(name, net)| (name.clone(), net_loss(net, samples, &cfg)))
            .collect(),
    }
}

/// Runs `vorpal-nnue compare`: loads everything first (a bad file stops the run before any
/// work), then prints the losses.
pub fn run_compare(o: &CompareOptions, say: &mut dyn FnMut(&str)) -> Result<Comparison, String> {
    let nets: Vec<(String, NetFile)> = o
        .nets
        .iter()
        .map(|name| load_net(name).map(|net| (name.clone(), net)))
        .collect::<Result<_, _>>()?;
    let paths: Vec<&Path> = o.data.iter().map(PathBuf::as_path).collect();
    let (samples, _) = load_samples(&paths, o.max_positions).map_err(|e| e.to_string())?;
    if samples.is_empty() {
        return Err("no positions in the data".into());
    }
    let c = compare(&samples, &nets, o.k, o.lambda);
    say(&format!(
        "{} positions, K = {:.2} cp, lambda {}",
        c.positions, c.k, o.lambda
    ));
    say(&format!("  the labels' own scores (floor)   {:.6}", c.floor));
    say(&format!("  hand-crafted evaluation          {:.6}", c.hand_crafted));
    for (name, loss) in &c.nets {
        let verdict = if *loss < c.hand_crafted { "below" } else { "not below" };
        say(&format!(
            "  {name:<32} {loss:.6} ({verdict} the hand-crafted evaluation's)"
        ));
    }
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use vorpal_engine::{Position, Rules};

    fn samples() -> Vec<Sample> {
        let fens = [
            (
                "rnbqkbnr/pppp1ppp/8/4|p3/4|P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
                30,
                0.5,
            ),
            ("4k3/8/8/8/8/8/3|Q4/4K3 b - - 0 1", 900, 1.0),
            ("4k3/8/8/8/8/8/3|q4/4K3 w - - 0 1", -850, 0.0),
            (
                "r3k2r/ppp2ppp/2n|b1n2/3|q4/3|Q4/2N|B1N2/PPP2PPP/R3K2R w KQkq - 0 1",
                -20,
                0.5,
            ),
        ];
        fens.iter()
            .map(|&(f, score, result)| {
                Sample::from_position(&Position::from_fen(f, Rules::default()).unwrap(), score, result).unwrap()
            })
            .collect()
    }

    /// The losses are the definitions written out: the network's through the engine's own
    /// integer evaluation, the hand-crafted one as training's baseline, with one K.
    #[test]
    fn losses_follow_their_definitions() {
        let s = samples();
        let builtin = load_net("builtin").unwrap();
        let c = compare(&s, &[("builtin".into(), builtin.clone())], Some(200.0), 0.75);
        let sig = |x: f64| 1.0 / (1.0 + (-x / 200.0).exp());
        let mut net_sum = 0.0;
        let mut hce_sum = 0.0;
        for x in &s {
            let target = 0.75 * sig(x.score_stm() as f64) + 0.25 * x.result_stm() as f64;
            net_sum += (sig(quantised_eval(&builtin, x) as f64) - target).powi(2);
            hce_sum += (sig(x.hce_stm as f64) - target).powi(2);
        }
        assert!((c.nets[0].1 - net_sum / 4.0).abs() < 1e-6, "{c:?}");
        assert!((c.hand_crafted - hce_sum / 4.0).abs() < 1e-6, "{c:?}");
        assert!(c.floor <= c.hand_crafted && c.floor >= 0.0);
        // Without --k, K is fitted on the positions themselves.
        assert_eq!(compare(&s, &[], None, 0.75).k, fit_k(&s));
    }

    #[test]
    fn a_damaged_or_missing_network_is_refused_by_name() {
        let path = std::env::temp_dir().join(format!("vorpal-compare-bad-{}.nnue", std::process::id()));
        let mut bytes = EMBEDDED_NET.to_vec();
        let mid = bytes.len() / 2;
        bytes[mid] ^= 0x55;
        std::fs::write(&path, &bytes).unwrap();
        let err = load_net(path.to_str().unwrap()).unwrap_err();
        assert!(
            err.contains(path.to_str().unwrap()) && err.contains("checksum"),
            "{err}"
        );
        assert!(load_net("/nonexistent/net.nnue")
            .unwrap_err()
            .contains("/nonexistent/net.nnue"));
        std::fs::remove_file(&path).unwrap();
    }
}
