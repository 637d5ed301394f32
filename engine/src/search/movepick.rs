//! Staged move picker: hash move, good captures (by Alice SEE), killers, quiets by history,
//! bad captures. Moves are produced lazily so a cutoff skips the later stages' work.

use super::history::{History, PrevMoves, CONTINUATION_PLIES};
use super::see::{see_ge, SEE_VALUES};
use crate::position::Position;
use crate::types::{Move, MoveList, MAX_MOVES};
use crate::GenType;
use arrayvec::ArrayVec;

#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Stage {
    TtMove,
    GenNoisy,
    GoodNoisy,
    Killers,
    GenQuiet,
    Quiets,
    BadNoisy,
    Done,
}

/// Yields every legal move of a position exactly once, best-looking first.
pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    killer_index: usize,
    moves: MoveList,
    /// Ordering scores, index for index with `moves` (filled as moves are generated).
    scores: ArrayVec<i32, MAX_MOVES>,
    index: usize,
    bad: MoveList,
    /// Per bad capture: the SEE result against 0 when it was computed (false), else None.
    bad_see: ArrayVec<Option<bool>, MAX_MOVES>,
    bad_index: usize,
    /// Whether the move returned last has SEE >= 0, when the picker computed it.
    last_see: Option<bool>,
    /// Quiet moves are skipped (quiescence search, or late-move pruning).
    skip_quiets: bool,
    prev: PrevMoves,
}

impl MovePicker {
    /// A picker for the main search. `tt_move` may be anything: it is checked for legality.
    pub fn new(pos: &Position, tt_move: Move, killers: [Move; 2], prev: PrevMoves) -> MovePicker {
        let tt_move = if pos.is_legal(tt_move) { tt_move } else { Move::NONE };
        MovePicker {
            stage: Stage::TtMove,
            tt_move,
            killers,
            killer_index: 0,
            moves: MoveList::new(),
            scores: ArrayVec::new(),
            index: 0,
            bad: MoveList::new(),
            bad_see: ArrayVec::new(),
            bad_index: 0,
            last_see: None,
            skip_quiets: false,
            prev,
        }
    }

    /// A picker for quiescence search: captures and promotions only (all moves in check).
    pub fn new_quiescence(pos: &Position, tt_move: Move) -> MovePicker {
        let in_check = pos.in_check();
        let tt = if in_check || tt_move.is_noisy() {
            tt_move
        } else {
            Move::NONE
        };
        let mut picker = MovePicker::new(pos, tt, [Move::NONE; 2], [None; CONTINUATION_PLIES]);
        picker.skip_quiets = !in_check;
        picker
    }

    /// Stops producing quiet moves (late-move pruning).
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// Every legal move in picker order, with empty history (for tests and tools). `tt_move`
    /// and `killers` may be any encodings, legal or not.
    pub fn all_moves(pos: &Position, tt_move: Move, killers: [Move; 2]) -> Vec<Move> {
        let history = History::default();
        let mut picker = MovePicker::new(pos, tt_move, killers, [None; CONTINUATION_PLIES]);
        std::iter::from_fn(|| picker.next(pos, &history)).collect()
    }

    fn pick_best(&mut self) -> Option<Move> {
        if self.index >= self.moves.len() {
            return None;
        }
        let mut best = self.index;
        for i in self.index + 1..self.moves.len() {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.index, best);
        self.scores.swap(self.index, best);
        self.index += 1;
        Some(self.moves[self.index - 1])
    }

    /// For the move returned last: `Some(see_ge(pos, mv, 0))` when the picker computed the
    /// exchange (captures sorted into good and bad), None otherwise. Callers reuse it instead
    /// of running the exchange again.
    pub fn last_see(&self) -> Option<bool> {
        self.last_see
    }

    /// The next move, or None when all are done.
    pub fn next(&mut self, pos: &Position, history: &History) -> Option<Move> {
        self.last_see = None;
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenNoisy;
                    if !self.tt_move.is_none() {
                        return Some(self.tt_move);
                    }
                }
                Stage::GenNoisy => {
                    pos.generate(GenType::Noisy, &mut self.moves);
                    for &mv in &self.moves {
                        let victim = pos.captured_piece(mv).map_or(0, |p| SEE_VALUES[p.kind().index()]);
                        let promo = mv.promotion().map_or(0, |k| SEE_VALUES[k.index()]);
                        self.scores.push((victim + promo) * 16 + history.capture_score(pos, mv));
                    }
                    self.index = 0;
                    self.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => match self.pick_best() {
                    Some(mv) if mv == self.tt_move => continue,
                    Some(mv) => {
                        // Captures losing material by the Alice SEE wait until after the quiets.
                        let under_promo = mv.promotion().is_some_and(|k| k != crate::types::PieceKind::Queen);
                        if under_promo {
                            self.bad.push(mv);
                            self.bad_see.push(None);
                            continue;
                        }
                        if !see_ge(pos, mv, 0) {
                            self.bad.push(mv);
                            self.bad_see.push(Some(false));
                            continue;
                        }
                        self.last_see = Some(true);
                        return Some(mv);
                    }
                    None => self.stage = Stage::Killers,
                },
                Stage::Killers => {
                    if self.skip_quiets {
                        self.stage = Stage::BadNoisy;
                        continue;
                    }
                    if self.killer_index >= 2 {
                        self.stage = Stage::GenQuiet;
                        continue;
                    }
                    let k = self.killers[self.killer_index];
                    self.killer_index += 1;
                    if !k.is_none() && k != self.tt_move && !k.is_noisy() && pos.is_legal(k) {
                        return Some(k);
                    }
                }
                Stage::GenQuiet => {
                    let start = self.moves.len();
                    pos.generate(GenType::Quiet, &mut self.moves);
                    debug_assert_eq!(self.scores.len(), start);
                    for &mv in &self.moves[start..] {
                        self.scores.push(history.quiet_score(pos, mv, self.prev));
                    }
                    self.index = start;
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if self.skip_quiets {
                        self.stage = Stage::BadNoisy;
                        continue;
                    }
                    match self.pick_best() {
                        Some(mv) if mv == self.tt_move || self.killers.contains(&mv) => continue,
                        Some(mv) => return Some(mv),
                        None => self.stage = Stage::BadNoisy,
                    }
                }
                Stage::BadNoisy => {
                    if self.bad_index < self.bad.len() {
                        self.bad_index += 1;
                        self.last_see = self.bad_see[self.bad_index - 1];
                        return Some(self.bad[self.bad_index - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}
