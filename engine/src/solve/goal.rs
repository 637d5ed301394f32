//! Goals (mate, stalemate) and the exact check filter used to skip moves that cannot mate.
//!
//! Mate and stalemate are decided by the engine's own rules (its legal-move generator and its
//! check test), so they follow Alice exactly: a king in check on its board with no legal move
//! is mated; a move must land on an empty square of the other board; a king cannot transfer
//! out of check. See `docs/solve.md` for the proof of the filter.

use super::stipulation::Goal;
use crate::attacks;
use crate::rules::Variant;
use crate::types::{Bitboard, Move, MoveKind, PieceKind};
use crate::Position;

/// True when the side to move in `pos` has no legal move and that ending is `goal`
/// (checkmate when in check, stalemate when not).
pub(crate) fn goal_reached(pos: &Position, goal: Goal) -> bool {
    let in_check = pos.in_check();
    if in_check != (goal == Goal::Mate) {
        return false;
    }
    pos.legal_moves().is_empty()
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

/// True when `mv` could reach `goal` for the opponent: for mate only a checking move can, for
/// stalemate only a move that does not give check (decided after the move), so this filters
/// only for mate.
pub(crate) fn may_reach(pos: &Position, mv: Move, goal: Goal) -> bool {
    goal == Goal::Stalemate || may_give_check(pos, mv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    /// Walks every position to `depth` plies and checks that the filter lets every checking
    /// move through.
    fn filter_is_complete(pos: &Position, depth: u32, checks: &mut u64) {
        for &mv in pos.legal_moves().iter() {
            let next = pos.after(mv);
            if next.in_check() {
                *checks += 1;
                assert!(may_give_check(pos, mv), "{mv:?} gives check in {}", pos.to_fen());
            }
            if depth > 1 {
                filter_is_complete(&next, depth - 1, checks);
            }
        }
    }

    #[test]
    fn the_check_filter_never_drops_a_checking_move() {
        let fens = [
            "|Nk6/|b2|Qp3/1|p2P1|p1/1|P1nK3/|r2p|p|P1|B/2|PP|P3/b1P5/8 w - - 0 1",
            "5K2/8/8/8/|R2P4/|b4P2/8/2|rk|r2|B w - - 0 1",
            "2|B5/2|b|N2p1/2|p5/2pk2p|K/|p4|B|N|R/3|p2|p1/5p2/r3|n3 b - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ];
        let mut checks = 0;
        for fen in fens {
            let pos = Position::from_fen(fen, Rules::default()).unwrap();
            filter_is_complete(&pos, 3, &mut checks);
        }
        assert!(checks > 1000, "the walk met only {checks} checks");
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
