//! Principal variation search (negamax, fail-soft) with the pruning and reduction steps.

use super::checks::may_give_check;
use super::history::piece_cell;
use super::movepick::MovePicker;
use super::see::see_ge;
use super::thread::{StackEntry, ThreadState};
use super::{INFINITY, MATE, MATE_BOUND, MAX_PLY};
use crate::position::Position;
use crate::search::tt::TtBound;
use crate::types::{Move, PieceKind};
use arrayvec::ArrayVec;

impl ThreadState<'_> {
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
            // Endgame tables: the exact result (when loaded and holding this material).
            if let Some(score) = self.tablebase_score(pos, ply) {
                return score;
            }
        }

        // A singular-extension search of this node leaves one move out: it neither cuts off
        // on nor stores to the table, and does not prune the node as a whole.
        let excluded = self.stack[ply].excluded;
        let singular_search = !excluded.is_none();
        // Transposition table: cut off on a deep enough stored bound (not in PV nodes).
        let tt = self.shared.tt.probe(pos.key(), ply);
        let tt_move = tt.map_or(Move::NONE, |e| e.mv);
        if let Some(e) = tt {
            if !pv_node
                && !singular_search
                && e.depth >= depth
                && match e.bound {
                    TtBound::Exact => true,
                    TtBound::Lower => e.score >= beta,
                    TtBound::Upper => e.score <= alpha,
                    TtBound::None => false,
                }
            {
                // A quiet hash move that cuts off earns history as if it had been searched.
                if e.score >= beta && !tt_move.is_none() && !tt_move.is_noisy() {
                    let prev = self.prev_moves(ply);
                    self.history.reward_quiet(pos, tt_move, &[tt_move], depth, ply, prev);
                }
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

        if !pv_node && !in_check && !singular_search {
            // Razoring: far below alpha at low depth, only a capture could help; when the
            // quiescence search agrees, trust it.
            if depth <= params.razor_depth && eval + params.razor_margin * depth < alpha && alpha.abs() < MATE_BOUND {
                let score = self.qsearch(pos, alpha, alpha + 1, ply, true);
                if score <= alpha {
                    return score;
                }
            }
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
                self.shared.tt.prefetch(child.key());
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
            // ProbCut: a capture whose reduced search beats beta by a margin would very likely
            // beat beta at full depth too (unless the table already says otherwise).
            let probcut_beta = beta + params.probcut_margin;
            if depth >= params.probcut_depth
                && beta.abs() < MATE_BOUND
                && !tt.is_some_and(|e| e.depth >= depth - 3 && e.score < probcut_beta)
            {
                let evals = (static_eval, raw_eval);
                if let Some(score) = self.probcut(pos, probcut_beta, evals, depth, ply, cut_node, tt_move) {
                    return score;
                }
            }
        }

        // Internal iterative reduction: without a hash move this node is likely unimportant.
        if depth >= 4 && tt_move.is_none() && !in_check && !singular_search {
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
            if mv == excluded || (root && !self.root_moves[self.pv_index..].iter().any(|r| r.mv == mv)) {
                continue;
            }
            let quiet = !mv.is_noisy();
            // The picker's exchange result, when it has one, spares running SEE again.
            let known_see = picker.last_see();
            // The child is made before pruning only when the move may check (a cheap test
            // rules most moves out); the others are made once pruning has passed them.
            let mut made = None;
            if may_give_check(pos, mv) {
                made = Some(self.make_child(pos, mv));
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
                None => self.make_child(pos, mv),
            };
            moves_searched += 1;
            if root && self.id == 0 {
                self.report_currmove(mv, moves_searched);
            }
            // Singular extension: when every other move fails well below the hash move's
            // score, the hash move is searched deeper (twice deeper when far below).
            let mut extension = 0;
            if mv == tt_move && !root && !singular_search && depth >= params.se_depth {
                match self.singular(pos, tt, depth, ply, beta, pv_node, cut_node) {
                    Singular::Extend(e) => extension = e,
                    Singular::MultiCut(score) => return score,
                    Singular::Stopped => return 0,
                }
            }
            // Check extension: a checking move is searched one ply deeper.
            if gives_check {
                extension = extension.max(1);
            }
            // Extensions are bounded by ply, so the search always ends.
            if extension > 0 && ply >= 2 * self.root_depth as usize {
                extension = 0;
            }
            // Set after the singular test, whose own search at this ply overwrites it.
            let piece = pos.moved_piece(mv).expect("legal move has a piece");
            self.stack[ply].moved = Some(piece_cell(piece, mv));
            self.stack[ply + 1].double_extensions = self.stack[ply].double_extensions + (extension >= 2) as i32;
            let new_depth = depth - 1 + extension;
            self.enter_child(ply + 1, pos, mv);
            self.keys.push(pos.key());
            let nodes_before = self.nodes;
            // The child's line starts empty: a "full-window" search whose window alpha has
            // narrowed to one point (alpha = beta - 1) is no PV node, leaves its line alone,
            // and the line copied below would be another move's.
            self.pv_len[ply + 1] = 0;
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
                self.record_root_score(pos, mv, score, alpha, moves_searched == 1, self.nodes - nodes_before);
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
            if singular_search {
                return alpha; // only the excluded move: it is singular
            }
            if root {
                return -INFINITY; // every searchmove excluded: the caller handles it
            }
            // No move searched: checkmate or stalemate (pruning never removes every move,
            // because pruning starts only after a move has produced a score).
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        // The search without one move is no result of this node: nothing is stored.
        if singular_search {
            return best_score;
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
        let scale = self.shared.params.corr_scale;
        // Off (the default): the tables' keys are not even computed.
        let correction = if scale == 0 {
            0
        } else {
            self.history.correction(pos) * scale / 100
        };
        (raw_eval + correction).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Singular-extension test of the hash move of the node at `ply`: the node is searched at
    /// half depth without it, against a bound a margin below its stored score.
    #[allow(clippy::too_many_arguments)]
    fn singular(
        &mut self,
        pos: &Position,
        tt: Option<crate::search::tt::TtEntry>,
        depth: i32,
        ply: usize,
        beta: i32,
        pv_node: bool,
        cut_node: bool,
    ) -> Singular {
        let Some(e) = tt else {
            return Singular::Extend(0);
        };
        if e.depth < depth - 3 || !matches!(e.bound, TtBound::Lower | TtBound::Exact) || e.score.abs() >= MATE_BOUND {
            return Singular::Extend(0);
        }
        let params = self.shared.params;
        let singular_beta = e.score - params.se_margin * depth / 16;
        let tt_move = e.mv;
        self.stack[ply].excluded = tt_move;
        let score = self.search(pos, singular_beta - 1, singular_beta, (depth - 1) / 2, ply, cut_node);
        self.stack[ply].excluded = Move::NONE;
        if self.stopped {
            return Singular::Stopped;
        }
        if score < singular_beta {
            let double = !pv_node
                && score < singular_beta - params.se_double_margin
                && self.stack[ply].double_extensions < params.se_double_limit;
            Singular::Extend(1 + double as i32)
        } else if singular_beta >= beta {
            // Multi-cut: another move also beats beta, so this node fails high anyway.
            Singular::MultiCut(singular_beta)
        } else if e.score >= beta {
            // The hash move is not the only good one and is expected to cut: search it less.
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        }
    }

    /// ProbCut's captures: each one good enough by SEE is tried with a quiescence search and
    /// then a search four plies shallower against `probcut_beta`; the first that holds wins.
    #[allow(clippy::too_many_arguments)]
    fn probcut(
        &mut self,
        pos: &Position,
        probcut_beta: i32,
        (static_eval, raw_eval): (i32, i32),
        depth: i32,
        ply: usize,
        cut_node: bool,
        tt_move: Move,
    ) -> Option<i32> {
        let mut picker = MovePicker::new_quiescence(pos, tt_move);
        while let Some(mv) = picker.next(pos, self.history) {
            if !see_ge(pos, mv, probcut_beta - static_eval) {
                continue;
            }
            let child = self.make_child(pos, mv);
            let piece = pos.moved_piece(mv).expect("legal move has a piece");
            self.stack[ply].moved = Some(piece_cell(piece, mv));
            self.stack[ply + 1].double_extensions = self.stack[ply].double_extensions;
            self.enter_child(ply + 1, pos, mv);
            self.keys.push(pos.key());
            let mut score = -self.qsearch(&child, -probcut_beta, -probcut_beta + 1, ply + 1, true);
            if score >= probcut_beta {
                score = -self.search(&child, -probcut_beta, -probcut_beta + 1, depth - 4, ply + 1, !cut_node);
            }
            self.keys.pop();
            if self.stopped {
                return Some(0);
            }
            if score >= probcut_beta {
                self.shared.tt.store(
                    pos.key(),
                    ply,
                    mv,
                    score,
                    raw_eval.max(-MATE_BOUND + 1),
                    depth - 3,
                    TtBound::Lower,
                );
                return Some(score);
            }
        }
        None
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

/// What the singular-extension test decided for the hash move.
enum Singular {
    /// Search it this many plies deeper (negative: shallower).
    Extend(i32),
    /// The node fails high with this score without further search.
    MultiCut(i32),
    /// The search was stopped during the test.
    Stopped,
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
