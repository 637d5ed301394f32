//! Seeded random walks through Alice games (StdRng, fixed seeds), 300,000 plies per test,
//! under each of the three en passant modes (off, normal, double). Games start from the start
//! position or a reference-suite FEN and restart at game end or after 200 plies. Two tests walk
//! the same games.
//!
//! `random_walks_keep_every_invariant` checks, at every ply, for the position and every legal
//! move:
//! - every generated move is unique and `is_legal`; the noisy and quiet generations partition
//!   the full list (noisy = captures and promotions);
//! - `gives_check(m)` equals `after(m).in_check()`, and the child passes `check_consistency`;
//! - when there is no legal move, `game::outcome` says checkmate (in check) or stalemate;
//!
//! and after the chosen move is made (copy-make: the copy kept before the move is the undo):
//! - `check_consistency` is Ok (key, occupancy, mailbox, checkers, two-board invariant);
//! - undo: the kept copy equals the position before the move exactly, and replaying the move
//!   from it gives exactly the same child (make depends on nothing else);
//! - `Position::from_fen(to_fen())` gives an equal position (same FEN, same key, same fields);
//! - at the end of every game, the game is unwound move by move: each earlier position still
//!   generates the move played and replays it to exactly the later position.
//!
//! `random_walks_move_text_round_trips` checks, for every legal move of every position: SAN
//! (`move_to_san`) parses back to the same move (`parse_san`, `parse_move`), and so does the SAN
//! without the board suffix and check marks when no other legal move has the same bare SAN; UCI
//! (`move_to_uci`) and the wide cell form (`move_to_wide`) parse back via `parse_uci`.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use std::collections::HashSet;
use vorpal_engine::game::outcome;
use vorpal_engine::{EnPassant, EndReason, GenType, Move, MoveKind, MoveList, Position, Rules};
use vorpal_tests::data::{perft_cases, tsv_rows};

/// Plies per walk; the walks of one en passant mode are numbered 0..WALKS: the default tier
/// runs the first QUICK_WALKS of them, the full tier the rest.
const PLIES_PER_WALK: usize = 12_500;
const WALKS: u64 = 8;
const QUICK_WALKS: u64 = 2;
/// A game is abandoned (and a new one started) after this many plies.
const MAX_GAME_PLIES: usize = 200;

/// Counters, to show the walks reach the special moves.
#[derive(Default, Debug, Clone, Copy)]
struct Stats {
    plies: usize,
    games: usize,
    moves_checked: usize,
    captures: usize,
    castles: usize,
    promotions: usize,
    en_passant: usize,
    checks: usize,
}

impl std::ops::Add for Stats {
    type Output = Stats;
    fn add(self, o: Stats) -> Stats {
        Stats {
            plies: self.plies + o.plies,
            games: self.games + o.games,
            moves_checked: self.moves_checked + o.moves_checked,
            captures: self.captures + o.captures,
            castles: self.castles + o.castles,
            promotions: self.promotions + o.promotions,
            en_passant: self.en_passant + o.en_passant,
            checks: self.checks + o.checks,
        }
    }
}

/// Start FENs: the start position, every perft.epd FEN and every perft-ep.tsv FEN.
fn start_fens() -> Vec<String> {
    let mut fens = vec![Position::startpos().to_fen()];
    fens.extend(perft_cases().into_iter().map(|c| c.fen));
    fens.extend(tsv_rows("perft-ep.tsv").into_iter().map(|r| r["fen"].clone()));
    fens.sort();
    fens.dedup();
    fens
}

/// The FEN with the board suffix and check marks removed from SAN.
fn strip_san(san: &str) -> String {
    san.trim_end_matches(['+', '#']).trim_end_matches("/A").to_string()
}

/// What a walk checks at every position.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Checks {
    /// Generation, legality, check detection, make, undo and FEN.
    Invariants,
    /// SAN, UCI and wide-form move text round trips.
    Notation,
}

/// Checks the position and all its legal moves (see the module doc). Returns the moves.
fn check_position(pos: &Position, checks: Checks, stats: &mut Stats) -> MoveList {
    let all = pos.legal_moves();
    match checks {
        Checks::Invariants => check_generation(pos, &all),
        Checks::Notation => check_notation(pos, &all),
    }
    stats.moves_checked += all.len();
    all
}

fn check_generation(pos: &Position, all: &MoveList) {
    let fen = pos.to_fen();
    let set: HashSet<Move> = all.iter().copied().collect();
    assert_eq!(set.len(), all.len(), "duplicate moves in {fen}");
    assert_eq!(all.len(), pos.count_legal(), "{fen}");
    let (mut noisy, mut quiet) = (MoveList::new(), MoveList::new());
    pos.generate(GenType::Noisy, &mut noisy);
    pos.generate(GenType::Quiet, &mut quiet);
    assert_eq!(noisy.len() + quiet.len(), all.len(), "noisy + quiet != all in {fen}");
    for &m in &noisy {
        assert!(set.contains(&m) && m.is_noisy(), "noisy {m:?} in {fen}");
    }
    for &m in &quiet {
        assert!(set.contains(&m) && !m.is_noisy(), "quiet {m:?} in {fen}");
        assert!(!noisy.contains(&m), "{m:?} both noisy and quiet in {fen}");
    }
    for &m in all {
        assert!(pos.is_legal(m), "generated {m:?} not is_legal in {fen}");
        let child = pos.after(m);
        assert_eq!(child.check_consistency(), Ok(()), "{fen} {m:?}");
        assert_eq!(pos.gives_check(m), child.in_check(), "gives_check {m:?} in {fen}");
    }
}

fn check_notation(pos: &Position, all: &MoveList) {
    let fen = pos.to_fen();
    // Without the board suffix a SAN can name two moves (h7-h5 landing on B, h6-h5/A).
    let bare_sans: Vec<String> = all.iter().map(|&m| strip_san(&pos.move_to_san(m))).collect();
    for &m in all {
        let san = pos.move_to_san(m);
        assert_eq!(pos.parse_san(&san), Ok(m), "SAN {san} in {fen}");
        let bare = strip_san(&san);
        if bare_sans.iter().filter(|b| **b == bare).count() == 1 {
            assert_eq!(pos.parse_san(&bare), Ok(m), "bare SAN of {san} in {fen}");
        }
        assert_eq!(pos.parse_move(&san), Ok(m), "parse_move {san} in {fen}");
        let uci = pos.move_to_uci(m);
        assert_eq!(pos.parse_uci(&uci), Ok(m), "UCI {uci} in {fen}");
        assert_eq!(pos.parse_move(&uci), Ok(m), "parse_move {uci} in {fen}");
        let wide = pos.move_to_wide(m);
        assert_eq!(pos.parse_uci(&wide), Ok(m), "wide {wide} in {fen}");
    }
}

/// Checks a made move: consistency, undo and the FEN round trip.
fn check_made(before: &Position, undo: &Position, mv: Move, after: &Position) {
    let fen = after.to_fen();
    assert_eq!(after.check_consistency(), Ok(()), "after {mv:?}: {fen}");
    assert_eq!(undo, before, "the kept copy changed");
    assert_eq!(undo.after(mv), *after, "replaying {mv:?} from the undo copy");
    let rules = after.rules();
    let parsed = Position::from_fen(&fen, rules).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!((parsed.to_fen(), parsed.key()), (fen.clone(), after.key()));
    assert_eq!(parsed, *after, "{fen}");
}

/// One walk of `plies` plies under `rules`, seeded by `seed`.
fn walk(seed: u64, rules: Rules, plies: usize, starts: &[String], checks: Checks) -> Stats {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut stats = Stats::default();
    let new_game = |rng: &mut StdRng| {
        let fen = &starts[rng.gen_range(0..starts.len())];
        Position::from_fen(fen, rules).unwrap_or_else(|e| panic!("{fen}: {e}"))
    };
    let mut history = vec![new_game(&mut rng)];
    let mut moves: Vec<Move> = Vec::new();
    while stats.plies < plies {
        let pos = *history.last().expect("a game has a position");
        let legal = check_position(&pos, checks, &mut stats);
        let end = outcome(&pos, &history[..history.len() - 1]);
        if legal.is_empty() {
            let reason = if pos.in_check() {
                EndReason::Checkmate
            } else {
                EndReason::Stalemate
            };
            assert_eq!(end.map(|(_, r)| r), Some(reason), "{}", pos.to_fen());
        }
        if end.is_some() || moves.len() >= MAX_GAME_PLIES {
            if checks == Checks::Invariants {
                unwind(&history, &moves);
            }
            stats.games += 1;
            history = vec![new_game(&mut rng)];
            moves.clear();
            continue;
        }
        // Special moves are rare in random play: take castling or en passant half the time.
        let special: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| m.is_castle() || m.kind() == MoveKind::EnPassant)
            .collect();
        let mv = if !special.is_empty() && rng.gen_bool(0.5) {
            special[rng.gen_range(0..special.len())]
        } else {
            legal[rng.gen_range(0..legal.len())]
        };
        let undo = pos;
        let mut next = pos;
        next.make_move(mv);
        if checks == Checks::Invariants {
            check_made(&pos, &undo, mv, &next);
        }
        stats.plies += 1;
        stats.captures += mv.is_capture() as usize;
        stats.castles += mv.is_castle() as usize;
        stats.promotions += mv.promotion().is_some() as usize;
        stats.en_passant += (mv.kind() == MoveKind::EnPassant) as usize;
        stats.checks += next.in_check() as usize;
        history.push(next);
        moves.push(mv);
    }
    stats
}

/// Takes a game back move by move: each earlier position still regenerates the move that was
/// played, and playing it gives exactly the later position.
fn unwind(history: &[Position], moves: &[Move]) {
    for (i, &mv) in moves.iter().enumerate().rev() {
        let (before, after) = (&history[i], &history[i + 1]);
        assert!(
            before.legal_moves().contains(&mv),
            "{mv:?} no longer legal in {}",
            before.to_fen()
        );
        assert_eq!(before.after(mv), *after);
        assert_eq!(before.key(), before.compute_key());
    }
}

/// Runs WALKS walks per en passant mode on the rayon pool and checks the totals.
/// Runs the walks numbered `walks` in every en passant mode; the minimum counts asserted scale
/// with the number of walks.
fn run_walks(checks: Checks, walks: std::ops::Range<u64>) {
    let starts = start_fens();
    assert!(starts.len() > 30);
    let n = (walks.end - walks.start) as usize;
    let jobs: Vec<(EnPassant, u64)> = EnPassant::ALL
        .into_iter()
        .flat_map(|mode| walks.clone().map(move |i| (mode, i)))
        .collect();
    let results: Vec<(EnPassant, Stats)> = jobs
        .par_iter()
        .map(|&(mode, i)| {
            let seed = 0x5EED_0000 + 100 * mode as u64 + i;
            (
                mode,
                walk(seed, Rules::with_en_passant(mode), PLIES_PER_WALK, &starts, checks),
            )
        })
        .collect();
    let mut total = Stats::default();
    for mode in EnPassant::ALL {
        let s = results
            .iter()
            .filter(|(m, _)| *m == mode)
            .fold(Stats::default(), |a, (_, s)| a + *s);
        eprintln!("{mode}: {s:?}");
        assert!(
            s.games > 12 * n && s.captures > 125 * n && s.checks > 125 * n,
            "{mode}: {s:?}"
        );
        assert!(s.castles > 12 * n && s.promotions > 12 * n, "{mode}: {s:?}");
        match mode {
            EnPassant::Off => assert_eq!(s.en_passant, 0),
            _ => assert!(s.en_passant > 6 * n, "{mode}: the walks never played en passant"),
        }
        total = total + s;
    }
    assert!(total.plies >= 3 * n * PLIES_PER_WALK, "{total:?}");
}

#[test]
fn random_walks_keep_every_invariant() {
    run_walks(Checks::Invariants, 0..QUICK_WALKS);
}

#[test]
#[ignore = "full tier: long random walks"]
fn random_walks_keep_every_invariant_long() {
    run_walks(Checks::Invariants, QUICK_WALKS..WALKS);
}

/// The same walks (same seeds, so the same games), checking the move text of every move.
#[test]
fn random_walks_move_text_round_trips() {
    run_walks(Checks::Notation, 0..QUICK_WALKS);
}

/// The long walks of the full tier, checking the move text of every move.
#[test]
#[ignore = "full tier: long random walks"]
fn random_walks_move_text_round_trips_long() {
    run_walks(Checks::Notation, QUICK_WALKS..WALKS);
}

#[test]
fn san_tells_a_double_step_from_a_single_step_to_the_same_square() {
    // Pawn a2 (A) double-steps to a4 of B (a3 is empty on A); pawn a3 (B) steps to a4 of A.
    // Both are "a4" in chess SAN: the landing-board suffix is what tells them apart.
    let pos = Position::from_fen("4k3/8/8/8/8/|P7/P7/4K3 w - - 0 1", Rules::default()).expect("valid FEN");
    let double = pos.parse_uci("a2a4").expect("a2a4 is legal");
    let single = pos.parse_uci("a3a4").expect("a3a4 is legal");
    assert_eq!(
        (pos.move_to_san(double), pos.move_to_san(single)),
        ("a4".into(), "a4/A".into())
    );
    assert_eq!(pos.parse_san("a4/A"), Ok(single));
    assert_eq!(pos.parse_san("a4/B"), Ok(double));
    assert_eq!(
        pos.parse_san("a4"),
        Ok(double),
        "SAN without suffix is the move that lands on B"
    );
}
