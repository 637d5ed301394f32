//! The one PGN lexer and the text pieces every PGN writer of the workspace shares.
//!
//! [`tokenize`] splits PGN text (any number of games) into tags, comments, variation brackets
//! and words: it skips a byte-order mark, `%` escape lines and `;` rest-of-line comments,
//! reads a tag value to its closing quote (so `[Event "Casual game [Alice]"]` keeps its
//! brackets; only `\"` and `\\` are escapes and a line end ends the value), gathers a `{...}`
//! comment with its white space folded, and skips a stray `]` or `}` (a reader that stopped
//! there without moving on once looped forever). The match runner's and `annotate`'s reader
//! ([`crate::pgn::parse_pgn`]) and the GUI's import both read through it. [`move_text`] tells a
//! move from a move number, a NAG or junk; [`quote`], [`comment`] and [`wrap`] write.

/// One piece of PGN text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnToken {
    /// `[Name "value"]`, the value unescaped.
    Tag(String, String),
    /// A `{...}` comment, its white space folded to single spaces (never empty).
    Comment(String),
    /// `(`: a variation starts.
    Open,
    /// `)`: a variation ends.
    Close,
    /// Anything else between white space: a move number, a move, a NAG, a result.
    Word(String),
}

/// Splits `text` into tokens (every game of it).
pub fn tokenize(text: &str) -> Vec<PgnToken> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < chars.len() {
        let c = chars[i];
        if line_start && c == '%' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        line_start = c == '\n';
        match c {
            c if c.is_whitespace() => i += 1,
            '[' => {
                let (tag, next) = read_tag(&chars, i + 1);
                if let Some((name, value)) = tag {
                    out.push(PgnToken::Tag(name, value));
                }
                i = next;
            }
            // A stray closing bracket or brace closes nothing: skipped.
            ']' | '}' => i += 1,
            '{' => {
                let end = (i..chars.len()).find(|&j| chars[j] == '}').unwrap_or(chars.len());
                let text: String = chars[i + 1..end].iter().collect();
                let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
                if !text.is_empty() {
                    out.push(PgnToken::Comment(text));
                }
                i = end + 1;
            }
            ';' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '(' => {
                out.push(PgnToken::Open);
                i += 1;
            }
            ')' => {
                out.push(PgnToken::Close);
                i += 1;
            }
            _ => {
                let start = i;
                while i < chars.len() && !chars[i].is_whitespace() && !"{}()[];".contains(chars[i]) {
                    i += 1;
                }
                out.push(PgnToken::Word(chars[start..i].iter().collect()));
            }
        }
    }
    out
}

/// Reads `Name "value"]` from `i` (just after the `[`); returns the tag (none without a name)
/// and the index after its `]` (or its line end).
fn read_tag(chars: &[char], mut i: usize) -> (Option<(String, String)>, usize) {
    let at_end = |i: usize| i >= chars.len() || chars[i] == '\n';
    while !at_end(i) && chars[i].is_whitespace() {
        i += 1;
    }
    let name_start = i;
    while !at_end(i) && !chars[i].is_whitespace() && chars[i] != '"' && chars[i] != ']' {
        i += 1;
    }
    let name: String = chars[name_start..i].iter().collect();
    while !at_end(i) && chars[i] != '"' && chars[i] != ']' {
        i += 1;
    }
    let mut value = String::new();
    if !at_end(i) && chars[i] == '"' {
        i += 1;
        while !at_end(i) && chars[i] != '"' {
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
    while !at_end(i) && chars[i] != ']' {
        i += 1;
    }
    ((!name.is_empty()).then_some((name, value)), i + 1)
}

/// True for a game termination marker: `1-0`, `0-1`, `1/2-1/2`, `*`.
pub fn is_result(word: &str) -> bool {
    matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// The move of a word without its move number (`12.`, `12...`, repeated), or None for a word
/// that is no move: a NAG (`$1`), a number, a result after a number, or text with no letter
/// (a tolerant reader skips such junk; every move has one, but `0-0` castling).
pub fn move_text(word: &str) -> Option<&str> {
    let mut text = word;
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

/// The move marks and their NAGs, as PGN numbers them: `!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5,
/// `?!` 6.
pub const MOVE_MARKS: [(&str, u8); 6] = [("!", 1), ("?", 2), ("!!", 3), ("??", 4), ("!?", 5), ("?!", 6)];

/// A word's move mark split off: `("d4", Some(1))` for `d4!`; a suffix of `!` and `?` that is
/// no mark is dropped.
pub fn split_mark(text: &str) -> (&str, Option<u8>) {
    let bare = text.trim_end_matches(['!', '?']);
    (bare, mark_nag(&text[bare.len()..]))
}

/// The NAG of a move mark (`?!` -> 6), or of a `$n` word (`$14` -> 14).
pub fn mark_nag(word: &str) -> Option<u8> {
    match word.strip_prefix('$') {
        Some(number) => number.parse().ok(),
        None => MOVE_MARKS.iter().find(|(m, _)| *m == word).map(|&(_, n)| n),
    }
}

/// How a NAG is written after a move: the mark for 1-6 (`!?`), else `$n`.
pub fn nag_text(nag: u8) -> String {
    match MOVE_MARKS.iter().find(|&&(_, n)| n == nag) {
        Some((mark, _)) => (*mark).to_string(),
        None => format!("${nag}"),
    }
}

/// A tag line: `[Name "value"]` with `\` and `"` escaped.
pub fn tag_line(name: &str, value: &str) -> String {
    format!("[{name} \"{}\"]\n", quote(value))
}

/// A tag value with `\` and `"` escaped.
pub fn quote(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A comment in braces (a `}` in it becomes `)`, which cannot end it).
pub fn comment(text: &str) -> String {
    format!("{{{}}}", text.replace('}', ")"))
}

/// Movetext words as lines of at most 80 columns (a longer word stands alone), a `(` glued to
/// the word after it and a `)` to the word before it; ends with a blank line.
pub fn wrap(words: Vec<String>) -> String {
    let mut glued: Vec<String> = Vec::new();
    let mut open = false;
    for w in words {
        if w == ")" {
            if let Some(last) = glued.last_mut() {
                last.push(')');
                continue;
            }
        }
        if open {
            glued.push(format!("({w}"));
            open = false;
        } else if w == "(" {
            open = true;
        } else {
            glued.push(w);
        }
    }
    let mut text = String::new();
    let mut line = String::new();
    for w in glued {
        if !line.is_empty() && line.len() + 1 + w.len() > 80 {
            text += &line;
            text.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line += &w;
    }
    text += &line;
    text += "\n\n";
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use PgnToken::*;

    fn word(w: &str) -> PgnToken {
        Word(w.into())
    }

    #[test]
    fn every_kind_of_token() {
        let text = "\u{feff}% escape\n[Event \"Casual game [Alice] {x}\"]\r\n[Site \"a \\\"b\\\" c\\\\d\"]\n\n\
                    {  before   } 1. e4 ; rest ) ]\n( 1... d5 ) } ] 2.Nf3 $1 *";
        assert_eq!(
            tokenize(text),
            [
                Tag("Event".into(), "Casual game [Alice] {x}".into()),
                Tag("Site".into(), "a \"b\" c\\d".into()),
                Comment("before".into()),
                word("1."),
                word("e4"),
                Open,
                word("1..."),
                word("d5"),
                Close,
                word("2.Nf3"),
                word("$1"),
                word("*"),
            ]
        );
        assert_eq!(tokenize("{} { } 1. e4"), [word("1."), word("e4")]);
        assert_eq!(
            tokenize("[Event \"x\\\ny\"]"),
            [Tag("Event".into(), "x\\".into()), word("y\"")]
        );
    }

    #[test]
    fn words_that_are_moves() {
        for (w, m) in [
            ("e4", Some("e4")),
            ("1.e4", Some("e4")),
            ("12...Nf6/A", Some("Nf6/A")),
            ("9.9.Qh5", Some("Qh5")),
            ("0-0", Some("0-0")),
            ("O-O-O", Some("O-O-O")),
            ("12.", None),
            ("12", None),
            ("$3", None),
            ("2.$1", None),
            ("1.*", None),
            ("1.1-0", None),
            ("%x", None),
            ("--", None),
        ] {
            assert_eq!(move_text(w), m, "{w}");
        }
    }

    #[test]
    fn lines_are_wrapped_at_80_columns_with_brackets_glued() {
        let words: Vec<String> = ["1.", "e4", "(", "1.", "d4", ")", "1...", "e5"]
            .iter()
            .map(|w| w.to_string())
            .collect();
        assert_eq!(wrap(words), "1. e4 (1. d4) 1... e5\n\n");
        let long: Vec<String> = (0..30).map(|i| format!("w{i:03}")).collect();
        let text = wrap(long);
        assert!(text.lines().all(|l| l.len() <= 80), "{text}");
        assert_eq!(tag_line("A", "x\"y\\"), "[A \"x\\\"y\\\\\"]\n");
        assert_eq!(comment("a } b"), "{a ) b}");
    }
}
