//! The per-thread accumulator stack of the search, indexed by ply and updated lazily.
//!
//! The position is copy-make and most children are never evaluated, so accumulators live
//! outside `Position`: entering a child records only what its move changes (at most three cells
//! removed and two added); an evaluation walks back to the nearest ply whose accumulator is
//! computed and applies the recorded changes forward. Debug builds compare every result with a
//! full refresh.

use super::network::{Accumulator, Network, PieceAt, HIDDEN};
use crate::position::{CastleSide, Position};
use crate::types::{Color, Move, MoveKind, Piece};
use arrayvec::ArrayVec;

/// The cells a move empties and fills, as features see them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FeatureChange {
    /// Pieces leaving a cell (the mover, a captured piece, a castling rook; under the `double`
    /// en passant option the passed pawn and a piece on the passed square).
    pub removed: ArrayVec<PieceAt, 3>,
    /// Pieces arriving on a cell (the mover or its promotion, a castling rook).
    pub added: ArrayVec<PieceAt, 2>,
}

impl FeatureChange {
    /// What `mv` (legal in `pos`, not yet made) changes, following `Position::make_move`.
    pub fn of_move(pos: &Position, mv: Move) -> FeatureChange {
        let mut change = FeatureChange::default();
        let us = pos.side_to_move();
        let (from, to, fb, tb) = (mv.from(), mv.to(), mv.from_board(), mv.to_board());
        let at = |piece: Piece, board, square| PieceAt { piece, board, square };
        let Some(mover) = pos.piece_on(fb, from) else {
            return change;
        };
        match mv.kind() {
            MoveKind::Castle => {
                let side = CastleSide::of_castling(mv);
                let (kd, rd) = pos.castle_destinations(us, side);
                let rook = Piece::new(us, crate::types::PieceKind::Rook);
                change.removed.push(at(mover, fb, from));
                change.removed.push(at(rook, fb, to));
                change.added.push(at(mover, tb, kd));
                change.added.push(at(rook, tb, rd));
            }
            MoveKind::Null => {
                change.removed.push(at(mover, fb, from));
                if let Some(victim) = pos.captured_piece(mv) {
                    change.removed.push(at(victim, tb, to));
                }
                change.added.push(at(mover, tb, to));
            }
            kind => {
                change.removed.push(at(mover, fb, from));
                if kind == MoveKind::EnPassant {
                    let passed = if us == Color::White {
                        to.offset(-8)
                    } else {
                        to.offset(8)
                    };
                    if let Some(pawn) = pos.piece_on(fb, passed) {
                        change.removed.push(at(pawn, fb, passed));
                    }
                }
                // Under the `double` option an en passant capture also takes a piece standing
                // on the passed square.
                if let Some(victim) = pos.piece_on(fb, to) {
                    change.removed.push(at(victim, fb, to));
                }
                let placed = mv.promotion().map_or(mover, |kind| Piece::new(us, kind));
                change.added.push(at(placed, tb, to));
            }
        }
        change
    }
}

/// Accumulators of one search thread, one per ply, for a network of `H` hidden neurons.
pub struct AccumulatorStack<const H: usize = HIDDEN> {
    accumulators: Vec<Accumulator<H>>,
    changes: Vec<FeatureChange>,
    computed: Vec<bool>,
    /// The full refresh debug builds compare every incremental result with (kept, so the
    /// check allocates nothing).
    #[cfg(debug_assertions)]
    fresh: Accumulator<H>,
}

impl<const H: usize> AccumulatorStack<H> {
    /// A stack for `plies` plies of `net`.
    pub fn new(net: &Network<H>, plies: usize) -> AccumulatorStack<H> {
        AccumulatorStack {
            accumulators: vec![net.new_accumulator(); plies],
            changes: vec![FeatureChange::default(); plies],
            computed: vec![false; plies],
            #[cfg(debug_assertions)]
            fresh: net.new_accumulator(),
        }
    }

    /// Computes ply 0 from scratch (the root of a search).
    pub fn set_root(&mut self, net: &Network<H>, root: &Position) {
        net.refresh(root, &mut self.accumulators[0]);
        self.computed[0] = true;
    }

    /// Records entering the child at `ply` by `mv` from `parent` (the position at `ply - 1`).
    #[inline(always)]
    pub fn enter_move(&mut self, ply: usize, parent: &Position, mv: Move) {
        self.changes[ply] = FeatureChange::of_move(parent, mv);
        self.computed[ply] = false;
    }

    /// Records entering the child at `ply` by a null move (no cell changes).
    #[inline(always)]
    pub fn enter_null(&mut self, ply: usize) {
        self.changes[ply] = FeatureChange::default();
        self.computed[ply] = false;
    }

    /// Evaluation of `pos`, the position at `ply` of the current path.
    pub fn evaluate(&mut self, net: &Network<H>, ply: usize, pos: &Position) -> i32 {
        let mut base = ply;
        while !self.computed[base] {
            debug_assert!(base > 0, "ply 0 is always computed");
            base -= 1;
        }
        for p in base + 1..=ply {
            let (done, rest) = self.accumulators.split_at_mut(p);
            let change = &self.changes[p];
            net.update(&done[p - 1], &mut rest[0], &change.removed, &change.added);
            self.computed[p] = true;
        }
        #[cfg(debug_assertions)]
        {
            net.refresh(pos, &mut self.fresh);
            assert!(
                self.fresh == self.accumulators[ply],
                "incremental accumulator differs at ply {ply}: {}",
                pos.to_fen()
            );
        }
        net.evaluate(&self.accumulators[ply], pos.side_to_move())
    }
}
