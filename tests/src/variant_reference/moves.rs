//! Move generation, making moves and the check test of the variant reference.
//!
//! A piece moves on its board by the chess rules, seeing only that board (and, in Mini Alice,
//! only files a-d). Where it lands is `landings`: the other board if the destination is empty
//! there (three-board Alice: each other board where it is empty; O'Donohue: its own board when
//! the other is occupied; Duo: its own board, or the other if empty). Then the move is made on
//! a copy and kept if the mover's king is not in check.

use super::{cell_name, Color, Kind, Man, RefEp, RefVariant, VPos};

const KNIGHT: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
const KING: [(i8, i8); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
const ROOK: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// What a move does.
#[derive(Clone, Copy, Debug)]
enum Effect {
    /// Move (and capture what stands on the destination of the mover's board).
    Plain,
    /// A pawn's double step.
    DoubleStep,
    /// En passant: the pawn on `passed` of the mover's board goes too.
    EnPassant { passed: u8 },
    /// Castling: the rook from `rook_from`; king and rook land on `king_to` and `rook_to`.
    Castle { rook_from: u8, king_to: u8, rook_to: u8 },
    /// Null (Lady Alice) or zero (Duo) move: to the same square of the other board, taking an
    /// enemy piece there (Duo).
    Zero,
}

/// A pseudo-legal move.
#[derive(Clone, Copy, Debug)]
struct Mv {
    from_board: usize,
    from: u8,
    to_board: usize,
    to: u8,
    promotion: Option<Kind>,
    effect: Effect,
}

impl VPos {
    fn at(&self, board: usize, sq: u8) -> Option<Man> {
        self.cells[board][sq as usize]
    }

    /// The square `df` files and `dr` ranks from `sq`, if it is on the variant's board.
    fn step(&self, sq: u8, df: i8, dr: i8) -> Option<u8> {
        let f = (sq % 8) as i8 + df;
        let r = (sq / 8) as i8 + dr;
        (f >= 0 && f < self.rules.variant.width() && (0..8).contains(&r)).then(|| (r * 8 + f) as u8)
    }

    /// True when a king of `by`'s opponent on `sq` of `board` would be in check, with the cell
    /// `vacant` of that board treated as empty: a piece of `by` on that board attacks the square,
    /// or (Duo) a piece of `by` stands on the same square of the other board.
    pub(crate) fn attacked(&self, board: usize, sq: u8, by: Color, vacant: Option<u8>) -> bool {
        let piece = |s: u8| if Some(s) == vacant { None } else { self.at(board, s) };
        let is = |s: Option<u8>, kinds: &[Kind]| {
            s.and_then(piece)
                .is_some_and(|m| m.color == by && kinds.contains(&m.kind))
        };
        if KNIGHT.iter().any(|&(f, r)| is(self.step(sq, f, r), &[Kind::Knight])) {
            return true;
        }
        if KING.iter().any(|&(f, r)| is(self.step(sq, f, r), &[Kind::King])) {
            return true;
        }
        // A pawn of `by` one rank behind (from its point of view), one file aside.
        let back = -by.forward();
        if is(self.step(sq, 1, back), &[Kind::Pawn]) || is(self.step(sq, -1, back), &[Kind::Pawn]) {
            return true;
        }
        for (dirs, kinds) in [(ROOK, [Kind::Rook, Kind::Queen]), (BISHOP, [Kind::Bishop, Kind::Queen])] {
            for (df, dr) in dirs {
                let mut s = sq;
                while let Some(n) = self.step(s, df, dr) {
                    if let Some(m) = piece(n) {
                        if m.color == by && kinds.contains(&m.kind) {
                            return true;
                        }
                        break;
                    }
                    s = n;
                }
            }
        }
        if self.rules.variant == RefVariant::Duo {
            if let Some(m) = self.at(1 - board, sq) {
                if m.color == by {
                    return true;
                }
            }
        }
        false
    }

    /// True when `color`'s king is in check.
    pub(crate) fn king_in_check(&self, color: Color) -> bool {
        let (kb, ks) = self.find_king(color);
        self.attacked(kb, ks, color.other(), None)
    }

    /// The boards a piece moving on `board` may land on, `dests` being its destination cells.
    fn landings(&self, board: usize, dests: &[u8]) -> Vec<usize> {
        let empty_on = |b: usize| dests.iter().all(|&d| self.at(b, d).is_none());
        match self.rules.variant {
            RefVariant::Alice3 => (0..3).filter(|&b| b != board && empty_on(b)).collect(),
            RefVariant::ODonohue => vec![if empty_on(1 - board) { 1 - board } else { board }],
            RefVariant::Duo => {
                let mut v = vec![board];
                if empty_on(1 - board) {
                    v.push(1 - board);
                }
                v
            }
            _ => {
                if empty_on(1 - board) {
                    vec![1 - board]
                } else {
                    vec![]
                }
            }
        }
    }

    fn push_landings(
        &self,
        out: &mut Vec<Mv>,
        board: usize,
        from: u8,
        to: u8,
        promos: &[Option<Kind>],
        effect: Effect,
    ) {
        for tb in self.landings(board, &[to]) {
            for &promotion in promos {
                out.push(Mv {
                    from_board: board,
                    from,
                    to_board: tb,
                    to,
                    promotion,
                    effect,
                });
            }
        }
    }

    fn pseudo_moves(&self) -> Vec<Mv> {
        let us = self.side;
        let them = us.other();
        let variant = self.rules.variant;
        let in_check = self.king_in_check(us);
        let mut out = Vec::new();
        let ep_on = self.rules.ep != RefEp::Off && variant != RefVariant::MiniAlice;
        for board in 0..variant.boards() {
            for from in 0..64u8 {
                let Some(man) = self.at(board, from) else { continue };
                if man.color != us {
                    continue;
                }
                let free = |s: u8| self.at(board, s).is_none();
                let enemy = |s: u8| self.at(board, s).is_some_and(|m| m.color == them);
                match man.kind {
                    Kind::Pawn => {
                        let last = if us == Color::White { 7 } else { 0 };
                        let start = if us == Color::White { 1 } else { 6 };
                        let promos: Vec<Option<Kind>> = [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight]
                            .into_iter()
                            .map(Some)
                            .collect();
                        let options = |to: u8| if to / 8 == last { promos.clone() } else { vec![None] };
                        if let Some(one) = self.step(from, 0, us.forward()).filter(|&s| free(s)) {
                            self.push_landings(&mut out, board, from, one, &options(one), Effect::Plain);
                            let two = self.step(one, 0, us.forward());
                            if variant != RefVariant::MiniAlice && from / 8 == start {
                                if let Some(two) = two.filter(|&s| free(s)) {
                                    self.push_landings(&mut out, board, from, two, &[None], Effect::DoubleStep);
                                }
                            }
                        }
                        for df in [-1, 1] {
                            let Some(to) = self.step(from, df, us.forward()) else {
                                continue;
                            };
                            let ep_here = ep_on && self.ep.is_some_and(|(sq, b)| sq == to && b == board);
                            if ep_here {
                                // The passed square on the passed pawn's board: the en passant
                                // capture (in `double` mode also when an enemy piece is there).
                                let passed = self.step(to, 0, -us.forward()).expect("on board");
                                let passed_pawn = self
                                    .at(board, passed)
                                    .is_some_and(|m| m.color == them && m.kind == Kind::Pawn);
                                let target_ok = match self.at(board, to) {
                                    None => true,
                                    Some(m) => m.color == them && self.rules.ep == RefEp::Double,
                                };
                                if passed_pawn && target_ok {
                                    self.push_landings(
                                        &mut out,
                                        board,
                                        from,
                                        to,
                                        &[None],
                                        Effect::EnPassant { passed },
                                    );
                                }
                                if passed_pawn && self.rules.ep == RefEp::Double {
                                    continue;
                                }
                            }
                            if enemy(to) {
                                self.push_landings(&mut out, board, from, to, &options(to), Effect::Plain);
                            }
                        }
                    }
                    Kind::Knight | Kind::King => {
                        let steps = if man.kind == Kind::Knight { KNIGHT } else { KING };
                        for (df, dr) in steps {
                            let Some(to) = self.step(from, df, dr) else { continue };
                            if !free(to) && !enemy(to) {
                                continue;
                            }
                            // docs/rules.md §1 item 6: a king may not end on a square attacked on the
                            // board it leaves (with the king gone from its origin).
                            if man.kind == Kind::King && self.attacked(board, to, them, Some(from)) {
                                continue;
                            }
                            self.push_landings(&mut out, board, from, to, &[None], Effect::Plain);
                        }
                    }
                    _ => {
                        let dirs: Vec<(i8, i8)> = match man.kind {
                            Kind::Rook => ROOK.to_vec(),
                            Kind::Bishop => BISHOP.to_vec(),
                            _ => ROOK.iter().chain(BISHOP.iter()).copied().collect(),
                        };
                        for (df, dr) in dirs {
                            let mut s = from;
                            while let Some(to) = self.step(s, df, dr) {
                                if free(to) || enemy(to) {
                                    self.push_landings(&mut out, board, from, to, &[None], Effect::Plain);
                                }
                                if !free(to) {
                                    break;
                                }
                                s = to;
                            }
                        }
                    }
                }
                // Null and zero moves: to the same square of the other board.
                if !matches!(variant, RefVariant::LadyAlice | RefVariant::Duo) {
                    continue;
                }
                let zero_cell = self.at(1 - board, from);
                let zero = Mv {
                    from_board: board,
                    from,
                    to_board: 1 - board,
                    to: from,
                    promotion: None,
                    effect: Effect::Zero,
                };
                match variant {
                    RefVariant::LadyAlice if zero_cell.is_none() && !(man.kind == Kind::King && in_check) => {
                        out.push(zero)
                    }
                    RefVariant::Duo if man.kind != Kind::Pawn && zero_cell.is_none_or(|m| m.color == them) => {
                        out.push(zero)
                    }
                    _ => {}
                }
            }
        }
        if !in_check {
            self.castlings(&mut out);
        }
        out
    }

    fn castlings(&self, out: &mut Vec<Mv>) {
        let us = self.side;
        let ci = if us == Color::White { 0 } else { 1 };
        let back: u8 = if us == Color::White { 0 } else { 56 };
        for (side, right) in self.rights[ci].iter().enumerate() {
            let Some(right) = right else { continue };
            let (kb, ks) = self.find_king(us);
            let rook_ok = self.at(kb, right.rook_home).is_some_and(|m| m.id == right.rook_id);
            if ks != right.king_home || !rook_ok {
                continue;
            }
            let (king_to, rook_to) = if side == 0 {
                (back + 6, back + 5)
            } else {
                (back + 2, back + 3)
            };
            let squares = [ks, right.rook_home, king_to, rook_to];
            let (lo, hi) = (*squares.iter().min().unwrap(), *squares.iter().max().unwrap());
            if (lo..=hi).any(|s| s != ks && s != right.rook_home && self.at(kb, s).is_some()) {
                continue;
            }
            let (k_lo, k_hi) = (ks.min(king_to), ks.max(king_to));
            if (k_lo..=k_hi).any(|s| self.attacked(kb, s, us.other(), None)) {
                continue;
            }
            for tb in self.landings(kb, &[king_to, rook_to]) {
                out.push(Mv {
                    from_board: kb,
                    from: ks,
                    to_board: tb,
                    to: king_to,
                    promotion: None,
                    effect: Effect::Castle {
                        rook_from: right.rook_home,
                        king_to,
                        rook_to,
                    },
                });
            }
        }
    }

    /// The position after the pseudo-legal move `mv`.
    fn apply(&self, mv: &Mv) -> VPos {
        let mut next = self.clone();
        let man = next.cells[mv.from_board][mv.from as usize]
            .take()
            .expect("a piece moves");
        let mut taken: Option<Man> = None;
        next.ep = None;
        match mv.effect {
            Effect::Castle {
                rook_from,
                king_to,
                rook_to,
            } => {
                let rook = next.cells[mv.from_board][rook_from as usize].take();
                next.cells[mv.to_board][king_to as usize] = Some(man);
                next.cells[mv.to_board][rook_to as usize] = rook;
            }
            Effect::Zero => {
                taken = next.cells[mv.to_board][mv.to as usize].take();
                next.cells[mv.to_board][mv.to as usize] = Some(man);
            }
            effect => {
                if let Effect::EnPassant { passed } = effect {
                    next.cells[mv.from_board][passed as usize] = None;
                }
                taken = next.cells[mv.from_board][mv.to as usize].take();
                let kind = mv.promotion.unwrap_or(man.kind);
                next.cells[mv.to_board][mv.to as usize] = Some(Man { kind, ..man });
                if let Effect::DoubleStep = effect {
                    next.ep = Some(((mv.from + mv.to) / 2, mv.to_board));
                }
            }
        }
        for rights in next.rights.iter_mut() {
            for right in rights.iter_mut() {
                let gone = right.is_some_and(|r| {
                    man.id == r.king_id || man.id == r.rook_id || taken.is_some_and(|t| t.id == r.rook_id)
                });
                if gone {
                    *right = None;
                }
            }
        }
        next.side = self.side.other();
        next
    }

    /// The wide text of a move: castling as the king's move, or king takes rook with Chess960.
    fn text(&self, mv: &Mv) -> String {
        let shown = match mv.effect {
            Effect::Castle { rook_from, .. } if self.rules.chess960 => rook_from,
            _ => mv.to,
        };
        let mut s = cell_name(mv.from_board, mv.from) + &cell_name(mv.to_board, shown);
        if let Some(k) = mv.promotion {
            s.push(match k {
                Kind::Queen => 'q',
                Kind::Rook => 'r',
                Kind::Bishop => 'b',
                _ => 'n',
            });
        }
        s
    }

    /// Every legal move (wide text) with the position it leads to.
    pub(crate) fn children(&self) -> Vec<(String, VPos)> {
        self.pseudo_moves()
            .iter()
            .map(|mv| (mv, self.apply(mv)))
            .filter(|(_, next)| !next.king_in_check(self.side))
            .map(|(mv, next)| (self.text(mv), next))
            .collect()
    }
}
