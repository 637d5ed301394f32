//! Hash safety (issue 8): threads writing the shared transposition table at once never make
//! the search play, or report, an illegal move.
//!
//! - Lazy SMP with 8 threads and a 1 MB table (entries evicted and overwritten all the time)
//!   searches many positions of every variant back to back without clearing the table, so
//!   moves stored for one position are probed in others: every best move, ponder move and
//!   every move of every reported principal variation must be legal where it is played.
//! - The table itself, hammered by 8 threads with colliding keys: a probe returns an entry
//!   only as it was stored for that key (the check word `key ^ data` rejects torn writes).

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::{AtomicU64, Ordering};
use vorpal_engine::search::tt::{TranspositionTable, TtBound};
use vorpal_engine::search::{Limits, Report, SearchControl, SearchOptions, Searcher, MATE_BOUND};
use vorpal_engine::{bench, BoardId, EnPassant, Game, Move, MoveKind, Position, Rules, Square, Variant};

/// Plays `moves` from `pos`, checking each with `is_legal` and the generator.
fn replay(pos: &Position, moves: &[Move], what: &str) {
    let mut p = *pos;
    for (i, &mv) in moves.iter().enumerate() {
        assert!(
            p.is_legal(mv) && p.legal_moves().contains(&mv),
            "{what}: move {i} ({mv:?}) of {moves:?} is illegal in {} (from {})",
            p.to_fen(),
            pos.to_fen()
        );
        p.make_move(mv);
    }
}

/// Positions of every variant: the bench positions and random walks from each start.
fn positions(count: usize) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(8);
    let mut out = bench::positions();
    while out.len() < count {
        let variant = Variant::ALL[rng.gen_range(0..Variant::ALL.len())];
        let ep = EnPassant::ALL[rng.gen_range(0..3)];
        let mut pos = Position::start(Rules::for_variant(variant).with_ep(ep));
        for _ in 0..rng.gen_range(0..50) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[rng.gen_range(0..moves.len())]);
        }
        if !pos.legal_moves().is_empty() {
            out.push(pos);
        }
    }
    out.truncate(count);
    out
}

#[test]
#[ignore = "full tier: 160 searches with eight threads on a 1 MB table"]
fn lazy_smp_on_a_tiny_table_plays_and_reports_only_legal_moves() {
    let mut searcher = Searcher::new(SearchOptions {
        threads: 8,
        hash_mb: 1,
        ..SearchOptions::default()
    });
    let all = positions(160);
    let mut pvs = 0usize;
    let variants: Vec<Variant> = all.iter().map(|p| p.rules().variant).collect();
    for (i, pos) in all.iter().enumerate() {
        if i % 40 == 20 {
            // Some searches with several lines: more moves stored and reported.
            let options = SearchOptions {
                multipv: if i % 80 == 20 { 3 } else { 1 },
                ..searcher.options().clone()
            };
            searcher.set_options(options).unwrap();
        }
        let game = Game::new(*pos);
        let limits = if i % 2 == 0 {
            Limits::nodes(25_000)
        } else {
            Limits::depth(5)
        };
        let control = SearchControl::new();
        let mut lines = Vec::new();
        let result = searcher.search(&game, &limits, &control, &mut |r| {
            if let Report::Info(info) = r {
                lines.push(info.pv);
            }
        });
        let what = format!("position {i} ({:?})", variants[i]);
        let best = result.best.unwrap_or_else(|| panic!("{what}: no best move"));
        replay(pos, &[best], &what);
        if let Some(ponder) = result.ponder {
            replay(pos, &[best, ponder], &format!("{what}, ponder"));
        }
        for pv in &lines {
            replay(pos, pv, &format!("{what}, pv"));
        }
        pvs += lines.len();
    }
    assert!(pvs > 500, "only {pvs} principal variations reported");
}

/// A well-mixed 64-bit value of `i` (SplitMix64).
fn mix(i: u64) -> u64 {
    let mut z = i.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What every store for `key` writes, except the evaluation (free per store): the move,
/// score, depth and bound, all derived from the key.
fn expected(key: u64) -> (Move, i32, i32, TtBound) {
    let board = |bit: u64| if key >> bit & 1 == 0 { BoardId::A } else { BoardId::B };
    let mv = Move::new(
        Square::new((key & 63) as u8),
        board(6),
        Square::new((key >> 7 & 63) as u8),
        board(13),
        MoveKind::Normal,
        key >> 14 & 1 == 1,
    );
    let score = (key >> 16 & 0x7FFF) as i32 - 0x4000;
    let depth = (key >> 32 & 63) as i32;
    let bound = [TtBound::Upper, TtBound::Lower, TtBound::Exact][(key >> 40) as usize % 3];
    (mv, score, depth, bound)
}

#[test]
fn table_probes_return_only_what_was_stored_for_the_key() {
    // 1 MB: 65,536 entries for 200,000 keys, so buckets overflow and entries are replaced
    // while other threads read them; and 64 hot keys sharing 4 buckets (the bucket is chosen
    // by the key's top bits), so threads write the same entries at the same time. (With the
    // `key ^ data` check removed, the hot keys produced wrong entries, if rarely on 2 cores.)
    let tt = TranspositionTable::new(1).unwrap();
    let keys: Vec<u64> = (0..200_000).map(mix).collect();
    let hot: Vec<u64> = (0..64u64).map(|i| (i % 4) << 62 | mix(i) >> 20).collect();
    let hits = AtomicU64::new(0);
    std::thread::scope(|scope| {
        for t in 0..8u64 {
            let (tt, keys, hot, hits) = (&tt, &keys, &hot, &hits);
            scope.spawn(move || {
                let mut rng = StdRng::seed_from_u64(t);
                let mut found = 0;
                for _ in 0..1_500_000 {
                    let pool = if rng.gen_bool(0.5) { hot } else { keys };
                    let key = pool[rng.gen_range(0..pool.len())];
                    let (mv, score, depth, bound) = expected(key);
                    if rng.gen_bool(0.5) {
                        let eval = rng.gen_range(-30_000..30_000);
                        tt.store(key, 0, mv, score, eval, depth, bound);
                    } else if let Some(e) = tt.probe(key, 0) {
                        found += 1;
                        assert_eq!(
                            (e.mv, e.score, e.depth, e.bound),
                            (mv, score, depth, bound),
                            "probe of {key:#x} returned an entry not stored for it"
                        );
                        assert!((-30_000..30_000).contains(&e.eval), "eval {}", e.eval);
                        assert!(e.score.abs() < MATE_BOUND);
                    }
                }
                hits.fetch_add(found, Ordering::Relaxed);
            });
        }
    });
    let hits = hits.load(Ordering::Relaxed);
    assert!(hits > 100_000, "only {hits} probes found an entry");
}
