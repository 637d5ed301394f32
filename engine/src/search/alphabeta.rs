//! Principal variation search (negamax, fail-soft) with the pruning and reduction steps.

use super::checks::may_give_check;
use super::history::piece_cell;
use super::movepick::MovePicker;
use super::see::see_ge;
use super::thread::{StackEntry, Worker};
use super::{INFINITY, MATE, MATE_BOUND, MAX_PLY};
use crate::position::Position;
use crate::tt::TtBound;
use crate::types::{Move, PieceKind};
use arrayvec::ArrayVec;

impl Worker<'_> {
    /// Searches `pos` to `depth` plies within (alpha, beta).
    pub(crate) fn search(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        if pv_node {
            self.pv_len[ply] = 0;
        }
        // At the horizon, resolve captures with the quiescence search.
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, true);
        }
        if self.count_node_and_check_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.in_check();
        if !root {
            // Draws: fifty moves, repetition (board-aware keys), bare kings.
            if (pos.halfmove_clock() >= 100 && !in_check)
                || pos.bare_kings()
                || self.is_repetition(pos.key(), pos.halfmove_clock())
            {
                return 0;
            }
            if ply >= MAX_PLY - 1 {
                return if in_check { 0 } else { self.evaluate(pos, ply) };
            }
            // Mate distance pruning: no line from here can beat a mate already found closer.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        // Transposition table: cut off on a deep enough stored bound (not in PV nodes).
        let tt = self.shared.tt.probe(pos.key(), ply);
        let tt_move = tt.map_or(Move::NONE, |e| e.mv);
        if let Some(e) = tt {
            if !pv_node
                && e.depth >= depth
                && match e.bound {
                    TtBound::Exact => true,
                    TtBound::Lower => e.score >= beta,
                    TtBound::Upper => e.score <= alpha,
                    TtBound::None => false,
                }
            {
                return e.score;
            }
        }

        let params = self.shared.params;
        // The table keeps the raw evaluation; the search works with the corrected one.
        let raw_eval = if in_check {
            -INFINITY
        } else {
            match tt {
                Some(e) => e.eval,
                None => self.evaluate(pos, ply),
            }
        };
        let static_eval = self.corrected_eval(pos, raw_eval);
        // Use a stored bound as a sharper estimate when it points the right way.
        let eval = match tt {
            Some(e) if !in_check && e.score.abs() < MATE_BOUND => match e.bound {
                TtBound::Lower if e.score > static_eval => e.score,
                TtBound::Upper if e.score < static_eval => e.score,
                TtBound::Exact => e.score,
                _ => static_eval,
            },
            _ => static_eval,
        };
        self.stack[ply].static_eval = static_eval;
        let improving = improving(&self.stack, ply, static_eval);
        self.stack[ply + 1].moved = None;

        if !pv_node && !in_check {
            // Reverse futility: far above beta at low depth, the opponent won't catch up.
            if depth <= params.rfp_depth
                && eval - params.rfp_margin * (depth - improving as i32) >= beta
                && eval < MATE_BOUND
            {
                return eval;
            }
            // Null move: if passing still fails high, a real move will too. Not with only
            // king and pawns (zugzwang, common in Alice endings), verified at high depth.
            let prev_was_null = ply > 0 && self.stack[ply - 1].moved.is_none();
            if depth >= 3 && eval >= beta && !prev_was_null && has_pieces(pos) && beta > -MATE_BOUND {
                let r = params.nmp_base + depth / params.nmp_depth_div + ((eval - beta) / 200).min(3);
                let mut child = *pos;
                child.make_null_move();
                self.count_copy_make();
                self.enter_null_child(ply + 1);
                self.stack[ply].moved = None;
                self.keys.push(pos.key());
                let barrier = std::mem::replace(&mut self.null_barrier, self.keys.len());
                let score = -self.search(&child, -beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.null_barrier = barrier;
                self.keys.pop();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    let score = if score >= MATE_BOUND { beta } else { score };
                    if depth < params.nmp_verify_depth {
                        return score;
                    }
                    // Verification search without the null move, to catch zugzwang.
                    let v = self.search_without_null(pos, beta, depth - r, ply);
                    if v >= beta {
                        return score;
                    }
                }
            }
        }

        // Internal iterative reduction: without a hash move this node is likely unimportant.
        if depth >= 4 && tt_move.is_none() && !in_check {
            depth -= 1;
        }

        let mut picker = MovePicker::new(pos, tt_move, self.history.killers[ply], self.prev_moves(ply));
        let mut best_score = -INFINITY;
        let mut best_move = Move::NONE;
        let mut moves_searched = 0;
        let mut quiets_tried: ArrayVec<Move, 64> = ArrayVec::new();
        let mut captures_tried: ArrayVec<Move, 32> = ArrayVec::new();
        let original_alpha = alpha;

        while let Some(mv) = picker.next(pos, self.history) {
            if root && !self.root_moves[self.pv_index..].iter().any(|r| r.mv == mv) {
                continue;
            }
            let quiet = !mv.is_noisy();
            // The picker's exchange result, when it has one, spares running SEE again.
            let known_see = picker.last_see();
            // The child is made before pruning only when the move may check (a cheap test
            // rules most moves out); the others are made once pruning has passed them.
            let mut made = None;
            if may_give_check(pos, mv) {
                self.count_copy_make();
                made = Some(pos.after(mv));
            } else {
                debug_assert!(!pos.gives_check(mv), "check pre-test missed {mv:?} in {}", pos.to_fen());
            }
            let gives_check = made.as_ref().is_some_and(Position::in_check);
            // Pruning never touches a checking move, so a mating move is never pruned.
            if !root && best_score > -MATE_BOUND && !gives_check {
                if quiet {
                    // Late move pruning: enough quiet moves tried at low depth.
                    if depth <= 8 && !in_check && moves_searched >= params.lmp_count(depth, improving) {
                        picker.skip_quiets();
                        continue;
                    }
                    // Futility: even a generous gain leaves the quiet move below alpha.
                    if depth <= params.fp_depth
                        && !in_check
                        && eval + params.fp_base + params.fp_per_depth * depth <= alpha
                    {
                        picker.skip_quiets();
                        continue;
                    }
                    // SEE: the moved piece is lost on its landing board.
                    if depth <= 8 && !see_ge(pos, mv, -params.see_quiet * depth) {
                        continue;
                    }
                } else if depth <= 8 && known_see != Some(true) && !see_ge(pos, mv, -params.see_noisy * depth * depth) {
                    // SEE pruning of clearly losing captures.
                    continue;
                }
            }
            let child = match made {
                Some(child) => child,
                None => {
                    self.count_copy_make();
                    pos.after(mv)
                }
            };
            moves_searched += 1;
            if root && self.id == 0 {
                self.report_currmove(mv, moves_searched);
            }
            let piece = pos.moved_piece(mv).expect("legal move has a piece");
            self.stack[ply].moved = Some(piece_cell(piece, mv));
            // Check extension: a checking move is searched one ply deeper (bounded by ply).
            let extension = (gives_check && ply < 2 * self.root_depth as usize) as i32;
            let new_depth = depth - 1 + extension;
            self.enter_child(ply + 1, pos, mv);
            self.keys.push(pos.key());
            let mut score;
            if depth >= 3
                && moves_searched > 1 + pv_node as i32
                && (quiet || !known_see.unwrap_or_else(|| see_ge(pos, mv, 0)))
            {
                // Late move reduction: later moves are searched shallower first.
                let mut r = self.shared.reductions.get(depth, moves_searched);
                r -= pv_node as i32 + gives_check as i32;
                r += !improving as i32 + cut_node as i32;
                if quiet {
                    r -= self.history.quiet_score(pos, mv, self.prev_moves(ply)) / params.lmr_history_div;
                }
                let reduced = (new_depth - r.max(0)).clamp(1, new_depth.max(1));
                score = -self.search(&child, -alpha - 1, -alpha, reduced, ply + 1, true);
                if score > alpha && reduced < new_depth {
                    score = -self.search(&child, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                }
            } else if !pv_node || moves_searched > 1 {
                score = -self.search(&child, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
            } else {
                score = alpha + 1; // force the full-window search below
            }
            // PV nodes re-search every move that beat alpha with the full window, so the PV
            // copied below always comes from a PV child (never from a stale zero-window one).
            if pv_node && (moves_searched == 1 || score > alpha) {
                score = -self.search(&child, -beta, -alpha, new_depth, ply + 1, false);
            }
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if root {
                self.record_root_score(mv, score, alpha, moves_searched == 1);
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = mv;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        if quiet {
                            let _ = quiets_tried.try_push(mv);
                            let prev = self.prev_moves(ply);
                            self.history.reward_quiet(pos, mv, &quiets_tried, depth, ply, prev);
                        } else {
                            let _ = captures_tried.try_push(mv);
                        }
                        if pos.captured_piece(mv).is_some() {
                            self.history.reward_capture(pos, mv, &captures_tried, depth);
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if quiet {
                let _ = quiets_tried.try_push(mv);
            } else {
                let _ = captures_tried.try_push(mv);
            }
        }

        if moves_searched == 0 {
            if root {
                return -INFINITY; // every searchmove excluded: the caller handles it
            }
            // No move searched: checkmate or stalemate (pruning never removes every move,
            // because pruning starts only after a move has produced a score).
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let bound = TtBound::classify(best_score, original_alpha, beta);
        // Correction history learns from results that say something about the static
        // evaluation: not in check, no capture as best move, the bound on the right side.
        if self.shared.params.corr_scale != 0
            && !in_check
            && !best_move.is_noisy()
            && best_score.abs() < MATE_BOUND
            && (bound != TtBound::Lower || best_score > static_eval)
            && (bound != TtBound::Upper || best_score < static_eval)
        {
            self.history.update_correction(pos, depth, best_score - static_eval);
        }
        if !(root && self.pv_index > 0) {
            self.shared.tt.store(
                pos.key(),
                ply,
                best_move,
                best_score,
                raw_eval.max(-MATE_BOUND + 1),
                depth,
                bound,
            );
        }
        best_score
    }

    /// The static evaluation corrected by the correction history (scaled by `corr_scale` %),
    /// kept clear of mate scores; -INFINITY (in check) stays.
    #[inline(always)]
    pub(crate) fn corrected_eval(&self, pos: &Position, raw_eval: i32) -> i32 {
        if raw_eval == -INFINITY {
            return raw_eval;
        }
        let correction = self.history.correction(pos) * self.shared.params.corr_scale / 100;
        (raw_eval + correction).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// The null-move verification: the same node searched without a null move.
    fn search_without_null(&mut self, pos: &Position, beta: i32, depth: i32, ply: usize) -> i32 {
        // Mark the previous move as a null move so the child search skips null pruning.
        let saved = self.stack[ply].moved;
        if ply > 0 {
            let prev = self.stack[ply - 1].moved;
            self.stack[ply - 1].moved = None;
            let v = self.search(pos, beta - 1, beta, depth, ply, false);
            self.stack[ply - 1].moved = prev;
            self.stack[ply].moved = saved;
            v
        } else {
            self.search(pos, beta - 1, beta, depth, ply, false)
        }
    }
}

/// Improving: our static evaluation got better than at our previous node (two plies up, or
/// four when we were in check there); pruning is more careful when it did. In check (no
/// static evaluation) or without an earlier evaluation to compare with, it is false.
pub(crate) fn improving(stack: &[StackEntry], ply: usize, static_eval: i32) -> bool {
    if static_eval == -INFINITY {
        return false;
    }
    [2, 4]
        .into_iter()
        .filter(|&back| ply >= back)
        .map(|back| stack[ply - back].static_eval)
        .find(|&earlier| earlier != -INFINITY)
        .is_some_and(|earlier| static_eval > earlier)
}

/// True when the side to move has a piece other than king and pawns.
fn has_pieces(pos: &Position) -> bool {
    let us = pos.side_to_move();
    [PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook, PieceKind::Queen]
        .into_iter()
        .any(|k| pos.pieces_both(us, k).any())
}
