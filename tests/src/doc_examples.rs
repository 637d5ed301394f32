//! The examples of the documentation, read from the Markdown files so that a test can run each
//! one and compare what the program prints with what the document shows.
//!
//! An example is a fenced code block whose first line is a command:
//! - `> line` lines are a session: they are sent to the engine one by one (the UCI loop, or the
//!   CECP loop in the document's CECP section); the other lines are what it answers.
//! - `$ vorpal args` lines are one-shot runs of the program; the lines after one are its output.
//!
//! In the expected output a line `...` (or any line starting with `...`) stands for any number of
//! lines, a line ending in ` ...` for any line with that beginning, and the values that vary from
//! run to run (times, speeds) are masked on both sides before comparing (see [`mask`]).

/// Which loop a session example talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// `vorpal` (UCI).
    Uci,
    /// `vorpal xboard` (CECP).
    Cecp,
}

/// One step of an example: input for the engine (or a command line), then the output it shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The `> ` line (without the prompt) or the `$ vorpal` command's arguments.
    pub input: String,
    /// The output lines shown after it, up to the next input line.
    pub output: Vec<String>,
}

/// A documented example.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Example {
    /// The line of the document where its block starts (1-based), for messages.
    pub line: usize,
    /// Whether the steps are session lines (`Some`) or command lines (`None`).
    pub session: Option<Protocol>,
    /// The steps in order.
    pub steps: Vec<Step>,
}

/// Every example of a Markdown document. Blocks whose first line is no command are not examples
/// (synopses, output formats).
pub fn examples(markdown: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut protocol = Protocol::Uci;
    // (first line, the fence's indentation, the lines so far) of the open block.
    let mut block: Option<(usize, usize, Vec<String>)> = None;
    for (i, raw) in markdown.lines().enumerate() {
        let indent = raw.len() - raw.trim_start().len();
        if raw.trim_start().starts_with("```") {
            match block.take() {
                None => block = Some((i + 2, indent, Vec::new())),
                Some((start, _, lines)) => out.extend(example(start, &lines, protocol)),
            }
            continue;
        }
        if let Some((_, fence, lines)) = block.as_mut() {
            // Lines keep their own indentation beyond the fence's (diagrams).
            let cut = indent.min(*fence);
            lines.push(raw[cut..].to_string());
        } else if let Some(title) = raw.strip_prefix("## ") {
            protocol = if title.contains("CECP") {
                Protocol::Cecp
            } else {
                Protocol::Uci
            };
        }
    }
    out
}

/// The example in a block's lines, if its first line is a command.
fn example(line: usize, lines: &[String], protocol: Protocol) -> Option<Example> {
    let first = lines.first()?;
    let (prompt, session) = if first.starts_with("> ") {
        ("> ", Some(protocol))
    } else if first.starts_with("$ vorpal") {
        ("$ vorpal", None)
    } else {
        return None;
    };
    let mut steps: Vec<Step> = Vec::new();
    for l in lines {
        match l.strip_prefix(prompt) {
            Some(input) => steps.push(Step {
                input: input.trim().to_string(),
                output: Vec::new(),
            }),
            None => steps.last_mut()?.output.push(l.clone()),
        }
    }
    Some(Example { line, session, steps })
}

/// Whether an expected line stands for any number of lines.
fn is_gap(expected: &str) -> bool {
    expected.trim_start().starts_with("...")
}

/// `line` with the values that vary between runs replaced by `#`: the numbers after `time`,
/// `nps` (UCI info), `"time_ms":`, `"nps":` (JSON), `Nodes/second`, `Total time (ms)` (bench),
/// and the seconds of an analysis line (`(2230 nodes, 0.01 s)`).
pub fn mask(line: &str) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    for (i, w) in words.iter().enumerate() {
        let after = |key: &str| i > 0 && words[i - 1] == key;
        let clock = (after("time") || after("nps")) && w.parse::<u64>().is_ok();
        let seconds = words.get(i + 1) == Some(&"s)") && w.parse::<f64>().is_ok();
        let varies = clock || seconds;
        out.push(if varies { "#".into() } else { w.to_string() });
    }
    let mut s = out.join(" ");
    for key in ["\"time_ms\":", "\"nps\":"] {
        s = mask_number_after(&s, key);
    }
    for key in ["Nodes/second    :", "Total time (ms) :"] {
        if s.starts_with(key) {
            s = format!("{key} #");
        }
    }
    s
}

/// `s` with the digits following each `key` replaced by `#`.
fn mask_number_after(s: &str, key: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(at) = rest.find(key) {
        let (head, tail) = rest.split_at(at + key.len());
        out += head;
        let digits = tail.bytes().take_while(u8::is_ascii_digit).count();
        out += if digits > 0 { "#" } else { "" };
        rest = &tail[digits..];
    }
    out + rest
}

/// Whether the actual lines are what the expected lines show (gaps, prefixes, masks).
pub fn matches(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((e, rest)) if is_gap(e) => (0..=actual.len()).any(|skip| matches(rest, &actual[skip..])),
        Some((e, rest)) => match actual.split_first() {
            Some((a, tail)) => line_matches(e, a) && matches(rest, tail),
            None => false,
        },
    }
}

/// One expected line against one actual line.
fn line_matches(expected: &str, actual: &str) -> bool {
    match expected.strip_suffix(" ...") {
        Some(prefix) => mask(actual).starts_with(&mask(prefix)),
        None => mask(expected) == mask(actual),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &[&str]) -> Vec<String> {
        s.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn blocks_become_examples_by_their_first_line() {
        let doc = "# T\n```\n> uci\nid name X\n> isready\nreadyok\n```\n```\nvorpal analyze [--fen F]\n```\n\
                   ## CECP (XBoard)\n```\n> xboard\n```\n```\n$ vorpal perft 1\na2a3: 1\n$ vorpal d\n```\n";
        let ex = examples(doc);
        assert_eq!(ex.len(), 3);
        assert_eq!(ex[0].session, Some(Protocol::Uci));
        assert_eq!(ex[0].line, 3);
        assert_eq!(
            ex[0].steps[1],
            Step {
                input: "isready".into(),
                output: lines(&["readyok"])
            }
        );
        assert_eq!(ex[1].session, Some(Protocol::Cecp));
        assert_eq!(ex[2].session, None);
        assert_eq!(ex[2].steps[0].input, "perft 1");
        assert!(ex[2].steps[1].output.is_empty());
    }

    #[test]
    fn gaps_prefixes_and_masks() {
        let expected = lines(&["info depth 1 ...", "...", "bestmove d2d3"]);
        let actual = lines(&["info depth 1 seldepth 3 nodes 23", "info x", "info y", "bestmove d2d3"]);
        assert!(matches(&expected, &actual));
        assert!(!matches(
            &expected,
            &lines(&["info depth 2 seldepth 3", "bestmove d2d3"])
        ));
        assert!(!matches(&lines(&["a"]), &lines(&["a", "b"])));
        assert_eq!(
            mask("info depth 3 nodes 153 nps 153000 hashfull 0 tbhits 0 time 12 pv d2d3"),
            "info depth 3 nodes 153 nps # hashfull 0 tbhits 0 time # pv d2d3"
        );
        assert_eq!(
            mask("depth  6   +0.29  1. d3 a6  (2230 nodes, 0.01 s)"),
            "depth  6   +0.29  1. d3 a6  (2230 nodes, # s)"
        );
        assert_eq!(
            mask(r#"{"nodes":23,"nps":23000,"time_ms":0}"#),
            r#"{"nodes":23,"nps":#,"time_ms":#}"#
        );
        assert_eq!(mask("Nodes/second    : 812000"), "Nodes/second    : #");
    }
}
