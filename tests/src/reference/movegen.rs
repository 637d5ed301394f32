//! Move generation, making moves and attack detection for the reference generator.
//!
//! Moves are generated "pseudo-legally" (docs/rules.md §1 items 1-3 and 6 for castling), then each is
//! made on a copy of the position and kept only if the mover's king is safe (items 5 and 6).

use super::{
    offset, square_name, Color, EpMode, Kind, RefPosition, BLACK_KINGSIDE, BLACK_QUEENSIDE, WHITE_KINGSIDE,
    WHITE_QUEENSIDE,
};

/// Knight steps as (files, ranks).
const KNIGHT_STEPS: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

/// King steps as (files, ranks).
const KING_STEPS: [(i8, i8); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

/// Rook directions as (files, ranks).
const ROOK_DIRECTIONS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// Bishop directions as (files, ranks).
const BISHOP_DIRECTIONS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Promotion choices, in the order they are generated.
const PROMOTIONS: [Kind; 4] = [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight];

/// What a move does beyond "take what stands on the destination of board X, transfer to Y".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Special {
    /// Nothing more.
    Plain,
    /// A pawn's double step: the en passant square is set to the passed-over square.
    DoubleStep,
    /// En passant: the passed pawn on `passed` (board X) is removed as well. In `double` mode the
    /// destination may also hold an enemy piece, which is taken too.
    EnPassant { passed: u8 },
    /// Castling: the rook moves from `rook_from` on X to `rook_to` on Y.
    Castle { rook_from: u8, rook_to: u8 },
}

/// A move of the piece standing on `from` of board `board` (X) to `to` (landing on the other
/// board, Y).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Move {
    /// The board the piece moves on (0 = A, 1 = B).
    pub(crate) board: usize,
    /// Origin square.
    pub(crate) from: u8,
    /// Destination square.
    pub(crate) to: u8,
    /// The piece a pawn promotes to, if any.
    pub(crate) promotion: Option<Kind>,
    /// Extra effects.
    pub(crate) special: Special,
}

impl Move {
    /// The UCI text of the move: `e2e4`, `e7e8q`, castling as the king's move `e1g1`.
    pub(crate) fn uci(&self) -> String {
        let mut text = format!("{}{}", square_name(self.from), square_name(self.to));
        if let Some(kind) = self.promotion {
            text.push(match kind {
                Kind::Queen => 'q',
                Kind::Rook => 'r',
                Kind::Bishop => 'b',
                _ => 'n',
            });
        }
        text
    }
}

/// One castling option: the right, king origin and destination, rook origin and destination,
/// the squares that must be empty on X, the squares the king stands on or crosses.
struct CastlingRule {
    right: usize,
    king_from: u8,
    king_to: u8,
    rook_from: u8,
    rook_to: u8,
    empty: &'static [u8],
    king_path: &'static [u8],
}

/// The four castlings of standard chess (squares: e1 = 4, a1 = 0, h1 = 7, e8 = 60, ...).
const CASTLING_RULES: [CastlingRule; 4] = [
    CastlingRule {
        right: WHITE_KINGSIDE,
        king_from: 4,
        king_to: 6,
        rook_from: 7,
        rook_to: 5,
        empty: &[5, 6],
        king_path: &[4, 5, 6],
    },
    CastlingRule {
        right: WHITE_QUEENSIDE,
        king_from: 4,
        king_to: 2,
        rook_from: 0,
        rook_to: 3,
        empty: &[1, 2, 3],
        king_path: &[4, 3, 2],
    },
    CastlingRule {
        right: BLACK_KINGSIDE,
        king_from: 60,
        king_to: 62,
        rook_from: 63,
        rook_to: 61,
        empty: &[61, 62],
        king_path: &[60, 61, 62],
    },
    CastlingRule {
        right: BLACK_QUEENSIDE,
        king_from: 60,
        king_to: 58,
        rook_from: 56,
        rook_to: 59,
        empty: &[57, 58, 59],
        king_path: &[60, 59, 58],
    },
];

impl RefPosition {
    /// Whether `sq` on board `board` is attacked by a piece of colour `by` standing on that board
    /// (only pieces on that board are seen).
    pub(crate) fn attacked(&self, board: usize, sq: u8, by: Color) -> bool {
        let cells = &self.cells[board];
        let holds = |s: Option<u8>, kind: Kind| s.is_some_and(|s| cells[s as usize] == Some((by, kind)));
        // A white pawn attacks upwards, so it stands one rank below the square it attacks.
        let pawn_rank = if by == Color::White { -1 } else { 1 };
        if holds(offset(sq, -1, pawn_rank), Kind::Pawn) || holds(offset(sq, 1, pawn_rank), Kind::Pawn) {
            return true;
        }
        if KNIGHT_STEPS.iter().any(|&(f, r)| holds(offset(sq, f, r), Kind::Knight)) {
            return true;
        }
        if KING_STEPS.iter().any(|&(f, r)| holds(offset(sq, f, r), Kind::King)) {
            return true;
        }
        let slider_hits = |directions: &[(i8, i8)], kind: Kind| {
            directions.iter().any(|&(f, r)| {
                let mut current = sq;
                while let Some(next) = offset(current, f, r) {
                    match cells[next as usize] {
                        None => current = next,
                        Some(piece) => return piece == (by, kind) || piece == (by, Kind::Queen),
                    }
                }
                false
            })
        };
        slider_hits(&ROOK_DIRECTIONS, Kind::Rook) || slider_hits(&BISHOP_DIRECTIONS, Kind::Bishop)
    }

    /// Whether a king of colour `color` is attacked on the board where it stands.
    pub(crate) fn king_attacked(&self, color: Color) -> bool {
        (0..2).any(|board| {
            (0..64u8).any(|sq| {
                self.cells[board][sq as usize] == Some((color, Kind::King))
                    && self.attacked(board, sq, color.opponent())
            })
        })
    }

    /// The en passant capture available, if any: (board of the passed pawn, passed-over square,
    /// square of the passed pawn).
    fn en_passant_target(&self) -> Option<(usize, u8, u8)> {
        let ep = self.ep?;
        // White to move: a black pawn passed over rank 6 and stands on rank 5 (and vice versa).
        let (expected_rank, passed) = match self.side {
            Color::White => (5, ep.checked_sub(8)?),
            Color::Black => (2, ep + 8),
        };
        if ep / 8 != expected_rank {
            return None;
        }
        let enemy_pawn = Some((self.side.opponent(), Kind::Pawn));
        let board = (0..2).find(|&b| self.cells[b][passed as usize] == enemy_pawn)?;
        Some((board, ep, passed))
    }

    /// All pseudo-legal moves: docs/rules.md §1 items 1-3, castling complete, en passant per `mode`.
    /// The mover's king safety after the move (items 5 and 6) is checked by [`Self::try_move`].
    pub(crate) fn pseudo_moves(&self, mode: EpMode) -> Vec<Move> {
        let mut moves = Vec::new();
        let ep = match mode {
            EpMode::Off => None,
            EpMode::Normal | EpMode::Double => self.en_passant_target(),
        };
        for board in 0..2 {
            for from in 0..64u8 {
                match self.cells[board][from as usize] {
                    Some((color, kind)) if color == self.side => {
                        self.piece_moves(board, from, kind, mode, ep, &mut moves)
                    }
                    _ => {}
                }
            }
        }
        self.castling_moves(&mut moves);
        // Rule 2: the destination must be empty on the other board (for a capture too).
        moves.retain(|mv| self.cells[1 - mv.board][mv.to as usize].is_none());
        moves
    }

    /// Moves of the piece `kind` of the side to move standing on `from` of `board`, by the
    /// ordinary chess rules on that board (castling excluded).
    fn piece_moves(
        &self,
        board: usize,
        from: u8,
        kind: Kind,
        mode: EpMode,
        ep: Option<(usize, u8, u8)>,
        moves: &mut Vec<Move>,
    ) {
        let cells = &self.cells[board];
        let mut add = |to: u8, promotion: Option<Kind>, special: Special| {
            moves.push(Move {
                board,
                from,
                to,
                promotion,
                special,
            })
        };
        // A target square can be entered if it is empty or holds an enemy piece (on this board).
        let enterable = |to: u8| cells[to as usize].is_none_or(|(c, _)| c != self.side);
        match kind {
            Kind::Knight | Kind::King => {
                let steps = if kind == Kind::Knight {
                    &KNIGHT_STEPS
                } else {
                    &KING_STEPS
                };
                for &(f, r) in steps {
                    if let Some(to) = offset(from, f, r).filter(|&to| enterable(to)) {
                        add(to, None, Special::Plain);
                    }
                }
            }
            Kind::Bishop | Kind::Rook | Kind::Queen => {
                let directions: Vec<(i8, i8)> = match kind {
                    Kind::Bishop => BISHOP_DIRECTIONS.to_vec(),
                    Kind::Rook => ROOK_DIRECTIONS.to_vec(),
                    _ => [ROOK_DIRECTIONS, BISHOP_DIRECTIONS].concat(),
                };
                for (f, r) in directions {
                    let mut current = from;
                    while let Some(to) = offset(current, f, r) {
                        if enterable(to) {
                            add(to, None, Special::Plain);
                        }
                        if cells[to as usize].is_some() {
                            break;
                        }
                        current = to;
                    }
                }
            }
            Kind::Pawn => {
                let white = self.side == Color::White;
                let forward = if white { 1 } else { -1 };
                let start_rank = if white { 1 } else { 6 };
                let last_rank = if white { 7 } else { 0 };
                let promotions: &[Kind] = &PROMOTIONS;
                let mut add_pawn = |to: u8, special: Special| {
                    if to / 8 == last_rank {
                        for &promotion in promotions {
                            add(to, Some(promotion), special);
                        }
                    } else {
                        add(to, None, special);
                    }
                };
                // Steps forward: the square(s) must be empty on this board.
                if let Some(one) = offset(from, 0, forward).filter(|&s| cells[s as usize].is_none()) {
                    add_pawn(one, Special::Plain);
                    if from / 8 == start_rank {
                        let two = offset(one, 0, forward).expect("double step stays on the board");
                        if cells[two as usize].is_none() {
                            add_pawn(two, Special::DoubleStep);
                        }
                    }
                }
                // Diagonal captures, including en passant onto the passed-over square.
                for side_step in [-1, 1] {
                    let Some(to) = offset(from, side_step, forward) else {
                        continue;
                    };
                    let ep_here = match ep {
                        Some((ep_board, ep_square, passed)) if ep_board == board && ep_square == to => Some(passed),
                        _ => None,
                    };
                    match (cells[to as usize], ep_here) {
                        (Some((color, _)), Some(passed)) if color != self.side && mode == EpMode::Double => {
                            add_pawn(to, Special::EnPassant { passed })
                        }
                        (Some((color, _)), _) if color != self.side => add_pawn(to, Special::Plain),
                        (None, Some(passed)) => add_pawn(to, Special::EnPassant { passed }),
                        _ => {}
                    }
                }
            }
        }
    }

    /// Castling moves of the side to move (docs/rules.md §1, "Castling"), except the final check
    /// that the king is safe on the other board, left to [`Self::try_move`].
    fn castling_moves(&self, moves: &mut Vec<Move>) {
        let enemy = self.side.opponent();
        for rule in &CASTLING_RULES {
            let own_rule = (rule.right < BLACK_KINGSIDE) == (self.side == Color::White);
            if !own_rule || !self.castling[rule.right] {
                continue;
            }
            for board in 0..2 {
                let (x, y) = (&self.cells[board], &self.cells[1 - board]);
                let in_place = x[rule.king_from as usize] == Some((self.side, Kind::King))
                    && x[rule.rook_from as usize] == Some((self.side, Kind::Rook));
                let clear = rule.empty.iter().all(|&s| x[s as usize].is_none());
                let safe = rule.king_path.iter().all(|&s| !self.attacked(board, s, enemy));
                let room = y[rule.king_to as usize].is_none() && y[rule.rook_to as usize].is_none();
                if in_place && clear && safe && room {
                    moves.push(Move {
                        board,
                        from: rule.king_from,
                        to: rule.king_to,
                        promotion: None,
                        special: Special::Castle {
                            rook_from: rule.rook_from,
                            rook_to: rule.rook_to,
                        },
                    });
                }
            }
        }
    }

    /// Makes the pseudo-legal move `mv` on a copy; `None` if it leaves the mover's king in check
    /// or (for a king move) ends on a square attacked on the board the king leaves.
    pub(crate) fn try_move(&self, mv: &Move) -> Option<RefPosition> {
        let x = mv.board;
        let y = 1 - x;
        let (color, kind) = self.cells[x][mv.from as usize].expect("a piece on the from-square");
        let is_castle = matches!(mv.special, Special::Castle { .. });
        // Rule 6: the king's destination must not be attacked on X, with the king removed from
        // its origin (castling already checked its own path on X).
        if kind == Kind::King && !is_castle {
            let mut without_king = self.clone();
            without_king.cells[x][mv.from as usize] = None;
            if without_king.attacked(x, mv.to, color.opponent()) {
                return None;
            }
        }
        let mut next = self.clone();
        next.cells[x][mv.from as usize] = None;
        let captured = next.cells[x][mv.to as usize].take();
        let mut reset_clock = kind == Kind::Pawn || captured.is_some();
        match mv.special {
            Special::EnPassant { passed } => {
                next.cells[x][passed as usize] = None;
                reset_clock = true;
            }
            Special::Castle { rook_from, rook_to } => {
                let rook = next.cells[x][rook_from as usize].take();
                next.cells[y][rook_to as usize] = rook;
            }
            Special::Plain | Special::DoubleStep => {}
        }
        debug_assert!(next.cells[y][mv.to as usize].is_none());
        next.cells[y][mv.to as usize] = Some((color, mv.promotion.unwrap_or(kind)));
        // Castling rights go when a king or rook leaves its square or something lands there.
        for sq in [mv.from, mv.to] {
            let lost: &[usize] = match sq {
                4 => &[WHITE_KINGSIDE, WHITE_QUEENSIDE],
                7 => &[WHITE_KINGSIDE],
                0 => &[WHITE_QUEENSIDE],
                60 => &[BLACK_KINGSIDE, BLACK_QUEENSIDE],
                63 => &[BLACK_KINGSIDE],
                56 => &[BLACK_QUEENSIDE],
                _ => &[],
            };
            for &right in lost {
                next.castling[right] = false;
            }
        }
        next.ep = match mv.special {
            Special::DoubleStep => Some((mv.from + mv.to) / 2),
            _ => None,
        };
        next.halfmove = if reset_clock { 0 } else { self.halfmove + 1 };
        if color == Color::Black {
            next.fullmove += 1;
        }
        next.side = color.opponent();
        // Rule 5: the mover's king must not be in check where it stands.
        if next.king_attacked(color) {
            None
        } else {
            Some(next)
        }
    }
}
