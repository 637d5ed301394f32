//! `vorpal-nnue`: training on small synthetic data (loss falls, resume = uninterrupted run,
//! thread count changes nothing), and the binary (the network it writes loads; bad arguments
//! are refused with the usage).

use crate::common::Scratch;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::Path;
use std::process::Command;
use vorpal_engine::nnue::NetFile;
use vorpal_engine::{Color, PieceKind, Position};
use vorpal_tuning::nnue::checkpoint::Checkpoint;
use vorpal_tuning::nnue::data::{load_samples, Sample};
use vorpal_tuning::nnue::train::{TrainConfig, Trainer};

const NNUE: &str = env!("CARGO_BIN_EXE_vorpal-nnue");

/// Material balance from White's view (the synthetic "search score").
fn material(pos: &Position) -> i32 {
    let values = [
        (PieceKind::Pawn, 100),
        (PieceKind::Knight, 300),
        (PieceKind::Bishop, 320),
        (PieceKind::Rook, 500),
        (PieceKind::Queen, 900),
    ];
    values
        .iter()
        .map(|&(k, v)| {
            v * (pos.pieces_both(Color::White, k).count() as i32 - pos.pieces_both(Color::Black, k).count() as i32)
        })
        .sum()
}

/// Data lines from random games: score = material, result = who is ahead.
fn synthetic_lines(games: usize, seed: u64) -> Vec<String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut lines = Vec::new();
    for _ in 0..games {
        let mut pos = Position::startpos();
        for _ in 0..80 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            pos.make_move(mv);
            let score = material(&pos);
            let result = match score {
                s if s >= 100 => "1.0",
                s if s <= -100 => "0.0",
                _ => "0.5",
            };
            lines.push(format!("{} | {score} | {result}", pos.to_fen()));
        }
    }
    lines
}

fn write_data(dir: &Scratch, name: &str, lines: &[String]) -> String {
    let path = dir.path(name);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path.to_string_lossy().into_owned()
}

fn samples(dir: &Scratch, games: usize) -> Vec<Sample> {
    let path = write_data(dir, "data.txt", &synthetic_lines(games, 3));
    let (s, report) = load_samples(&[Path::new(&path)], None).unwrap();
    assert_eq!(report.malformed, 0);
    assert!(s.len() > 1000);
    s
}

fn small_config(epochs: u32) -> TrainConfig {
    TrainConfig {
        hidden: 16,
        epochs,
        batch: 256,
        lr: 0.01,
        seed: 9,
        ..TrainConfig::default()
    }
}

#[test]
fn loss_decreases_on_a_tiny_data_set() {
    let dir = Scratch::new("nnue-loss");
    let data = samples(&dir, 40);
    let mut trainer = Trainer::new(small_config(8), 300.0);
    let before = trainer.loss_of(&data);
    let mut losses = Vec::new();
    trainer.train(&data, &[], None, |r| losses.push(r.train_loss)).unwrap();
    let after = trainer.loss_of(&data);
    assert_eq!(losses.len(), 8);
    assert!(after < 0.5 * before, "loss {before} -> {after}");
    assert!(losses[7] < losses[0], "epoch losses {losses:?}");
}

#[test]
fn resuming_a_checkpoint_ends_where_the_uninterrupted_run_ends() {
    let dir = Scratch::new("nnue-resume");
    let data = samples(&dir, 20);
    let ckpt_dir = dir.path("ckpt");
    let mut whole = Trainer::new(small_config(3), 300.0);
    whole.train(&data, &data[..200], Some(&ckpt_dir), |_| {}).unwrap();
    let bytes = std::fs::read(ckpt_dir.join("epoch-1.ckpt")).unwrap();
    let ck = Checkpoint::from_bytes(&bytes).unwrap();
    assert_eq!(ck.epochs_done, 1);
    // A different seed on the command line is overridden by the checkpoint's.
    let cfg = TrainConfig {
        seed: 12345,
        ..small_config(3)
    };
    let mut resumed = Trainer::resume(cfg, ck).unwrap();
    resumed.train(&data, &data[..200], None, |_| {}).unwrap();
    assert_eq!(resumed.epochs_done, 3);
    assert!(
        resumed.net == whole.net,
        "resumed weights differ from the uninterrupted run's"
    );
    assert_eq!(resumed.adam, whole.adam);
    // The wrong hidden size is refused.
    let ck = Checkpoint::from_bytes(&bytes).unwrap();
    let wrong = TrainConfig {
        hidden: 32,
        ..small_config(3)
    };
    assert!(Trainer::resume(wrong, ck).is_err());
}

#[test]
fn thread_count_does_not_change_the_weights() {
    let dir = Scratch::new("nnue-threads");
    let data = samples(&dir, 20);
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| {
            let mut t = Trainer::new(small_config(2), 300.0);
            t.train(&data, &[], None, |_| {}).unwrap();
            t.net
        })
    };
    assert!(run(1) == run(3));
}

#[test]
fn the_binary_writes_a_network_that_loads() {
    let dir = Scratch::new("nnue-bin");
    let mut lines = synthetic_lines(12, 5);
    lines.insert(10, "this is not a data line".into());
    lines.insert(20, "8/8/8/8/8/8/8/8 w - - 0 1 | 0 | 0.5".into());
    let data = write_data(&dir, "data.txt", &lines);
    let out = dir.arg("out.net");
    let ckpt = dir.arg("ck");
    let output = Command::new(NNUE)
        .args([
            "--data",
            &data,
            "--hidden",
            "32",
            "--epochs",
            "2",
            "--batch",
            "128",
            "--threads",
            "2",
        ])
        .args(["--out", &out, "--checkpoint", &ckpt, "--val-fraction", "0.1"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("2 malformed lines skipped"), "{stdout}");
    assert!(stdout.contains("fitted K = "), "{stdout}");
    assert!(
        stdout.contains("validation loss of the search score itself"),
        "{stdout}"
    );
    assert!(stdout.contains("epoch 2/2: train loss"), "{stdout}");
    assert!(stdout.contains("lowest validation loss "), "{stdout}");
    assert!(stdout.contains("mean |float eval - quantised eval| = "), "{stdout}");
    let net = NetFile::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(net.hidden, 32);
    assert_eq!((net.qa, net.scale), (255, 400));
    // The output weights on the finest power-of-two grid they fit (`quant::output_quantisation`).
    assert!(
        net.qb.is_power_of_two() && (64..=4096).contains(&net.qb),
        "qb {}",
        net.qb
    );
    assert!(net.out_weights.iter().all(|w| w.abs() <= 127));
    assert!(net.text.contains("hidden: 32") && net.text.contains("command: vorpal-nnue --data"));
    assert!(dir.path("ck/epoch-2.ckpt").exists());

    // Resuming the finished run trains nothing more and writes the same network.
    let again = dir.arg("again.net");
    let output = Command::new(NNUE)
        .args(["--data", &data, "--hidden", "32", "--epochs", "2", "--batch", "128"])
        .args([
            "--out",
            &again,
            "--val-fraction",
            "0.1",
            "--resume",
            &dir.arg("ck/epoch-2.ckpt"),
        ])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let net2 = NetFile::from_bytes(&std::fs::read(&again).unwrap()).unwrap();
    assert_eq!(net2.ft_weights, net.ft_weights);
    assert_eq!(net2.out_bias, net.out_bias);
}

#[test]
fn a_closed_stdout_does_not_stop_the_run() {
    let dir = Scratch::new("nnue-pipe");
    let data = write_data(&dir, "data.txt", &synthetic_lines(3, 8));
    let out = dir.arg("out.net");
    let mut child = Command::new(NNUE)
        .args([
            "--data", &data, "--hidden", "16", "--epochs", "2", "--batch", "64", "--out", &out,
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(NetFile::load(Path::new(&out)).unwrap().hidden, 16);
}

#[test]
fn bad_arguments_print_the_usage_and_exit_2() {
    for args in [
        vec![],
        vec!["--data"],
        vec!["--data", "x.txt", "--hidden", "100"],
        vec!["--data", "x.txt", "--epochs", "many"],
        vec!["--data", "x.txt", "--lambda", "2"],
        vec!["--data", "x.txt", "--bogus"],
        vec!["--data", "x.txt", "--lr"],
    ] {
        let output = Command::new(NNUE).args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
    }
    // A missing file is an error of the run, not of the arguments.
    let output = Command::new(NNUE)
        .args(["--data", "/nonexistent/data.txt"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("/nonexistent/data.txt"));
}

/// The trainer's integer evaluation of a sample (`quant::quantised_eval`) is the engine's
/// evaluation of the position, for a trained-then-quantised network with its virtual rows
/// folded in: what the trainer reports as the quantised model is what the engine plays.
#[test]
fn the_engine_evaluates_like_the_trainers_quantised_model() {
    use vorpal_tuning::nnue::model::Network as FloatNet;
    let mut rng = StdRng::seed_from_u64(99);
    let mut float = FloatNet::random(32, &mut rng);
    for w in float.ft_weights.iter_mut() {
        *w += rng.gen_range(-0.05..0.05);
    }
    for b in &mut float.ft_bias {
        *b = rng.gen_range(0.0..0.5);
    }
    let file = vorpal_tuning::nnue::quant::quantise(&float, 400, "test".into());
    let engine = vorpal_engine::nnue::Network::<32>::from_file(file.clone()).unwrap();
    let mut compared = 0;
    for line in synthetic_lines(20, 5) {
        let fen = line.split(" | ").next().unwrap();
        let pos = Position::from_fen(fen, vorpal_engine::Rules::default()).unwrap();
        let sample = Sample::from_position(&pos, 0, 0.5).unwrap();
        let trainer = vorpal_tuning::nnue::quant::quantised_eval(&file, &sample);
        assert_eq!(engine.evaluate_position(&pos), trainer, "{fen}");
        compared += 1;
    }
    assert!(compared > 100, "only {compared} positions");
}
