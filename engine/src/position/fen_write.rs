//! FEN output (docs/rules.md §2): the pipe form where it can represent the position, otherwise the
//! joined form; the wide and split forms on request. Castling letters are `KQkq`; with Chess960
//! a right whose rook is not the outermost one on its side of the king's board is written with
//! the rook's file (X-FEN). The en passant field names the passed square only when a capture
//! there is possible under the active en passant option, otherwise it is `-`.

use super::castling::CastleSide;
use super::fen::FenStyle;
use super::Position;
use crate::types::{BoardId, Color, PieceKind, Square};

impl Position {
    /// The FEN in the pipe form (the joined form where the pipe form cannot represent it).
    pub fn to_fen(&self) -> String {
        self.to_fen_style(FenStyle::Pipe)
    }

    /// True when the pipe form can represent this position: no piece on board C and no square
    /// occupied on two boards.
    pub fn pipe_representable(&self) -> bool {
        self.occupied(BoardId::C).is_empty() && (self.occupied(BoardId::A) & self.occupied(BoardId::B)).is_empty()
    }

    /// The FEN in the requested form.
    pub fn to_fen_style(&self, style: FenStyle) -> String {
        let tail = self.fen_tail();
        let boards = self.boards();
        match style {
            FenStyle::Pipe if self.pipe_representable() => format!("{} {tail}", self.placement(&[BoardId::A], true)),
            FenStyle::Pipe | FenStyle::Joined => {
                let parts: Vec<String> = boards.iter().map(|&b| self.placement(&[b], false)).collect();
                format!("{} {tail}", parts.join("|"))
            }
            FenStyle::Wide => format!("{} {tail}", self.placement(boards, false)),
            FenStyle::Split => {
                let parts: Vec<String> = boards
                    .iter()
                    .map(|&b| format!("{} {tail}", self.placement(&[b], false)))
                    .collect();
                parts.join(" | ")
            }
        }
    }

    fn fen_tail(&self) -> String {
        let side = if self.side == Color::White { 'w' } else { 'b' };
        let mut castling = String::new();
        for color in Color::BOTH {
            for side_ in CastleSide::BOTH {
                if self.castling.has(color, side_) {
                    castling.push(self.castling_letter(color, side_));
                }
            }
        }
        if castling.is_empty() {
            castling.push('-');
        }
        // Only an en passant square that changes what can be played is written.
        let ep = match self.ep_square.filter(|_| self.ep_capture_possible()) {
            None => "-".to_string(),
            Some(ep) => {
                // A wide cell when the passed pawn's square is held by such pawns on two boards.
                let pawn_sq = Square::from_coords(ep.file(), if ep.rank() == 2 { 3 } else { 4 });
                let mover = self.side.flip();
                let holders = self
                    .boards()
                    .iter()
                    .filter(|&&b| self.pieces(b, mover, PieceKind::Pawn).has(pawn_sq))
                    .count();
                if holders > 1 {
                    format!(
                        "{}{}",
                        (b'a' + ep.file() + 8 * self.ep_board.index() as u8) as char,
                        ep.rank() + 1
                    )
                } else {
                    ep.to_string()
                }
            }
        };
        format!("{side} {castling} {ep} {} {}", self.halfmove, self.fullmove)
    }

    /// `K`/`Q` (upper case for White), or in Chess960 the rook's file when another rook of the
    /// same colour stands further out on the back rank of the king's board.
    fn castling_letter(&self, color: Color, side: CastleSide) -> char {
        let plain = if side == CastleSide::King { 'K' } else { 'Q' };
        let mut letter = plain;
        if self.rules.is_chess960() {
            let rs = self.castle_config.rook[color.index()][side as usize];
            let kb = self.king_board(color);
            let outer = self
                .pieces(kb, color, PieceKind::Rook)
                .into_iter()
                .filter(|r| r.rank() == rs.rank())
                .any(|r| match side {
                    CastleSide::King => r.file() > rs.file(),
                    CastleSide::Queen => r.file() < rs.file(),
                });
            if outer {
                letter = (b'A' + rs.file()) as char;
            }
        }
        match color {
            Color::White => letter,
            Color::Black => letter.to_ascii_lowercase(),
        }
    }

    /// Placement of one grid: with `merge`, boards A and B in one grid with `|` marks;
    /// otherwise the listed boards side by side. Grids are as wide as the variant's boards.
    fn placement(&self, boards: &[BoardId], merge: bool) -> String {
        let width = self.rules.variant.files();
        let mut out = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for &board in boards {
                for file in 0..width {
                    let sq = Square::from_coords(file, rank);
                    let found = if merge {
                        self.piece_at(sq)
                    } else {
                        self.piece_on(board, sq).map(|p| (p, board))
                    };
                    match found {
                        Some((p, b)) => {
                            if empty > 0 {
                                out.push_str(&empty.to_string());
                                empty = 0;
                            }
                            if merge && b == BoardId::B {
                                out.push('|');
                            }
                            out.push(p.letter());
                        }
                        None => empty += 1,
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out
    }
}
