//! Vorpal: an Alice chess engine library.
//!
//! Alice chess is played on two boards, A and B. A piece moves on its own board by the
//! ordinary chess rules, seeing only that board, and then transfers to the same square of the
//! other board, which must be empty there. The library holds the rules (move generation,
//! make, FEN, notation, game end), perft, and (later) evaluation and search. It never prints.

pub mod attacks;
pub mod game;
pub mod perft;
pub mod position;
pub mod rules;
pub mod types;

pub use game::{EndReason, Game, GameResult};
pub use position::movegen_api::GenType;
pub use position::{CastleSide, CastlingRights, FenError, FenStyle, MoveParseError, Position};
pub use rules::{EnPassant, Rules, Variant};
pub use types::{Bitboard, BoardId, Color, Move, MoveKind, MoveList, Piece, PieceKind, Square};
pub mod bench;
pub mod eval;
pub mod search;
pub mod time;
pub mod tt;
