//! Perft (move-path enumeration) with bulk counting at the last ply, and a parallel variant.

use crate::position::Position;
use crate::types::{Move, MoveList};
use rayon::prelude::*;

/// Number of leaf nodes `depth` plies below `pos`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal() as u64,
        _ => {
            let mut list = MoveList::new();
            pos.generate(crate::GenType::All, &mut list);
            list.iter().map(|&mv| perft(&pos.after(mv), depth - 1)).sum()
        }
    }
}

/// Per-root-move counts (`divide`), in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .into_iter()
        .map(|mv| (mv, perft(&pos.after(mv), depth.saturating_sub(1))))
        .collect()
}

/// Perft using every rayon worker thread (splits the work two plies below the root).
pub fn perft_parallel(pos: &Position, depth: u32) -> u64 {
    if depth <= 2 {
        return perft(pos, depth);
    }
    let mut children = Vec::new();
    for mv in pos.legal_moves() {
        let child = pos.after(mv);
        for reply in child.legal_moves() {
            children.push(child.after(reply));
        }
    }
    children.par_iter().map(|p| perft(p, depth - 2)).sum()
}

/// Parallel `divide`: per-root-move counts computed on the rayon pool.
pub fn divide_parallel(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
    moves
        .into_par_iter()
        .map(|mv| (mv, perft(&pos.after(mv), depth.saturating_sub(1))))
        .collect()
}
