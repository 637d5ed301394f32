//! Lower bounds on the moves each side still needs to reach a proof game's diagram (standard
//! and Looking-glass Alice: two boards, every move transfers). Proofs in `docs/solve.md`.
//!
//! Every diagram piece must be reached by a distinct piece of the position; the cost of a piece
//! to a diagram piece is its fewest moves in an abstract graph that ignores every other piece:
//! its moves on an empty board with the Alice parity (each move flips the piece's board, so a
//! piece that ends on the other board moves an odd number of times), a pawn's promotions, and
//! the castling of a king and rook that still have the right. The bound is the cheapest
//! assignment (an exact minimum-cost matching), which is also why it may leave out every piece
//! already standing on a diagram piece of its kind: the costs are shortest paths, so the
//! triangle inequality lets any assignment be rearranged to keep those pieces at no extra cost.
//! A side must also still make every capture of the other side's missing pieces, and a pawn
//! changes file only by captures, so the costs are taken with the captures the side has left
//! (none, one, or two or more).

use crate::rules::Variant;
use crate::types::{BoardId, Color, PieceKind, Square};
use crate::{CastleSide, Position};
use arrayvec::ArrayVec;

/// No way: more moves than any proof game has.
pub(super) const INF: u32 = 1000;

/// A piece of the diagram or of the current position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Unit {
    kind: PieceKind,
    square: Square,
    board: BoardId,
}

impl Unit {
    /// The index of this piece's (kind, square, board) in a cost table.
    fn index(&self) -> usize {
        self.kind.index() * 128 + self.square.index() * 2 + self.board.index()
    }
}

const KINDS: [PieceKind; 6] = [
    PieceKind::King,
    PieceKind::Queen,
    PieceKind::Rook,
    PieceKind::Bishop,
    PieceKind::Knight,
    PieceKind::Pawn,
];

/// The pieces of `color` in `pos`, or `None` when there are more than [`MAX_UNITS`].
fn units(pos: &Position, color: Color) -> Option<ArrayVec<Unit, MAX_UNITS>> {
    let mut out = ArrayVec::new();
    for &board in pos.boards() {
        for kind in KINDS {
            for square in pos.pieces(board, color, kind) {
                out.try_push(Unit { kind, square, board }).ok()?;
            }
        }
    }
    Some(out)
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

    /// The fewest moves of a pawn of `color` from `a` to the pawn square `b`, with `parity`,
    /// changing file at most `max_captures` times (a pawn changes file only by capturing).
    fn pawn(color: Color, a: Square, b: Square, parity: u32, max_captures: u32) -> u32 {
        let (forward, start) = if color == Color::White { (1, 1) } else { (-1, 6) };
        let dr = (i32::from(b.rank()) - i32::from(a.rank())) * forward;
        let df = (i32::from(b.file()) - i32::from(a.file())).abs();
        if dr < 0 || df > dr || df as u32 > max_captures {
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
    fn promotion(&self, color: Color, a: Square, kind: PieceKind, b: Square, parity: u32, max_captures: u32) -> u32 {
        let last = if color == Color::White { 7 } else { 0 };
        let mut best = INF;
        for file in 0..8u8 {
            let promo = Square::from_coords(file, last);
            // The pawn's moves to the last rank (either parity), then the new piece's.
            for pawn_parity in 0..2 {
                let k1 = Distances::pawn(color, a, promo, pawn_parity, max_captures);
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
    fn cost(&self, color: Color, u: &Unit, t: &Unit, max_captures: u32) -> u32 {
        let parity = u32::from(u.board != t.board);
        if u.kind == t.kind {
            if u.kind == PieceKind::Pawn {
                Distances::pawn(color, u.square, t.square, parity, max_captures)
            } else {
                self.piece(u.kind, u.square, t.square, parity)
            }
        } else if u.kind == PieceKind::Pawn && t.kind != PieceKind::King && t.kind != PieceKind::Pawn {
            self.promotion(color, u.square, t.kind, t.square, parity, max_captures)
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

/// The most pieces of one side the bounds handle (a side has at most 16 in a game); with
/// more, the bounds stay off.
const MAX_UNITS: usize = 32;

/// A piece of the position not yet on a diagram piece, with its castling options.
struct Mover {
    unit: Unit,
    /// Where a castling may take it (a wing each), on the other board.
    castled: [Option<Unit>; 2],
    /// What the castling costs it: one move for the king, none for the rook (its ride is
    /// inside the king's move).
    castling_cost: u32,
}

/// Capture allowances with a cost table of their own: none, one, two or more.
const ALLOWANCES: usize = 3;

/// The diagram and what the bounds need of it.
pub(super) struct Target {
    position: Position,
    /// Per side, the diagram's pieces.
    targets: [ArrayVec<Unit, MAX_UNITS>; 2],
    /// Per side, capture allowance and diagram piece: the cost of every (kind, square, board)
    /// of a piece of that side to become it, at [`Unit::index`].
    costs: [[Vec<Vec<u16>>; ALLOWANCES]; 2],
    /// The bounds apply (two boards, every move transfers).
    bounds: bool,
}

impl Target {
    /// The bounds for reaching the diagram `position`.
    pub(super) fn new(position: &Position) -> Target {
        let distances = Distances::new();
        let two_boards = matches!(position.rules().variant, Variant::Alice | Variant::LookingGlass);
        let (white, black) = (units(position, Color::White), units(position, Color::Black));
        let bounds = two_boards && white.is_some() && black.is_some();
        let targets = [white.unwrap_or_default(), black.unwrap_or_default()];
        let mut costs: [[Vec<Vec<u16>>; ALLOWANCES]; 2] = Default::default();
        for color in [Color::White, Color::Black] {
            for (allowance, tables) in costs[color.index()].iter_mut().enumerate() {
                let max_captures = if allowance + 1 == ALLOWANCES {
                    8
                } else {
                    allowance as u32
                };
                for t in &targets[color.index()] {
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
                                    table[u.index()] = distances.cost(color, &u, t, max_captures).min(INF) as u16;
                                }
                            }
                        }
                    }
                    tables.push(table);
                }
            }
        }
        Target {
            position: *position,
            targets,
            costs,
            bounds,
        }
    }

    /// True when `pos` is the diagram (placement and side to move).
    pub(super) fn reached(&self, pos: &Position) -> bool {
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
    pub(super) fn moves_needed(&self, pos: &Position, color: Color) -> u32 {
        let ci = color.index();
        let targets = &self.targets[ci];
        let mine = Target::count(pos, color);
        let theirs = Target::count(pos, color.flip());
        let their_target = self.targets[color.flip().index()].len();
        if targets.len() > mine || theirs < their_target {
            return INF;
        }
        // Every missing piece of the other side is still to be captured by this one.
        let captures_left = theirs - their_target;
        let tables = &self.costs[ci][captures_left.min(ALLOWANCES - 1)];
        // The pieces not already standing on a diagram piece of theirs, with their cost
        // options (a castling gives the king a two-square step and the rook a free ride).
        let mut placed = [false; MAX_UNITS];
        let Some(mine_now) = units(pos, color) else {
            return 0;
        };
        let mut movers: ArrayVec<Mover, MAX_UNITS> = ArrayVec::new();
        for unit in mine_now {
            if let Some(j) = (0..targets.len()).find(|&j| !placed[j] && targets[j] == unit) {
                placed[j] = true;
                continue;
            }
            movers.push(Mover {
                unit,
                castled: Target::castled(pos, color, &unit),
                castling_cost: u32::from(unit.kind == PieceKind::King),
            });
        }
        let open: ArrayVec<usize, MAX_UNITS> = (0..targets.len()).filter(|&j| !placed[j]).collect();
        if open.is_empty() {
            return captures_left as u32;
        }
        let cost = |j: usize, m: &Mover| -> u32 {
            let table = &tables[j];
            let plain = u32::from(table[m.unit.index()]);
            m.castled
                .iter()
                .flatten()
                .map(|castled| m.castling_cost + u32::from(table[castled.index()]))
                .fold(plain, u32::min)
        };
        let moves = min_cost_assignment(open.len(), movers.len(), |i, k| cost(open[i], &movers[k])).min(INF);
        moves.max(captures_left as u32)
    }

    /// Where the king or rook `u` of `color` may land by castling (one place a wing with the
    /// right left; Alice: on the other board).
    fn castled(pos: &Position, color: Color, u: &Unit) -> [Option<Unit>; 2] {
        let mut out = [None; 2];
        if !matches!(u.kind, PieceKind::King | PieceKind::Rook) {
            return out;
        }
        for (slot, side) in out.iter_mut().zip(CastleSide::BOTH) {
            if !pos.castling().has(color, side) {
                continue;
            }
            let (king, rook) = pos.castle_starts(color, side);
            let (king_to, rook_to) = pos.castle_destinations(color, side);
            let to = match u.kind {
                PieceKind::King if u.square == king => king_to,
                PieceKind::Rook if u.square == rook => rook_to,
                _ => continue,
            };
            *slot = Some(Unit {
                kind: u.kind,
                square: to,
                board: u.board.other(),
            });
        }
        out
    }

    /// True when `pos` can still reach the diagram in `plies` half moves by the bounds.
    pub(super) fn feasible(&self, pos: &Position, plies: u32) -> bool {
        if !self.bounds {
            return true;
        }
        let us = pos.side_to_move();
        let ours = plies.div_ceil(2);
        let theirs = plies / 2;
        self.moves_needed(pos, us) <= ours && self.moves_needed(pos, us.flip()) <= theirs
    }
}

/// The least total cost of giving each of `rows` rows its own column of `columns`
/// (`rows <= columns <= MAX_UNITS`): the Hungarian method with potentials, O(rows² · columns).
fn min_cost_assignment(rows: usize, columns: usize, cost: impl Fn(usize, usize) -> u32) -> u32 {
    if rows == 0 {
        return 0;
    }
    if columns < rows || columns > MAX_UNITS {
        return INF;
    }
    const N: usize = MAX_UNITS + 1;
    // 1-based rows and columns as in the textbook form; column 0 is the virtual start.
    let big = i64::MAX / 4;
    let (mut u, mut v) = ([0i64; N], [0i64; N]);
    let (mut owner, mut way) = ([0usize; N], [0usize; N]);
    for i in 1..=rows {
        owner[0] = i;
        let mut j0 = 0;
        let mut minv = [big; N];
        let mut used = [false; N];
        loop {
            used[j0] = true;
            let i0 = owner[j0];
            let mut delta = big;
            let mut j1 = 0;
            for j in 1..=columns {
                if !used[j] {
                    let cur = i64::from(cost(i0 - 1, j - 1)) - u[i0] - v[j];
                    if cur < minv[j] {
                        minv[j] = cur;
                        way[j] = j0;
                    }
                    if minv[j] < delta {
                        delta = minv[j];
                        j1 = j;
                    }
                }
            }
            for j in 0..=columns {
                if used[j] {
                    u[owner[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
            if owner[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = way[j0];
            owner[j0] = owner[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
    (1..=columns)
        .filter(|&j| owner[j] != 0)
        .map(|j| cost(owner[j] - 1, j - 1))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    /// A small deterministic generator (xorshift) for the random cases.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }

        fn chance(&mut self, percent: usize) -> bool {
            self.below(100) < percent
        }
    }

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
        assert_eq!(Distances::pawn(Color::White, sq("a2"), sq("a4"), 1, 0), 1);
        assert_eq!(Distances::pawn(Color::White, sq("a2"), sq("a4"), 0, 0), 2);
        assert_eq!(Distances::pawn(Color::White, sq("a3"), sq("a3"), 1, 8), INF);
        // a7-b6 is a capture: impossible without one.
        assert_eq!(Distances::pawn(Color::Black, sq("a7"), sq("b6"), 1, 1), 1);
        assert_eq!(Distances::pawn(Color::Black, sq("a7"), sq("b6"), 1, 0), INF);
        // a2 to a rook on a8 of board A: five pawn moves (a double step) and one rook move, or
        // six pawn moves.
        assert_eq!(d.promotion(Color::White, sq("a2"), PieceKind::Rook, sq("a8"), 0, 0), 6);
        let start = Position::start(Rules::default());
        let target = Target::new(&start);
        assert_eq!(target.moves_needed(&start, Color::White), 0);
    }

    fn assign(m: &[Vec<u32>]) -> u32 {
        min_cost_assignment(m.len(), m[0].len(), |i, j| m[i][j])
    }

    #[test]
    fn the_assignment_is_the_cheapest() {
        assert_eq!(assign(&[vec![4, 1, 3], vec![2, 0, 5], vec![3, 2, 2]]), 5);
        assert_eq!(assign(&[vec![7, 1], vec![1, 9]]), 2);
        // Fewer rows than columns: the spare column is left out.
        assert_eq!(assign(&[vec![5, 3, 9]]), 3);
        assert_eq!(assign(&[vec![INF, INF]]), INF);
        // Brute force on random square matrices.
        let mut rng = Rng(7);
        for _ in 0..200 {
            let n = 1 + rng.below(6);
            let m: Vec<Vec<u32>> = (0..n).map(|_| (0..n).map(|_| rng.below(20) as u32).collect()).collect();
            let mut perm: Vec<usize> = (0..n).collect();
            let mut best = u32::MAX;
            permutations(&mut perm, 0, &mut |p| {
                best = best.min(p.iter().enumerate().map(|(i, &j)| m[i][j]).sum());
            });
            assert_eq!(assign(&m), best, "{m:?}");
        }
    }

    fn permutations(p: &mut Vec<usize>, k: usize, visit: &mut impl FnMut(&[usize])) {
        if k == p.len() {
            visit(p);
            return;
        }
        for i in k..p.len() {
            p.swap(k, i);
            permutations(p, k + 1, visit);
            p.swap(k, i);
        }
    }

    /// The bounds never exceed the moves a real game took: random games (castling and
    /// captures preferred now and then), each prefix against the game's end as the diagram.
    #[test]
    fn the_bounds_never_exceed_a_real_game() {
        let mut rng = Rng(2026);
        let mut castlings = 0;
        for _ in 0..1500 {
            let mut games = vec![Position::start(Rules::default())];
            let length = 4 + rng.below(56);
            for _ in 0..length {
                let p = *games.last().unwrap();
                let moves: Vec<_> = p.legal_moves().into_iter().collect();
                if moves.is_empty() {
                    break;
                }
                let preferred: Vec<_> = moves
                    .iter()
                    .copied()
                    .filter(|m| m.is_castle() || (m.is_capture() && rng.chance(50)))
                    .collect();
                let mv = if !preferred.is_empty() && rng.chance(70) {
                    preferred[rng.below(preferred.len())]
                } else {
                    moves[rng.below(moves.len())]
                };
                castlings += usize::from(mv.is_castle());
                games.push(p.after(mv));
            }
            let end = *games.last().unwrap();
            let target = Target::new(&end);
            let plies = games.len() - 1;
            for (i, p) in games.iter().enumerate() {
                let left = (plies - i) as u32;
                let us = p.side_to_move();
                let (ours, theirs) = (left.div_ceil(2), left / 2);
                let (need_us, need_them) = (target.moves_needed(p, us), target.moves_needed(p, us.flip()));
                let game = games.iter().map(|g| g.to_fen()).collect::<Vec<_>>().join("\n");
                assert!(
                    need_us <= ours,
                    "{need_us} > {ours}: {} -> {}\n{game}",
                    p.to_fen(),
                    end.to_fen()
                );
                assert!(
                    need_them <= theirs,
                    "{need_them} > {theirs}: {} -> {}\n{game}",
                    p.to_fen(),
                    end.to_fen()
                );
                assert!(target.feasible(p, left));
            }
        }
        assert!(castlings > 10, "the games castle ({castlings})");
    }
}
