//! PGN writing and reading.
//!
//! The writer produces the export format: the seven-tag roster first, then the other tags,
//! movetext wrapped at 80 columns, comments in braces, the result at the end. The reader is
//! tolerant: it accepts comments (`{...}` and `;`), `%` escape lines, recursive variations
//! (skipped), NAGs, move numbers with or without a space (`1.e4`, `12...Nf6`), and SAN with or
//! without the Alice landing-board suffix (`Ne5/A`). A game whose movetext stops without a
//! result token (a file cut off mid-write) is returned with `result: None`.

use crate::arena::variant_tag::check_tags;
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
        let quote = |v: &str| v.replace('\\', "\\\\").replace('"', "\\\"");
        for name in ROSTER {
            let v = self.tag(name).unwrap_or(if name == "Result" { "*" } else { "?" });
            out += &format!("[{name} \"{}\"]\n", quote(v));
        }
        for (k, v) in self.tags.iter().filter(|(k, _)| !ROSTER.contains(&k.as_str())) {
            out += &format!("[{k} \"{}\"]\n", quote(v));
        }
        out.push('\n');
        let (mut number, mut black) = self.first_move_number();
        let mut tokens: Vec<String> = Vec::new();
        if let Some(c) = &self.pre_comment {
            tokens.push(format!("{{{}}}", clean_comment(c)));
        }
        for (i, m) in self.moves.iter().enumerate() {
            if !black {
                tokens.push(format!("{number}."));
            } else if i == 0 {
                tokens.push(format!("{number}..."));
            }
            tokens.push(m.san.clone());
            if let Some(c) = &m.comment {
                tokens.push(format!("{{{}}}", clean_comment(c)));
            }
            if black {
                number += 1;
            }
            black = !black;
        }
        if let Some(c) = &self.final_comment {
            tokens.push(format!("{{{}}}", clean_comment(c)));
        }
        tokens.push(self.result.clone().unwrap_or_else(|| "*".into()));
        let mut line = String::new();
        for t in tokens {
            if !line.is_empty() && line.len() + 1 + t.len() > 80 {
                out += &line;
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line += &t;
        }
        out += &line;
        out += "\n\n";
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

/// A comment may not contain a closing brace.
fn clean_comment(c: &str) -> String {
    c.replace('}', ")")
}

fn is_result(t: &str) -> bool {
    matches!(t, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// The move of a movetext token without its move number (`12.`, `12...`, repeated), or None
/// for a token that is no move: a NAG (`$1`), a number, a result after a number, or text with
/// no letter (a tolerant reader skips such junk; every move has one, but `0-0` castling).
fn move_text(token: &str) -> Option<&str> {
    let mut text = token;
    loop {
        let rest = text.trim_start_matches(|c: char| c.is_ascii_digit());
        if rest.len() == text.len() || !rest.starts_with('.') {
            break;
        }
        text = rest.trim_start_matches('.');
    }
    let first = text.chars().next()?;
    let castles = text.starts_with("0-0");
    let lettered = text.bytes().any(|b| b.is_ascii_alphabetic());
    (first.is_ascii_alphanumeric() && (lettered || castles) && !is_result(text)).then_some(text)
}

/// Parses every game in `text`.
pub fn parse_pgn(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut in_movetext = false;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut at_line_start = true;
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
    while i < chars.len() {
        let c = chars[i];
        if at_line_start && c == '%' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        at_line_start = c == '\n';
        match c {
            c if c.is_whitespace() => i += 1,
            '[' => {
                if in_movetext || game.result.is_some() {
                    flush(&mut game, &mut games, &mut extra);
                    in_movetext = false;
                }
                let (tag, next) = read_tag(&chars, i + 1);
                if let Some(t) = tag {
                    game.tags.push(t);
                }
                i = next;
            }
            '{' => {
                let start = i + 1;
                while i < chars.len() && chars[i] != '}' {
                    i += 1;
                }
                let comment: String = chars[start..i.min(chars.len())].iter().collect();
                let comment = comment.split_whitespace().collect::<Vec<_>>().join(" ");
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
                i += 1;
            }
            ';' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '(' => {
                let mut depth = 0;
                while i < chars.len() {
                    match chars[i] {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        '{' => {
                            while i < chars.len() && chars[i] != '}' {
                                i += 1;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                    if depth == 0 {
                        break;
                    }
                }
            }
            // A stray `)`, `]` or `}` closes nothing: it is skipped (the word loop below would
            // not move past `]` or `}` and looped forever).
            ')' | ']' | '}' => i += 1,
            _ => {
                let start = i;
                while i < chars.len() && !chars[i].is_whitespace() && !"{}()[];".contains(chars[i]) {
                    i += 1;
                }
                let token: String = chars[start..i].iter().collect();
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

/// Reads `Name "value"]` starting at `i`; returns the tag and the index after `]`.
fn read_tag(chars: &[char], mut i: usize) -> (Option<(String, String)>, usize) {
    while i < chars.len() && chars[i].is_whitespace() {
        i += 1;
    }
    let name_start = i;
    while i < chars.len() && !chars[i].is_whitespace() && chars[i] != '"' && chars[i] != ']' {
        i += 1;
    }
    let name: String = chars[name_start..i].iter().collect();
    while i < chars.len() && chars[i] != '"' && chars[i] != ']' && chars[i] != '\n' {
        i += 1;
    }
    let mut value = String::new();
    if i < chars.len() && chars[i] == '"' {
        i += 1;
        while i < chars.len() && chars[i] != '"' && chars[i] != '\n' {
            // Only `\"` and `\\` are escapes; any other backslash is kept as it is.
            if chars[i] == '\\' && matches!(chars.get(i + 1), Some('"' | '\\')) {
                i += 1;
            }
            value.push(chars[i]);
            i += 1;
        }
        if chars.get(i) == Some(&'"') {
            i += 1;
        }
    }
    while i < chars.len() && chars[i] != ']' && chars[i] != '\n' {
        i += 1;
    }
    let tag = (!name.is_empty()).then_some((name, value));
    (tag, i + 1)
}

/// Today's date as `YYYY.MM.DD` (UTC).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
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

    /// Regressions found by the `arena_pgn` fuzz target (tests/fuzz): each game must write
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
