//! Quiescence search: captures and promotions until the position is quiet, all evasions in
//! check, and quiet checking moves at its first ply (including checks by pieces that land
//! from the other board, which Alice tactics are made of).

use super::checks::may_give_check;
use super::movepick::MovePicker;
use super::see::{see_ge, SEE_VALUES};
use super::thread::ThreadState;
use super::{INFINITY, MATE, MATE_BOUND, MAX_PLY};
use crate::position::Position;
use crate::search::tt::TtBound;
use crate::types::{Move, MoveList};
use crate::GenType;

impl ThreadState<'_> {
    /// Quiescence search; `first` marks the first ply below the main search.
    pub(crate) fn qsearch(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize, first: bool) -> i32 {
        self.pv_len[ply.min(MAX_PLY)] = 0;
        if self.count_node_and_check_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if pos.halfmove_clock() >= 100 || pos.bare_kings() {
            return 0;
        }
        let in_check = pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate(pos, ply) };
        }
        let tt = self.shared.tt.probe(pos.key(), ply);
        if let Some(e) = tt {
            let cut = match e.bound {
                TtBound::Exact => true,
                TtBound::Lower => e.score >= beta,
                TtBound::Upper => e.score <= alpha,
                TtBound::None => false,
            };
            if cut && beta - alpha == 1 {
                return e.score;
            }
        }
        // Stand pat: the side to move may decline every capture (not when in check).
        let raw_eval = if in_check {
            -INFINITY
        } else {
            match tt {
                Some(e) => e.eval,
                None => self.evaluate(pos, ply),
            }
        };
        let static_eval = self.corrected_eval(pos, raw_eval);
        let best = static_eval;
        if !in_check {
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        let original_alpha = alpha;
        let mut line = Line {
            best,
            alpha,
            best_move: Move::NONE,
        };
        let mut picker = MovePicker::new_quiescence(pos, tt.map_or(Move::NONE, |e| e.mv));
        let mut searched = 0;
        while let Some(mv) = picker.next(pos, self.history) {
            if !in_check {
                // Losing captures and hopeless ones (delta pruning) are not worth searching.
                if !picker.last_see().unwrap_or_else(|| see_ge(pos, mv, 0)) {
                    continue;
                }
                let gain = pos.captured_piece(mv).map_or(0, |p| SEE_VALUES[p.kind().index()]);
                if mv.promotion().is_none() && static_eval + gain + self.shared.params.delta_margin <= line.alpha {
                    continue;
                }
            }
            searched += 1;
            if self.qsearch_move(pos, mv, beta, ply, &mut line) {
                break;
            }
        }
        if self.stopped {
            return 0;
        }
        if in_check && searched == 0 {
            return -MATE + ply as i32;
        }
        if first && !in_check && line.best < beta {
            // Quiet checks at the first quiescence ply (a mate threat must not be missed).
            let mut quiets = MoveList::new();
            pos.generate(GenType::Quiet, &mut quiets);
            for mv in quiets {
                // Only moves that pass the cheap check pre-test are made, and only once.
                if !may_give_check(pos, mv) {
                    debug_assert!(!pos.gives_check(mv), "check pre-test missed {mv:?} in {}", pos.to_fen());
                    continue;
                }
                let child = self.make_child(pos, mv);
                if child.in_check() && see_ge(pos, mv, 0) && self.qsearch_child(pos, &child, mv, beta, ply, &mut line) {
                    break;
                }
            }
            if self.stopped {
                return 0;
            }
        }
        let best = line.best;
        if best > -MATE_BOUND || in_check {
            let bound = TtBound::classify(best, original_alpha, beta);
            let eval = raw_eval.max(-MATE_BOUND + 1);
            self.shared
                .tt
                .store(pos.key(), ply, line.best_move, best, eval, 0, bound);
        }
        best
    }

    /// Searches one move and folds its score into `line`; true on a beta cutoff (or stop).
    fn qsearch_move(&mut self, pos: &Position, mv: Move, beta: i32, ply: usize, line: &mut Line) -> bool {
        let child = self.make_child(pos, mv);
        self.qsearch_child(pos, &child, mv, beta, ply, line)
    }

    /// [`Self::qsearch_move`] with the child position already made.
    fn qsearch_child(
        &mut self,
        pos: &Position,
        child: &Position,
        mv: Move,
        beta: i32,
        ply: usize,
        line: &mut Line,
    ) -> bool {
        self.enter_child(ply + 1, pos, mv);
        self.keys.push(pos.key());
        let score = -self.qsearch(child, -beta, -line.alpha, ply + 1, false);
        self.keys.pop();
        if self.stopped {
            return true;
        }
        if score > line.best {
            line.best = score;
            if score > line.alpha {
                line.best_move = mv;
                self.update_pv(ply, mv);
                if score >= beta {
                    return true;
                }
                line.alpha = score;
            }
        }
        false
    }
}

/// Best score, raised alpha and best move of a quiescence node so far.
struct Line {
    best: i32,
    alpha: i32,
    best_move: Move,
}
