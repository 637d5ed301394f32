//! PGN games as the match runner and `annotate` read and write them (the main line, with
//! comments; the lexer and the writing pieces are [`crate::pgn_text`]'s, shared with the GUI).
//!
//! The writer produces the export format: the seven-tag roster first, then the other tags,
//! movetext wrapped at 80 columns, comments in braces, the result at the end. The reader is
//! tolerant: it accepts comments (`{...}` and `;`), `%` escape lines, recursive variations
//! (skipped), NAGs, move numbers with or without a space (`1.e4`, `12...Nf6`), and SAN with or
//! without the Alice landing-board suffix (`Ne5/A`). A game whose movetext stops without a
//! result token (a file cut off mid-write) is returned with `result: None`.

use crate::pgn_text::{comment, is_result, move_text, tag_line, tokenize, wrap, PgnToken};
use crate::variant_tag::check_tags;
use vorpal_engine::{Move, Position, Rules};

/// One move of a PGN game with its comment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnMove {
    /// The move as written (SAN, or UCI in loosely written files).
    pub san: String,
    /// The comment following the move, without braces.
    pub comment: Option<String>,
}

/// A PGN game: tags, moves and result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// Tag pairs in file order.
    pub tags: Vec<(String, String)>,
    /// The main line.
    pub moves: Vec<PgnMove>,
    /// Comment before the first move, if any.
    pub pre_comment: Option<String>,
    /// Comment just before the result (the reason the game ended), if any.
    pub final_comment: Option<String>,
    /// The game termination marker (`1-0`, `0-1`, `1/2-1/2`, `*`); `None` when missing.
    pub result: Option<String>,
}

/// The order of the seven-tag roster.
const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

impl PgnGame {
    /// Value of tag `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// Sets tag `name` (replacing an existing value).
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some(t) => t.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// The export-format text of the game, ending with an empty line.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for name in ROSTER {
            let v = self.tag(name).unwrap_or(if name == "Result" { "*" } else { "?" });
            out += &tag_line(name, v);
        }
        for (k, v) in self.tags.iter().filter(|(k, _)| !ROSTER.contains(&k.as_str())) {
            out += &tag_line(k, v);
        }
        out.push('\n');
        let (mut number, mut black) = self.first_move_number();
        let mut words: Vec<String> = Vec::new();
        if let Some(c) = &self.pre_comment {
            words.push(comment(c));
        }
        for (i, m) in self.moves.iter().enumerate() {
            if !black {
                words.push(format!("{number}."));
            } else if i == 0 {
                words.push(format!("{number}..."));
            }
            words.push(m.san.clone());
            if let Some(c) = &m.comment {
                words.push(comment(c));
            }
            if black {
                number += 1;
            }
            black = !black;
        }
        if let Some(c) = &self.final_comment {
            words.push(comment(c));
        }
        words.push(self.result.clone().unwrap_or_else(|| "*".into()));
        out += &wrap(words);
        out
    }

    /// Move number and side of the first move, from the `FEN` tag (1 and White without one).
    fn first_move_number(&self) -> (u32, bool) {
        let Some(fen) = self.tag("FEN") else { return (1, false) };
        // The pipe form has six fields; read the side and move number from the end.
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let black = fields.get(1) == Some(&"b");
        let number = fields.get(5).and_then(|n| n.parse().ok()).unwrap_or(1);
        (number.max(1), black)
    }

    /// Replays the main line under `rules` from the `FEN` tag (or the variant's start position).
    /// Moves may be SAN (with or without the landing-board suffix) or UCI. A `[Variant]` or
    /// `[AliceEnPassant]` tag that disagrees with `rules` is an error.
    pub fn replay(&self, rules: Rules) -> Result<(Position, Vec<Move>), String> {
        check_tags(self.tag("Variant"), self.tag("AliceEnPassant"), rules)?;
        let start = match self.tag("FEN") {
            Some(fen) => Position::from_fen(fen, rules).map_err(|e| format!("bad FEN tag '{fen}': {e}"))?,
            None => Position::start(rules),
        };
        let mut pos = start;
        let mut moves = Vec::with_capacity(self.moves.len());
        for (i, m) in self.moves.iter().enumerate() {
            let mv = pos
                .parse_move(&m.san)
                .map_err(|e| format!("ply {}: {e} in {}", i + 1, pos.to_fen()))?;
            pos = pos.after(mv);
            moves.push(mv);
        }
        Ok((start, moves))
    }
}

/// Parses every game in `text`.
pub fn parse_pgn(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut in_movetext = false;
    // Depth of the variation being skipped (the reader keeps the main line only).
    let mut variation = 0usize;
    let mut extra: Option<String> = None;
    let append = |slot: &mut Option<String>, text: String| {
        *slot = Some(match slot.take() {
            Some(c) => format!("{c} {text}"),
            None => text,
        });
    };
    let flush = |game: &mut PgnGame, games: &mut Vec<PgnGame>, extra: &mut Option<String>| {
        if let Some(text) = extra.take() {
            match game.moves.last_mut() {
                Some(m) => append(&mut m.comment, text),
                None => append(&mut game.pre_comment, text),
            }
        }
        if !game.tags.is_empty() || !game.moves.is_empty() || game.result.is_some() {
            games.push(std::mem::take(game));
        }
    };
    for token in tokenize(text) {
        if variation > 0 {
            match token {
                PgnToken::Open => variation += 1,
                PgnToken::Close => variation -= 1,
                _ => {}
            }
            continue;
        }
        match token {
            PgnToken::Tag(name, value) => {
                if in_movetext || game.result.is_some() {
                    flush(&mut game, &mut games, &mut extra);
                    in_movetext = false;
                }
                game.tags.push((name, value));
            }
            PgnToken::Comment(comment) => {
                let slot = match game.moves.last_mut() {
                    Some(m) => &mut m.comment,
                    None => &mut game.pre_comment,
                };
                // A second comment is held back: before the result it is the final comment,
                // otherwise it is appended to the first.
                if slot.is_none() {
                    *slot = Some(comment);
                } else if let Some(held) = extra.replace(comment) {
                    append(slot, held);
                }
            }
            PgnToken::Open => variation = 1,
            // A stray `)` closes nothing.
            PgnToken::Close => {}
            PgnToken::Word(token) => {
                if game.result.is_some() {
                    // Movetext after a result belongs to a new game without tags.
                    flush(&mut game, &mut games, &mut extra);
                }
                in_movetext = true;
                if is_result(&token) {
                    game.final_comment = extra.take();
                    if game.moves.is_empty() && game.final_comment.is_none() {
                        // A lone comment in a game without moves explains its result.
                        game.final_comment = game.pre_comment.take();
                    }
                    game.result = Some(token);
                    continue;
                }
                let Some(move_text) = move_text(&token) else {
                    continue;
                };
                if let Some(text) = extra.take() {
                    match game.moves.last_mut() {
                        Some(m) => append(&mut m.comment, text),
                        None => append(&mut game.pre_comment, text),
                    }
                }
                game.moves.push(PgnMove {
                    san: move_text.to_string(),
                    comment: None,
                });
            }
        }
    }
    flush(&mut game, &mut games, &mut extra);
    games
}

/// Today's date as `YYYY.MM.DD` (UTC).
pub fn today() -> String {
    let secs = vorpal_engine::clock::unix_seconds();
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let mut g = PgnGame::default();
        g.set_tag("White", "a \"quoted\" name");
        g.set_tag("Result", "1-0");
        g.set_tag("Variant", "Alice");
        for (san, c) in [
            ("e4", Some("+0.35/12 1.234s")),
            ("d5", None),
            ("Be2", None),
            ("dxe4/A", None),
        ] {
            g.moves.push(PgnMove {
                san: san.into(),
                comment: c.map(String::from),
            });
        }
        g.moves.push(PgnMove {
            san: "Bb5#".into(),
            comment: Some("+M1/1 0.001s".into()),
        });
        g.result = Some("1-0".into());
        g.final_comment = Some("White mates".into());
        let text = g.to_text();
        assert!(text.lines().all(|l| l.len() <= 80));
        assert!(text
            .replace('\n', " ")
            .contains("1. e4 {+0.35/12 1.234s} d5 2. Be2 dxe4/A 3. Bb5# {+M1/1 0.001s} {White mates} 1-0"));
        let back = parse_pgn(&(text.clone() + &text));
        assert_eq!(back.len(), 2);
        assert_eq!(back[0].tag("White"), Some("a \"quoted\" name"));
        assert_eq!((&back[0].moves, &back[0].final_comment), (&g.moves, &g.final_comment));
        assert_eq!(back[0].tag("Date"), Some("?"));
        // Two comments after a move in mid-game are joined.
        let g2 = &parse_pgn("1. e4 {a} {b} d5 {c} *")[0];
        assert_eq!(g2.moves[0].comment.as_deref(), Some("a b"));
        assert_eq!(g2.final_comment, None);
        let g3 = &parse_pgn("[White \"x\"]\n\n{White forfeits} 0-1")[0];
        assert_eq!(
            (g3.pre_comment.as_deref(), g3.final_comment.as_deref()),
            (None, Some("White forfeits"))
        );
        let (start, moves) = back[1].replay(Rules::default()).unwrap();
        assert_eq!(start, Position::startpos());
        assert_eq!(moves.len(), 5);
    }

    #[test]
    fn tolerant_reader() {
        let text =
            "% escape\n[Event \"x\"]\n[FEN \"rnbqk1nr/pppp1|Npp/4|p3/2|b5/8/8/PPPPPPPP/RNBQKB1R b KQkq - 0 3\"]\n\n\
                    3...Qh4 $1 (3... Nf6 {var} 4. Nxd8) ; rest\n4.g3 {c}\n\n[Event \"cut\"]\n\n1. e4 d5";
        let games = parse_pgn(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves.len(), 2);
        assert_eq!(games[0].moves[0].san, "Qh4");
        assert_eq!(games[0].moves[1].comment.as_deref(), Some("c"));
        assert_eq!(games[0].result, None);
        assert!(games[0].replay(Rules::default()).is_ok());
        assert_eq!(games[0].to_text().lines().nth(9), Some("3... Qh4 4. g3 {c} *"));
        assert_eq!(games[1].moves.len(), 2);
        assert_eq!(games[1].result, None);
        // Movetext-only games separated by results.
        let games = parse_pgn("1. e4 d5 1-0\n1. d4 *\n");
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].result.as_deref(), Some("*"));
    }

    /// Regression (issue 32): a stray `]` or `}` stopped the word loop without moving on, so
    /// `annotate` and the match runner's book reader never ended.
    #[test]
    fn stray_closers_are_skipped() {
        for (text, expected) in [
            ("]", &[][..]),
            ("}", &[]),
            ("1. e4 ]", &["e4"]),
            ("1. e4 e5 }", &["e4", "e5"]),
            ("1. e4 ] e5 *", &["e4", "e5"]),
            ("1. e4 e5 } 2. Nf3 *", &["e4", "e5", "Nf3"]),
            ("1. e4 ) ]]} d5", &["e4", "d5"]),
        ] {
            let moves: Vec<String> = parse_pgn(text)
                .iter()
                .flat_map(|g| g.moves.iter().map(|m| m.san.clone()))
                .collect();
            assert_eq!(moves, expected, "{text}");
        }
        let games = parse_pgn("\u{feff}[Event \"Casual game [Alice] {x}\"]\r\n\r\n1. e4 *\r\n");
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].tag("Event"), Some("Casual game [Alice] {x}"));
        assert_eq!(games[0].moves.len(), 1);
    }

    /// Regressions found by the `client_pgn` fuzz target (tests/fuzz): each game must write
    /// and read back to the same moves and tags.
    #[test]
    fn fuzz_findings_write_and_read_back_the_same() {
        let sans = |g: &PgnGame| g.moves.iter().map(|m| m.san.clone()).collect::<Vec<_>>();
        for (text, moves) in [
            // A NAG glued to a move number was a move once read, a NAG once written.
            ("1. d4 2.$ Nf3 *", &["d4", "Nf3"][..]),
            // A result glued to a move number was a move, then the result.
            ("1.* d4 *", &["d4"]),
            // A doubled move number left a number as a move.
            ("9.9. e4 *", &["e4"]),
            ("1. 0-0 -0 %x *", &["0-0"]),
            // A backslash before a line end carried the line end into the tag value.
            ("[Event \"a\\\nb\"]\n1. e4 *", &["b\"", "e4"]),
        ] {
            let games = parse_pgn(text);
            assert_eq!(sans(&games[0]), moves, "{text:?}");
            let written = games[0].to_text();
            let back = parse_pgn(&written);
            assert_eq!(back.len(), 1, "{written}");
            assert_eq!(sans(&back[0]), moves, "{written}");
            for (name, _) in &games[0].tags {
                assert_eq!(back[0].tag(name), games[0].tag(name), "{written}");
            }
        }
    }
}
