//! FEN input for the variant reference: the pipe form (`|` before a piece on board B) and the
//! joined form (`placementA|placementB|placementC`), ranks as wide as the variant's boards.
//! Castling letters `KQkq` (the outermost rook on that side of the king on the king's board)
//! and, with Chess960, rook files (`A`-`H`); the en passant field is a square or a wide cell.

use super::{Color, Kind, Man, RefRules, Right, VPos};

fn piece_of(c: char) -> Option<(Color, Kind)> {
    let color = if c.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    let kind = match c.to_ascii_lowercase() {
        'p' => Kind::Pawn,
        'n' => Kind::Knight,
        'b' => Kind::Bishop,
        'r' => Kind::Rook,
        'q' => Kind::Queen,
        'k' => Kind::King,
        _ => return None,
    };
    Some((color, kind))
}

impl VPos {
    /// Reads a FEN under `rules`.
    pub fn from_fen(fen: &str, rules: RefRules) -> Result<VPos, String> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() != 6 && fields.len() != 4 {
            return Err(format!("expected 6 fields: {fen}"));
        }
        let mut pos = VPos {
            rules,
            cells: [[None; 64]; 3],
            side: if fields[1] == "w" { Color::White } else { Color::Black },
            rights: [[None; 2]; 2],
            ep: None,
        };
        let width = rules.variant.width() as u8;
        let mut next_id = 0u8;
        let slashes = fields[0].matches('/').count();
        let grids: Vec<(usize, &str)> = if slashes > 7 {
            fields[0].split('|').enumerate().collect()
        } else {
            vec![(0, fields[0])]
        };
        for (first_board, grid) in grids {
            for (i, rank_text) in grid.split('/').enumerate() {
                let rank = 7 - i as u8;
                let mut file = 0u8;
                let mut board = first_board;
                for c in rank_text.chars() {
                    if let Some(d) = c.to_digit(10) {
                        file += d as u8;
                    } else if c == '|' {
                        board = 1;
                    } else {
                        let (color, kind) = piece_of(c).ok_or(format!("bad letter {c}"))?;
                        if file >= width {
                            return Err(format!("rank {} too long", rank + 1));
                        }
                        pos.cells[board][(rank * 8 + file) as usize] = Some(Man {
                            color,
                            kind,
                            id: next_id,
                        });
                        next_id += 1;
                        file += 1;
                        board = first_board;
                    }
                }
                if file != width {
                    return Err(format!("rank {} has {file} files", rank + 1));
                }
            }
        }
        pos.read_castling(fields[2])?;
        if fields[3] != "-" {
            let b = fields[3].as_bytes();
            let i = b[0] - b'a';
            let sq = (b[1] - b'1') * 8 + i % 8;
            let pawn_sq = if pos.side == Color::White { sq - 8 } else { sq + 8 };
            let mover = pos.side.other();
            let holds = |board: usize| matches!(pos.cells[board][pawn_sq as usize], Some(m) if m.color == mover && m.kind == Kind::Pawn);
            let board = if i >= 8 {
                i as usize / 8
            } else {
                (0..rules.variant.boards())
                    .find(|&b| holds(b))
                    .ok_or("no pawn for the en passant square")?
            };
            pos.ep = Some((sq, board));
        }
        Ok(pos)
    }

    fn read_castling(&mut self, field: &str) -> Result<(), String> {
        if field == "-" {
            return Ok(());
        }
        for c in field.chars() {
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let back: u8 = if color == Color::White { 0 } else { 56 };
            let (kb, ks) = self.find_king(color);
            if ks / 8 != back / 8 {
                return Err("castling king off its first rank".into());
            }
            let king_id = self.cells[kb][ks as usize].map(|m| m.id).unwrap_or(0);
            let is_rook =
                |sq: u8| matches!(self.cells[kb][sq as usize], Some(m) if m.color == color && m.kind == Kind::Rook);
            let kf = ks % 8;
            let rook_file = match c.to_ascii_lowercase() {
                'k' => (kf + 1..8).rev().find(|&f| is_rook(back + f)),
                'q' => (0..kf).find(|&f| is_rook(back + f)),
                f if self.rules.chess960 => Some(f as u8 - b'a'),
                _ => None,
            }
            .ok_or(format!("no rook for castling letter {c}"))?;
            if !self.rules.chess960 && (ks % 8 != 4 || (rook_file != 0 && rook_file != 7)) {
                return Err("castling from a non-standard array without Chess960".into());
            }
            let rook_home = back + rook_file;
            let rook = self.cells[kb][rook_home as usize].ok_or("castling rook missing")?;
            let side = if rook_file > kf { 0 } else { 1 };
            let ci = if color == Color::White { 0 } else { 1 };
            self.rights[ci][side] = Some(Right {
                king_id,
                rook_id: rook.id,
                rook_home,
                king_home: ks,
            });
        }
        Ok(())
    }

    /// Board and square of `color`'s king.
    pub(crate) fn find_king(&self, color: Color) -> (usize, u8) {
        for (b, board) in self.cells.iter().enumerate() {
            for (sq, cell) in board.iter().enumerate() {
                if matches!(cell, Some(m) if m.color == color && m.kind == Kind::King) {
                    return (b, sq as u8);
                }
            }
        }
        panic!("no king");
    }
}
