//! Goals (mate, stalemate) and the exact check filter used to skip moves that cannot mate.
//!
//! Mate and stalemate are decided by the engine's own rules (its legal-move generator and its
//! check test), so they follow Alice exactly: a king in check on its board with no legal move
//! is mated; a move must land on an empty square of the other board; a king cannot transfer
//! out of check. See `docs/solve.md` for the proof of the filter.

use super::stipulation::Goal;
use crate::attacks;
use crate::rules::Variant;
use crate::types::{Bitboard, Color, Move, MoveKind, PieceKind};
use crate::CastleSide;
use crate::Position;

/// True when the side to move in `pos` has no legal move and that ending is `goal`
/// (checkmate when in check, stalemate when not).
pub(crate) fn goal_reached(pos: &Position, goal: Goal) -> bool {
    let wanted_check = match goal {
        Goal::Mate => true,
        Goal::Stalemate => false,
        // A proof game's goal is a position, not an ending (see `proof.rs`).
        Goal::Diagram => return false,
    };
    pos.in_check() == wanted_check && pos.legal_moves().is_empty()
}

impl Goal {
    /// The legal moves of `pos` after which this goal is reached (the side then to move is
    /// mated or stalemated).
    pub fn moves_reaching(self, pos: &Position) -> Vec<Move> {
        pos.legal_moves()
            .into_iter()
            .filter(|&m| goal_reached(&pos.after(m), self))
            .collect()
    }

    /// True when the side to move in `pos` must reach this goal: it has a legal move and every
    /// one reaches it.
    pub fn is_forced(self, pos: &Position) -> bool {
        let legal = pos.legal_moves();
        !legal.is_empty() && legal.into_iter().all(|m| goal_reached(&pos.after(m), self))
    }
}

/// True when `mv` might give check (a necessary condition, without making the move): every
/// move that gives check passes. Only for standard and Looking-glass Alice, whose moves always
/// land on the same square of the other board; other variants (and castling, en passant, null
/// moves) answer true.
///
/// Proof: after `mv` the opponent's king on board `kb`, square `ks`, is in check exactly when a
/// piece of ours on `kb` attacks `ks` over the new occupancy of `kb`. Before `mv` nothing of ours
/// attacks `ks` (the side not to move is never in check). A piece that stays where it was and
/// does not slide attacks the same squares as before, so the attacker is either the moved piece,
/// which must then land on `kb` (it came from the other board), or one of our sliders on `kb`
/// whose line was opened: only a move that leaves `kb` (from `kb`, possibly capturing there)
/// removes anything from `kb`. The filter tests exactly these two cases.
pub(crate) fn may_give_check(pos: &Position, mv: Move) -> bool {
    if !matches!(pos.rules().variant, Variant::Alice | Variant::LookingGlass)
        || matches!(mv.kind(), MoveKind::Castle | MoveKind::EnPassant | MoveKind::Null)
    {
        return true;
    }
    let us = pos.side_to_move();
    let them = us.flip();
    let (kb, ks) = (pos.king_board(them), pos.king_square(them));
    let (from, to) = (mv.from(), mv.to());
    if mv.to_board() == kb {
        // The moved piece lands on the king's board; nothing leaves that board.
        let occ = pos.occupied(kb) | Bitboard::from_square(to);
        let kind = match (mv.promotion(), pos.moved_piece(mv)) {
            (Some(kind), _) => kind,
            (None, Some(piece)) => piece.kind(),
            (None, None) => return true,
        };
        let reach = match kind {
            PieceKind::Pawn => attacks::pawn(us, to),
            other => attacks::piece(other, to, occ),
        };
        return reach.has(ks);
    }
    if mv.from_board() != kb {
        return false;
    }
    // The piece leaves the king's board (taking what it captures there): a discovered check
    // by one of our sliders that stays on it.
    let mut occ = pos.occupied(kb) & !Bitboard::from_square(from);
    if mv.is_capture() {
        occ &= !Bitboard::from_square(to);
    }
    let stay = !Bitboard::from_square(from);
    let queens = pos.pieces(kb, us, PieceKind::Queen);
    let diagonal = (pos.pieces(kb, us, PieceKind::Bishop) | queens) & stay;
    let straight = (pos.pieces(kb, us, PieceKind::Rook) | queens) & stay;
    (attacks::bishop(ks, occ) & diagonal).any() || (attacks::rook(ks, occ) & straight).any()
}

/// True when the side to move in `pos` might have a move that gives check (a necessary
/// condition computed from the piece sets, without generating moves): false proves that no
/// move gives check, so no move mates. Only for standard and Looking-glass Alice; true when
/// the side to move may castle or capture en passant (moves of two pieces).
///
/// Proof, with the notation of [`may_give_check`]: a checking move either lands the moved
/// piece on `kb` on a square from which it attacks `ks`, or removes something from `kb` (a
/// move from `kb`) and opens the line of one of our sliders on `kb`. (1) A piece on the other
/// board reaches, on its own board, only squares of its attack set (a pawn: its capture
/// squares and the one or two squares ahead), and must land on a square empty on `kb`; from a
/// square `t` a knight, bishop, rook or queen attacks `ks` over `kb` exactly when the same
/// kind standing on `ks` attacks `t` (the lines are symmetric and `t` itself is no blocker),
/// and a pawn attacks `ks` from the squares an opposing pawn on `ks` attacks. A promotion can
/// become any piece, so a pawn that can reach the last rank is always a candidate. A king
/// never gives check. (2) A line opened by removing one or two pieces from `kb` belongs to a
/// slider on `kb` that is aligned with `ks` with at least one piece between. If neither (1)
/// nor (2) has a candidate, no move gives check.
pub(crate) fn may_have_check(pos: &Position) -> bool {
    if !matches!(pos.rules().variant, Variant::Alice | Variant::LookingGlass) {
        return true;
    }
    let us = pos.side_to_move();
    let them = us.flip();
    if pos.ep_square().is_some() || CastleSide::BOTH.into_iter().any(|side| pos.castling().has(us, side)) {
        return true;
    }
    let (kb, ks) = (pos.king_board(them), pos.king_square(them));
    let ob = kb.other();
    let (occ_k, occ_o) = (pos.occupied(kb), pos.occupied(ob));
    // Landing squares: empty on the king's board, not our own piece on the other board.
    let free = !occ_k & !pos.color_on(ob, us);
    // (1) Direct checks by a piece of the other board landing on the king's board.
    let knight_checks = attacks::knight(ks) & free;
    for sq in pos.pieces(ob, us, PieceKind::Knight) {
        if (attacks::knight(sq) & knight_checks).any() {
            return true;
        }
    }
    let diagonal_checks = attacks::bishop(ks, occ_k) & free;
    let straight_checks = attacks::rook(ks, occ_k) & free;
    let slider_checks = [
        (PieceKind::Bishop, diagonal_checks),
        (PieceKind::Rook, straight_checks),
        (PieceKind::Queen, diagonal_checks | straight_checks),
    ];
    for (kind, checks) in slider_checks {
        for sq in pos.pieces(ob, us, kind) {
            if (attacks::piece(kind, sq, occ_o) & checks).any() {
                return true;
            }
        }
    }
    let (ahead, start_rank, last_rank): (i8, u8, u8) = if us == Color::White { (8, 1, 7) } else { (-8, 6, 0) };
    let pawn_checks = attacks::pawn(them, ks) & free;
    for sq in pos.pieces(ob, us, PieceKind::Pawn) {
        let mut reach = attacks::pawn(us, sq) | Bitboard::from_square(sq.offset(ahead));
        if sq.rank() == start_rank {
            reach |= Bitboard::from_square(sq.offset(2 * ahead));
        }
        if (reach & (pawn_checks | Bitboard::rank(last_rank))).any() {
            return true;
        }
    }
    // (2) Discovered checks: one of our sliders on the king's board with pieces between.
    let queens = pos.pieces(kb, us, PieceKind::Queen);
    let diagonal = (pos.pieces(kb, us, PieceKind::Bishop) | queens) & attacks::bishop(ks, Bitboard::EMPTY);
    let straight = (pos.pieces(kb, us, PieceKind::Rook) | queens) & attacks::rook(ks, Bitboard::EMPTY);
    for slider in diagonal | straight {
        if (attacks::between(slider, ks) & occ_k).any() {
            return true;
        }
    }
    false
}

/// True when `mv` could reach `goal` for the opponent: for mate only a checking move can, for
/// stalemate only a move that does not give check (decided after the move), so this filters
/// only for mate.
pub(crate) fn may_reach(pos: &Position, mv: Move, goal: Goal) -> bool {
    goal != Goal::Mate || may_give_check(pos, mv)
}

/// The forced end of self play (`s#1` after the attacker's move): when the side to move in
/// `pos` has at least one legal move and every one of them reaches `goal`, those moves;
/// otherwise None. With `pruning`, a mate is refused at once when no move can give check
/// (`may_have_check`) or some move cannot (`may_reach`): such a move would not mate.
pub(crate) fn forced_goal(pos: &Position, goal: Goal, pruning: bool) -> Option<Vec<Move>> {
    if pruning && goal == Goal::Mate && !may_have_check(pos) {
        return None;
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    if pruning && moves.iter().any(|&d| !may_reach(pos, d, goal)) {
        return None;
    }
    let mut replies = Vec::with_capacity(moves.len());
    for &d in moves.iter() {
        let mut next = *pos;
        next.make_unchecked(d);
        if !goal_reached(&next, goal) {
            return None;
        }
        replies.push(d);
    }
    Some(replies)
}

/// True when the side to move in `pos` has a move that reaches `goal` (reflex play: a side
/// that can must play it), with the same exact filters as the other goal tests.
pub(crate) fn has_goal_move(pos: &Position, goal: Goal, pruning: bool) -> bool {
    if pruning && goal == Goal::Mate && !may_have_check(pos) {
        return false;
    }
    pos.legal_moves().iter().any(|&m| {
        (!pruning || may_reach(pos, m, goal)) && {
            let mut next = *pos;
            next.make_unchecked(m);
            goal_reached(&next, goal)
        }
    })
}

/// Appends to `out` one finished line per reply: `line`, then `m`, then the reply (the forced
/// goal moves of the other side after `m`). `line` is left as it was.
pub(crate) fn push_replies(line: &mut Vec<Move>, m: Move, replies: Vec<Move>, out: &mut Vec<Vec<Move>>) {
    line.push(m);
    for d in replies {
        line.push(d);
        out.push(line.clone());
        line.pop();
    }
    line.pop();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    /// Walks every position to `depth` plies and checks that the filter lets every checking
    /// move through.
    fn filter_is_complete(pos: &Position, depth: u32, checks: &mut u64, no_check: &mut u64) {
        let any_check = pos.legal_moves().into_iter().any(|mv| pos.after(mv).in_check());
        assert!(
            !any_check || may_have_check(pos),
            "a check was possible in {}",
            pos.to_fen()
        );
        *no_check += u64::from(!may_have_check(pos));
        for &mv in pos.legal_moves().iter() {
            let next = pos.after(mv);
            if next.in_check() {
                *checks += 1;
                assert!(may_give_check(pos, mv), "{mv:?} gives check in {}", pos.to_fen());
            }
            if depth > 1 {
                filter_is_complete(&next, depth - 1, checks, no_check);
            }
        }
    }

    #[test]
    fn the_check_filters_never_drop_a_checking_move() {
        let fens = [
            "|Nk6/|b2|Qp3/1|p2P1|p1/1|P1nK3/|r2p|p|P1|B/2|PP|P3/b1P5/8 w - - 0 1",
            "5K2/8/8/8/|R2P4/|b4P2/8/2|rk|r2|B w - - 0 1",
            "2|B5/2|b|N2p1/2|p5/2pk2p|K/|p4|B|N|R/3|p2|p1/5p2/r3|n3 b - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ];
        let (mut checks, mut no_check) = (0, 0);
        for fen in fens {
            let pos = Position::from_fen(fen, Rules::default()).unwrap();
            filter_is_complete(&pos, 3, &mut checks, &mut no_check);
        }
        assert!(checks > 1000, "the walk met only {checks} checks");
        // The position test proves "no check possible" often enough to be worth its cost.
        assert!(no_check > 100, "only {no_check} positions without a possible check");
    }

    #[test]
    fn goals_follow_the_alice_rules() {
        // Caillaud, Andernach 2025: 1.Kf4/A Qf5 2.d1=B/A Rf3/A# (rook from B mates on A).
        let mut pos = Position::from_fen("8/8/8/2Q1|k3/8/2|R5/3|p4/K7 b - - 0 1", Rules::default()).unwrap();
        for text in ["e5f4", "c5f5", "d2d1n"] {
            pos = pos.after(pos.parse_uci(text).unwrap());
            assert!(!goal_reached(&pos, Goal::Mate), "{text}");
        }
        let mate = pos.parse_uci("c3f3").unwrap();
        assert!(may_give_check(&pos, mate));
        assert!(goal_reached(&pos.after(mate), Goal::Mate));
        // The black king on A, the queen on B: every flight square is guarded on B.
        let stalemate = Position::from_fen("k7/8/1|Q6/8/8/8/8/4K3 b - - 0 1", Rules::default()).unwrap();
        assert!(goal_reached(&stalemate, Goal::Stalemate));
        assert!(!goal_reached(&stalemate, Goal::Mate));
        let start = Position::startpos();
        assert!(!goal_reached(&start, Goal::Mate));
        assert!(!goal_reached(&start, Goal::Stalemate));
    }
}
