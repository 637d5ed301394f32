//! A problem as read from the input: pieces, stipulation, options and twins, and the position
//! of each twin built from them.

use std::fmt;
use vorpal_engine::solve::{Play, Stipulation};
use vorpal_engine::{BoardId, Color, EnPassant, Piece, PieceKind, Position, Rules, Square};

/// An input error: the line (1-based) and the word it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// Line of the input (1-based).
    pub line: usize,
    /// The offending word.
    pub word: String,
    /// What is wrong.
    pub message: String,
}

impl InputError {
    /// An error about `word` on `line`.
    pub fn new(line: usize, word: &str, message: impl Into<String>) -> InputError {
        InputError {
            line,
            word: word.to_string(),
            message: message.into(),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, '{}': {}", self.line, self.word, self.message)
    }
}

/// One piece of the diagram.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Placed {
    /// The piece.
    pub piece: Piece,
    /// Its square.
    pub square: Square,
    /// Its board.
    pub board: BoardId,
}

/// A change of the position or stipulation made by a twin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TwinOp {
    /// The piece on the first square moves to the second (keeping its board).
    Move(Square, Square),
    /// The pieces on the two squares change places.
    Exchange(Square, Square),
    /// The piece on the square is removed.
    Remove(Square),
    /// A piece is added.
    Add(Placed),
    /// Another stipulation (with its text as given).
    Stipulation(Stipulation, String),
    /// Every piece moves to its image under a turn or a mirror (keeping its board).
    Transform(Transform),
    /// Every piece moves by the vector from the first square to the second (Popeye refuses
    /// the twin when a piece would leave the board).
    Shift(Square, Square),
    /// Every piece of the first kind becomes the second kind (both colours, same board).
    Substitute(PieceKind, PieceKind),
    /// Every piece changes colour (`PolishType`).
    Polish,
    /// `condition alice`: the conditions set anew, to Alice again (the only one this solver
    /// plays), so the position and stipulation stay as they are.
    Condition,
}

/// Popeye's board transformations (`rotate 90|180|270`: a turn to the left; `mirror
/// a1<-->h1|a1<-->a8|a1<-->h8|a8<-->h1`: the square a1 or a8 goes to the named one).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Transform {
    /// `rotate 90`: a1 to h1, h1 to h8.
    Rotate90,
    /// `rotate 180`.
    Rotate180,
    /// `rotate 270`: a1 to a8.
    Rotate270,
    /// `mirror a1<-->h1`: across the vertical middle line.
    MirrorFiles,
    /// `mirror a1<-->a8`: across the horizontal middle line.
    MirrorRanks,
    /// `mirror a1<-->h8`: across the diagonal a8-h1.
    MirrorA1H8,
    /// `mirror a8<-->h1`: across the diagonal a1-h8.
    MirrorA8H1,
}

impl Transform {
    /// The image of `sq` (files and ranks 0..8: a turn to the left maps (f, r) to (7 - r, f)).
    pub fn apply(self, sq: Square) -> Square {
        let (f, r) = (sq.file(), sq.rank());
        let (f, r) = match self {
            Transform::Rotate90 => (7 - r, f),
            Transform::Rotate180 => (7 - f, 7 - r),
            Transform::Rotate270 => (r, 7 - f),
            Transform::MirrorFiles => (7 - f, r),
            Transform::MirrorRanks => (f, 7 - r),
            Transform::MirrorA1H8 => (7 - r, 7 - f),
            Transform::MirrorA8H1 => (r, f),
        };
        Square::from_coords(f, r)
    }

    /// Popeye's words for the change (`rotate 90`, `mirror a1<-->h1`).
    pub fn text(self) -> &'static str {
        match self {
            Transform::Rotate90 => "rotate 90",
            Transform::Rotate180 => "rotate 180",
            Transform::Rotate270 => "rotate 270",
            Transform::MirrorFiles => "mirror a1<-->h1",
            Transform::MirrorRanks => "mirror a1<-->a8",
            Transform::MirrorA1H8 => "mirror a1<-->h8",
            Transform::MirrorA8H1 => "mirror a8<-->h1",
        }
    }
}

/// A twin: its changes, applied to the original position or (continued) to the previous twin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Twin {
    /// Line of the `twin` keyword.
    pub line: usize,
    /// `cont`: the changes apply to the previous twin.
    pub continued: bool,
    /// The changes, in order.
    pub ops: Vec<TwinOp>,
}

/// The options of a problem (Popeye's `option` keyword).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ProblemOptions {
    /// `option try`.
    pub tries: bool,
    /// `option vari`.
    pub variations: bool,
    /// `option whitetoplay`: in help play the other side starts.
    pub white_to_play: bool,
    /// `option nocastling`: squares whose king or rook has lost its castling right.
    pub no_castling: Vec<Square>,
    /// `option enpassant`: the square passed over by the last move's double step.
    pub en_passant: Option<Square>,
    /// `option maxsolutions N`.
    pub max_solutions: Option<usize>,
    /// `option maxtime S` (seconds).
    pub max_time: Option<u64>,
    /// `option refutations N` (how many refutations a try may have; default 1).
    pub refutations: Option<usize>,
    /// `option noboard`: no diagram in the text output.
    pub no_board: bool,
    /// Popeye's other options (`SetPlay`, `Defence 2`, display and speed options).
    pub extras: super::extras::ExtraOptions,
}

/// The kind of a header line, in the order Popeye prints them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Meta {
    /// `author`.
    Author,
    /// `origin`.
    Origin,
    /// `award`.
    Award,
    /// `title`.
    Title,
}

/// A problem: everything read between `begin`/`next` and `next`/`end`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Problem {
    /// Line where the problem starts.
    pub line: usize,
    /// `author`, `origin`, `title`, `award` lines, in input order.
    pub headers: Vec<String>,
    /// The same lines with their kinds.
    pub meta: Vec<(Meta, String)>,
    /// `zeroposition`: the diagram itself is not solved, only its twins.
    pub zero: bool,
    /// The diagram.
    pub pieces: Vec<Placed>,
    /// An `a=>b` proof game's start position (the pieces given before its stipulation).
    pub start_pieces: Option<Vec<Placed>>,
    /// The stipulation, its text and line.
    pub stipulation: Option<(Stipulation, String, usize)>,
    /// The options.
    pub options: ProblemOptions,
    /// The twins after the first position.
    pub twins: Vec<Twin>,
    /// Items of the input that were ignored, as Popeye ignores them (an unknown keyword,
    /// an unknown option and the rest of its option list): reported, the problem still read.
    pub ignored: Vec<InputError>,
}

/// One position to solve: a problem, or one twin of it.
#[derive(Clone, Debug)]
pub struct Task {
    /// The twin's label (`a`, `b`, ...), or None for a problem without twins.
    pub label: Option<char>,
    /// What the twin changed, in words (`wKh1-->h2`).
    pub change: String,
    /// The position, with the side that moves first to move.
    pub position: Position,
    /// The stipulation and its text as given.
    pub stipulation: Stipulation,
    /// Its text as given.
    pub stipulation_text: String,
    /// An `a=>b` proof game's start position (Black to move, White with `option
    /// whitetoplay`), when the input gave one.
    pub start: Option<Position>,
}

/// Popeye's short name of a piece (`wK`, `bS`).
fn piece_name(piece: Piece) -> String {
    let colour = if piece.color() == Color::White { 'w' } else { 'b' };
    let letter = match piece.kind() {
        PieceKind::Knight => 'S',
        kind => kind.letter(),
    };
    format!("{colour}{letter}")
}

fn find(pieces: &[Placed], square: Square) -> Option<usize> {
    pieces.iter().position(|p| p.square == square)
}

/// Applies `op` to `pieces` (and the stipulation); returns the change in words.
fn apply(
    op: &TwinOp,
    pieces: &mut Vec<Placed>,
    stipulation: &mut (Stipulation, String),
    line: usize,
) -> Result<String, InputError> {
    let missing = |sq: Square| InputError::new(line, &sq.to_string(), "no piece stands on this square");
    match op {
        TwinOp::Move(from, to) => {
            find(pieces, *from).ok_or_else(|| missing(*from))?;
            // As in Popeye, a piece standing on the target square is removed.
            if from != to {
                if let Some(j) = find(pieces, *to) {
                    pieces.remove(j);
                }
            }
            let i = find(pieces, *from).ok_or_else(|| missing(*from))?;
            pieces[i].square = *to;
            Ok(format!("{}{from}-->{to}", piece_name(pieces[i].piece)))
        }
        TwinOp::Exchange(a, b) => {
            let i = find(pieces, *a).ok_or_else(|| missing(*a))?;
            let j = find(pieces, *b).ok_or_else(|| missing(*b))?;
            let text = format!(
                "{}{a}<-->{}{b}",
                piece_name(pieces[i].piece),
                piece_name(pieces[j].piece)
            );
            pieces[i].square = *b;
            pieces[j].square = *a;
            Ok(text)
        }
        TwinOp::Remove(sq) => {
            let i = find(pieces, *sq).ok_or_else(|| missing(*sq))?;
            let removed = pieces.remove(i);
            Ok(format!("-{}{sq}", piece_name(removed.piece)))
        }
        TwinOp::Add(placed) => {
            // As in Popeye, a piece present on the square is replaced.
            if let Some(j) = find(pieces, placed.square) {
                pieces.remove(j);
            }
            pieces.push(*placed);
            Ok(format!(
                "+{}{}{}",
                piece_name(placed.piece),
                placed.square,
                board_suffix(placed.board)
            ))
        }
        TwinOp::Stipulation(stip, text) => {
            *stipulation = (*stip, text.clone());
            Ok(text.clone())
        }
        TwinOp::Transform(t) => {
            for p in pieces.iter_mut() {
                p.square = t.apply(p.square);
            }
            Ok(t.text().to_string())
        }
        TwinOp::Shift(from, to) => {
            let (df, dr) = (
                i16::from(to.file()) - i16::from(from.file()),
                i16::from(to.rank()) - i16::from(from.rank()),
            );
            let mut moved = Vec::with_capacity(pieces.len());
            for p in pieces.iter() {
                let (f, r) = (i16::from(p.square.file()) + df, i16::from(p.square.rank()) + dr);
                if !(0..8).contains(&f) || !(0..8).contains(&r) {
                    return Err(InputError::new(
                        line,
                        &p.square.to_string(),
                        "the shift would move this piece off the board",
                    ));
                }
                moved.push(Square::from_coords(f as u8, r as u8));
            }
            for (p, sq) in pieces.iter_mut().zip(moved) {
                p.square = sq;
            }
            Ok(format!("shift {from} ==> {to}"))
        }
        TwinOp::Substitute(old, new) => {
            for p in pieces.iter_mut().filter(|p| p.piece.kind() == *old) {
                p.piece = Piece::new(p.piece.color(), *new);
            }
            let letter = |k: PieceKind| if k == PieceKind::Knight { 'S' } else { k.letter() };
            Ok(format!("{} ==> {}", letter(*old), letter(*new)))
        }
        TwinOp::Polish => {
            for p in pieces.iter_mut() {
                p.piece = Piece::new(p.piece.color().flip(), p.piece.kind());
            }
            Ok("PolishType".to_string())
        }
        TwinOp::Condition => Ok("AliceChess".to_string()),
    }
}

fn board_suffix(board: BoardId) -> &'static str {
    if board == BoardId::B {
        "/B"
    } else {
        ""
    }
}

/// The side that plays the first move (for a proof game: the side to move in the diagram).
/// White in direct, self and reflex play and in the series-movers `ser-#`, `ser-=` and
/// `ser-s#`; Black plays the series of `ser-h#`. In help play Black for `h#n` and White for
/// `h#n.5`; help-self play ends with Black's forced move, so White starts `hs#n` and Black
/// `hs#n.5` (in help and help-self play the other way round with `whitetoplay`). A proof game
/// from the start position ends with Black to move after `diaN.5` (White made the last move)
/// and with White to move after `diaN`.
pub fn first_mover(stipulation: &Stipulation, white_to_play: bool) -> Color {
    let white_if = |white: bool| if white { Color::White } else { Color::Black };
    match stipulation.play {
        Play::Direct | Play::SelfPlay | Play::Reflex | Play::SemiReflex | Play::SeriesDirect | Play::SeriesSelf => {
            Color::White
        }
        Play::SeriesHelp => white_if(white_to_play),
        Play::Help => white_if(stipulation.half_move != white_to_play),
        Play::HelpSelf => white_if(stipulation.half_move == white_to_play),
        Play::ProofGame => white_if(!stipulation.half_move),
        // Popeye's a=>b starts with Black (White with `option whitetoplay`); the diagram has
        // the starter to move after an even number of half moves.
        Play::AToB => white_if(white_to_play != stipulation.half_move),
    }
}

/// Who starts an `a=>b` proof game read from Popeye input: Black, or White with
/// `option whitetoplay`.
pub fn start_mover(white_to_play: bool) -> Color {
    if white_to_play {
        Color::White
    } else {
        Color::Black
    }
}

/// The FEN (pipe form) of `pieces` with `side` to move, castling rights for every king and rook
/// on their start squares of one board (less the `nocastling` squares) and the en passant square.
fn fen(pieces: &[Placed], side: Color, options: &ProblemOptions) -> String {
    let at = |sq: Square| pieces.iter().find(|p| p.square == sq);
    let mut rows = Vec::new();
    for rank in (0..8u8).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..8u8 {
            match at(Square::from_coords(file, rank)) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    if p.board == BoardId::B {
                        row.push('|');
                    }
                    row.push(p.piece.letter());
                }
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    let mut castling = String::new();
    for (color, back, letters) in [(Color::White, 0u8, ['K', 'Q']), (Color::Black, 7u8, ['k', 'q'])] {
        let king_sq = Square::from_coords(4, back);
        let Some(king) = at(king_sq).filter(|p| p.piece == Piece::new(color, PieceKind::King)) else {
            continue;
        };
        if options.no_castling.contains(&king_sq) {
            continue;
        }
        for (file, letter) in [(7u8, letters[0]), (0u8, letters[1])] {
            let rook_sq = Square::from_coords(file, back);
            let rook = at(rook_sq).filter(|p| p.piece == Piece::new(color, PieceKind::Rook) && p.board == king.board);
            if rook.is_some() && !options.no_castling.contains(&rook_sq) {
                castling.push(letter);
            }
        }
    }
    if castling.is_empty() {
        castling.push('-');
    }
    let ep = options.en_passant.map_or("-".to_string(), |sq| sq.to_string());
    let side = if side == Color::White { 'w' } else { 'b' };
    format!("{} {side} {castling} {ep} 0 1", rows.join("/"))
}

/// The rules for a problem: `rules` as given on the command line; `option enpassant` asks for
/// en passant, so it switches the `normal` mode on when the command line left it off.
pub fn problem_rules(rules: Rules, options: &ProblemOptions, ep_given: bool) -> Rules {
    if options.en_passant.is_some() && !ep_given && rules.en_passant == EnPassant::Off {
        rules.with_ep(EnPassant::Normal)
    } else {
        rules
    }
}

impl Problem {
    /// The positions to solve: the problem itself, then each twin.
    pub fn tasks(&self, rules: Rules) -> Result<Vec<Task>, InputError> {
        let Some((stip, text, stip_line)) = &self.stipulation else {
            return Err(InputError::new(
                self.line,
                "stipulation",
                "the problem has no stipulation",
            ));
        };
        let build = |pieces: &[Placed], stip: &Stipulation, line: usize, word: &str| {
            let side = first_mover(stip, self.options.white_to_play);
            Position::from_fen(&fen(pieces, side, &self.options), rules)
                .map_err(|e| InputError::new(line, word, format!("impossible position: {e}")))
        };
        let start = match &self.start_pieces {
            Some(pieces) => Some(
                Position::from_fen(
                    &fen(pieces, start_mover(self.options.white_to_play), &self.options),
                    rules,
                )
                .map_err(|e| InputError::new(*stip_line, text, format!("impossible start position: {e}")))?,
            ),
            None => None,
        };
        // With `zeroposition` the first twin is a).
        let skip = usize::from(self.zero);
        let label = |i: usize| (!self.twins.is_empty()).then(|| (b'a' + ((i - skip) % 26) as u8) as char);
        let mut tasks = vec![Task {
            label: label(skip),
            change: String::new(),
            position: build(&self.pieces, stip, *stip_line, text)?,
            stipulation: *stip,
            stipulation_text: text.clone(),
            start,
        }];
        let mut previous = (self.pieces.clone(), (*stip, text.clone()));
        for (i, twin) in self.twins.iter().enumerate() {
            let (mut pieces, mut stipulation) = if twin.continued {
                previous.clone()
            } else {
                (self.pieces.clone(), (*stip, text.clone()))
            };
            let mut changes = Vec::new();
            for op in &twin.ops {
                changes.push(apply(op, &mut pieces, &mut stipulation, twin.line)?);
            }
            tasks.push(Task {
                label: label(i + 1),
                change: changes.join("  "),
                position: build(&pieces, &stipulation.0, twin.line, "twin")?,
                stipulation: stipulation.0,
                stipulation_text: stipulation.1.clone(),
                start,
            });
            previous = (pieces, stipulation);
        }
        if self.zero {
            tasks.remove(0);
        }
        Ok(tasks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placed(letter: char, sq: &str, board: BoardId) -> Placed {
        Placed {
            piece: Piece::from_letter(letter).unwrap(),
            square: Square::parse(sq).unwrap(),
            board,
        }
    }

    #[test]
    fn fen_with_castling_and_boards() {
        let pieces = vec![
            placed('K', "e1", BoardId::A),
            placed('R', "h1", BoardId::A),
            placed('R', "a1", BoardId::B),
            placed('k', "e8", BoardId::B),
            placed('r', "a8", BoardId::B),
        ];
        let options = ProblemOptions::default();
        assert_eq!(
            fen(&pieces, Color::White, &options),
            "|r3|k3/8/8/8/8/8/8/|R3K2R w Kq - 0 1"
        );
        let options = ProblemOptions {
            no_castling: vec![Square::parse("a8").unwrap()],
            ..ProblemOptions::default()
        };
        assert_eq!(
            fen(&pieces, Color::Black, &options),
            "|r3|k3/8/8/8/8/8/8/|R3K2R b K - 0 1"
        );
    }

    #[test]
    fn first_movers() {
        let stip = |t: &str| t.parse::<Stipulation>().unwrap();
        assert_eq!(first_mover(&stip("h#2"), false), Color::Black);
        assert_eq!(first_mover(&stip("h#2.5"), false), Color::White);
        assert_eq!(first_mover(&stip("h#2"), true), Color::White);
        assert_eq!(first_mover(&stip("#2"), false), Color::White);
        assert_eq!(first_mover(&stip("s#3"), true), Color::White);
        // Proof games: the diagram's side to move.
        assert_eq!(first_mover(&stip("dia10.5"), false), Color::Black);
        assert_eq!(first_mover(&stip("dia4"), false), Color::White);
        assert_eq!(first_mover(&stip("a=>b3.5"), false), Color::White);
        assert_eq!(first_mover(&stip("a=>b3.5"), true), Color::Black);
        assert_eq!(first_mover(&stip("a=>b4"), false), Color::Black);
        assert_eq!(start_mover(false), Color::Black);
    }
}
