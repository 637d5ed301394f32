//! A game: the start position, the moves played, and the end-of-game rules (checkmate,
//! stalemate, fifty moves, board-aware threefold repetition, bare kings).

use crate::position::Position;
use crate::types::{Color, Move};

/// The result of a finished game.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum GameResult {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Drawn.
    Draw,
}

impl GameResult {
    /// PGN text: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// The win for `color`.
    pub const fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

/// Why a game ended.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum EndReason {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// 100 plies without capture or pawn move.
    FiftyMoves,
    /// The same position (board-aware) occurred three times.
    Threefold,
    /// Only the two kings are left.
    BareKings,
}

impl EndReason {
    /// Human-readable text.
    pub const fn text(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::FiftyMoves => "fifty-move rule",
            EndReason::Threefold => "threefold repetition",
            EndReason::BareKings => "bare kings",
        }
    }
}

/// Two positions are the same for repetition when pieces (with their boards), side to
/// move, castling rights and en passant possibility agree; the key covers all of these and
/// the piece placement is compared as well so a key collision cannot fake a repetition.
pub fn same_position(a: &Position, b: &Position) -> bool {
    a.key() == b.key() && a.same_placement(b) && a.castling() == b.castling() && a.side_to_move() == b.side_to_move()
}

/// The terminal state of `pos` with `history` (earlier positions, oldest first), if any.
pub fn outcome(pos: &Position, history: &[Position]) -> Option<(GameResult, EndReason)> {
    if pos.count_legal() == 0 {
        return Some(if pos.in_check() {
            (GameResult::win_for(pos.side_to_move().flip()), EndReason::Checkmate)
        } else {
            (GameResult::Draw, EndReason::Stalemate)
        });
    }
    if pos.bare_kings() {
        return Some((GameResult::Draw, EndReason::BareKings));
    }
    if pos.halfmove_clock() >= 100 {
        return Some((GameResult::Draw, EndReason::FiftyMoves));
    }
    let window = (pos.halfmove_clock() as usize).min(history.len());
    let seen = history[history.len() - window..]
        .iter()
        .filter(|p| same_position(p, pos))
        .count();
    if seen >= 2 {
        return Some((GameResult::Draw, EndReason::Threefold));
    }
    None
}

/// A game in progress: start position plus moves, with undo.
#[derive(Clone, Debug)]
pub struct Game {
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl Game {
    /// A game starting at `start`.
    pub fn new(start: Position) -> Game {
        Game {
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game always has a position")
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// Moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position so far, oldest first (the current one last).
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// Plays `mv` if it is legal; returns false (and changes nothing) otherwise.
    pub fn play(&mut self, mv: Move) -> bool {
        let pos = self.position();
        if !pos.is_legal(mv) {
            return false;
        }
        let next = pos.after(mv);
        self.positions.push(next);
        self.moves.push(mv);
        true
    }

    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self) -> bool {
        if self.moves.pop().is_none() {
            return false;
        }
        self.positions.pop();
        true
    }

    /// Result and reason if the game is over.
    pub fn outcome(&self) -> Option<(GameResult, EndReason)> {
        let (current, history) = self.positions.split_last().expect("a game always has a position");
        outcome(current, history)
    }

    /// Keys of the positions before the current one (for the search's repetition check).
    pub fn history_keys(&self) -> Vec<u64> {
        let n = self.positions.len();
        self.positions[..n - 1].iter().map(|p| p.key()).collect()
    }
}
