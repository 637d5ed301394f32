//! Input features of the network: (board, colour relative to the perspective, piece kind,
//! square) = 2 x 2 x 6 x 64 = 1,536 per perspective, the square flipped vertically for Black's
//! perspective, so both perspectives share one set of weights.

use crate::types::{BoardId, Color, Piece, Square};

/// Input features per perspective.
pub const INPUTS: usize = 2 * 2 * 6 * 64;

/// Boards the network sees (standard Alice: A and B).
pub const NET_BOARDS: usize = 2;

/// Feature index of `piece` on `square` of `board`, seen from `perspective`:
/// `((board * 2 + relative colour) * 6 + kind) * 64 + relative square`, where the relative
/// colour is 0 for the perspective's own pieces and the relative square is the square flipped
/// vertically for Black.
#[inline(always)]
pub fn feature_index(perspective: Color, piece: Piece, board: BoardId, square: Square) -> usize {
    debug_assert!(board.index() < NET_BOARDS);
    let relative = (piece.color() != perspective) as usize;
    let sq = if perspective == Color::White {
        square.index()
    } else {
        square.index() ^ 56
    };
    ((board.index() * 2 + relative) * 6 + piece.kind().index()) * 64 + sq
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::PieceKind;

    #[test]
    fn indices_are_distinct_and_in_range() {
        let mut seen = vec![false; INPUTS];
        for board in BoardId::BOTH {
            for color in Color::BOTH {
                for kind in PieceKind::ALL {
                    for sq in Square::all() {
                        let i = feature_index(Color::White, Piece::new(color, kind), board, sq);
                        assert!(i < INPUTS && !seen[i]);
                        seen[i] = true;
                    }
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn black_sees_the_mirror_of_white() {
        let e2 = Square::parse("e2").unwrap();
        let e7 = Square::parse("e7").unwrap();
        let wp = Piece::new(Color::White, PieceKind::Pawn);
        let bp = Piece::new(Color::Black, PieceKind::Pawn);
        assert_eq!(
            feature_index(Color::White, wp, BoardId::B, e2),
            feature_index(Color::Black, bp, BoardId::B, e7)
        );
        assert_ne!(
            feature_index(Color::White, wp, BoardId::A, e2),
            feature_index(Color::White, wp, BoardId::B, e2)
        );
    }
}
