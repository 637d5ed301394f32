//! The words of Popeye's input: its top-level keywords (case-insensitive, shortened to three
//! letters or more) and the input split into words with their lines.

pub(super) use crate::solve::extras::abbreviates;
use crate::solve::problem::InputError;

/// The top-level keywords.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) enum Keyword {
    Begin,
    End,
    Next,
    Author,
    Origin,
    Title,
    Remark,
    Protocol,
    Pieces,
    Condition,
    Stipulation,
    Option,
    Twin,
    Award,
    Zero,
}

pub(super) const KEYWORDS: [(&str, Keyword); 15] = [
    ("beginproblem", Keyword::Begin),
    ("endproblem", Keyword::End),
    ("nextproblem", Keyword::Next),
    ("author", Keyword::Author),
    ("origin", Keyword::Origin),
    ("title", Keyword::Title),
    ("award", Keyword::Award),
    ("zeroposition", Keyword::Zero),
    ("remark", Keyword::Remark),
    ("protocol", Keyword::Protocol),
    ("pieces", Keyword::Pieces),
    ("condition", Keyword::Condition),
    ("stipulation", Keyword::Stipulation),
    ("option", Keyword::Option),
    ("twin", Keyword::Twin),
];

pub(super) fn keyword(word: &str) -> Option<Keyword> {
    KEYWORDS
        .iter()
        .find(|(name, _)| abbreviates(word, name))
        .map(|&(_, k)| k)
}

/// A word of the input with its line.
#[derive(Clone, Debug)]
pub(super) struct Word<'a> {
    pub(super) text: &'a str,
    pub(super) line: usize,
    /// The rest of the line after this word (for `author` and friends).
    pub(super) rest: &'a str,
}

impl Word<'_> {
    /// An input error about this word.
    pub(super) fn error(&self, message: impl Into<String>) -> InputError {
        InputError::new(self.line, self.text, message)
    }
}

pub(super) fn words(input: &str) -> Vec<Word<'_>> {
    let mut out = Vec::new();
    for (i, line) in input.lines().enumerate() {
        let mut offset = 0;
        for text in line.split_whitespace() {
            let start = line[offset..].find(text).map_or(offset, |p| p + offset);
            offset = start + text.len();
            out.push(Word {
                text,
                line: i + 1,
                rest: line[offset..].trim(),
            });
        }
    }
    out
}
