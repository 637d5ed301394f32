//! Moves as a player reads them in messages: the move-number form (`2. Ke3`, `2... Ke7`) and a
//! short reason why a move typed or read from a PGN is not legal ("the landing square e3 is
//! occupied on board B").

use vorpal_engine::{BoardId, Color, PieceKind, Position, Square};

/// The move-number form of a move: `2. Ke3` for White, `2... Ke7` for Black.
pub fn numbered(before: &Position, san: &str) -> String {
    let n = before.fullmove_number();
    match before.side_to_move() {
        Color::White => format!("{n}. {san}"),
        Color::Black => format!("{n}... {san}"),
    }
}

fn color_word(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn kind_word(k: PieceKind) -> &'static str {
    match k {
        PieceKind::Pawn => "pawn",
        PieceKind::Knight => "knight",
        PieceKind::Bishop => "bishop",
        PieceKind::Rook => "rook",
        PieceKind::Queen => "queen",
        PieceKind::King => "king",
    }
}

/// What a move text says: the moving piece's kind, its start (UCI only) and its target square.
struct Named {
    kind: Option<PieceKind>,
    from: Option<(BoardId, Square)>,
    to: Square,
}

/// Reads the wide or plain UCI form (`e2m4`: files i-p are board B's, q-x board C's).
fn read_uci(pos: &Position, text: &str) -> Option<Named> {
    let b = text.as_bytes();
    if !(4..=5).contains(&b.len()) || !b[1].is_ascii_digit() || !b[3].is_ascii_digit() {
        return None;
    }
    let cell = |f: u8, r: u8| -> Option<(BoardId, Square)> {
        let f = f.checked_sub(b'a')? as usize;
        let sq = Square::parse(&format!("{}{}", (b'a' + (f % 8) as u8) as char, r as char))?;
        (f < 24).then(|| (BoardId::from_index(f / 8), sq))
    };
    let (fb, from) = cell(b[0], b[1])?;
    let (_, to) = cell(b[2], b[3])?;
    let kind = pos.piece_on(fb, from).map(|p| p.kind());
    Some(Named {
        kind,
        from: Some((fb, from)),
        to,
    })
}

/// Reads SAN loosely: the piece letter and the last square named.
fn read_san(text: &str) -> Option<Named> {
    let body = text.split('/').next().unwrap_or(text);
    let body = body.trim_end_matches(['+', '#', '!', '?']);
    let body = body.split('=').next().unwrap_or(body);
    let chars: Vec<char> = body.chars().collect();
    let kind = match chars.first()? {
        c if "NBRQK".contains(*c) => PieceKind::from_letter(*c),
        _ => Some(PieceKind::Pawn),
    };
    let to = (0..chars.len().saturating_sub(1))
        .rev()
        .find_map(|i| Square::parse(&chars[i..i + 2].iter().collect::<String>()))?;
    Some(Named { kind, from: None, to })
}

/// True when a `kind` of `color` on `from` could reach `to` on an empty board.
fn reaches(kind: PieceKind, color: Color, from: Square, to: Square) -> bool {
    let dx = (to.file() as i32 - from.file() as i32).abs();
    let dy = to.rank() as i32 - from.rank() as i32;
    let (ady, forward) = (dy.abs(), if color == Color::White { dy } else { -dy });
    if from == to {
        return false;
    }
    match kind {
        PieceKind::Knight => (dx == 1 && ady == 2) || (dx == 2 && ady == 1),
        PieceKind::King => dx <= 1 && ady <= 1,
        PieceKind::Rook => dx == 0 || ady == 0,
        PieceKind::Bishop => dx == ady,
        PieceKind::Queen => dx == 0 || ady == 0 || dx == ady,
        PieceKind::Pawn => (dx == 0 && (forward == 1 || forward == 2)) || (dx == 1 && forward == 1),
    }
}

/// Why the `kind` on `from` of board `board` cannot go to `to`.
fn why_not(pos: &Position, board: BoardId, kind: PieceKind, to: Square) -> String {
    let us = pos.side_to_move();
    let c = color_word(us);
    if pos.piece_on(board, to).is_some_and(|p| p.color() == us) {
        return format!("{to} is occupied by a {c} piece on board {}", board.letter());
    }
    if pos.landing_blocked(board).has(to) {
        let landing = pos
            .other_boards(board)
            .find(|&o| pos.piece_on(o, to).is_some())
            .unwrap_or(board.other());
        return format!("the landing square {to} is occupied on board {}", landing.letter());
    }
    if pos.in_check() {
        return format!("the {c} king is in check and this move does not answer it");
    }
    match kind {
        PieceKind::Knight | PieceKind::King => format!("the {c} king would be in check"),
        _ => format!(
            "the way is blocked on board {}, or the {c} king would be in check",
            board.letter()
        ),
    }
}

/// Why `text` is no legal move in `pos`, in a few words.
pub fn why_illegal(pos: &Position, text: &str) -> String {
    let us = pos.side_to_move();
    if text.starts_with("O-O") || text.starts_with("0-0") {
        return format!("{} cannot castle here", color_name(us));
    }
    if let Some(bad) = text.chars().find(|&c| !SAN_CHARS.contains(c)) {
        return format!("'{bad}' has no place in a move (SAN or UCI)");
    }
    if let Some((base, board)) = text.split_once('/') {
        // A wrong landing-board suffix: the move without it is legal and lands elsewhere.
        if let Ok(mv) = pos.parse_move(base) {
            let landing = mv.to_board().letter();
            return if board
                .trim_end_matches(['+', '#', '!', '?'])
                .eq_ignore_ascii_case(&landing.to_string())
            {
                format!(
                    "the suffix /{board} is not how this move is written: {}",
                    pos.move_to_san(mv)
                )
            } else {
                format!(
                    "{} lands on board {landing}, not {board} (written {})",
                    base.trim_end_matches(['+', '#', '!', '?']),
                    pos.move_to_san(mv)
                )
            };
        }
    }
    let Some(named) = read_uci(pos, text).or_else(|| read_san(text)) else {
        return "it is not a move in SAN or UCI".into();
    };
    let Some(kind) = named.kind else {
        let (b, sq) = named.from.expect("only UCI names no kind");
        return format!("there is no piece on {sq} of board {}", b.letter());
    };
    let (c, k, to) = (color_word(us), kind_word(kind), named.to);
    let candidates: Vec<(BoardId, Square)> = match named.from {
        Some((b, sq)) => {
            if pos.piece_on(b, sq).map(|p| p.color()) != Some(us) {
                return format!("the piece on {sq} of board {} is not {}'s", b.letter(), color_name(us));
            }
            if !reaches(kind, us, sq, to) {
                return format!("the {k} on {sq} of board {} cannot go to {to}", b.letter());
            }
            vec![(b, sq)]
        }
        None => pos
            .boards()
            .iter()
            .flat_map(|&b| Square::all().map(move |sq| (b, sq)))
            .filter(|&(b, sq)| pos.piece_on(b, sq).is_some_and(|p| p.color() == us && p.kind() == kind))
            .filter(|&(_, sq)| reaches(kind, us, sq, to))
            .collect(),
    };
    match candidates.as_slice() {
        [] => format!("no {c} {k} can go to {to}"),
        [(b, _)] => why_not(pos, *b, kind, to),
        many => many
            .iter()
            .map(|&(b, sq)| format!("the {k} on {sq} of board {}: {}", b.letter(), why_not(pos, b, kind, to)))
            .collect::<Vec<_>>()
            .join("; "),
    }
}

/// Every character a move text may hold: SAN (pieces, files, ranks, captures, promotion,
/// check and mate, the board suffix, castling, marks) and wide UCI (files a-x).
const SAN_CHARS: &str = "abcdefghijklmnopqrstuvwxNBRQKOA0123456789x=+#/-!?C";

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The whole refusal: `2. Ke3 is illegal: the landing square e3 is occupied on board B`.
pub fn refusal(pos: &Position, text: &str) -> String {
    format!("{} is illegal: {}", numbered(pos, text), why_illegal(pos, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(sans: &[&str]) -> Position {
        let mut p = Position::startpos();
        for s in sans {
            p = p.after(p.parse_move(s).unwrap());
        }
        p
    }

    #[test]
    fn names_the_reason() {
        let p = after(&["e4", "e5"]);
        assert_eq!(refusal(&p, "Ke3"), "2. Ke3 is illegal: no white king can go to e3");
        let p = after(&["e4"]);
        assert_eq!(
            refusal(&p, "Ne7"),
            "1... Ne7 is illegal: e7 is occupied by a black piece on board A"
        );
        // The knight on f3 of B would land on d2 of A, where White's pawn stands; the other
        // knight, on b1 of A, finds its own pawn on d2.
        let p = after(&["Nf3", "Nc6"]);
        assert_eq!(
            refusal(&p, "g1d2"),
            "2. g1d2 is illegal: there is no piece on g1 of board A"
        );
        assert_eq!(
            refusal(&p, "n3d2"),
            "2. n3d2 is illegal: the landing square d2 is occupied on board A"
        );
        assert_eq!(
            refusal(&p, "Nd2"),
            "2. Nd2 is illegal: the knight on b1 of board A: d2 is occupied by a white piece on board A; \
             the knight on f3 of board B: the landing square d2 is occupied on board A"
        );
        assert_eq!(
            refusal(&p, "e1e5"),
            "2. e1e5 is illegal: the king on e1 of board A cannot go to e5"
        );
        assert_eq!(
            refusal(&p, "zz"),
            "2. zz is illegal: 'z' has no place in a move (SAN or UCI)"
        );
        assert_eq!(refusal(&p, "xx"), "2. xx is illegal: it is not a move in SAN or UCI");
        assert_eq!(refusal(&p, "O-O"), "2. O-O is illegal: White cannot castle here");
    }

    #[test]
    fn wrong_board_suffixes_and_stray_characters_get_their_true_reason() {
        let start = Position::startpos();
        assert_eq!(
            refusal(&start, "Nf3/A"),
            "1. Nf3/A is illegal: Nf3 lands on board B, not A (written Nf3)"
        );
        assert_eq!(
            refusal(&start, "Nf3;"),
            "1. Nf3; is illegal: ';' has no place in a move (SAN or UCI)"
        );
        assert_eq!(
            refusal(&start, "é4"),
            "1. é4 is illegal: 'é' has no place in a move (SAN or UCI)"
        );
        // After 1. Nf3 the knight on f3 of B goes back to A: Ng5/A is right, Ng5/B is not.
        let p = after(&["Nf3", "e6"]);
        assert!(p.parse_move("Ng5/A").is_ok());
        assert_eq!(
            refusal(&p, "Ng5/B"),
            "2. Ng5/B is illegal: Ng5 lands on board A, not B (written Ng5/A)"
        );
    }
}
