//! The evaluation terms of one side.

use super::params::{self as p, EvalParams, S};
use super::trace::Trace;
use crate::attacks;
use crate::position::Position;
use crate::rules::Variant;
use crate::types::{Bitboard, BoardId, Color, PieceKind, Square};

/// Rough piece values for "attacked by a lesser piece".
const ORDER: [i32; 6] = [1, 3, 3, 5, 9, 100];

/// Adds parameter `index` `count` times for `color`.
#[inline(always)]
fn term<T: Trace>(params: &EvalParams, trace: &mut T, index: usize, color: Color, count: i32) -> S {
    trace.add(index, color, count);
    params.get(index) * count
}

/// All terms of `us`, as a tapered score from `us`'s view.
pub(super) fn side_terms<T: Trace>(pos: &Position, params: &EvalParams, us: Color, trace: &mut T) -> S {
    let mut s = S::default();
    let them = us.flip();
    let mut enemy_pawn_att = [Bitboard::EMPTY; 3];
    for &board in pos.boards() {
        enemy_pawn_att[board.index()] = pawn_attacks(pos.pieces(board, them, PieceKind::Pawn), them);
    }
    for &board in pos.boards() {
        let blocked = pos.landing_blocked(board);
        let own = pos.color_on(board, us);
        let unsafe_landing = unsafe_landing(pos, board, &enemy_pawn_att);
        for kind in PieceKind::ALL {
            for sq in pos.pieces(board, us, kind) {
                s += term(params, trace, p::MATERIAL + kind.index(), us, 1);
                s += term(params, trace, super::pst_index(board, kind, sq, us), us, 1);
                if matches!(
                    kind,
                    PieceKind::Knight | PieceKind::Bishop | PieceKind::Rook | PieceKind::Queen
                ) {
                    // Mobility on the piece's own board, to cells where it can land safely.
                    let reach = attacks::piece(kind, sq, pos.occupied(board)) & !own & !blocked & !unsafe_landing;
                    let base = [
                        0,
                        p::MOBILITY_KNIGHT,
                        p::MOBILITY_BISHOP,
                        p::MOBILITY_ROOK,
                        p::MOBILITY_QUEEN,
                    ][kind.index()];
                    s += term(params, trace, base + reach.count() as usize, us, 1);
                }
                if kind != PieceKind::King {
                    s += threats(pos, params, trace, us, board, kind, sq);
                }
            }
        }
    }
    if pos.pieces_both(us, PieceKind::Bishop).count() >= 2 {
        s += term(params, trace, p::BISHOP_PAIR, us, 1);
    }
    s += passed_pawns(pos, params, trace, us);
    s += king_danger(pos, params, trace, us);
    s
}

/// Squares where a piece moving on `board` ends up attacked by an enemy pawn on the board it
/// lands on, whichever landing it may choose. `pawn_att` holds the enemy pawn attacks per
/// board. A transferring piece lands on another board (three-board Alice: either other board
/// where the square is empty); in O'Donohue it stays when the square is occupied on the
/// other board; in Duo it may stay or transfer.
fn unsafe_landing(pos: &Position, board: BoardId, pawn_att: &[Bitboard; 3]) -> Bitboard {
    let other = board.other();
    match pos.rules().variant {
        Variant::ODonohue => {
            let occ = pos.occupied(other);
            (pawn_att[other.index()] & !occ) | (pawn_att[board.index()] & occ)
        }
        Variant::Duo => pawn_att[board.index()] & (pawn_att[other.index()] | pos.occupied(other)),
        _ => pos
            .other_boards(board)
            .fold(Bitboard::FULL, |acc, b| acc & (pawn_att[b.index()] | pos.occupied(b))),
    }
}

fn pawn_attacks(pawns: Bitboard, color: Color) -> Bitboard {
    let mut att = Bitboard::EMPTY;
    for sq in pawns {
        att |= attacks::pawn(color, sq);
    }
    att
}

/// Hanging pieces and threats. An exchange on a square alternates boards: our piece on
/// `board` is captured by enemy pieces of `board`; the capturer lands on the other board,
/// so only our pieces there can recapture.
fn threats<T: Trace>(
    pos: &Position,
    params: &EvalParams,
    trace: &mut T,
    us: Color,
    board: BoardId,
    kind: PieceKind,
    sq: Square,
) -> S {
    let them = us.flip();
    let attackers = pos.attackers(sq, board, pos.occupied(board), them);
    if attackers.is_empty() {
        return S::default();
    }
    let mut s = S::default();
    if !pos
        .other_boards(board)
        .any(|other| pos.is_attacked(sq, other, pos.occupied(other), us))
    {
        s += term(params, trace, p::HANGING + kind.index(), us, 1);
    }
    let lesser = attackers
        .into_iter()
        .filter_map(|a| pos.piece_on(board, a))
        .any(|a| ORDER[a.kind().index()] < ORDER[kind.index()]);
    if lesser {
        s += term(params, trace, p::THREAT_BY_LESSER + kind.index(), us, 1);
    }
    s
}

/// Passed pawns: no enemy pawn (on either board) ahead on the same or adjacent files.
fn passed_pawns<T: Trace>(pos: &Position, params: &EvalParams, trace: &mut T, us: Color) -> S {
    let mut s = S::default();
    let enemy_pawns = pos.pieces_both(us.flip(), PieceKind::Pawn);
    let all = pos.occupied_any();
    for sq in pos.pieces_both(us, PieceKind::Pawn) {
        let files = Bitboard::file(sq.file())
            | if sq.file() > 0 {
                Bitboard::file(sq.file() - 1)
            } else {
                Bitboard::EMPTY
            }
            | if sq.file() < 7 {
                Bitboard::file(sq.file() + 1)
            } else {
                Bitboard::EMPTY
            };
        let ahead = match us {
            Color::White => Bitboard(!0u64 << ((sq.rank() as u32 + 1) * 8).min(63)) & !Bitboard::rank(sq.rank()),
            Color::Black => Bitboard((1u64 << (sq.rank() as u32 * 8)) - 1),
        };
        if (files & ahead & enemy_pawns).any() {
            continue;
        }
        let rel_rank = if us == Color::White { sq.rank() } else { 7 - sq.rank() };
        s += term(params, trace, p::PASSED + rel_rank as usize, us, 1);
        let stop = if us == Color::White {
            sq.offset(8)
        } else {
            sq.offset(-8)
        };
        if all.has(stop) {
            s += term(params, trace, p::PASSED_BLOCKED, us, 1);
        }
    }
    s
}

/// King danger across boards (terms scored for the king's owner, weights are penalties).
fn king_danger<T: Trace>(pos: &Position, params: &EvalParams, trace: &mut T, us: Color) -> S {
    let mut s = S::default();
    let them = us.flip();
    let ksq = pos.king_square(us);
    let kb = pos.king_board(us);
    let occ_kb = pos.occupied(kb);
    let zone = attacks::king(ksq);
    for kind in PieceKind::NON_KING {
        // Squares of the king's board from which a piece of this kind would give check.
        let checking = match kind {
            PieceKind::Pawn => attacks::pawn(us, ksq),
            other => attacks::piece(other, ksq, occ_kb),
        } & !occ_kb;
        let mut landing = 0;
        for (ob, from) in pos
            .other_boards(kb)
            .flat_map(|ob| pos.pieces(ob, them, kind).into_iter().map(move |from| (ob, from)))
        {
            let occ_ob = pos.occupied(ob);
            let reach = match kind {
                PieceKind::Pawn => {
                    let step = if them == Color::White {
                        from.offset(8)
                    } else {
                        from.offset(-8)
                    };
                    if occ_ob.has(step) {
                        Bitboard::EMPTY
                    } else {
                        Bitboard::from_square(step)
                    }
                }
                other => attacks::piece(other, from, occ_ob) & !occ_ob,
            };
            if (reach & checking).any() {
                landing += 1;
            }
        }
        if landing > 0 {
            s += term(params, trace, p::LANDING_CHECK + kind.index(), us, landing);
        }
        let mut zone_attackers = 0;
        for from in pos.pieces(kb, them, kind) {
            let att = match kind {
                PieceKind::Pawn => attacks::pawn(them, from),
                other => attacks::piece(other, from, occ_kb),
            };
            if (att & zone).any() {
                zone_attackers += 1;
            }
        }
        if zone_attackers > 0 {
            s += term(params, trace, p::ZONE_ATTACKER + kind.index(), us, zone_attackers);
        }
    }
    // Flight squares: the king lands on another board, and must not be attacked on either.
    let flights = zone & !pos.color_on(kb, us) & !pos.landing_blocked(kb);
    let occ_no_king = occ_kb ^ Bitboard::from_square(ksq);
    let unsafe_count = flights
        .into_iter()
        .filter(|&f| {
            pos.is_attacked(f, kb, occ_no_king, them)
                || pos
                    .other_boards(kb)
                    .any(|ob| pos.is_attacked(f, ob, pos.occupied(ob), them))
        })
        .count() as i32;
    if unsafe_count > 0 {
        s += term(params, trace, p::UNSAFE_FLIGHT, us, unsafe_count);
    }
    // Our pieces on the other board that can land next to the king (to interpose or defend).
    let mut interposers = 0;
    for kind in [PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook, PieceKind::Queen] {
        for ob in pos.other_boards(kb) {
            for from in pos.pieces(ob, us, kind) {
                if (attacks::piece(kind, from, pos.occupied(ob)) & zone & !occ_kb).any() {
                    interposers += 1;
                }
            }
        }
    }
    if interposers > 0 {
        s += term(params, trace, p::INTERPOSER, us, interposers);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::super::{evaluate_traced, CoefficientTrace, EvalParams};
    use super::p;
    use crate::position::Position;
    use crate::rules::Rules;

    /// The knight mobility count White's single knight scores in `fen`.
    fn knight_mobility(fen: &str) -> usize {
        let pos = Position::from_fen(fen, Rules::default()).unwrap();
        let mut trace = CoefficientTrace::default();
        evaluate_traced(&pos, &EvalParams::default(), &mut trace);
        let counts: Vec<usize> = (0..9)
            .filter(|&n| trace.coefficients[p::MOBILITY_KNIGHT + n] != 0)
            .collect();
        assert_eq!(counts.len(), 1, "{fen}: one knight, one mobility term");
        counts[0]
    }

    #[test]
    fn mobility_counts_enemy_pawns_where_the_piece_lands() {
        // A knight on d4 of board A lands on board B: a black pawn on d7 of board A (attacking
        // c6 and e6 there) does not make its landing unsafe; the same pawn on board B does.
        assert_eq!(knight_mobility("4k3/3p4/8/8/3N4/8/8/4K3 w - - 0 1"), 8);
        assert_eq!(knight_mobility("4k3/3|p4/8/8/3N4/8/8/4K3 w - - 0 1"), 6);
    }
}
