//! Alice static exchange evaluation.
//!
//! An exchange on a square alternates boards: a capture on board X lands the capturer on
//! the same square of board Y, so the next capture must be made by a piece standing on Y,
//! the one after that by a piece on X, and so on.

use crate::position::Position;
use crate::types::{Bitboard, BoardId, Move, MoveKind, PieceKind};

/// Exchange values by kind.
pub const SEE_VALUES: [i32; 6] = [100, 300, 320, 500, 950, 20_000];

fn value(kind: PieceKind) -> i32 {
    SEE_VALUES[kind.index()]
}

/// Material balance of the exchange started by `mv`, from the mover's view.
pub fn see(pos: &Position, mv: Move) -> i32 {
    if !pos.rules().variant.alternating_exchanges() {
        return see_estimate(pos, mv);
    }
    match mv.kind() {
        MoveKind::Castle | MoveKind::Null => return 0,
        MoveKind::EnPassant => return value(PieceKind::Pawn),
        _ => {}
    }
    let (from, to, fb) = (mv.from(), mv.to(), mv.from_board());
    let Some(mover) = pos.moved_piece(mv) else { return 0 };
    let mut gain = [0i32; 40];
    gain[0] = pos.piece_on(fb, to).map_or(0, |p| value(p.kind()));
    let mut on_square = value(mover.kind());
    if let Some(promo) = mv.promotion() {
        gain[0] += value(promo) - value(PieceKind::Pawn);
        on_square = value(promo);
    }
    let mut occ = [pos.occupied(BoardId::A), pos.occupied(BoardId::B)];
    occ[fb.index()] &= !(Bitboard::from_square(from) | Bitboard::from_square(to));
    let mut board = fb.other();
    occ[board.index()] |= Bitboard::from_square(to);
    let mut side = mover.color().flip();
    let mut d = 0;
    loop {
        // Cheapest piece of `side` on `board` that can capture on `to` there.
        let attackers = pos.attackers(to, board, occ[board.index()], side) & occ[board.index()];
        let Some((sq, kind)) = PieceKind::ALL.into_iter().find_map(|k| {
            (attackers & pos.pieces(board, side, k))
                .into_iter()
                .next()
                .map(|s| (s, k))
        }) else {
            break;
        };
        if kind == PieceKind::King {
            // The king may not capture onto a square defended on either board.
            let other = board.other();
            let defended = (pos.attackers(to, board, occ[board.index()] ^ Bitboard::from_square(sq), side.flip())
                & occ[board.index()])
            .any()
                || (pos.attackers(to, other, occ[other.index()], side.flip()) & occ[other.index()]).any();
            if defended {
                break;
            }
        }
        d += 1;
        gain[d] = on_square - gain[d - 1];
        if (-gain[d - 1]).max(gain[d]) < 0 || d + 1 >= gain.len() {
            break;
        }
        occ[board.index()] &= !(Bitboard::from_square(sq) | Bitboard::from_square(to));
        board = board.other();
        occ[board.index()] |= Bitboard::from_square(to);
        on_square = value(kind);
        side = side.flip();
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

/// The simple estimate used where the alternating-board model does not hold (O'Donohue and Duo,
/// where a piece may stay on its board, and three-board Alice, where the capturer picks its
/// landing board): what `mv` captures (and promotes to), less the mover when an enemy piece can
/// take it on its landing cell (on that board, or in Duo by a zero move from the other board).
fn see_estimate(pos: &Position, mv: Move) -> i32 {
    let Some(mover) = pos.moved_piece(mv) else { return 0 };
    if mv.is_castle() {
        return 0;
    }
    let (from, to, fb, tb) = (mv.from(), mv.to(), mv.from_board(), mv.to_board());
    let mut gain = match mv.kind() {
        MoveKind::EnPassant => value(PieceKind::Pawn),
        _ => pos.captured_piece(mv).map_or(0, |p| value(p.kind())),
    };
    let mut on_square = value(mover.kind());
    if let Some(promo) = mv.promotion() {
        gain += value(promo) - value(PieceKind::Pawn);
        on_square = value(promo);
    }
    let them = mover.color().flip();
    let mut occ = pos.occupied(tb) | Bitboard::from_square(to);
    if fb == tb {
        occ &= !Bitboard::from_square(from);
    }
    let zb = tb.other();
    let zero_threat = pos.rules().variant == crate::rules::Variant::Duo
        && fb == tb
        && (pos.color_on(zb, them) & !pos.pieces(zb, them, PieceKind::Pawn)).has(to);
    if zero_threat || pos.attackers(to, tb, occ, them).any() {
        gain - on_square
    } else {
        gain
    }
}

/// True when the exchange started by `mv` wins at least `threshold`.
pub fn see_ge(pos: &Position, mv: Move, threshold: i32) -> bool {
    see(pos, mv) >= threshold
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    fn see_of(fen: &str, uci: &str) -> i32 {
        let pos = Position::from_fen(fen, Rules::default()).unwrap();
        let mv = pos.parse_uci(uci).unwrap();
        see(&pos, mv)
    }

    #[test]
    fn undefended_piece_wins_its_value() {
        // White rook on A takes a knight on A; no black piece on B can recapture on d5.
        assert_eq!(see_of("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", "d1d5"), 300);
    }

    #[test]
    fn defender_on_the_same_board_does_not_recapture() {
        // The knight on d5 (A) is "defended" by a pawn on e6 of board A, but the rook lands on
        // d5 of board B, where the pawn cannot reach it: the capture wins a full knight.
        assert_eq!(see_of("4k3/8/4p3/3n4/8/8/8/3RK3 w - - 0 1", "d1d5"), 300);
    }

    #[test]
    fn defender_on_the_other_board_recaptures() {
        // Pawn on e6 of board B recaptures on d5 of B: rook for knight.
        assert_eq!(see_of("4k3/8/4|p3/3n4/8/8/8/3RK3 w - - 0 1", "d1d5"), 300 - 500);
    }

    #[test]
    fn exchange_alternates_boards() {
        // Rxd5 (A->B), ...exd5 from B (lands on A), then the white queen on d1? It is on A
        // and sees d5 of A: Qxd5 wins the pawn back. Net: N + P - R.
        assert_eq!(see_of("4k3/8/4|p3/3n4/8/8/3R4/3QK3 w - - 0 1", "d2d5"), 300 - 500 + 100);
    }

    #[test]
    fn quiet_move_to_square_attacked_on_landing_board_loses_the_piece() {
        // Nf3 lands on f3 of B, where a black bishop on B (h5) attacks it.
        assert_eq!(see_of("4k3/8/8/7|b/8/8/8/4K1N1 w - - 0 1", "g1f3"), -300);
    }
}
