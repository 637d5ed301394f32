//! Proof games (`diaN`, `diaN.5`, `a=>bN`): every game of exactly the stipulated number of
//! half moves from the start position (the variant's, or a given one) to the diagram: the
//! same pieces on the same squares of the same boards, the same side to move (castling rights
//! and counters are not compared). Shorter games of the same parity (the short solutions) are
//! listed too, as Popeye solves by increasing length.
//!
//! The search is the plain full-width walk over legal moves, with two exact prunings (proofs
//! in `docs/solve.md`):
//!
//! - **Move bounds** (standard and Looking-glass Alice, two boards): for each side a lower
//!   bound on the moves it still needs: each piece of the diagram must be reached by a
//!   distinct piece of the position (the larger of the sums of row and column minima of the
//!   cost matrix), where the cost of a piece to a target is its fewest moves on an empty board
//!   with the Alice parity (every move flips the piece's board, so a piece that ends on the
//!   other board moves an odd number of times); pawns may promote; and a side must still make
//!   every capture of the other side's missing pieces. A position whose bound exceeds the side's
//!   remaining moves has no game.
//! - **Failure memo**: a position proven to have no game of `k` more half moves is not searched
//!   again through a transposition (the proof table).

use super::direct::child;
use super::help::HelpSolution;
use super::stipulation::Stipulation;
use super::table::ProofTable;
use super::{NodeCounter, SolveControl, SolveOptions};
use crate::rules::Variant;
use crate::types::{BoardId, Color, Move, PieceKind, Square};
use crate::Position;
use rayon::prelude::*;

/// No way: more moves than any proof game has.
const INF: u32 = 1000;

/// Remaining lengths (in half moves) the table can remember a failure for.
const MEMO_PLIES: u32 = 16;

/// A piece of the diagram or of the current position.
#[derive(Copy, Clone, Debug)]
struct Unit {
    kind: PieceKind,
    square: Square,
    board: BoardId,
}

/// The pieces of `color` in `pos`.
fn units(pos: &Position, color: Color) -> Vec<Unit> {
    let mut out = Vec::with_capacity(16);
    for &board in pos.boards() {
        for kind in [
            PieceKind::King,
            PieceKind::Queen,
            PieceKind::Rook,
            PieceKind::Bishop,
            PieceKind::Knight,
            PieceKind::Pawn,
        ] {
            for square in pos.pieces(board, color, kind) {
                out.push(Unit { kind, square, board });
            }
        }
    }
    out
}

/// Distances on an empty board, with the board parity of Alice chess.
struct Distances {
    knight: [[u8; 64]; 64],
}

impl Distances {
    fn new() -> Distances {
        let mut knight = [[u8::MAX; 64]; 64];
        for (from, row) in knight.iter_mut().enumerate() {
            row[from] = 0;
            let mut frontier = vec![from];
            let mut d = 0u8;
            while !frontier.is_empty() {
                d += 1;
                let mut next = Vec::new();
                for &s in &frontier {
                    let (f, r) = ((s % 8) as i32, (s / 8) as i32);
                    for (df, dr) in [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)] {
                        let (nf, nr) = (f + df, r + dr);
                        if (0..8).contains(&nf) && (0..8).contains(&nr) {
                            let t = (nr * 8 + nf) as usize;
                            if row[t] == u8::MAX {
                                row[t] = d;
                                next.push(t);
                            }
                        }
                    }
                }
                frontier = next;
            }
        }
        Distances { knight }
    }

    /// The fewest moves of a piece of `kind` (not a pawn) from `a` to `b` on an empty board
    /// whose count has the parity `parity` (1: the piece ends on the other board).
    fn piece(&self, kind: PieceKind, a: Square, b: Square, parity: u32) -> u32 {
        let (fa, ra, fb, rb) = (
            i32::from(a.file()),
            i32::from(a.rank()),
            i32::from(b.file()),
            i32::from(b.rank()),
        );
        let (df, dr) = ((fa - fb).abs(), (ra - rb).abs());
        let d = match kind {
            PieceKind::Knight => {
                // A knight's move changes the square colour: its count's parity is fixed.
                let d = u32::from(self.knight[a.index()][b.index()]);
                return if d % 2 == parity { d } else { INF };
            }
            PieceKind::King => df.max(dr) as u32,
            PieceKind::Rook => match (df, dr) {
                (0, 0) => 0,
                (0, _) | (_, 0) => 1,
                _ => 2,
            },
            PieceKind::Bishop => {
                if (df + dr) % 2 != 0 {
                    return INF;
                }
                match (df, dr) {
                    (0, 0) => 0,
                    _ if df == dr => 1,
                    _ => 2,
                }
            }
            PieceKind::Queen => match (df, dr) {
                (0, 0) => 0,
                _ if df == 0 || dr == 0 || df == dr => 1,
                _ => 2,
            },
            PieceKind::Pawn => return INF,
        };
        fix_parity(d, parity)
    }

    /// The fewest moves of a pawn of `color` from `a` to the pawn square `b`, with `parity`.
    fn pawn(color: Color, a: Square, b: Square, parity: u32) -> u32 {
        let (forward, start) = if color == Color::White { (1, 1) } else { (-1, 6) };
        let dr = (i32::from(b.rank()) - i32::from(a.rank())) * forward;
        let df = (i32::from(b.file()) - i32::from(a.file())).abs();
        if dr < 0 || df > dr {
            return INF;
        }
        // Each move advances one rank (two for the double step: the first move, no capture).
        let mut best = INF;
        if dr as u32 % 2 == parity {
            best = dr as u32;
        }
        if i32::from(a.rank()) == start && dr >= 2 && df <= dr - 2 && (dr - 1) as u32 % 2 == parity {
            best = best.min((dr - 1) as u32);
        }
        best
    }

    /// The fewest moves of a pawn of `color` from `a` that promotes to `kind` and reaches `b`.
    fn promotion(&self, color: Color, a: Square, kind: PieceKind, b: Square, parity: u32) -> u32 {
        let last = if color == Color::White { 7 } else { 0 };
        let mut best = INF;
        for file in 0..8u8 {
            let promo = Square::from_coords(file, last);
            // The pawn's moves to the last rank (either parity), then the new piece's.
            for pawn_parity in 0..2 {
                let k1 = Distances::pawn(color, a, promo, pawn_parity);
                if k1 >= INF {
                    continue;
                }
                let k2 = self.piece(kind, promo, b, (parity + 2 - pawn_parity) % 2);
                best = best.min(k1 + k2);
            }
        }
        best
    }

    /// The fewest moves of the piece `u` (of `color`) to become the target `t`.
    fn cost(&self, color: Color, u: &Unit, t: &Unit) -> u32 {
        let parity = u32::from(u.board != t.board);
        if u.kind == t.kind {
            if u.kind == PieceKind::Pawn {
                Distances::pawn(color, u.square, t.square, parity)
            } else {
                self.piece(u.kind, u.square, t.square, parity)
            }
        } else if u.kind == PieceKind::Pawn && t.kind != PieceKind::King && t.kind != PieceKind::Pawn {
            self.promotion(color, u.square, t.kind, t.square, parity)
        } else {
            INF
        }
    }
}

/// The smallest count `>= d` with the parity `parity`; a piece that must come back to its
/// square on the other board needs three moves (it must leave it first).
fn fix_parity(d: u32, parity: u32) -> u32 {
    if d % 2 == parity {
        d
    } else if d == 0 {
        3
    } else {
        d + 1
    }
}

/// The most diagram pieces of one side the bounds handle (a side has at most 16 in a game).
const MAX_TARGETS: usize = 64;

/// The diagram and what the bounds need of it.
struct Target {
    position: Position,
    /// The number of diagram pieces of each side.
    counts: [usize; 2],
    /// Per side and diagram piece, the cost of every (kind, square, board) of a piece of that
    /// side to become it: index `kind * 128 + square * 2 + board`.
    costs: [Vec<Vec<u16>>; 2],
    /// Per side, whether each diagram piece is its king.
    kings: [Vec<bool>; 2],
    /// The bounds apply (two boards, every move transfers).
    bounds: bool,
}

const KINDS: [PieceKind; 6] = [
    PieceKind::King,
    PieceKind::Queen,
    PieceKind::Rook,
    PieceKind::Bishop,
    PieceKind::Knight,
    PieceKind::Pawn,
];

impl Target {
    fn new(position: &Position) -> Target {
        let distances = Distances::new();
        let two_boards = matches!(position.rules().variant, Variant::Alice | Variant::LookingGlass);
        let mut costs: [Vec<Vec<u16>>; 2] = [Vec::new(), Vec::new()];
        let mut kings: [Vec<bool>; 2] = [Vec::new(), Vec::new()];
        let mut counts = [0; 2];
        for color in [Color::White, Color::Black] {
            let targets = units(position, color);
            counts[color.index()] = targets.len();
            for t in &targets {
                let mut table = vec![INF as u16; 6 * 128];
                if two_boards {
                    for kind in KINDS {
                        for sq in 0..64u8 {
                            for board in [BoardId::A, BoardId::B] {
                                let u = Unit {
                                    kind,
                                    square: Square::new(sq),
                                    board,
                                };
                                table[kind.index() * 128 + usize::from(sq) * 2 + board.index()] =
                                    distances.cost(color, &u, t).min(INF) as u16;
                            }
                        }
                    }
                }
                costs[color.index()].push(table);
                kings[color.index()].push(t.kind == PieceKind::King);
            }
        }
        Target {
            position: *position,
            counts,
            costs,
            kings,
            bounds: two_boards && counts.iter().all(|&n| n <= MAX_TARGETS),
        }
    }

    fn reached(&self, pos: &Position) -> bool {
        pos.side_to_move() == self.position.side_to_move() && pos.same_placement(&self.position)
    }

    /// The number of pieces of `color` in `pos`.
    fn count(pos: &Position, color: Color) -> usize {
        pos.boards()
            .iter()
            .map(|&b| pos.color_on(b, color).count() as usize)
            .sum()
    }

    /// A lower bound on the moves `color` still needs in `pos` to reach the diagram.
    fn moves_needed(&self, pos: &Position, color: Color) -> u32 {
        let ci = color.index();
        let (targets, kings) = (&self.costs[ci], &self.kings[ci]);
        let mine = Target::count(pos, color);
        if targets.len() > mine {
            return INF;
        }
        let captures_allowed = mine > targets.len();
        let can_castle = crate::CastleSide::BOTH
            .into_iter()
            .any(|side| pos.castling().has(color, side));
        let mut col_min = [INF; MAX_TARGETS];
        let mut row_sum = 0;
        for &board in pos.boards() {
            for kind in KINDS {
                for square in pos.pieces(board, color, kind) {
                    let index = kind.index() * 128 + square.index() * 2 + board.index();
                    // A castling moves the king two squares in one move: no bound on it then.
                    let free_king = kind == PieceKind::King && can_castle;
                    let mut row_min = if captures_allowed && kind != PieceKind::King {
                        0
                    } else {
                        INF
                    };
                    for (j, table) in targets.iter().enumerate() {
                        let c = if free_king && kings[j] {
                            0
                        } else {
                            u32::from(table[index])
                        };
                        row_min = row_min.min(c);
                        col_min[j] = col_min[j].min(c);
                    }
                    row_sum += row_min;
                }
            }
        }
        let col_sum: u32 = col_min[..targets.len()].iter().sum();
        // A castling also moves the rook without a move of its own.
        let moves = row_sum.max(col_sum).saturating_sub(u32::from(can_castle));
        // Every missing piece of the other side is still to be captured by this one.
        let theirs = Target::count(pos, color.flip());
        let their_target = self.counts[color.flip().index()];
        if theirs < their_target {
            return INF;
        }
        moves.max((theirs - their_target) as u32)
    }

    /// True when `pos` can still reach the diagram in `plies` half moves by the bounds.
    fn feasible(&self, pos: &Position, plies: u32) -> bool {
        if !self.bounds {
            return true;
        }
        let us = pos.side_to_move();
        let ours = plies.div_ceil(2);
        let theirs = plies / 2;
        self.moves_needed(pos, us) <= ours && self.moves_needed(pos, us.flip()) <= theirs
    }
}

/// One thread's game finder.
struct Prover<'a> {
    target: &'a Target,
    pruning: bool,
    max_solutions: Option<usize>,
    table: &'a ProofTable,
    nodes: NodeCounter<'a>,
}

impl Prover<'_> {
    /// Appends to `out` every continuation of `line` (which led to `p`) of `plies` half moves
    /// that ends on the diagram.
    fn search(&self, p: &Position, plies: u32, line: &mut Vec<Move>, out: &mut Vec<Vec<Move>>) {
        if !self.nodes.tick() {
            return;
        }
        if plies == 0 {
            if self.target.reached(p) {
                out.push(line.clone());
                self.nodes.control.found_one(self.max_solutions);
            }
            return;
        }
        if self.pruning && !self.target.feasible(p, plies) {
            return;
        }
        let memo = self.pruning && plies < MEMO_PLIES;
        if memo && self.table.failed(p.key(), plies) {
            return;
        }
        let before = out.len();
        for &m in p.legal_moves().iter() {
            line.push(m);
            self.search(&child(p, m), plies - 1, line, out);
            line.pop();
        }
        if memo && out.len() == before && !self.nodes.control.stopped() {
            self.table.mark_failed(p.key(), plies);
        }
    }
}

/// Solves a proof game: `target` is the diagram, the game starts from `options.proof_start`
/// (or the variant's start position).
pub(crate) fn solve_proof(
    target: &Position,
    stipulation: &Stipulation,
    options: &SolveOptions,
    control: &SolveControl,
) -> HelpSolution {
    let start = options.proof_start.unwrap_or_else(|| Position::start(target.rules()));
    let target = Target::new(target);
    let table = ProofTable::new(if options.pruning {
        options.table_bits.max(22)
    } else {
        16
    });
    let prover = || Prover {
        target: &target,
        pruning: options.pruning,
        max_solutions: options.max_solutions,
        table: &table,
        nodes: NodeCounter::new(control),
    };
    let games_of = |plies: u32| -> Vec<Vec<Move>> {
        if plies == 0 {
            let mut out = Vec::new();
            prover().search(&start, 0, &mut Vec::new(), &mut out);
            return out;
        }
        let roots: Vec<Move> = start.legal_moves().into_iter().collect();
        let per_root: Vec<Vec<Vec<Move>>> = roots
            .par_iter()
            .map(|&m| {
                let mut out = Vec::new();
                prover().search(&child(&start, m), plies - 1, &mut vec![m], &mut out);
                out
            })
            .collect();
        per_root.into_iter().flatten().collect()
    };
    let plies = stipulation.plies();
    let mut solution = HelpSolution::default();
    if options.short {
        let mut length = plies % 2;
        while length < plies {
            solution.short.extend(games_of(length));
            length += 2;
        }
    }
    solution.lines = games_of(plies);
    if let Some(max) = options.max_solutions {
        solution.short.truncate(max);
        solution.lines.truncate(max.saturating_sub(solution.short.len()));
    }
    solution
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    #[test]
    fn distances_follow_the_board_parity() {
        let d = Distances::new();
        let sq = |s: &str| Square::parse(s).unwrap();
        // A knight from b1 to a3 takes one move, so it ends on the other board.
        assert_eq!(d.piece(PieceKind::Knight, sq("b1"), sq("a3"), 1), 1);
        assert_eq!(d.piece(PieceKind::Knight, sq("b1"), sq("a3"), 0), INF);
        // A rook back on its square of the other board: three moves.
        assert_eq!(d.piece(PieceKind::Rook, sq("a1"), sq("a1"), 1), 3);
        assert_eq!(d.piece(PieceKind::Rook, sq("a1"), sq("a8"), 0), 2);
        assert_eq!(d.piece(PieceKind::Bishop, sq("c1"), sq("c2"), 0), INF);
        // a2-a4 is one move (the other board), a2-a3-a4 two (the same board).
        assert_eq!(Distances::pawn(Color::White, sq("a2"), sq("a4"), 1), 1);
        assert_eq!(Distances::pawn(Color::White, sq("a2"), sq("a4"), 0), 2);
        assert_eq!(Distances::pawn(Color::White, sq("a3"), sq("a3"), 1), INF);
        assert_eq!(Distances::pawn(Color::Black, sq("a7"), sq("b6"), 1), 1);
        // a2 to a rook on a8 of board A: five pawn moves (a double step) and one rook move, or
        // six pawn moves.
        assert_eq!(d.promotion(Color::White, sq("a2"), PieceKind::Rook, sq("a8"), 0), 6);
        let start = Position::start(Rules::default());
        let target = Target::new(&start);
        assert_eq!(target.moves_needed(&start, Color::White), 0);
    }
}
