//! The Alice position: bitboards per board, side and kind, a mailbox per board, game state and
//! an incremental Zobrist key that includes the board of every piece.
//!
//! Arrays are sized for three boards (three-board Alice); a variant uses its first
//! `rules.boards()` boards and the others stay empty. Standard Alice never has a square occupied
//! on two boards; O'Donohue, Duo and three-board Alice may (see `Variant::shared_squares`).

mod castling;
mod fen;
mod fen_write;
mod generic;
mod legal;
mod makemove;
mod movegen;
/// Move generation types.
pub mod movegen_api {
    pub use super::movegen::GenType;
}
mod notation;
mod sanity;
mod validate;

pub use castling::{CastleSide, CastlingRights};
pub use fen::{FenError, FenStyle};
pub use notation::{MoveParseError, MoveStyle};

use crate::attacks;
use crate::rules::{EnPassant, Rules};
use crate::types::{Bitboard, BoardId, Color, Move, MoveKind, Piece, PieceKind, Square};
use castling::CastlingConfig;

const NO_PIECE: u8 = 12;
/// Two empty mailbox cells (one byte holds two squares, 4 bits each).
const NO_PIECES: u8 = NO_PIECE | NO_PIECE << 4;

/// An Alice position. Cheap to copy (copy-make is the undo mechanism): with room for three boards
/// it stays within 512 bytes (4-bit mailbox cells) and is aligned to a cache line, which keeps
/// the copy a short run of aligned vector moves (measured: standard-Alice perft speed).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(align(64))]
pub struct Position {
    /// [board][color][kind] piece sets.
    pieces: [[[Bitboard; 6]; 2]; 3],
    /// [board][color] occupancy.
    by_color: [[Bitboard; 2]; 3],
    /// [board] occupancy.
    occupied: [Bitboard; 3],
    /// [board][square / 2] piece index or `NO_PIECE`, 4 bits per square (even squares low).
    mailbox: [[u8; 32]; 3],
    side: Color,
    castling: CastlingRights,
    /// The square a pawn passed over with its last double step (written after every double step).
    ep_square: Option<Square>,
    /// The board the double-stepped pawn landed on (A when there is no en passant square).
    ep_board: BoardId,
    /// [color] square and board of the king (kept by make; derivable from the piece sets).
    king_sq: [Square; 2],
    king_bd: [BoardId; 2],
    halfmove: u16,
    fullmove: u16,
    key: u64,
    /// Enemy pieces giving check to the side to move.
    checkers: Bitboard,
    rules: Rules,
    castle_config: CastlingConfig,
}

impl Position {
    /// An empty position (no pieces), White to move, under `rules`.
    pub fn empty(rules: Rules) -> Position {
        Position {
            pieces: [[[Bitboard::EMPTY; 6]; 2]; 3],
            by_color: [[Bitboard::EMPTY; 2]; 3],
            occupied: [Bitboard::EMPTY; 3],
            mailbox: [[NO_PIECES; 32]; 3],
            side: Color::White,
            castling: CastlingRights::NONE,
            ep_square: None,
            ep_board: BoardId::A,
            king_sq: [Square::new(4), Square::new(60)],
            king_bd: [BoardId::A; 2],
            halfmove: 0,
            fullmove: 1,
            key: 0,
            checkers: Bitboard::EMPTY,
            rules,
            castle_config: CastlingConfig::standard(),
        }
    }

    /// The start position of standard Alice.
    pub fn startpos() -> Position {
        Position::from_fen(crate::rules::Variant::Alice.start_fen(), Rules::default()).expect("start FEN is valid")
    }

    /// The start position of `rules.variant` under `rules`.
    pub fn start(rules: Rules) -> Position {
        Position::from_fen(rules.variant.start_fen(), rules).expect("start FEN is valid")
    }

    /// Rules of this position.
    #[inline(always)]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Changes the en passant option, keeping the variant (recomputes the key, which depends on
    /// the en passant option). The variant and Chess960 flag of a position cannot change: they
    /// decide how its FEN was read; parse the FEN again under the new rules instead.
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules.en_passant = rules.en_passant;
        self.key = self.compute_key();
        self.checkers = self.compute_checkers();
        self.drop_idle_ep_square();
    }

    /// The boards of this variant: A and B, or A, B and C.
    #[inline(always)]
    pub fn boards(&self) -> &'static [BoardId] {
        &BoardId::ALL[..self.rules.boards()]
    }

    /// The boards of this variant other than `board`.
    #[inline(always)]
    pub fn other_boards(&self, board: BoardId) -> impl Iterator<Item = BoardId> {
        self.boards().iter().copied().filter(move |&b| b != board)
    }

    /// Side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Castling rights.
    #[inline(always)]
    pub fn castling(&self) -> CastlingRights {
        self.castling
    }

    /// Where king and rook of `color` stand after castling on `side` (the same squares in
    /// Chess960), on the board they transfer to.
    pub fn castle_destinations(&self, color: Color, side: CastleSide) -> (Square, Square) {
        CastlingConfig::destinations(color, side)
    }

    /// Where king and rook of `color` start for a castling on `side` (standard or Chess960).
    pub fn castle_starts(&self, color: Color, side: CastleSide) -> (Square, Square) {
        let config = &self.castle_config;
        (config.king[color.index()], config.rook[color.index()][side as usize])
    }

    /// Square passed over by the last double step, if the last move was one.
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// The board the pawn of the last double step stands on (meaningful with `ep_square`).
    #[inline(always)]
    pub fn ep_board(&self) -> BoardId {
        self.ep_board
    }

    /// Plies since the last capture or pawn move.
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// Move number (starts at 1, incremented after Black's move).
    #[inline(always)]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// Zobrist key (board-aware).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Pieces of `color` and `kind` on `board`.
    #[inline(always)]
    pub fn pieces(&self, board: BoardId, color: Color, kind: PieceKind) -> Bitboard {
        self.pieces[board.index()][color.index()][kind.index()]
    }

    /// Pieces of `color` and `kind` on every board together (both boards, or all three).
    #[inline(always)]
    pub fn pieces_both(&self, color: Color, kind: PieceKind) -> Bitboard {
        let (c, k) = (color.index(), kind.index());
        self.pieces[0][c][k] | self.pieces[1][c][k] | self.pieces[2][c][k]
    }

    /// All pieces of `color` on `board`.
    #[inline(always)]
    pub fn color_on(&self, board: BoardId, color: Color) -> Bitboard {
        self.by_color[board.index()][color.index()]
    }

    /// All pieces on `board`.
    #[inline(always)]
    pub fn occupied(&self, board: BoardId) -> Bitboard {
        self.occupied[board.index()]
    }

    /// Squares occupied on any board.
    #[inline(always)]
    pub fn occupied_any(&self) -> Bitboard {
        self.occupied[0] | self.occupied[1] | self.occupied[2]
    }

    /// Piece on `sq` of `board`.
    #[inline(always)]
    pub fn piece_on(&self, board: BoardId, sq: Square) -> Option<Piece> {
        let p = self.cell(board.index(), sq);
        (p != NO_PIECE).then(|| Piece::from_index(p))
    }

    /// The mailbox entry of `sq` on board `b`: a piece index or `NO_PIECE`.
    #[inline(always)]
    fn cell(&self, b: usize, sq: Square) -> u8 {
        (self.mailbox[b][sq.index() >> 1] >> ((sq.index() & 1) * 4)) & 15
    }

    /// Sets the mailbox entry of `sq` on board `b`.
    #[inline(always)]
    fn set_cell(&mut self, b: usize, sq: Square, value: u8) {
        let shift = (sq.index() & 1) * 4;
        let byte = &mut self.mailbox[b][sq.index() >> 1];
        *byte = (*byte & !(15 << shift)) | (value << shift);
    }

    /// The piece on `sq` and its board, looking at board A first, then B, then C.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<(Piece, BoardId)> {
        BoardId::ALL
            .into_iter()
            .find_map(|b| self.piece_on(b, sq).map(|p| (p, b)))
    }

    /// Square of `color`'s king (a position always has exactly one king per side).
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        self.king_sq[color.index()]
    }

    /// Board of `color`'s king.
    #[inline(always)]
    pub fn king_board(&self, color: Color) -> BoardId {
        self.king_bd[color.index()]
    }

    /// Square and board of `color`'s king found from the piece sets (which must hold one).
    pub(crate) fn find_king(&self, color: Color) -> (Square, BoardId) {
        let board = self
            .boards()
            .iter()
            .copied()
            .find(|&b| self.pieces(b, color, PieceKind::King).any())
            .unwrap_or(BoardId::A);
        (self.pieces_both(color, PieceKind::King).lsb(), board)
    }

    /// Sets the king fields from the piece sets (after placing pieces).
    pub(crate) fn locate_kings(&mut self) {
        for color in Color::BOTH {
            let (sq, board) = self.find_king(color);
            self.king_sq[color.index()] = sq;
            self.king_bd[color.index()] = board;
        }
    }

    /// Squares of the enemy pieces giving check to the side to move: on the king's board, and
    /// in Duo also the king's own square when an enemy piece stands on its zero square.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// True when the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// Pieces of `by` on `board` that attack `sq` of that board, with blockers `occ`.
    #[inline(always)]
    pub fn attackers(&self, sq: Square, board: BoardId, occ: Bitboard, by: Color) -> Bitboard {
        let p = &self.pieces[board.index()][by.index()];
        let bq = p[PieceKind::Bishop.index()] | p[PieceKind::Queen.index()];
        let rq = p[PieceKind::Rook.index()] | p[PieceKind::Queen.index()];
        (attacks::pawn(by.flip(), sq) & p[PieceKind::Pawn.index()])
            | (attacks::knight(sq) & p[PieceKind::Knight.index()])
            | (attacks::king(sq) & p[PieceKind::King.index()])
            | (attacks::bishop(sq, occ) & bq)
            | (attacks::rook(sq, occ) & rq)
    }

    /// True when `by` attacks `sq` on `board` with blockers `occ`.
    #[inline(always)]
    pub fn is_attacked(&self, sq: Square, board: BoardId, occ: Bitboard, by: Color) -> bool {
        let p = &self.pieces[board.index()][by.index()];
        let bq = p[PieceKind::Bishop.index()] | p[PieceKind::Queen.index()];
        let rq = p[PieceKind::Rook.index()] | p[PieceKind::Queen.index()];
        (attacks::knight(sq) & p[PieceKind::Knight.index()]).any()
            || (attacks::pawn(by.flip(), sq) & p[PieceKind::Pawn.index()]).any()
            || (attacks::king(sq) & p[PieceKind::King.index()]).any()
            || (attacks::bishop(sq, occ) & bq).any()
            || (attacks::rook(sq, occ) & rq).any()
    }

    /// Enemy sliders on the king's board that would attack the king of `us` through `occ`,
    /// ignoring enemy pieces in `removed`.
    #[inline(always)]
    pub(crate) fn slider_attacks_king(&self, us: Color, occ: Bitboard, removed: Bitboard) -> bool {
        let kb = self.king_board(us);
        let ksq = self.king_square(us);
        let p = &self.pieces[kb.index()][us.flip().index()];
        let bq = (p[PieceKind::Bishop.index()] | p[PieceKind::Queen.index()]) & !removed;
        let rq = (p[PieceKind::Rook.index()] | p[PieceKind::Queen.index()]) & !removed;
        (attacks::bishop(ksq, occ) & bq).any() || (attacks::rook(ksq, occ) & rq).any()
    }

    /// Our pieces on the king's board that are the only blocker between our king and an
    /// enemy slider there. Such a piece cannot leave the board unless it captures the slider.
    #[inline(always)]
    pub fn pinned(&self, us: Color) -> Bitboard {
        let kb = self.king_board(us);
        let ksq = self.king_square(us);
        let them = us.flip();
        let occ = self.occupied(kb);
        let snipers = (attacks::rook(ksq, Bitboard::EMPTY)
            & (self.pieces(kb, them, PieceKind::Rook) | self.pieces(kb, them, PieceKind::Queen)))
            | (attacks::bishop(ksq, Bitboard::EMPTY)
                & (self.pieces(kb, them, PieceKind::Bishop) | self.pieces(kb, them, PieceKind::Queen)));
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = attacks::between(ksq, sniper) & occ;
            if blockers.any() && !blockers.more_than_one() {
                pinned |= blockers & self.color_on(kb, us);
            }
        }
        pinned
    }

    /// Recomputes the checkers of the side to move from scratch.
    pub(crate) fn compute_checkers(&self) -> Bitboard {
        let us = self.side;
        let kb = self.king_board(us);
        let ksq = self.king_square(us);
        let checkers = self.attackers(ksq, kb, self.occupied(kb), us.flip());
        if self.rules.variant == crate::rules::Variant::Duo && self.color_on(kb.other(), us.flip()).has(ksq) {
            return checkers | Bitboard::from_square(ksq);
        }
        checkers
    }

    /// True when a king of `by`'s opponent standing on `sq` of `board` (with blockers `occ`
    /// there) would be in check: `by` attacks it on that board, or (Duo) a piece of `by`
    /// stands on its zero square, the same square of the other board.
    #[inline(always)]
    pub fn king_square_attacked(&self, sq: Square, board: BoardId, occ: Bitboard, by: Color) -> bool {
        self.is_attacked(sq, board, occ, by)
            || (self.rules.variant == crate::rules::Variant::Duo && self.color_on(board.other(), by).has(sq))
    }

    /// True when `color`'s king is in check (the variant's check rule).
    #[inline(always)]
    pub fn king_in_check(&self, color: Color) -> bool {
        let kb = self.king_board(color);
        self.king_square_attacked(self.king_square(color), kb, self.occupied(kb), color.flip())
    }

    /// Squares where a piece moving on `board` cannot land: occupied on the other board (on
    /// both other boards in three-board Alice); never blocked in O'Donohue and Duo, where a
    /// piece may stay on its board.
    #[inline(always)]
    pub fn landing_blocked(&self, board: BoardId) -> Bitboard {
        match self.rules.variant {
            crate::rules::Variant::ODonohue | crate::rules::Variant::Duo => Bitboard::EMPTY,
            crate::rules::Variant::Alice3 => {
                let mut blocked = Bitboard::FULL;
                for b in self.other_boards(board) {
                    blocked &= self.occupied(b);
                }
                blocked
            }
            _ => self.occupied(board.other()),
        }
    }

    /// Puts `piece` on `sq` of `board` (the cell must be empty), updating the key.
    #[inline(always)]
    pub(crate) fn put(&mut self, board: BoardId, piece: Piece, sq: Square) {
        let bb = Bitboard::from_square(sq);
        let (b, c) = (board.index(), piece.color().index());
        self.pieces[b][c][piece.kind().index()] |= bb;
        self.by_color[b][c] |= bb;
        self.occupied[b] |= bb;
        self.set_cell(b, sq, piece.index() as u8);
        self.key ^= attacks::zobrist_piece(b, piece.index(), sq);
    }

    /// Removes the piece on `sq` of `board` (which must hold one) and returns it.
    #[inline(always)]
    pub(crate) fn remove(&mut self, board: BoardId, sq: Square) -> Piece {
        let b = board.index();
        let piece = Piece::from_index(self.cell(b, sq));
        let bb = Bitboard::from_square(sq);
        let c = piece.color().index();
        self.pieces[b][c][piece.kind().index()] ^= bb;
        self.by_color[b][c] ^= bb;
        self.occupied[b] ^= bb;
        self.set_cell(b, sq, NO_PIECE);
        self.key ^= attacks::zobrist_piece(b, piece.index(), sq);
        piece
    }

    /// The en passant key component: present only when the option is on and an enemy pawn
    /// on the double-stepped pawn's board stands beside it (so a capture may be possible).
    pub(crate) fn ep_key(&self) -> u64 {
        match self.ep_capturers() {
            Some((_, _, capturers)) if capturers.any() => attacks::zobrist_ep(self.ep_square.map_or(0, |s| s.file())),
            _ => 0,
        }
    }

    /// For an active en passant square: (passed pawn square, its board, pawns of the side to
    /// move on that board attacking the passed square). None when the option is off.
    pub(crate) fn ep_capturers(&self) -> Option<(Square, BoardId, Bitboard)> {
        let ep = self.ep_square?;
        if self.rules.ep_mode() == EnPassant::Off {
            return None;
        }
        let them = self.side.flip();
        let pawn_sq = match self.side {
            Color::White => ep.offset(-8),
            Color::Black => ep.offset(8),
        };
        let board = self.ep_board;
        if !self.pieces(board, them, PieceKind::Pawn).has(pawn_sq) {
            return None;
        }
        Some((
            pawn_sq,
            board,
            attacks::pawn(them, ep) & self.pieces(board, self.side, PieceKind::Pawn),
        ))
    }

    /// True when the en passant square changes what the side to move can play under the
    /// active option: a pawn of the side to move on the passed pawn's board can make the en
    /// passant capture (a legal move), or, in `double` mode, an enemy piece stands on the
    /// passed square where such a pawn attacks it (its capture then takes the passed pawn too,
    /// legal or not). A position keeps its en passant square only then, so the FEN writes it
    /// only then (`-` with the option off, as Fairy-Stockfish and the playing sites write it)
    /// and reads back the same position.
    pub(crate) fn ep_capture_possible(&self) -> bool {
        let (Some(ep), Some((_, board, capturers))) = (self.ep_square, self.ep_capturers()) else {
            return false;
        };
        if self.color_on(board, self.side.flip()).has(ep) {
            return capturers.any() && self.rules.ep_mode() == EnPassant::Double;
        }
        // Each capturer, landing wherever the variant lets it (the capture leaves no en passant
        // square behind, so this test does not recurse).
        let mut lawful = false;
        for from in capturers {
            for &landing in self.boards() {
                lawful |= self.is_legal(Move::new(from, board, ep, landing, MoveKind::EnPassant, true));
            }
        }
        lawful
    }

    /// Forgets an en passant square that changes nothing (see [`Position::ep_capture_possible`]),
    /// taking it out of the key.
    pub(crate) fn drop_idle_ep_square(&mut self) {
        if self.ep_square.is_some() && !self.ep_capture_possible() {
            self.key ^= self.ep_key();
            self.ep_square = None;
            self.ep_board = BoardId::A;
        }
    }

    /// The key recomputed from scratch.
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for &board in self.boards() {
            for sq in self.occupied(board) {
                let p = self.cell(board.index(), sq) as usize;
                key ^= attacks::zobrist_piece(board.index(), p, sq);
            }
        }
        key ^= attacks::zobrist_castling(self.castling.bits());
        if self.side == Color::Black {
            key ^= attacks::zobrist_side();
        }
        key ^ self.ep_key()
    }

    /// True when only the two kings are left (the one insufficient-material draw proven
    /// for Alice).
    pub fn bare_kings(&self) -> bool {
        self.piece_count() == 2
    }

    /// Number of pieces (kings included) on all boards.
    pub fn piece_count(&self) -> u32 {
        self.occupied[0].count() + self.occupied[1].count() + self.occupied[2].count()
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

impl Position {
    /// True when every piece stands on the same square of the same board in both positions.
    pub fn same_placement(&self, other: &Position) -> bool {
        self.pieces == other.pieces
    }
}
