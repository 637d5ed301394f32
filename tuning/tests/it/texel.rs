//! Texel tuner: the sparse linear model equals `evaluate`, the gradient is right, tuning lowers
//! the loss, and the weights file it writes has the engine's layout and parses back.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::io::Write;
use vorpal_engine::eval::params::GROUPS;
use vorpal_engine::eval::{evaluate, evaluate_traced, CoefficientTrace, EvalParams, NUM_PARAMS, S};
use vorpal_engine::{Color, Move, Position};
use vorpal_tuning::texel::{self, Dataset, TuneConfig};

/// Positions from seeded random games.
fn random_positions(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Position::startpos();
        for _ in 0..rng.gen_range(4..120) {
            let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
            let Some(&mv) = moves.choose(&mut rng) else { break };
            pos = pos.after(mv);
            if rng.gen_bool(0.1) && out.len() < count {
                out.push(pos);
            }
        }
    }
    out
}

fn white_eval(pos: &Position, params: &EvalParams) -> i32 {
    let v = evaluate(pos, params);
    if pos.side_to_move() == Color::White {
        v
    } else {
        -v
    }
}

fn perturbed(seed: u64, spread: i32) -> EvalParams {
    let mut rng = StdRng::seed_from_u64(seed);
    EvalParams(
        EvalParams::default()
            .0
            .iter()
            .map(|s| {
                S(
                    s.0 + rng.gen_range(-spread..=spread),
                    s.1 + rng.gen_range(-spread..=spread),
                )
            })
            .collect(),
    )
}

/// Traces `positions` into a data set with the given results.
fn dataset(positions: &[Position], results: impl Fn(usize) -> f64) -> Dataset {
    let params = EvalParams::default();
    let mut data = Dataset::new();
    for (i, pos) in positions.iter().enumerate() {
        let mut trace = CoefficientTrace::default();
        evaluate_traced(pos, &params, &mut trace);
        data.push(&trace, 0, results(i));
    }
    data
}

#[test]
fn sparse_model_reproduces_evaluate() {
    let positions = random_positions(3000, 1);
    let data = dataset(&positions, |_| 0.5);
    for params in [EvalParams::default(), perturbed(2, 80), perturbed(3, 400)] {
        let theta = texel::to_theta(&params.0);
        for (i, pos) in positions.iter().enumerate() {
            let engine = white_eval(pos, &params);
            assert_eq!(data.eval_int(i, &params.0), engine, "{}", pos.to_fen());
            assert!((data.eval_f(i, &theta) - engine as f64).abs() < 1.0, "{}", pos.to_fen());
        }
    }
}

#[test]
fn load_checks_linearity_and_skips_bad_lines() {
    let dir = std::env::temp_dir().join(format!("vorpal-texel-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("data.txt");
    let mut file = std::fs::File::create(&path).unwrap();
    let positions = random_positions(500, 4);
    for (i, pos) in positions.iter().enumerate() {
        writeln!(
            file,
            "{} | {} | {}",
            pos.to_fen(),
            i as i32 - 250,
            ["0.0", "0.5", "1.0"][i % 3]
        )
        .unwrap();
    }
    writeln!(file, "not a position | 1 | 1.0").unwrap();
    writeln!(file, "# a comment").unwrap();
    drop(file);
    let params = EvalParams::default();
    let (data, report) = texel::load(&[path.as_path()], &params, None).unwrap();
    assert_eq!((data.len(), report.checked, report.bad_lines), (500, 500, 1));
    assert_eq!(report.max_int_diff, 0, "the sparse model equals evaluate");
    assert!(report.max_float_diff < 1.0);
    assert_eq!(data.result(4), 0.5);
    for (i, pos) in positions.iter().enumerate() {
        assert_eq!(data.eval_int(i, &params.0), white_eval(pos, &params));
    }
    let (limited, _) = texel::load(&[path.as_path()], &params, Some(100)).unwrap();
    assert_eq!(limited.len(), 100);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn gradient_matches_finite_differences() {
    let positions = random_positions(400, 5);
    let data = dataset(&positions, |i| [0.0, 0.5, 1.0][i % 3]);
    let theta = texel::to_theta(&EvalParams::default().0);
    let k = 0.004;
    for lambda in [1.0, 0.5] {
        let (loss, grad) = texel::gradient(&data, 0..data.len(), &theta, k, lambda);
        assert!((loss - texel::loss(&data, 0..data.len(), &theta, k, lambda)).abs() < 1e-12);
        let active = data.active(0..data.len());
        let checked: Vec<usize> = (0..NUM_PARAMS).filter(|&p| active[p]).step_by(7).collect();
        assert!(checked.len() > 20);
        for p in checked {
            for j in 0..2 {
                let h = 0.01;
                let mut plus = theta.clone();
                plus[p][j] += h;
                let mut minus = theta.clone();
                minus[p][j] -= h;
                let numeric = (texel::loss(&data, 0..data.len(), &plus, k, lambda)
                    - texel::loss(&data, 0..data.len(), &minus, k, lambda))
                    / (2.0 * h);
                let analytic = grad[p][j];
                assert!(
                    (numeric - analytic).abs() <= 1e-6 * analytic.abs().max(1e-4),
                    "param {p}/{j}: numeric {numeric} analytic {analytic}"
                );
            }
        }
    }
}

#[test]
fn tuning_lowers_the_loss_on_synthetic_data() {
    // Soft results from a logistic model of a "true" evaluation that values pieces otherwise.
    let positions = random_positions(4000, 6);
    let mut truth = EvalParams::default();
    for (kind, value) in [(1, 420), (2, 260), (3, 600), (4, 800)] {
        truth.0[kind] = S(value, value);
    }
    let results: Vec<f64> = positions
        .iter()
        .map(|pos| texel::sigmoid(0.006 * white_eval(pos, &truth) as f64))
        .collect();
    let data = dataset(&positions, |i| results[i]);
    let init = EvalParams::default().0;
    let cfg = TuneConfig {
        epochs: 300,
        lr: 2.0,
        holdout: 0.2,
        report_every: 0,
        ..TuneConfig::default()
    };
    let result = texel::tune(&data, &init, &cfg, &mut |_, _, _| {});
    assert!(result.k > 1e-4 && result.k < 0.05, "K = {}", result.k);
    assert!(
        result.train_after < result.train_before * 0.1,
        "{} -> {}",
        result.train_before,
        result.train_after
    );
    let (val_before, val_after) = result.validation.unwrap();
    assert!(val_after < val_before * 0.5, "validation {val_before} -> {val_after}");
    // Frozen parameters (king material, pawns on the back ranks) keep their values.
    assert!(result.frozen > 0);
    assert_eq!(result.params[5], init[5], "king material untouched");
    // The knight, undervalued by the starting weights, gains.
    assert!(result.params[1].0 + result.params[1].1 > init[1].0 + init[1].1);
    // Given K is used as is.
    let fixed = texel::tune(
        &data,
        &init,
        &TuneConfig {
            k: Some(0.005),
            epochs: 1,
            ..cfg
        },
        &mut |_, _, _| {},
    );
    assert_eq!(fixed.k, 0.005);
}

#[test]
fn fitted_k_recovers_the_generating_scale() {
    let positions = random_positions(6000, 9);
    let params = EvalParams::default();
    let mut rng = StdRng::seed_from_u64(10);
    let results: Vec<f64> = positions
        .iter()
        .map(|pos| {
            let e = white_eval(pos, &params) as f64;
            if rng.gen_bool(texel::sigmoid(0.004 * e)) {
                1.0
            } else {
                0.0
            }
        })
        .collect();
    let data = dataset(&positions, |i| results[i]);
    let k = texel::fit_k(&data, 0..data.len(), &params.0, 1.0, 1e-4, 0.05);
    assert!((k - 0.004).abs() < 0.001, "K = {k}");
}

#[test]
fn weights_file_has_the_engine_layout_and_parses_back() {
    let engine_file = include_str!("../../../engine/data/weights.txt");
    let default = EvalParams::default().0;
    // The engine's embedded table is the data file's, and writing it again gives the file.
    assert_eq!(texel::parse_weights(engine_file).unwrap(), default);
    let note = engine_file
        .lines()
        .next()
        .unwrap()
        .trim_start_matches("# Evaluation weights: ");
    assert_eq!(texel::weights_text(&default, note), engine_file);

    // A tuner output file round-trips through the disk and the parser.
    let changed = perturbed(11, 30).0;
    let text = texel::weights_text(&changed, "test note");
    assert!(text.starts_with("# Evaluation weights: test note\n"));
    assert_eq!(text.lines().filter(|l| l.starts_with('[')).count(), GROUPS.len());
    assert_eq!(
        text.lines().count(),
        engine_file.lines().count(),
        "same layout, other numbers"
    );
    let dir = std::env::temp_dir().join(format!("vorpal-texel-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("weights.txt");
    std::fs::write(&path, &text).unwrap();
    let back = texel::parse_weights(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(back, changed);
    std::fs::remove_dir_all(&dir).unwrap();
    // Wrong files are refused with the reason.
    let err = texel::parse_weights("[Material]\n1 2\n").unwrap_err();
    assert!(err.contains("groups in the file"), "{err}");
    let truncated = text
        .replacen("80 112, ", "", 1)
        .replacen(&format!("{} {}, ", changed[0].0, changed[0].1), "", 1);
    let err = texel::parse_weights(&truncated).unwrap_err();
    assert_eq!(err, "group 'Material' has 5 weights, the evaluation expects 6");
}

#[test]
fn holdout_blocks_go_to_the_end() {
    let positions = random_positions(64, 12);
    let data = dataset(&positions, |i| i as f64 / 100.0);
    let (split, n_val) = data.holdout_split(0.25, 4);
    // 16 blocks of 4, every 4th held out: blocks 3, 7, 11 and 15 go to the end in order.
    assert_eq!((split.len(), n_val), (64, 16));
    let order: Vec<usize> = (0..64).map(|i| (split.result(i) * 100.0).round() as usize).collect();
    let held: Vec<usize> = (12..16).chain(28..32).chain(44..48).chain(60..64).collect();
    assert_eq!(&order[48..], &held[..]);
    assert!(order[..48].iter().all(|i| !held.contains(i)));
    for (new, &old) in order.iter().enumerate() {
        assert_eq!(split.coefficients(new), data.coefficients(old));
        assert_eq!(split.phase(new), data.phase(old));
    }
    let (same, none) = data.holdout_split(0.0, 4);
    assert_eq!((same.len(), none), (64, 0));
}
