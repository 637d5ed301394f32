//! Independent counting paths for perft: every position of `perft.epd` (and the en passant
//! positions of `perft-ep.tsv` under their modes) counted to depth 3
//! (a) with the generator (`perft::perft`), and
//! (b) by brute force: at every node every move encoding is tried — each from square on each
//!     board holding a piece of the side to move, × every to square × either landing board ×
//!     every `MoveKind` × capture flag — through `Move::new` and `is_legal`, and the count
//!     recurses on the accepted encodings only.
//!
//! Both must equal the reference counts. Cells without a piece of the side to move are skipped
//! by (b) for speed, after `is_legal` has been shown to reject encodings from them: all of them at
//! the root and depth 1 (`is_legal_rejects_every_encoding_from_cells_without_own_piece`) and a
//! sample at every node of (b).
//!
//! (c) the search's staged move picker (hash move, killers, captures by SEE, quiets, bad
//! captures) must yield every legal move exactly once.

use rayon::prelude::*;
use vorpal_engine::search::MovePicker;
use vorpal_engine::{perft, BoardId, EnPassant, Move, Position, Rules, Square};
use vorpal_tests::data::{perft_cases, tsv_rows};
use vorpal_tests::rules_check::KINDS;

/// Depth of every count in this file.
const DEPTH: u32 = 3;

/// A move source: the legal moves of a position, found some way.
type MoveSource = dyn Fn(&Position) -> Vec<Move> + Sync;

/// Leaf count `depth` plies below `pos`, expanding each node with the moves `source` gives.
/// This is the hook for every counting path (the search's move picker included).
fn count_with(pos: &Position, depth: u32, source: &MoveSource) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = source(pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| count_with(&pos.after(mv), depth - 1, source))
        .sum()
}

/// The generator's moves.
fn generator_moves(pos: &Position) -> Vec<Move> {
    pos.legal_moves().into_iter().collect()
}

/// Every encoding from `from` on `board`.
fn encodings_from(from: Square, board: BoardId) -> impl Iterator<Item = Move> {
    Square::all().flat_map(move |to| {
        BoardId::BOTH.into_iter().flat_map(move |tb| {
            KINDS
                .into_iter()
                .flat_map(move |kind| [false, true].map(|cap| Move::new(from, board, to, tb, kind, cap)))
        })
    })
}

/// True when `board`/`sq` holds a piece of the side to move.
fn own_piece(pos: &Position, board: BoardId, sq: Square) -> bool {
    pos.piece_on(board, sq).is_some_and(|p| p.color() == pos.side_to_move())
}

/// Brute force: every encoding from every cell holding a piece of the side to move, kept when
/// `is_legal` accepts it. From the other cells a sample of encodings (one to square, every kind,
/// both landing boards, both capture flags) must be rejected.
fn brute_force_moves(pos: &Position) -> Vec<Move> {
    let mut legal = Vec::new();
    for board in BoardId::BOTH {
        for from in Square::all() {
            if own_piece(pos, board, from) {
                legal.extend(encodings_from(from, board).filter(|&mv| pos.is_legal(mv)));
            } else {
                let to = Square::new(((from.index() * 37 + 11) % 64) as u8);
                for tb in BoardId::BOTH {
                    for kind in KINDS {
                        for cap in [false, true] {
                            let mv = Move::new(from, board, to, tb, kind, cap);
                            assert!(!pos.is_legal(mv), "{mv:?} accepted in {}", pos.to_fen());
                        }
                    }
                }
            }
        }
    }
    legal
}

/// Brute force, also asserting move-by-move agreement with the generator at every node (so a
/// difference names the node and the moves, not just a count).
fn brute_force_checked(pos: &Position) -> Vec<Move> {
    let mut brute = brute_force_moves(pos);
    let mut generated = generator_moves(pos);
    brute.sort_by_key(|m| m.raw());
    generated.sort_by_key(|m| m.raw());
    if brute != generated {
        let only_brute: Vec<_> = brute.iter().filter(|m| !generated.contains(m)).collect();
        let only_gen: Vec<_> = generated.iter().filter(|m| !brute.contains(m)).collect();
        panic!(
            "{}: is_legal-only {only_brute:?}, generator-only {only_gen:?}",
            pos.to_fen()
        );
    }
    brute
}

/// The counting paths compared with the reference (path (a), `perft::perft`, is run directly).
fn counting_paths() -> Vec<(&'static str, Box<MoveSource>)> {
    #[allow(unused_mut)]
    let mut paths: Vec<(&'static str, Box<MoveSource>)> = vec![
        ("generator via count_with", Box::new(generator_moves)),
        ("brute force is_legal", Box::new(brute_force_checked)),
    ];
    // Third path: the search's staged move picker, given a hash move and killers taken from
    // the legal list (quiet and noisy ones) plus an illegal encoding, which it must skip.
    paths.push((
        "search move picker",
        Box::new(|pos: &Position| {
            let legal = pos.legal_moves();
            let pick = |i: usize| legal.get(i).copied().unwrap_or(Move::NONE);
            let garbage = Move::from_raw(0x0000_1234);
            let tt = pick(legal.len() / 2);
            let moves = MovePicker::all_moves(pos, tt, [pick(legal.len() / 3), garbage]);
            let mut seen = std::collections::HashSet::new();
            assert!(
                moves.iter().all(|m| seen.insert(*m)),
                "picker repeated a move in {}",
                pos.to_fen()
            );
            moves
        }),
    ));
    paths
}

/// (name, FEN, rules, expected count at DEPTH) for every reference position.
fn cases() -> Vec<(String, String, Rules, u64)> {
    let mut out = Vec::new();
    for case in perft_cases() {
        let expected = case
            .counts
            .iter()
            .find(|(d, _)| *d == DEPTH)
            .expect("a depth-3 count")
            .1;
        out.push((case.name, case.fen, Rules::default(), expected));
    }
    assert!(out.len() >= 22);
    for row in tsv_rows("perft-ep.tsv") {
        if row["depth"] == DEPTH.to_string() {
            let mode: EnPassant = row["mode"].parse().expect("mode");
            let name = format!("{} ({mode})", row["name"]);
            out.push((
                name,
                row["fen"].clone(),
                Rules::with_en_passant(mode),
                row["nodes"].parse().expect("nodes"),
            ));
        }
    }
    out
}

#[test]
#[ignore = "full tier: every counting path (brute force included) on every reference position"]
fn every_counting_path_gives_the_reference_counts() {
    let cases = cases();
    assert!(cases.len() > 40);
    let paths = counting_paths();
    cases.par_iter().for_each(|(name, fen, rules, expected)| {
        let pos = Position::from_fen(fen, *rules).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(perft::perft(&pos, DEPTH), *expected, "{name}: perft::perft");
        for (path, source) in &paths {
            // Split the root so the slow brute-force path uses every core.
            let root = source(&pos);
            let total: u64 = root
                .par_iter()
                .map(|&mv| count_with(&pos.after(mv), DEPTH - 1, source.as_ref()))
                .sum();
            assert_eq!(total, *expected, "{name}: {path}: {fen}");
        }
    });
}

#[test]
fn is_legal_rejects_every_encoding_from_cells_without_own_piece() {
    for (name, fen, rules, _) in cases() {
        let pos = Position::from_fen(&fen, rules).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut nodes = vec![pos];
        nodes.extend(pos.legal_moves().iter().map(|&mv| pos.after(mv)));
        for node in &nodes {
            for board in BoardId::BOTH {
                for from in Square::all().filter(|&sq| !own_piece(node, board, sq)) {
                    for mv in encodings_from(from, board) {
                        assert!(!node.is_legal(mv), "{name}: {mv:?} accepted in {}", node.to_fen());
                    }
                }
            }
        }
    }
}

#[test]
fn is_legal_rejects_the_none_move_and_garbage_raw_encodings() {
    let pos = Position::startpos();
    assert!(!pos.is_legal(Move::NONE));
    // `Move::from_raw` may be handed garbage (e.g. from a hash table): `is_legal` must not panic
    // on any 21-bit value, and must accept only values that decode to a generated move. (Board
    // fields are 2 bits wide; values 2 and 3 decode to board B, so such a value is accepted as
    // the move it decodes to.)
    let legal = generator_moves(&pos);
    for raw in 0..1u32 << 21 {
        let mv = Move::from_raw(raw);
        if pos.is_legal(mv) {
            let decoded = Move::new(
                mv.from(),
                mv.from_board(),
                mv.to(),
                mv.to_board(),
                mv.kind(),
                mv.is_capture(),
            );
            assert!(legal.contains(&decoded), "{raw:#x} = {mv:?}");
        }
    }
}
