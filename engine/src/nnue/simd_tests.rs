//! Every kernel path gives exactly the portable results: the kernels on random rows (the
//! whole i16 range, several hidden sizes, odd multiples of 16 included), and whole networks
//! along random games, accumulator by accumulator and evaluation by evaluation.

use super::simd::{Kernels, SimdPath};
use super::tests::{random_net, Lcg};
use super::*;
use crate::position::Position;
use crate::rules::{EnPassant, Rules};

/// The paths this processor runs besides the portable one (all of them on an AVX-512
/// machine; none elsewhere, where these tests check only the portable kernels against
/// themselves).
fn vector_paths() -> Vec<SimdPath> {
    let paths: Vec<SimdPath> = SimdPath::ALL
        .into_iter()
        .filter(|&p| p != SimdPath::Portable && p.is_supported())
        .collect();
    eprintln!("vector paths checked against the portable one: {paths:?}");
    paths
}

fn random_row<const H: usize>(rng: &mut Lcg, lo: i32, hi: i32) -> [i16; H] {
    std::array::from_fn(|_| rng.range(lo, hi) as i16)
}

fn kernels_agree<const H: usize>(seed: u64) {
    let portable = Kernels::new(SimdPath::Portable).unwrap();
    let mut rng = Lcg(seed);
    for path in vector_paths() {
        let kernels = Kernels::new(path).unwrap();
        for round in 0..200 {
            // Updates: any number of rows either way, values anywhere in i16 (wrapping).
            let src: [i16; H] = random_row(&mut rng, -32768, 32767);
            let rows: Vec<[i16; H]> = (0..8).map(|_| random_row(&mut rng, -32768, 32767)).collect();
            let (subs, adds) = (round % 4, (round / 4) % 5);
            let sub: Vec<&[i16; H]> = rows[..subs].iter().collect();
            let add: Vec<&[i16; H]> = rows[4..4 + adds].iter().collect();
            let (mut expected, mut got) = ([0i16; H], [0i16; H]);
            portable.update(&mut expected, &src, &sub, &add);
            kernels.update(&mut got, &src, &sub, &add);
            assert_eq!(got, expected, "{path} update, hidden {H}, {subs} removed, {adds} added");

            // Output: activations below 0 and above qa, weights up to the load-time limit.
            let qa = [255, 1, 64, 181, MAX_QA as i32][round % 5];
            let limit = i16::MAX as i32 / qa;
            let [us, them] = [(); 2].map(|_| random_row::<H>(&mut rng, -600, 600));
            let [w_us, w_them] = [(); 2].map(|_| random_row::<H>(&mut rng, -limit, limit));
            assert_eq!(
                kernels.output(&us, &them, &w_us, &w_them, qa as i16),
                portable.output(&us, &them, &w_us, &w_them, qa as i16),
                "{path} output, hidden {H}, qa {qa}"
            );
        }
        // The largest sums the load-time checks allow.
        let qa = MAX_QA as i16;
        let full = [qa; H];
        for w in [i16::MAX / qa, -(i16::MAX / qa)] {
            let weights = [w; H];
            assert_eq!(
                kernels.output(&full, &full, &weights, &weights, qa),
                portable.output(&full, &full, &weights, &weights, qa),
                "{path} extreme output, hidden {H}"
            );
        }
    }
}

#[test]
fn vector_kernels_equal_the_portable_ones_on_random_rows() {
    kernels_agree::<16>(1);
    kernels_agree::<48>(2);
    kernels_agree::<128>(3);
    kernels_agree::<272>(4);
}

/// Plays a random game with a network per path, comparing every accumulator and evaluation.
fn networks_agree<const H: usize>(file: NetFile, seed: u64, rules: Rules) -> usize {
    let portable = Network::<H>::from_file(file)
        .unwrap()
        .with_simd(SimdPath::Portable)
        .unwrap();
    let mut compared = 0;
    for path in vector_paths() {
        let net = portable.with_simd(path).unwrap();
        assert_eq!(net.simd(), path);
        let mut rng = Lcg(seed);
        let (mut a, mut b) = (AccumulatorStack::new(&portable, 130), AccumulatorStack::new(&net, 130));
        let mut pos = Position::start(rules);
        a.set_root(&portable, &pos);
        b.set_root(&net, &pos);
        for ply in 1..120 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.next() as usize % moves.len()];
            a.enter_move(ply, &pos, mv);
            b.enter_move(ply, &pos, mv);
            pos = pos.after(mv);
            // Skipped plies make the stacks apply several moves at once.
            if !rng.next().is_multiple_of(3) {
                let expected = a.evaluate(&portable, ply, &pos);
                assert_eq!(b.evaluate(&net, ply, &pos), expected, "{path}: {}", pos.to_fen());
                assert_eq!(
                    net.evaluate_position(&pos),
                    expected,
                    "{path} refresh: {}",
                    pos.to_fen()
                );
                compared += 1;
            }
        }
    }
    compared
}

#[test]
fn every_path_evaluates_random_games_like_the_portable_one() {
    let mut compared = 0;
    for seed in 0..6 {
        let rules = Rules::with_en_passant(EnPassant::ALL[seed as usize % EnPassant::ALL.len()]);
        compared += networks_agree::<HIDDEN>(random_net(HIDDEN, seed + 40), seed, rules);
        compared += networks_agree::<HIDDEN>(NetFile::from_bytes(EMBEDDED_NET).unwrap(), seed, rules);
        compared += networks_agree::<48>(random_net(48, seed), seed, rules);
    }
    if !vector_paths().is_empty() {
        assert!(compared > 500, "only {compared} evaluations compared");
    }
}

#[test]
fn vorpal_simd_selects_the_path() {
    assert_eq!(SimdPath::requested(Some("portable")), SimdPath::Portable);
    assert_eq!(SimdPath::requested(Some(" Portable ")), SimdPath::Portable);
    assert_eq!(SimdPath::requested(None), SimdPath::automatic());
    assert_eq!(SimdPath::requested(Some("auto")), SimdPath::automatic());
    assert_eq!(SimdPath::requested(Some("sse9")), SimdPath::automatic());
    for path in SimdPath::ALL {
        assert_eq!(SimdPath::parse(path.name()), Some(path));
        let requested = SimdPath::requested(Some(path.name()));
        assert_eq!(requested == path, path.is_supported(), "{path}");
        assert_eq!(Kernels::new(path).is_some(), path.is_supported());
    }
    assert!(SimdPath::automatic().is_supported());
}
