//! A cheap pre-test for "does this move give check?", so the search makes a child position
//! only for moves that can check. A move leaves its square on its board (a capture also
//! empties the captured piece's square there) and arrives on a square of the landing board.
//! It can check only by attacking the enemy king from the arrival cell (the king stands on
//! the landing board), by opening a line to the king on the board it leaves, or, in Duo, by
//! occupying the king's zero square. Castling, promotions and en passant are always tested
//! exactly.

use crate::attacks;
use crate::position::Position;
use crate::rules::Variant;
use crate::types::{Move, MoveKind, PieceKind};

/// False only when `mv` certainly does not give check; true means "test it exactly".
#[inline]
pub(crate) fn may_give_check(pos: &Position, mv: Move) -> bool {
    if mv.is_castle() || mv.promotion().is_some() || mv.kind() == MoveKind::EnPassant {
        return true;
    }
    let Some(piece) = pos.moved_piece(mv) else {
        return true;
    };
    let us = pos.side_to_move();
    let king = pos.king_square(us.flip());
    let king_board = pos.king_board(us.flip());
    // Discovered check: the square left (or, for a capture, the captured piece's square)
    // lies on a line through the king on the board the move leaves.
    if mv.from_board() == king_board
        && (attacks::line(king, mv.from()).any() || (mv.is_capture() && attacks::line(king, mv.to()).any()))
    {
        return true;
    }
    // Direct check from the arrival cell (on an empty board: a superset of the real attacks).
    if mv.to_board() == king_board {
        let reach = match piece.kind() {
            PieceKind::Pawn => attacks::pawn(us, mv.to()),
            PieceKind::King => attacks::king(mv.to()),
            kind => attacks::piece(kind, mv.to(), crate::types::Bitboard::EMPTY),
        };
        if reach.has(king) {
            return true;
        }
    }
    pos.rules().variant == Variant::Duo && mv.to() == king
}

#[cfg(test)]
mod tests {
    use super::may_give_check;
    use crate::position::Position;
    use crate::rules::{EnPassant, Rules, Variant};

    #[test]
    fn the_pre_test_never_misses_a_check() {
        // Random games in every variant: every legal move that checks must pass the pre-test.
        let mut seed = 0x1234_5678_9abc_def0_u64;
        let mut next = move || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        let (mut checks, mut skipped) = (0, 0);
        let mut rule_sets: Vec<Rules> = Variant::ALL
            .iter()
            .map(|&variant| Rules {
                variant,
                ..Rules::default()
            })
            .collect();
        rule_sets.extend(EnPassant::ALL.iter().map(|&en_passant| Rules {
            en_passant,
            ..Rules::default()
        }));
        for rules in rule_sets {
            for _game in 0..25 {
                let mut pos = Position::start(rules);
                for _ply in 0..80 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    for &mv in &moves {
                        let checks_now = pos.gives_check(mv);
                        assert!(!checks_now || may_give_check(&pos, mv), "{mv:?} in {}", pos.to_fen());
                        checks += checks_now as u32;
                        skipped += !may_give_check(&pos, mv) as u32;
                    }
                    pos = pos.after(moves[next() % moves.len()]);
                }
            }
        }
        assert!(
            checks > 1000 && skipped > 10_000,
            "checks {checks}, moves ruled out {skipped}"
        );
    }
}
