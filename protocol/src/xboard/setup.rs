//! How XBoard sees an Alice game: the boards laid side by side as one wide board (files a-h =
//! board A, i-p = board B, q-x = board C; Mini Alice: a-d = A, e-h = B), the `feature` and
//! `setup` lines that define the variants, and the texts of moves, highlights and FENs.
//!
//! XBoard knows nothing of Alice: it draws a `16x8` board (the `setup` command) and moves
//! pieces as it is told. A move is sent as the cells XBoard must change:
//!
//! - a move to an empty cell: one leg, `e2m4` (e2 on A to e4 on B);
//! - a capture that transfers: two legs through the victim's cell, `d5e6,e6m6`, so XBoard
//!   removes the victim from board A before the capturer lands on board B (XBoard's
//!   multi-leg "kill" move);
//! - castling: the rook's two legs through the king's cell, `h1e1,e1n1` (XBoard's castling
//!   form for engine-defined pieces, enabled by the `piece R& ...O...` line): the rook lands on
//!   f1 of B and XBoard puts the king beside it, on g1 of B;
//! - a null or zero move: one leg to the same square of the other board, `e4m4`.
//!
//! Input accepts these forms, the single-leg wide form of docs/rules.md §2 for every move
//! (`d5m6`, castling as the king's move `e1o1`), the king-takes-rook castling `e1h1`, and
//! XBoard's own relay of castling (`h1n1,e1o1`: rook leg, king leg).

use vorpal_engine::{BoardId, Color, Move, MoveKind, Position, Square, Variant};

/// The variants offered to XBoard (`feature variants`). Three-board Alice needs 24 files;
/// XBoard is built for at most 16 (a wider `setup` is a fatal error there), so it is accepted
/// on `variant alice3` for other GUIs but not offered.
pub fn offered_variants() -> Vec<Variant> {
    Variant::ALL.into_iter().filter(|v| width(*v) <= 16).collect()
}

/// The parent variant named in `setup` (see [`setup_line`]).
pub const PARENT: &str = "berolina";

/// Files of the wide board: files per board times boards (16, 8 for Mini Alice, 24 for
/// three-board Alice).
pub fn width(variant: Variant) -> u8 {
    variant.files() * variant.boards() as u8
}

/// The `setup` line for `variant`: piece letters, board size on a parent variant and the
/// start position as a wide FEN, e.g.
/// `setup (PNBRQKpnbrqk) 16x8+0_berolina rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - 0 1`.
///
/// The parent is `berolina`, not `fairy`: XBoard (4.9) applies its chess en passant guess to
/// every pawn move of another parent that changes file on the far half of the board and takes
/// away the piece behind the landing cell, and in Alice every transferring pawn move changes
/// file. Berolina pawns have no such guess for those moves; with the legality test off
/// (`-xlegal`, needed for Alice anyway) the parent changes nothing else that Alice uses.
pub fn setup_line(start: &Position) -> String {
    let variant = start.rules().variant;
    format!(
        "setup (PNBRQKpnbrqk) {}x8+0_{PARENT} {}",
        width(variant),
        start.to_fen_style(vorpal_engine::FenStyle::Wide)
    )
}

/// The `piece` lines sent after `setup`: a king redefined with an initial move and without
/// castling, so XBoard moves it like any piece (otherwise it takes every sideways king move
/// of more than one file for castling); and a rook with castling (`O`), so XBoard applies the
/// two-leg castling move (the rook through the king's cell) as one castling.
pub fn piece_lines(variant: Variant) -> Vec<&'static str> {
    if variant.has_castling() {
        vec!["piece K& KiK", "piece R& RiO"]
    } else {
        vec!["piece K& KiK"]
    }
}

/// A cell of the wide board.
pub type Cell = (Square, BoardId);

/// The name of a cell (`e4` on A, `m4` on B, `u4` on C; Mini Alice `g4` is c4 of B).
pub fn cell_name(variant: Variant, (sq, board): Cell) -> String {
    let file = board.index() as u8 * variant.files() + sq.file();
    format!("{}{}", (b'a' + file) as char, sq.rank() + 1)
}

/// Parses a cell name of the wide board of `variant`.
pub fn parse_cell(variant: Variant, text: &str) -> Option<Cell> {
    let b = text.as_bytes();
    if b.len() != 2 || !(b'1'..=b'8').contains(&b[1]) || !b[0].is_ascii_lowercase() {
        return None;
    }
    let file = b[0] - b'a';
    if file >= width(variant) {
        return None;
    }
    let board = BoardId::from_index((file / variant.files()) as usize);
    Some((Square::from_coords(file % variant.files(), b[1] - b'1'), board))
}

/// Destination squares of castling: (king, rook), g/f on the king side, c/d on the queen side
/// (Chess960 too).
fn castle_targets(mv: Move) -> (Square, Square) {
    let rank = mv.from().rank();
    if mv.to().file() > mv.from().file() {
        (Square::from_coords(6, rank), Square::from_coords(5, rank))
    } else {
        (Square::from_coords(2, rank), Square::from_coords(3, rank))
    }
}

/// The cell a capturing move takes its victim from, when it is not the landing cell: the
/// destination square on the mover's board (en passant: the passed pawn beside the capturer).
fn victim_cell(mv: Move) -> Option<Cell> {
    match mv.kind() {
        MoveKind::EnPassant => Some((Square::from_coords(mv.to().file(), mv.from().rank()), mv.from_board())),
        MoveKind::Castle | MoveKind::Null => None,
        _ if mv.is_capture() && mv.to_board() != mv.from_board() => Some((mv.to(), mv.from_board())),
        _ => None,
    }
}

/// The legs of `mv` as XBoard must apply them: (from, to) per leg, then the promotion letter.
pub fn legs(mv: Move) -> (Vec<(Cell, Cell)>, Option<char>) {
    let from = (mv.from(), mv.from_board());
    let promo = mv.promotion().map(|p| p.letter().to_ascii_lowercase());
    if mv.is_castle() {
        let (_, rook_to) = castle_targets(mv);
        let rook = (mv.to(), mv.from_board());
        return (vec![(rook, from), (from, (rook_to, mv.to_board()))], None);
    }
    let land = (mv.to(), mv.to_board());
    match victim_cell(mv) {
        Some(victim) => (vec![(from, victim), (victim, land)], promo),
        None => (vec![(from, land)], promo),
    }
}

/// The text XBoard gets for `mv`: its legs joined by commas (`e2m4`, `d5e6,e6m6`,
/// `h1e1,e1n1`, `e7m8q`).
pub fn move_text(variant: Variant, mv: Move) -> String {
    let (legs, promo) = legs(mv);
    let mut text: Vec<String> = legs
        .iter()
        .map(|&(a, b)| cell_name(variant, a) + &cell_name(variant, b))
        .collect();
    if let (Some(p), Some(last)) = (promo, text.last_mut()) {
        last.push(p);
    }
    text.join(",")
}

/// The single-leg wide text of `mv` (docs/rules.md §2): from-cell, landing cell (castling: the
/// king's cells).
pub fn wide_text(variant: Variant, mv: Move) -> String {
    let to = if mv.is_castle() { castle_targets(mv).0 } else { mv.to() };
    let mut s = cell_name(variant, (mv.from(), mv.from_board())) + &cell_name(variant, (to, mv.to_board()));
    if let Some(p) = mv.promotion() {
        s.push(p.letter().to_ascii_lowercase());
    }
    s
}

/// Every text accepted as `mv` (see the module documentation).
fn accepted_texts(variant: Variant, mv: Move) -> Vec<String> {
    let mut texts = vec![move_text(variant, mv), wide_text(variant, mv)];
    if mv.is_castle() {
        let (king_to, rook_to) = castle_targets(mv);
        let king = cell_name(variant, (mv.from(), mv.from_board()));
        let rook = cell_name(variant, (mv.to(), mv.from_board()));
        texts.push(format!("{king}{rook}"));
        texts.push(format!(
            "{rook}{},{king}{}",
            cell_name(variant, (rook_to, mv.to_board())),
            cell_name(variant, (king_to, mv.to_board()))
        ));
    }
    texts
}

/// Reads a move sent by XBoard (or typed): the legal move it names, or why it is refused.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, String> {
    let variant = pos.rules().variant;
    let t = text.trim().to_ascii_lowercase();
    let legal = pos.legal_moves();
    if let Some(&mv) = legal.iter().find(|&&m| accepted_texts(variant, m).contains(&t)) {
        return Ok(mv);
    }
    Err(refusal(pos, &t))
}

/// Why `text` is not a legal move here, in words for the user.
fn refusal(pos: &Position, text: &str) -> String {
    let variant = pos.rules().variant;
    let first_leg = text.split(',').next().unwrap_or("");
    let (Some(from), Some(to)) = (
        first_leg.get(..2).and_then(|c| parse_cell(variant, c)),
        first_leg.get(2..4).and_then(|c| parse_cell(variant, c)),
    ) else {
        return format!(
            "not a move of the wide board (cells a1-{}8, e.g. e2{}4)",
            (b'a' + width(variant) - 1) as char,
            (b'a' + variant.files() + 4) as char
        );
    };
    let side = pos.side_to_move();
    let from_name = cell_name(variant, from);
    match pos.piece_on(from.1, from.0) {
        None => return format!("there is no piece on {from_name}"),
        Some(p) if p.color() != side => return format!("the piece on {from_name} is not {}'s", color_name(side)),
        _ => {}
    }
    let legal = pos.legal_moves();
    let from_here: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| (m.from(), m.from_board()) == from)
        .collect();
    if from_here.is_empty() {
        return if pos.in_check() {
            format!(
                "{} is in check and the piece on {from_name} cannot help",
                color_name(side)
            )
        } else {
            format!("the piece on {from_name} has no legal move")
        };
    }
    if let Some(m) = from_here.iter().find(|m| m.to() == to.0 && m.to_board() != to.1) {
        return format!(
            "in Alice a piece lands on the other board: {} (landing cell {})",
            move_text(variant, *m),
            cell_name(variant, (m.to(), m.to_board()))
        );
    }
    if pos.in_check() {
        return format!("{} is in check", color_name(side));
    }
    "not a legal Alice move (the piece moves on its own board, then the landing cell must be empty)".to_string()
}

/// `White` or `Black`.
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The `highlight` colour FEN marking `cells` (rank 8 first, runs of unmarked cells as
/// numbers, which XBoard reads with more than one digit).
pub fn highlight(variant: Variant, cells: &[(Cell, char)]) -> String {
    let w = width(variant) as usize;
    let mut grid = vec![[' '; 24]; 8];
    for &(cell, colour) in cells {
        let name = cell_name(variant, cell);
        let file = (name.as_bytes()[0] - b'a') as usize;
        grid[cell.0.rank() as usize][file] = colour;
    }
    let ranks: Vec<String> = (0..8)
        .rev()
        .map(|rank| {
            let mut s = String::new();
            let mut empty = 0;
            for &c in &grid[rank][..w] {
                if c == ' ' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(c);
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            s
        })
        .collect();
    format!("highlight {}", ranks.join("/"))
}

/// What XBoard should mark when the piece on `lifted` is picked up (`via`: None), or when the
/// first leg of a two-leg move has been put on `via`. Colours: yellow a landing cell, red a
/// single-leg capture, magenta a promotion, cyan the first leg of a capture that transfers
/// (the victim's cell) or of castling (the king's cell, when the rook is lifted).
pub fn targets(pos: &Position, lifted: Cell, via: Option<Cell>) -> Vec<(Cell, char)> {
    let mut cells: Vec<(Cell, char)> = Vec::new();
    let mut add = |cell: Cell, colour: char| {
        if let Some(entry) = cells.iter_mut().find(|(c, _)| *c == cell) {
            // A cell that is both a landing cell and a first leg (Duo) stays cyan: XBoard
            // takes a second click on it as the end of a one-leg move.
            if entry.1 != 'C' {
                entry.1 = colour;
            }
        } else {
            cells.push((cell, colour));
        }
    };
    for mv in pos.legal_moves() {
        let (legs, promo) = legs(mv);
        let colour_of_end = |capture: bool| match (promo, capture) {
            (Some(_), _) => 'M',
            (None, true) => 'R',
            (None, false) => 'Y',
        };
        match (via, legs.as_slice()) {
            (None, [(from, to)]) if *from == lifted => {
                add(*to, colour_of_end(mv.is_capture()));
            }
            (None, [(from, mid), _]) if *from == lifted => add(*mid, 'C'),
            (Some(v), [(from, mid), (_, to)]) if *from == lifted && *mid == v => {
                add(*to, colour_of_end(false));
            }
            _ => {}
        }
    }
    cells
}

/// Translates a FEN sent by XBoard (`setboard`) into one the rules core reads: the wide
/// placement is kept (promotion marks `~` dropped); a castling field of file letters (which
/// XBoard writes once the king is redefined: the files of unmoved kings and rooks) becomes
/// `KQkq`; an en passant field that is not a square of the boards becomes `-`.
pub fn engine_fen(variant: Variant, fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let Some(&placement) = fields.first() else {
        return fen.to_string();
    };
    let placement = placement.replace('~', "");
    let side = fields.get(1).copied().unwrap_or("w");
    let mut castling = fields.get(2).copied().unwrap_or("-").to_string();
    if !castling.chars().all(|c| "KQkq-".contains(c)) {
        castling = castling_from_files(variant, &placement, &castling);
    }
    let ep = match fields.get(3) {
        Some(&ep) if Square::parse(ep).is_some() => ep,
        _ => "-",
    };
    let rest: Vec<&str> = fields.iter().skip(4).copied().collect();
    format!("{placement} {side} {castling} {ep} {}", rest.join(" "))
        .trim_end()
        .to_string()
}

/// `KQkq` rights from XBoard's file letters: a right for each unmoved rook on the back rank of
/// its unmoved king's board, on the king side when it stands to the king's right.
fn castling_from_files(variant: Variant, placement: &str, letters: &str) -> String {
    let files = variant.files() as usize;
    let rows: Vec<Vec<Option<char>>> = placement
        .split('/')
        .map(|row| {
            let mut cells = Vec::new();
            let mut count = 0usize;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    count = count * 10 + d as usize;
                } else {
                    cells.extend(std::iter::repeat_n(None, count));
                    count = 0;
                    cells.push(Some(c));
                }
            }
            cells.extend(std::iter::repeat_n(None, count));
            cells
        })
        .collect();
    let mut out = String::new();
    for (color_row, king, rook, case) in [(rows.last(), 'K', 'R', 'A'), (rows.first(), 'k', 'r', 'a')] {
        let Some(row) = color_row else { continue };
        let listed = |f: usize| letters.contains((case as u8 + f as u8) as char);
        let Some(kf) = (0..row.len()).find(|&f| row[f] == Some(king) && listed(f)) else {
            continue;
        };
        let mut sides = String::new();
        for f in (0..row.len()).filter(|&f| row[f] == Some(rook) && listed(f) && f / files == kf / files) {
            let side = if f % files > kf % files { 'K' } else { 'Q' };
            let side = if case == 'a' { side.to_ascii_lowercase() } else { side };
            if !sides.contains(side) {
                sides.push(side);
            }
        }
        let mut sorted: Vec<char> = sides.chars().collect();
        sorted.sort_by_key(|c| !c.eq_ignore_ascii_case(&'K'));
        out.extend(sorted);
    }
    if out.is_empty() {
        "-".to_string()
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vorpal_engine::Rules;

    fn pos(fen: &str, variant: Variant) -> Position {
        Position::from_fen(fen, Rules::for_variant(variant)).unwrap()
    }

    #[test]
    fn setup_lines_lay_the_boards_side_by_side() {
        let start = Position::startpos();
        assert_eq!(
            setup_line(&start),
            "setup (PNBRQKpnbrqk) 16x8+0_berolina rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - 0 1"
        );
        let mini = pos(Variant::MiniAlice.start_fen(), Variant::MiniAlice);
        assert!(setup_line(&mini).starts_with("setup (PNBRQKpnbrqk) 8x8+0_berolina rqkr4/nbbn4/pppp4/8/8/PPPP4/"));
        let three = pos(Variant::Alice3.start_fen(), Variant::Alice3);
        assert!(setup_line(&three).contains(" 24x8+0_berolina rnbqkbnr16/"));
        assert!(!offered_variants().contains(&Variant::Alice3));
    }

    #[test]
    fn cells_of_every_geometry() {
        let e4 = Square::from_coords(4, 3);
        assert_eq!(cell_name(Variant::Alice, (e4, BoardId::B)), "m4");
        assert_eq!(cell_name(Variant::Alice3, (e4, BoardId::C)), "u4");
        let c4 = Square::from_coords(2, 3);
        assert_eq!(cell_name(Variant::MiniAlice, (c4, BoardId::B)), "g4");
        assert_eq!(parse_cell(Variant::MiniAlice, "g4"), Some((c4, BoardId::B)));
        assert_eq!(parse_cell(Variant::MiniAlice, "i4"), None);
        assert_eq!(
            parse_cell(Variant::Alice, "p8"),
            Some((Square::from_coords(7, 7), BoardId::B))
        );
    }

    #[test]
    fn captures_and_castling_are_sent_in_legs() {
        // White: pawn d5 (A) can take e6 (A) and lands on e6 of B; king e1 and rook h1 castle.
        let p = pos("4k3/8/4p3/3P4/8/8/8/4K2R w K - 0 1", Variant::Alice);
        let take = p.parse_uci("d5e6").unwrap();
        assert_eq!(move_text(Variant::Alice, take), "d5e6,e6m6");
        assert_eq!(parse_move(&p, "d5e6,e6m6"), Ok(take));
        assert_eq!(parse_move(&p, "d5m6"), Ok(take));
        let castle = p.parse_uci("e1g1").unwrap();
        assert_eq!(move_text(Variant::Alice, castle), "h1e1,e1n1");
        for text in ["h1e1,e1n1", "e1o1", "e1h1", "h1n1,e1o1"] {
            assert_eq!(parse_move(&p, text), Ok(castle), "{text}");
        }
        let push = p.parse_uci("d5d6").unwrap();
        assert_eq!(move_text(Variant::Alice, push), "d5l6");
        assert!(parse_move(&p, "d5d6").unwrap_err().contains("lands on the other board"));
        assert!(parse_move(&p, "a1a2").unwrap_err().contains("no piece on a1"));
        assert!(parse_move(&p, "e8e7").unwrap_err().contains("not White's"));
        assert!(parse_move(&p, "zz").unwrap_err().contains("wide board"));
    }

    #[test]
    fn highlights_mark_landing_cells_and_first_legs() {
        let p = pos("4k3/8/4p3/3P4/8/8/8/4K2R w K - 0 1", Variant::Alice);
        let d5 = (Square::from_coords(3, 4), BoardId::A);
        let cells = targets(&p, d5, None);
        let e6 = (Square::from_coords(4, 5), BoardId::A);
        assert!(cells.contains(&(e6, 'C')), "{cells:?}");
        assert!(cells.contains(&((Square::from_coords(3, 5), BoardId::B), 'Y')));
        assert_eq!(
            highlight(Variant::Alice, &cells),
            "highlight 16/16/4C6Y4/16/16/16/16/16"
        );
        let second = targets(&p, d5, Some(e6));
        assert_eq!(second, vec![((Square::from_coords(4, 5), BoardId::B), 'Y')]);
        let h1 = (Square::from_coords(7, 0), BoardId::A);
        assert!(targets(&p, h1, None).contains(&((Square::from_coords(4, 0), BoardId::A), 'C')));
    }

    #[test]
    fn xboard_fens_become_engine_fens() {
        let wide = "rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w HEAhea i3 0 1";
        assert_eq!(
            engine_fen(Variant::Alice, wide),
            "rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - 0 1"
        );
        let lg = "8rnbqkbnr/8pppppppp/16/16/16/16/PPPPPPPP8/R3K2R8 w EApmi - 0 1";
        assert_eq!(engine_fen(Variant::LookingGlass, lg).split(' ').nth(2), Some("Qkq"));
        assert_eq!(
            engine_fen(Variant::Alice, "4k11/16/16/16/16/16/16/4K11 w - - 0 1"),
            "4k11/16/16/16/16/16/16/4K11 w - - 0 1"
        );
    }
}
