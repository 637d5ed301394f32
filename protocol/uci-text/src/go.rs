//! Parsing `go` into search [`Limits`]. Every bad parameter yields one error message and a
//! sane replacement (clamped or ignored, as the message says); the search still runs, so the
//! GUI always gets its `bestmove`.

use std::time::Duration;
use vorpal_engine::search::{Clock, Limits, MAX_PLY};
use vorpal_engine::{Color, Position};

/// Deepest `go depth` accepted (larger values are clamped to it).
pub const MAX_DEPTH: u32 = MAX_PLY as u32 - 1;
/// Deepest `perft` accepted.
pub const MAX_PERFT: u32 = 20;

/// What a `go` line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoRequest {
    /// A search.
    Search(Limits),
    /// `go perft N`.
    Perft(u32),
}

const KEYWORDS: [&str; 13] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

/// Most error messages one `go` line yields; the rest are counted in one more message (a
/// 1 MiB line of bad `searchmoves` would otherwise print 340,000 error lines).
pub const MAX_ERRORS: usize = 8;

/// Parses the words after `go`. Problems are pushed to `errors` (one message each, at most
/// [`MAX_ERRORS`], then one message counting the others).
pub fn parse_go(words: &[&str], pos: &Position, errors: &mut Vec<String>) -> GoRequest {
    let start = errors.len();
    let request = parse_words(words, pos, errors);
    let more = errors.len().saturating_sub(start + MAX_ERRORS);
    if more > 0 {
        errors.truncate(start + MAX_ERRORS);
        errors.push(format!("go: {more} more problems in this line; ignored"));
    }
    request
}

/// [`parse_go`] without the cap on messages.
fn parse_words(words: &[&str], pos: &Position, errors: &mut Vec<String>) -> GoRequest {
    let mut limits = Limits::default();
    let mut clock = Clock::default();
    let mut timed = false;
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        i += 1;
        let lower = key.to_ascii_lowercase();
        match lower.as_str() {
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "searchmoves" => {
                while i < words.len() && !KEYWORDS.contains(&words[i].to_ascii_lowercase().as_str()) {
                    match pos.parse_move(words[i]) {
                        Ok(mv) if !limits.search_moves.contains(&mv) => limits.search_moves.push(mv),
                        Ok(_) => {}
                        Err(e) => errors.push(format!("go searchmoves: {e}; ignored")),
                    }
                    i += 1;
                }
            }
            "wtime" | "btime" | "winc" | "binc" | "movestogo" | "depth" | "nodes" | "mate" | "movetime" | "perft" => {
                let Some(&text) = words.get(i) else {
                    errors.push(format!("go: '{key}' needs a number; ignored"));
                    break;
                };
                i += 1;
                let Some(n) = number(key, text, errors) else { continue };
                let color = if lower.starts_with('w') {
                    Color::White
                } else {
                    Color::Black
                };
                match lower.as_str() {
                    "wtime" | "btime" => {
                        timed = true;
                        clock.time[color.index()] = Some(Duration::from_millis(non_negative(key, n, errors)));
                    }
                    "winc" | "binc" => {
                        timed = true;
                        clock.inc[color.index()] = Duration::from_millis(non_negative(key, n, errors));
                    }
                    "movestogo" => {
                        timed = true;
                        if n < 1 {
                            errors.push(format!("go: movestogo {n} must be at least 1; ignored"));
                        } else {
                            clock.moves_to_go = Some(n.min(u32::MAX as i64) as u32);
                        }
                    }
                    "depth" => limits.depth = Some(in_range(key, n, 1, MAX_DEPTH as i64, errors) as u32),
                    "mate" => limits.mate = Some(in_range(key, n, 1, MAX_DEPTH as i64 / 2, errors) as u32),
                    "nodes" => limits.nodes = Some(in_range(key, n, 1, i64::MAX, errors) as u64),
                    "movetime" => limits.movetime = Some(Duration::from_millis(non_negative(key, n, errors))),
                    _ => return GoRequest::Perft(in_range(key, n, 0, MAX_PERFT as i64, errors) as u32),
                }
            }
            _ => errors.push(format!("go: unknown parameter '{key}'; ignored")),
        }
    }
    if timed {
        limits.clock = Some(clock);
    }
    GoRequest::Search(limits)
}

/// Parses an integer; a non-number or a number beyond 64 bits is an error (the parameter is
/// then ignored).
fn number(key: &str, text: &str, errors: &mut Vec<String>) -> Option<i64> {
    match text.parse::<i64>() {
        Ok(n) => Some(n),
        Err(_) if text.trim_start_matches(['-', '+']).bytes().all(|b| b.is_ascii_digit()) && !text.is_empty() => {
            errors.push(format!("go: {key} {text} is out of range; ignored"));
            None
        }
        Err(_) => {
            errors.push(format!("go: {key} '{text}' is not a number; ignored"));
            None
        }
    }
}

fn non_negative(key: &str, n: i64, errors: &mut Vec<String>) -> u64 {
    if n < 0 {
        errors.push(format!("go: {key} {n} is negative; using 0"));
        0
    } else {
        n as u64
    }
}

fn in_range(key: &str, n: i64, min: i64, max: i64, errors: &mut Vec<String>) -> i64 {
    if n < min || n > max {
        let used = n.clamp(min, max);
        errors.push(format!("go: {key} {n} is outside {min}..={max}; using {used}"));
        used
    } else {
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(line: &str) -> (GoRequest, Vec<String>) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut errors = Vec::new();
        let req = parse_go(&words, &Position::startpos(), &mut errors);
        (req, errors)
    }

    fn limits(line: &str) -> Limits {
        match go(line) {
            (GoRequest::Search(l), e) if e.is_empty() => l,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn every_parameter() {
        let l = limits("wtime 1000 btime 2000 winc 10 binc 20 movestogo 5 depth 7 nodes 500 mate 3 movetime 50 infinite ponder searchmoves e2e4 Nf3");
        let clock = l.clock.unwrap();
        assert_eq!(
            clock.time,
            [Some(Duration::from_millis(1000)), Some(Duration::from_millis(2000))]
        );
        assert_eq!(clock.inc, [Duration::from_millis(10), Duration::from_millis(20)]);
        assert_eq!(clock.moves_to_go, Some(5));
        assert_eq!((l.depth, l.nodes, l.mate), (Some(7), Some(500), Some(3)));
        assert_eq!(l.movetime, Some(Duration::from_millis(50)));
        assert!(l.infinite && l.ponder);
        assert_eq!(l.search_moves.len(), 2);
        assert_eq!(go("perft 3").0, GoRequest::Perft(3));
        assert_eq!(limits(""), Limits::default());
    }

    #[test]
    fn bad_values_are_reported_and_replaced() {
        let (req, errors) =
            go("wtime -5 depth 100000 nodes x movetime 99999999999999999999 frobnicate searchmoves e2e5 depth");
        assert_eq!(errors.len(), 7, "{errors:?}");
        let GoRequest::Search(l) = req else { panic!() };
        assert_eq!(l.clock.unwrap().time[0], Some(Duration::ZERO));
        assert_eq!(l.depth, Some(MAX_DEPTH));
        assert_eq!(l.nodes, None);
        assert_eq!(l.movetime, None);
        assert!(l.search_moves.is_empty());
    }

    #[test]
    fn errors_are_capped_per_line() {
        let line = format!("depth 1 searchmoves e2e4{}", " zz".repeat(1000));
        let (req, errors) = go(&line);
        assert_eq!(errors.len(), MAX_ERRORS + 1, "{errors:?}");
        assert_eq!(errors[MAX_ERRORS], "go: 992 more problems in this line; ignored");
        let GoRequest::Search(l) = req else { panic!() };
        assert_eq!((l.depth, l.search_moves.len()), (Some(1), 1));
    }
}
