//! Vorpal: an Alice chess engine library.
//!
//! Alice chess is played on two boards, A and B. A piece moves on its own board by the
//! ordinary chess rules, seeing only that board, and then transfers to the same square of the
//! other board, which must be empty there. The library holds the rules (move generation,
//! make, FEN, notation, game end), perft, evaluation and search. It never prints.
//!
//! Every position carries its [`Rules`]: the [`Variant`] (standard Alice, Looking-glass, Lady
//! Alice, O'Donohue, Duo, Mini Alice, three-board Alice), the en passant option and the Chess960
//! flag. See `docs/variants.md` for the rules of each variant as implemented.

// `unsafe` is denied everywhere but in the network's vector kernels (`nnue::simd`).
#![deny(unsafe_code)]

pub mod attacks;
pub mod clock;
pub mod error;
pub mod game;
pub mod perft;
pub mod position;
pub mod rules;
pub mod solve;
pub mod tablebase;
pub mod types;

pub use evaluator::Evaluator;
pub use game::{EndReason, Game, GameResult};
pub use position::movegen_api::GenType;
pub use position::{CastleSide, CastlingRights, FenError, FenStyle, MoveParseError, MoveStyle, Position};
pub use rules::{chess960_back_rank, EnPassant, Rules, Variant};
pub use types::{Bitboard, BoardId, Color, Move, MoveKind, MoveList, Piece, PieceKind, Square};
pub mod bench;
pub mod eval;
pub mod evaluator;
pub mod nnue;
pub mod search;
