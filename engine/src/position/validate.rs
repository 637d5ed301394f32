//! Consistency checks of the incremental state (run after every make in debug builds).

use super::{Position, NO_PIECE};
use crate::types::{Bitboard, BoardId, Color, PieceKind};

impl Position {
    /// Recomputes every derived field from the piece sets and reports the first mismatch.
    pub fn check_consistency(&self) -> Result<(), String> {
        for board in BoardId::BOTH {
            let b = board.index();
            let mut occ = Bitboard::EMPTY;
            for color in Color::BOTH {
                let mut by_color = Bitboard::EMPTY;
                for kind in PieceKind::ALL {
                    let set = self.pieces[b][color.index()][kind.index()];
                    if (by_color & set).any() {
                        return Err(format!("overlapping piece sets on board {}", board.letter()));
                    }
                    by_color |= set;
                }
                if by_color != self.by_color[b][color.index()] {
                    return Err(format!(
                        "colour occupancy of {color:?} on board {} is stale",
                        board.letter()
                    ));
                }
                occ |= by_color;
            }
            if occ != self.occupied[b] {
                return Err(format!("occupancy of board {} is stale", board.letter()));
            }
            for color in Color::BOTH {
                for kind in PieceKind::ALL {
                    for sq in self.pieces[b][color.index()][kind.index()] {
                        if self.mailbox[b][sq.index()] as usize != color.index() * 6 + kind.index() {
                            return Err(format!("mailbox of board {} at {sq} is stale", board.letter()));
                        }
                    }
                }
            }
            let filled = self.mailbox[b].iter().filter(|&&c| c != NO_PIECE).count();
            if filled != occ.count() as usize {
                return Err(format!("mailbox of board {} has stray pieces", board.letter()));
            }
        }
        if (self.occupied[0] & self.occupied[1]).any() {
            return Err("a square is occupied on both boards".into());
        }
        for color in Color::BOTH {
            if self.pieces_both(color, PieceKind::King).count() != 1 {
                return Err(format!("{color:?} does not have exactly one king"));
            }
        }
        if self.key != self.compute_key() {
            return Err("incremental key differs from the recomputed key".into());
        }
        if self.checkers != self.compute_checkers() {
            return Err("checkers are stale".into());
        }
        Ok(())
    }

    /// Panics with the position's FEN when an incremental field is stale (debug builds).
    #[cfg(debug_assertions)]
    pub(crate) fn assert_consistent(&self) {
        if let Err(e) = self.check_consistency() {
            panic!("inconsistent position after make: {e}: {}", self.to_fen());
        }
    }
}
