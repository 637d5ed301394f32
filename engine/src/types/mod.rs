//! Basic value types: squares, bitboards, colours, pieces, board ids and moves.

mod bitboard;
mod moves;
mod piece;
mod square;

pub use bitboard::Bitboard;
pub use moves::{Move, MoveKind, MoveList, MAX_MOVES};
pub use piece::{BoardId, Color, Piece, PieceKind};
pub use square::Square;
