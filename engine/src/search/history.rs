//! Move-ordering statistics learned during the search. Every table is indexed by the moving
//! piece, its destination square and its landing board, so the same square on board A and
//! on board B are different destinations. Board C of three-board Alice shares board B's cells
//! (`cell_board`), which keeps the tables at their two-board size.

use crate::position::Position;
use crate::types::{BoardId, Color, Move, Piece, PieceKind};

const MAX_HISTORY: i32 = 16_384;
/// Cells of a destination: 2 boards x 64 squares (board C shares board B's).
const CELLS: usize = 128;
/// (piece, landing cell) pairs.
const PIECE_CELLS: usize = 12 * CELLS;

/// Index of a (piece, landing cell) pair.
#[inline(always)]
pub fn piece_cell(piece: Piece, mv: Move) -> usize {
    piece.index() * CELLS + cell_board(mv.to_board()) * 64 + mv.to().index()
}

/// The table index of a board: A = 0, B and C = 1.
#[inline(always)]
fn cell_board(board: BoardId) -> usize {
    board.index().min(1)
}

/// Gravity update: moves the entry towards the bonus's sign, saturating at the bounds.
#[inline(always)]
fn update(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-MAX_HISTORY, MAX_HISTORY);
    let v = *entry as i32;
    *entry = (v + bonus - v * bonus.abs() / MAX_HISTORY) as i16;
}

/// Bonus for a move that caused a cutoff at `depth`.
pub fn bonus(depth: i32) -> i32 {
    (depth * 300 - 250).clamp(0, 2500)
}

/// Entries of each correction table, per side to move.
const CORRECTION_ENTRIES: usize = 16_384;
/// Correction tables: pawn structure, material, White's and Black's non-pawn placement.
const CORRECTION_TABLES: usize = 4;
/// Correction entries are kept in 1/256 cp.
const CORRECTION_GRAIN: i32 = 256;
/// Largest correction, in cp.
const CORRECTION_LIMIT: i32 = 128;

/// Folds one bitboard into a running key (`slot` tells apart the boards and colours).
#[inline(always)]
fn fold(key: u64, bits: u64, slot: u64) -> u64 {
    let salt = 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(1 + slot);
    (key ^ (bits ^ salt).wrapping_mul(0xBF58_476D_1CE4_E5B9)).rotate_left(23)
}

/// A key of the pawn placement on every board (both colours).
#[inline(always)]
fn pawn_key(pos: &Position) -> u64 {
    let mut key = 0u64;
    for &board in pos.boards() {
        for color in Color::BOTH {
            let pawns = pos.pieces(board, color, PieceKind::Pawn).0;
            key = fold(key, pawns, 2 * board.index() as u64 + color.index() as u64);
        }
    }
    key ^ (key >> 29)
}

/// A key of the placement of `color`'s pieces other than pawns, on every board.
#[inline(always)]
fn non_pawn_key(pos: &Position, color: Color) -> u64 {
    let mut key = 0u64;
    for &board in pos.boards() {
        let pieces = pos.color_on(board, color).0 & !pos.pieces(board, color, PieceKind::Pawn).0;
        key = fold(key, pieces, board.index() as u64);
    }
    key ^ (key >> 29)
}

/// A key of the material: how many pieces of each kind each side has, whatever the board.
#[inline(always)]
fn material_key(pos: &Position) -> u64 {
    let mut key = 0u64;
    for color in Color::BOTH {
        for kind in PieceKind::NON_KING {
            let count = pos.pieces_both(color, kind).count() as u64;
            key = fold(key, count, 6 * color.index() as u64 + kind.index() as u64);
        }
    }
    key ^ (key >> 29)
}

/// How many earlier moves give context to the continuation history (1, 2 and 4 plies back).
pub const CONTINUATION_PLIES: usize = 3;
/// The (piece cell) of the moves 1, 2 and 4 plies back, where there were moves.
pub type PrevMoves = [Option<usize>; CONTINUATION_PLIES];

/// All history tables of one search thread.
pub struct History {
    /// Correction history: [table][side][key] -> how far the static evaluation of positions
    /// with such pawns, material or non-pawn placement missed the search results, in 1/256 cp.
    correction: Vec<i32>,
    /// Quiet history: [side][from cell][to cell] (the butterfly table).
    butterfly: Vec<i16>,
    /// Capture history: [piece cell][captured kind].
    capture: Vec<i16>,
    /// Continuation history: [previous piece cell][piece cell].
    continuation: Vec<i16>,
    /// Killer moves per ply.
    pub killers: Vec<[Move; 2]>,
}

impl Default for History {
    fn default() -> Self {
        History::new(true)
    }
}

impl History {
    /// Tables for one thread. The continuation table (4.7 MB) is kept only where asked for:
    /// Lazy SMP threads past the first few go without it, so hundreds of threads cost little
    /// memory and `ucinewgame` stays instant.
    pub fn new(with_continuation: bool) -> History {
        History {
            correction: vec![0; CORRECTION_TABLES * 2 * CORRECTION_ENTRIES],
            butterfly: vec![0; 2 * CELLS * CELLS],
            capture: vec![0; PIECE_CELLS * 6],
            continuation: if with_continuation {
                vec![0; PIECE_CELLS * PIECE_CELLS]
            } else {
                Vec::new()
            },
            killers: vec![[Move::NONE; 2]; crate::search::MAX_PLY + 2],
        }
    }
}

#[inline(always)]
fn butterfly_index(pos: &Position, mv: Move) -> usize {
    let from = cell_board(mv.from_board()) * 64 + mv.from().index();
    let to = cell_board(mv.to_board()) * 64 + mv.to().index();
    (pos.side_to_move().index() * CELLS + from) * CELLS + to
}

impl History {
    /// Forgets everything (new game). The tables are allocated afresh: zeroed allocations are
    /// lazy, so idle threads' tables (up to 1024 threads) never touch memory or take time.
    pub fn clear(&mut self) {
        *self = History::new(!self.continuation.is_empty());
    }

    /// The entry of `pos` in each correction table.
    #[inline(always)]
    fn correction_indices(pos: &Position) -> [usize; CORRECTION_TABLES] {
        let keys = [
            pawn_key(pos),
            material_key(pos),
            non_pawn_key(pos, Color::White),
            non_pawn_key(pos, Color::Black),
        ];
        let side = pos.side_to_move().index();
        std::array::from_fn(|t| (t * 2 + side) * CORRECTION_ENTRIES + (keys[t] as usize & (CORRECTION_ENTRIES - 1)))
    }

    /// Correction history: the amount (cp) by which searches of positions with these pawns,
    /// this material and this placement of each side's pieces came out above their static
    /// evaluation; added to the static evaluation so pruning decisions start from a better
    /// estimate. Each table learns part of the error (they are updated together), and the
    /// sum is bounded like one table.
    #[inline(always)]
    pub fn correction(&self, pos: &Position) -> i32 {
        let sum: i32 = Self::correction_indices(pos).iter().map(|&i| self.correction[i]).sum();
        (sum / CORRECTION_GRAIN).clamp(-CORRECTION_LIMIT, CORRECTION_LIMIT)
    }

    /// Moves the corrections of `pos` towards `error` (search result minus corrected static
    /// evaluation), weighted by `depth`.
    pub fn update_correction(&mut self, pos: &Position, depth: i32, error: i32) {
        let weight = (depth + 1).min(16);
        let limit = CORRECTION_LIMIT * CORRECTION_GRAIN;
        for i in Self::correction_indices(pos) {
            let entry = &mut self.correction[i];
            let target = error.clamp(-CORRECTION_LIMIT, CORRECTION_LIMIT) * CORRECTION_GRAIN + *entry;
            *entry = ((*entry * (256 - weight) + target * weight) / 256).clamp(-limit, limit);
        }
    }

    /// Forgets the killers (new search).
    pub fn clear_killers(&mut self) {
        self.killers.fill([Move::NONE; 2]);
    }

    /// Ordering score of a quiet move; `prev` are the (piece cell) of the moves 1, 2 and 4 plies ago.
    #[inline(always)]
    pub fn quiet_score(&self, pos: &Position, mv: Move, prev: PrevMoves) -> i32 {
        let mut score = self.butterfly[butterfly_index(pos, mv)] as i32;
        if let Some(piece) = pos.moved_piece(mv) {
            let cell = piece_cell(piece, mv);
            for p in prev.into_iter().flatten() {
                score += self.continuation.get(p * PIECE_CELLS + cell).map_or(0, |&v| v as i32);
            }
        }
        score
    }

    /// Ordering score of a capture (history part).
    #[inline(always)]
    pub fn capture_score(&self, pos: &Position, mv: Move) -> i32 {
        match (pos.moved_piece(mv), pos.captured_piece(mv)) {
            (Some(p), Some(c)) => self.capture[piece_cell(p, mv) * 6 + c.kind().index()] as i32,
            _ => 0,
        }
    }

    /// Rewards `best` (a quiet cutoff move) and punishes the quiets tried before it.
    pub fn reward_quiet(
        &mut self,
        pos: &Position,
        best: Move,
        tried: &[Move],
        depth: i32,
        ply: usize,
        prev: PrevMoves,
    ) {
        let b = bonus(depth);
        let killers = &mut self.killers[ply];
        if killers[0] != best {
            killers[1] = killers[0];
            killers[0] = best;
        }
        for &mv in tried {
            let sign = if mv == best { b } else { -b };
            update(&mut self.butterfly[butterfly_index(pos, mv)], sign);
            if let Some(piece) = pos.moved_piece(mv) {
                let cell = piece_cell(piece, mv);
                for p in prev.into_iter().flatten() {
                    if let Some(entry) = self.continuation.get_mut(p * PIECE_CELLS + cell) {
                        update(entry, sign);
                    }
                }
            }
        }
    }

    /// Rewards a capture that caused a cutoff and punishes the captures tried before it.
    pub fn reward_capture(&mut self, pos: &Position, best: Move, tried: &[Move], depth: i32) {
        let b = bonus(depth);
        for &mv in tried {
            if let (Some(p), Some(c)) = (pos.moved_piece(mv), pos.captured_piece(mv)) {
                let sign = if mv == best { b } else { -b };
                update(&mut self.capture[piece_cell(p, mv) * 6 + c.kind().index()], sign);
            }
        }
    }
}
