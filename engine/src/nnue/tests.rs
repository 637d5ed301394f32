//! Inference tests: incremental updates equal a refresh after random walks (every en passant
//! option, Chess960, castling, promotions), and the quantised evaluation equals a float
//! reference computed from the same weights within a stated tolerance.

use super::*;
use crate::position::Position;
use crate::rules::{EnPassant, Rules, Variant};
use crate::types::{Color, Move, PieceKind};

/// A small deterministic generator (the engine has no `rand` dependency).
pub(super) struct Lcg(pub(super) u64);

impl Lcg {
    pub(super) fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    pub(super) fn range(&mut self, lo: i32, hi: i32) -> i32 {
        lo + (self.next() % (hi - lo + 1) as u64) as i32
    }
}

/// A network with random weights of realistic magnitude.
pub(super) fn random_net(hidden: usize, seed: u64) -> NetFile {
    let mut rng = Lcg(seed);
    NetFile {
        hidden,
        qa: 255,
        qb: 64,
        scale: 400,
        text: "random test network".into(),
        ft_weights: (0..INPUTS * hidden).map(|_| rng.range(-60, 60) as i16).collect(),
        ft_bias: (0..hidden).map(|_| rng.range(-40, 120) as i16).collect(),
        out_weights: (0..2 * hidden).map(|_| rng.range(-127, 127) as i16).collect(),
        out_bias: rng.range(-20_000, 20_000),
    }
}

/// The float model of `format.rs` applied to the quantised weights.
fn float_eval(file: &NetFile, pos: &Position) -> f64 {
    let h = file.hidden;
    let qa = file.qa as f64;
    let mut acc = [vec![0f64; h], vec![0f64; h]];
    for (half, perspective) in Color::BOTH.into_iter().enumerate() {
        for (a, &b) in acc[half].iter_mut().zip(&file.ft_bias) {
            *a = b as f64 / qa;
        }
        for board in BoardId::BOTH {
            for color in Color::BOTH {
                for kind in PieceKind::ALL {
                    for sq in pos.pieces(board, color, kind) {
                        let f = feature_index(perspective, Piece::new(color, kind), board, sq);
                        for (a, &w) in acc[half].iter_mut().zip(&file.ft_weights[f * h..(f + 1) * h]) {
                            *a += w as f64 / qa;
                        }
                    }
                }
            }
        }
    }
    let stm = pos.side_to_move().index();
    let mut y = file.out_bias as f64 / (qa * file.qb as f64);
    for (k, half) in [stm, 1 - stm].into_iter().enumerate() {
        for (a, &w) in acc[half].iter().zip(&file.out_weights[k * h..(k + 1) * h]) {
            let v = a.clamp(0.0, 1.0);
            y += v * v * w as f64 / file.qb as f64;
        }
    }
    y * file.scale as f64
}

use crate::types::{BoardId, Piece};

fn walk_and_check<const H: usize>(
    net: &Network<H>,
    start: Position,
    seed: u64,
    plies: usize,
    evaluate_every: u64,
) -> usize {
    let mut rng = Lcg(seed);
    let mut stack = AccumulatorStack::new(net, plies + 2);
    let mut pos = start;
    stack.set_root(net, &pos);
    let mut checked = 0;
    for ply in 1..=plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        // Prefer the rare move kinds so castling, promotion and en passant are covered.
        let special: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| m.promotion().is_some() || m.kind() != crate::types::MoveKind::Normal)
            .collect();
        let mv = if !special.is_empty() && rng.next().is_multiple_of(2) {
            special[rng.next() as usize % special.len()]
        } else {
            moves[rng.next() as usize % moves.len()]
        };
        stack.enter_move(ply, &pos, mv);
        pos = pos.after(mv);
        // Some plies are skipped so the lazy update applies several changes at once.
        if rng.next().is_multiple_of(evaluate_every) || ply == plies {
            let incremental = stack.evaluate(net, ply, &pos);
            assert_eq!(
                incremental,
                net.evaluate_position(&pos),
                "after {} plies: {}",
                ply,
                pos.to_fen()
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn incremental_updates_equal_a_refresh_after_random_walks() {
    let net = Network::<64>::from_file(random_net(64, 7)).unwrap();
    let mut checked = 0;
    for ep in EnPassant::ALL {
        for seed in 0..12 {
            let rules = Rules::with_en_passant(ep);
            checked += walk_and_check(&net, Position::start(rules), seed * 31 + 1, 120, 1 + seed % 3);
        }
    }
    // Chess960 start positions castle differently.
    for n in [0u32, 77, 518, 959] {
        let rules = Rules::for_variant(Variant::Alice).with_chess960(true);
        let fen = Variant::Alice.chess960_fen(n).unwrap();
        let start = Position::from_fen(&fen, rules).unwrap();
        checked += walk_and_check(&net, start, n as u64 + 5, 120, 2);
    }
    // Castling both ways, promotions with and without capture, en passant on either board.
    for fen in [
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
        "1n2k3/P7/8/8/8/8/7p/4K1N1 w - - 0 1",
        "1n2k3/P7/8/8/8/8/7p/4K1N1 b - - 0 1",
    ] {
        for seed in 0..6 {
            checked += walk_and_check(&net, Position::from_fen(fen, Rules::default()).unwrap(), seed, 40, 1);
        }
    }
    assert!(checked > 1000, "only {checked} evaluations compared");
}

#[test]
fn en_passant_captures_update_like_a_refresh() {
    let net = Network::<32>::from_file(random_net(32, 3)).unwrap();
    for ep in [EnPassant::Normal, EnPassant::Double] {
        let rules = Rules::with_en_passant(ep);
        let mut seen = 0;
        for seed in 0..200 {
            let mut rng = Lcg(seed);
            let mut pos = Position::start(rules);
            let mut stack = AccumulatorStack::new(&net, 80);
            stack.set_root(&net, &pos);
            for ply in 1..70 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let ep_moves: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| m.kind() == crate::types::MoveKind::EnPassant)
                    .collect();
                let mv = if let Some(&m) = ep_moves.first() {
                    seen += 1;
                    m
                } else {
                    moves[rng.next() as usize % moves.len()]
                };
                stack.enter_move(ply, &pos, mv);
                pos = pos.after(mv);
                assert_eq!(
                    stack.evaluate(&net, ply, &pos),
                    net.evaluate_position(&pos),
                    "{}",
                    pos.to_fen()
                );
            }
        }
        assert!(seen > 0, "no en passant capture under {ep:?}");
    }
}

#[test]
fn null_moves_keep_the_accumulator_and_swap_the_view() {
    let net = Network::<32>::from_file(random_net(32, 11)).unwrap();
    let pos = Position::startpos();
    let mut stack = AccumulatorStack::new(&net, 4);
    stack.set_root(&net, &pos);
    let mut passed = pos;
    passed.make_null_move();
    stack.enter_null(1);
    assert_eq!(stack.evaluate(&net, 1, &passed), net.evaluate_position(&passed));
}

/// Tolerance of the integer inference against the float model: the two integer divisions
/// truncate, worth at most 2 cp at scale 400, qa 255, qb 64.
const QUANTISATION_TOLERANCE_CP: f64 = 2.0;

#[test]
fn quantised_evaluation_equals_the_float_model() {
    fn check<const H: usize>(seed: u64) {
        let hidden = H;
        let file = random_net(hidden, seed);
        let net = Network::<H>::from_file(file.clone()).unwrap();
        let mut rng = Lcg(seed);
        let mut pos = Position::startpos();
        let mut worst: f64 = 0.0;
        for _ in 0..60 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.after(moves[rng.next() as usize % moves.len()]);
            let float = float_eval(&file, &pos).clamp(-(MAX_EVAL as f64), MAX_EVAL as f64);
            let int = net.evaluate_position(&pos) as f64;
            worst = worst.max((float - int).abs());
        }
        assert!(worst <= QUANTISATION_TOLERANCE_CP, "hidden {hidden}: off by {worst} cp");
    }
    check::<16>(1);
    check::<64>(2);
    check::<256>(3);
}

#[test]
fn networks_whose_products_could_overflow_are_refused() {
    let mut file = random_net(16, 5);
    file.out_weights[3] = 200;
    assert!(matches!(Network::<16>::from_file(file), Err(NetError::Header(_))));
    let mut file = random_net(16, 5);
    file.qa = MAX_QA + 1;
    file.out_weights.iter_mut().for_each(|w| *w = 0);
    assert!(matches!(Network::<16>::from_file(file), Err(NetError::Header(_))));
}

#[test]
fn a_file_of_another_hidden_size_is_refused() {
    let err = Network::<HIDDEN>::from_file(random_net(HIDDEN * 2, 5)).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "bad network header: hidden size {}, this build's network has {HIDDEN}",
            HIDDEN * 2
        )
    );
}

#[test]
fn embedded_network_loads() {
    let net = embedded_network();
    assert!(net.hidden() >= 16);
    let v = net.evaluate_position(&Position::startpos());
    assert!(v.abs() < 200, "start position evaluates to {v} cp");
}
