//! Reading Popeye's input language, the parts Alice problems use.
//!
//! `begin` ... `end`, problems separated by `next`; `author`, `origin`, `title` (the rest of
//! the line, echoed), `remark` and `protocol` (ignored); `pieces` (`white Ke1 Qd1 Pa2b2 white
//! AliceB Sa3 black ...`, German `S` for the knight, pieces without `AliceB` on board A);
//! `condition alice` (or `AliceChess`; this solver always plays Alice, so the condition may be
//! left out, as Popeye infers it from AliceB pieces); `stipulation`; `option` (try, vari,
//! whitetoplay, nocastling, enpassant, maxsolutions, maxtime, refutations, noboard); `twin`
//! (`move`, `exchange`, `remove`, `add`, `stipulation`, `cont`). Keywords are case-insensitive
//! and may be shortened (`stip`, `cond`, `vari`). An error names the line and the word; the
//! rest of that problem is skipped and reading goes on at the next `next`. As in Popeye, an
//! unknown keyword, or an unknown option (which ends its option list), is only ignored: it
//! is kept in [`Problem::ignored`] and the problem is read on.

use super::extras::{Argument, ExtraOption};
use super::problem::{InputError, Meta, Placed, Problem, Transform, Twin, TwinOp};
use vorpal_engine::solve::Play;
use vorpal_engine::{BoardId, Color, PieceKind, Square};

mod pieces;
#[cfg(test)]
mod tests;
mod words;

use pieces::{piece_list, place, square_list, stipulation};
use words::{abbreviates, keyword, words, Keyword, Word};

/// One problem's parse: the problem, or the first error in it.
pub type ParsedProblem = Result<Problem, InputError>;

/// Reads every problem of `input`. A text without `begin` is read as one problem.
pub fn parse(input: &str) -> Vec<ParsedProblem> {
    let words = words(input);
    let mut reader = Reader { words, at: 0 };
    let mut problems = Vec::new();
    if reader.peek().is_some_and(|w| keyword(w.text) == Some(Keyword::Begin)) {
        reader.at += 1;
    }
    while reader.peek().is_some() {
        let start = reader.peek().map_or(1, |w| w.line);
        let result = reader.problem(start);
        if result.is_err() {
            reader.skip_to_next();
        }
        let ended = reader.finish_problem();
        // An empty trailing section (e.g. only `end`) is not a problem.
        let empty = |p: &Problem| {
            p.pieces.is_empty() && p.stipulation.is_none() && p.headers.is_empty() && p.ignored.is_empty()
        };
        if !matches!(&result, Ok(p) if empty(p)) {
            problems.push(result);
        }
        if ended {
            break;
        }
    }
    problems
}

struct Reader<'a> {
    words: Vec<Word<'a>>,
    at: usize,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<&Word<'a>> {
        self.words.get(self.at)
    }

    fn next(&mut self) -> Option<Word<'a>> {
        let w = self.words.get(self.at).cloned();
        self.at += 1;
        w
    }

    /// The next word unless it is a keyword.
    fn argument(&mut self) -> Option<Word<'a>> {
        match self.peek() {
            Some(w) if keyword(w.text).is_none() => self.next(),
            _ => None,
        }
    }

    /// Skips the words of the current line after a word that takes the rest of the line.
    fn skip_line(&mut self, line: usize) {
        while self.peek().is_some_and(|w| w.line == line) {
            self.at += 1;
        }
    }

    fn skip_to_next(&mut self) {
        while let Some(w) = self.peek() {
            if matches!(keyword(w.text), Some(Keyword::Next | Keyword::End)) {
                return;
            }
            self.at += 1;
        }
    }

    /// Consumes `next` or `end`; true at `end` or the end of the input.
    fn finish_problem(&mut self) -> bool {
        match self.next() {
            Some(w) => keyword(w.text) == Some(Keyword::End),
            None => true,
        }
    }

    fn problem(&mut self, line: usize) -> Result<Problem, InputError> {
        let mut problem = Problem {
            line,
            ..Problem::default()
        };
        while let Some(w) = self.peek().cloned() {
            let Some(kw) = keyword(w.text) else {
                problem.ignored.push(w.error("unknown keyword, ignored"));
                self.at += 1;
                continue;
            };
            match kw {
                Keyword::Next | Keyword::End => return Ok(problem),
                Keyword::Begin => {
                    self.at += 1;
                }
                Keyword::Author | Keyword::Origin | Keyword::Title | Keyword::Award => {
                    self.at += 1;
                    let meta = match kw {
                        Keyword::Author => Meta::Author,
                        Keyword::Origin => Meta::Origin,
                        Keyword::Award => Meta::Award,
                        _ => Meta::Title,
                    };
                    problem.meta.push((meta, w.rest.to_string()));
                    problem.headers.push(w.rest.to_string());
                    self.skip_line(w.line);
                }
                Keyword::Remark | Keyword::Protocol => {
                    self.at += 1;
                    self.skip_line(w.line);
                }
                Keyword::Pieces => {
                    self.at += 1;
                    self.pieces(&mut problem.pieces)?;
                }
                Keyword::Condition => {
                    self.at += 1;
                    self.condition(&w)?;
                }
                Keyword::Stipulation => {
                    self.at += 1;
                    let arg = self.argument().ok_or_else(|| w.error("the stipulation is missing"))?;
                    // Popeye's `~n`, `h~n` and `ser-~n`: any move (Olive's legal-moves
                    // buttons), read as the mate stipulation of that play and length; the
                    // text tells it apart.
                    let stip = match arg.text.split_once('~') {
                        Some((play, n)) if ["", "h", "ser-"].contains(&play.to_ascii_lowercase().as_str()) => {
                            stipulation(&Word {
                                text: &format!("{play}#{n}"),
                                ..arg.clone()
                            })?
                        }
                        _ => stipulation(&arg)?,
                    };
                    // Popeye's a=>b: the pieces read so far are the start position; the next
                    // `pieces` block is the diagram to reach.
                    if stip.play == Play::AToB && problem.start_pieces.is_none() {
                        problem.start_pieces = Some(std::mem::take(&mut problem.pieces));
                    }
                    problem.stipulation = Some((stip, arg.text.to_string(), arg.line));
                }
                Keyword::Option => {
                    self.at += 1;
                    if let Some(unknown) = self.options(&w, &mut problem.options)? {
                        problem.ignored.push(unknown);
                    }
                }
                Keyword::Twin => {
                    self.at += 1;
                    let twin = self.twin(&w)?;
                    problem.twins.push(twin);
                }
                Keyword::Zero => {
                    // Popeye's `zeroposition`: the diagram is not solved; its changes make
                    // twin a), and the later twins start from the diagram again.
                    self.at += 1;
                    if !problem.twins.is_empty() || problem.zero {
                        return Err(w.error("zeroposition must come before the twins"));
                    }
                    let twin = self.twin(&w)?;
                    problem.twins.push(twin);
                    problem.zero = true;
                }
            }
        }
        Ok(problem)
    }

    fn pieces(&mut self, pieces: &mut Vec<Placed>) -> Result<(), InputError> {
        let mut color: Option<Color> = None;
        let mut board = BoardId::A;
        while let Some(w) = self.argument() {
            let lower = w.text.to_ascii_lowercase();
            if abbreviates(&lower, "white") {
                (color, board) = (Some(Color::White), BoardId::A);
            } else if abbreviates(&lower, "black") {
                (color, board) = (Some(Color::Black), BoardId::A);
            } else if lower == "alicea" {
                board = BoardId::A;
            } else if lower == "aliceb" {
                board = BoardId::B;
            } else if abbreviates(&lower, "neutral") {
                return Err(w.error("neutral pieces are not supported"));
            } else {
                let Some(color) = color else {
                    return Err(w.error("a piece needs a colour first (white or black)"));
                };
                for placed in piece_list(&w, color, board)? {
                    place(pieces, placed, &w)?;
                }
            }
        }
        Ok(())
    }

    /// The conditions after `condition`: Alice, named on that line or the next ones; another
    /// condition on its line is refused, a word on a later line that is not Alice ends the
    /// list (Popeye reads it as the next keyword).
    fn condition(&mut self, keyword_word: &Word) -> Result<(), InputError> {
        let mut any = false;
        while let Some(w) = self.peek().filter(|w| keyword(w.text).is_none()).cloned() {
            let lower = w.text.to_ascii_lowercase();
            if lower != "alice" && lower != "alicechess" {
                if any && w.line != keyword_word.line {
                    break;
                }
                return Err(w.error("unsupported condition (only alice)"));
            }
            self.at += 1;
            any = true;
        }
        if any {
            Ok(())
        } else {
            Err(keyword_word.error("the condition is missing"))
        }
    }

    /// The conditions of a `condition` twin: one or more `alice` words (other conditions are
    /// refused); the next word that is not one is the twin's next change.
    fn twin_condition(&mut self, twin: &Word) -> Result<(), InputError> {
        let is_alice = |t: &str| {
            let lower = t.to_ascii_lowercase();
            lower == "alice" || lower == "alicechess"
        };
        match self.peek().cloned() {
            Some(w) if is_alice(w.text) => {}
            Some(w) if keyword(w.text).is_none() => return Err(w.error("unsupported condition (only alice)")),
            _ => return Err(twin.error("the condition is missing")),
        }
        while self.peek().is_some_and(|w| is_alice(w.text)) {
            self.at += 1;
        }
        Ok(())
    }

    /// The options after `option`; an unknown one ends the list and is returned, to be
    /// reported and ignored as Popeye does ("parsing of options aborted").
    fn options(
        &mut self,
        keyword_word: &Word,
        options: &mut super::problem::ProblemOptions,
    ) -> Result<Option<InputError>, InputError> {
        let mut any = false;
        while let Some(w) = self.argument() {
            any = true;
            let t = w.text;
            if abbreviates(t, "try") {
                options.tries = true;
            } else if abbreviates(t, "variation") || abbreviates(t, "variations") {
                options.variations = true;
            } else if abbreviates(t, "whitetoplay") {
                options.white_to_play = true;
            } else if abbreviates(t, "noboard") {
                options.no_board = true;
            } else if abbreviates(t, "nocastling") {
                options.no_castling.extend(self.squares_argument(&w)?);
            } else if abbreviates(t, "enpassant") {
                // Popeye's form: departure, passed and arrival squares of the double step just
                // played; one square alone is read as the passed square.
                let passed = match self.squares_argument(&w)?[..] {
                    [passed] => passed,
                    [from, passed, to]
                        if from.file() == to.file()
                            && passed.file() == from.file()
                            && from.rank().abs_diff(to.rank()) == 2
                            && passed.rank() == (from.rank() + to.rank()) / 2 =>
                    {
                        passed
                    }
                    _ => {
                        return Err(
                            w.error("en passant takes the departure, passed and arrival squares of a double step")
                        )
                    }
                };
                options.en_passant = Some(passed);
            } else if abbreviates(t, "maxsolutions") {
                options.max_solutions = Some(self.number_argument(&w)? as usize);
            } else if abbreviates(t, "maxtime") {
                options.max_time = Some(self.number_argument(&w)?);
            } else if abbreviates(t, "refutations") {
                options.refutations = Some(self.number_argument(&w)? as usize);
            } else if let Some(extra) = ExtraOption::parse(t) {
                let number = match extra.argument() {
                    Argument::None => None,
                    Argument::Number => Some(self.number_argument(&w)?),
                    Argument::Count => Some(self.bounded_argument(&w, 0)?),
                    Argument::OptionalNumber => self
                        .peek()
                        .and_then(|n| n.text.parse::<u64>().ok())
                        .inspect(|_| self.at += 1),
                };
                options.extras.set(extra, number);
            } else {
                return Ok(Some(w.error("unknown option; the options after it are not read")));
            }
        }
        if any {
            Ok(None)
        } else {
            Err(keyword_word.error("the option is missing"))
        }
    }

    fn squares_argument(&mut self, option: &Word) -> Result<Vec<Square>, InputError> {
        let mut squares = Vec::new();
        while let Some(w) = self.peek().cloned() {
            match square_list(w.text) {
                Some(list) if keyword(w.text).is_none() => {
                    squares.extend(list);
                    self.at += 1;
                }
                _ => break,
            }
        }
        if squares.is_empty() {
            return Err(option.error("squares expected after this option"));
        }
        Ok(squares)
    }

    fn number_argument(&mut self, option: &Word) -> Result<u64, InputError> {
        self.bounded_argument(option, 1)
    }

    /// The number after `option`, at least `min`.
    fn bounded_argument(&mut self, option: &Word, min: u64) -> Result<u64, InputError> {
        let w = self
            .argument()
            .ok_or_else(|| option.error("a number expected after this option"))?;
        w.text.parse::<u64>().ok().filter(|&n| n >= min).ok_or_else(|| {
            let expected = if min > 0 {
                "a positive number expected"
            } else {
                "a number expected"
            };
            w.error(expected)
        })
    }

    fn square(&mut self, twin: &Word) -> Result<Square, InputError> {
        let w = self.next().ok_or_else(|| twin.error("a square expected"))?;
        Square::parse(&w.text.to_ascii_lowercase())
            .filter(|_| w.text.len() == 2)
            .ok_or_else(|| w.error("a square expected"))
    }

    fn twin(&mut self, keyword_word: &Word) -> Result<Twin, InputError> {
        let mut twin = Twin {
            line: keyword_word.line,
            continued: false,
            ops: Vec::new(),
        };
        while let Some(w) = self.peek().cloned() {
            let lower = w.text.to_ascii_lowercase();
            if abbreviates(&lower, "continued") || lower == "cont" {
                self.at += 1;
                twin.continued = true;
            } else if abbreviates(&lower, "move") {
                self.at += 1;
                twin.ops.push(TwinOp::Move(self.square(&w)?, self.square(&w)?));
            } else if abbreviates(&lower, "exchange") {
                self.at += 1;
                twin.ops.push(TwinOp::Exchange(self.square(&w)?, self.square(&w)?));
            } else if abbreviates(&lower, "remove") {
                self.at += 1;
                twin.ops.push(TwinOp::Remove(self.square(&w)?));
            } else if abbreviates(&lower, "add") {
                self.at += 1;
                twin.ops.extend(self.twin_add(&w)?);
            } else if abbreviates(&lower, "stipulation") {
                self.at += 1;
                let arg = self.next().ok_or_else(|| w.error("the stipulation is missing"))?;
                twin.ops
                    .push(TwinOp::Stipulation(stipulation(&arg)?, arg.text.to_string()));
            } else if abbreviates(&lower, "rotate") {
                self.at += 1;
                let arg = self.next().ok_or_else(|| w.error("90, 180 or 270 expected"))?;
                let t = match arg.text {
                    "90" => Transform::Rotate90,
                    "180" => Transform::Rotate180,
                    "270" => Transform::Rotate270,
                    _ => return Err(arg.error("90, 180 or 270 expected")),
                };
                twin.ops.push(TwinOp::Transform(t));
            } else if abbreviates(&lower, "mirror") {
                self.at += 1;
                let arg = self
                    .next()
                    .ok_or_else(|| w.error("a1<-->h1, a1<-->a8, a1<-->h8 or a8<-->h1 expected"))?;
                let t = match arg.text.to_ascii_lowercase().as_str() {
                    "a1<-->h1" => Transform::MirrorFiles,
                    "a1<-->a8" => Transform::MirrorRanks,
                    "a1<-->h8" => Transform::MirrorA1H8,
                    "a8<-->h1" => Transform::MirrorA8H1,
                    _ => return Err(arg.error("a1<-->h1, a1<-->a8, a1<-->h8 or a8<-->h1 expected")),
                };
                twin.ops.push(TwinOp::Transform(t));
            } else if abbreviates(&lower, "shift") {
                self.at += 1;
                twin.ops.push(TwinOp::Shift(self.square(&w)?, self.square(&w)?));
            } else if abbreviates(&lower, "substitute") {
                self.at += 1;
                let old = self.piece_kind(&w)?;
                let new = self.piece_kind(&w)?;
                twin.ops.push(TwinOp::Substitute(old, new));
            } else if abbreviates(&lower, "polishtype") {
                self.at += 1;
                twin.ops.push(TwinOp::Polish);
            } else if lower.len() >= 4 && abbreviates(&lower, "condition") {
                // Popeye's condition twin sets the conditions anew; this solver plays only
                // Alice, so the twin may name Alice again and nothing else.
                self.at += 1;
                self.twin_condition(&w)?;
                twin.ops.push(TwinOp::Condition);
            } else if keyword(w.text).is_some() {
                break;
            } else {
                return Err(w.error("unknown twin change"));
            }
        }
        if twin.ops.is_empty() {
            return Err(keyword_word.error("the twin changes nothing"));
        }
        Ok(twin)
    }

    /// A piece letter (`K Q R B S P`, Popeye's `S` for the knight).
    fn piece_kind(&mut self, twin: &Word) -> Result<PieceKind, InputError> {
        let w = self.next().ok_or_else(|| twin.error("a piece letter expected"))?;
        match w.text.to_ascii_uppercase().as_str() {
            "K" => Ok(PieceKind::King),
            "Q" => Ok(PieceKind::Queen),
            "R" => Ok(PieceKind::Rook),
            "B" => Ok(PieceKind::Bishop),
            "S" => Ok(PieceKind::Knight),
            "P" => Ok(PieceKind::Pawn),
            _ => Err(w.error("a piece letter (K Q R B S P) expected")),
        }
    }

    fn twin_add(&mut self, add: &Word) -> Result<Vec<TwinOp>, InputError> {
        let colour = self.next().ok_or_else(|| add.error("a colour expected"))?;
        let color = match colour.text.to_ascii_lowercase() {
            c if abbreviates(&c, "white") => Color::White,
            c if abbreviates(&c, "black") => Color::Black,
            _ => return Err(colour.error("white or black expected")),
        };
        let mut board = BoardId::A;
        let mut spec = self.next().ok_or_else(|| add.error("a piece expected"))?;
        match spec.text.to_ascii_lowercase().as_str() {
            "aliceb" | "alicea" => {
                board = if spec.text.eq_ignore_ascii_case("aliceb") {
                    BoardId::B
                } else {
                    BoardId::A
                };
                spec = self.next().ok_or_else(|| add.error("a piece expected"))?;
            }
            _ => {}
        }
        Ok(piece_list(&spec, color, board)?.into_iter().map(TwinOp::Add).collect())
    }
}
