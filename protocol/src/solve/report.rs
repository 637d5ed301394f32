//! The JSON output (one object per problem or twin) and the progress line on stderr.

use super::problem::Task;
use serde::Serialize;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use vorpal_engine::solve::{Solution, SolveControl, Solved};
use vorpal_engine::Position;

/// The JSON object of one solved task, its fields in this order (the optional ones left out
/// when absent).
#[derive(Debug, Serialize)]
struct SolvedJson<'a> {
    problem: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    twin: Option<String>,
    stipulation: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    keys: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    forced: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tries: Option<Vec<TryJson>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solutions: Option<Vec<Vec<String>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    short: Option<Vec<Vec<String>>>,
    complete: bool,
    nodes: u64,
    ms: u128,
}

/// A try and the defences that refute it.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
struct TryJson {
    #[serde(rename = "move")]
    mv: String,
    refutations: Vec<String>,
}

/// The JSON object of a problem that could not be solved.
#[derive(Debug, Serialize)]
struct ErrorJson<'a> {
    problem: usize,
    error: &'a str,
}

/// The JSON text of a derived object (texts and numbers only, so it always serializes).
fn json_text<T: Serialize>(object: &T) -> String {
    serde_json::to_string(object).expect("a derived object of texts and numbers always serializes")
}

/// The JSON object of one solved task: `stipulation` as given, `keys` (and with tries `tries`,
/// each with its `refutations`) or `solutions` (each line's moves in UCI, played from `base`:
/// the task's position, or a proof game's start) and `short` (the short solutions, when there
/// are any), `complete`, `nodes` and `ms`; `problem` (1-based) and for a twin `twin`.
pub fn json(problem: usize, task: &Task, base: &Position, solved: &Solved, tries: bool, ms: u128) -> String {
    let pos = base;
    let mut out = SolvedJson {
        problem,
        twin: task.label.map(|label| label.to_string()),
        stipulation: &task.stipulation_text,
        keys: None,
        forced: None,
        tries: None,
        solutions: None,
        short: None,
        complete: solved.complete,
        nodes: solved.nodes,
        ms,
    };
    match &solved.solution {
        Solution::Direct(direct) => {
            let mut keys: Vec<String> = direct.keys.iter().map(|k| pos.move_to_uci(k.mv)).collect();
            keys.sort();
            out.keys = Some(keys);
            if !direct.forced.is_empty() {
                let mut forced: Vec<String> = direct.forced.iter().map(|&m| pos.move_to_uci(m)).collect();
                forced.sort();
                out.forced = Some(forced);
            }
            if tries {
                let mut list: Vec<TryJson> = direct
                    .tries
                    .iter()
                    .map(|t| {
                        let after = pos.after(t.mv);
                        let mut refutations: Vec<String> =
                            t.refutations.iter().map(|&r| after.move_to_uci(r)).collect();
                        refutations.sort();
                        TryJson {
                            mv: pos.move_to_uci(t.mv),
                            refutations,
                        }
                    })
                    .collect();
                list.sort();
                out.tries = Some(list);
            }
        }
        Solution::Help(help) => {
            let uci = |lines: &[Vec<vorpal_engine::Move>]| {
                let mut lines: Vec<Vec<String>> = lines
                    .iter()
                    .map(|l| super::uci_line(pos, &task.stipulation, l))
                    .collect();
                lines.sort_by_key(|a| (a.len(), a.join(" ")));
                lines
            };
            out.solutions = Some(uci(&help.lines));
            if !help.short.is_empty() {
                out.short = Some(uci(&help.short));
            }
        }
    }
    json_text(&out)
}

/// The JSON object of a problem that could not be solved.
pub fn json_error(problem: usize, message: &str) -> String {
    json_text(&ErrorJson {
        problem,
        error: message,
    })
}

/// Shows `solving <what>: <nodes> nodes, <seconds> s` on stderr every second while `done` is
/// false, starting after one second (short solves print nothing). On a terminal the line is
/// rewritten in place and cleared at the end; otherwise one line per second.
pub fn progress(what: &str, control: &SolveControl, done: &AtomicBool, terminal: bool) {
    let start = Instant::now();
    let mut shown = false;
    let mut next = Duration::from_secs(1);
    while !done.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(50));
        if start.elapsed() < next {
            continue;
        }
        next += Duration::from_secs(1);
        let text = format!(
            "solving {what}: {} nodes, {:.1} s",
            control.nodes(),
            start.elapsed().as_secs_f64()
        );
        let mut err = std::io::stderr().lock();
        // A closed stderr only silences the progress line.
        let _ = if terminal {
            write!(err, "\r{text}\x1b[K")
        } else {
            writeln!(err, "{text}")
        };
        let _ = err.flush();
        shown = true;
    }
    if shown && terminal {
        let _ = write!(std::io::stderr().lock(), "\r\x1b[K");
    }
}

/// The summary line: solutions found, nodes, time.
pub fn summary(solved: &Solved, seconds: f64) -> String {
    let (count, short) = match &solved.solution {
        Solution::Direct(d) => (d.keys.len(), 0),
        Solution::Help(h) => (h.lines.len(), h.short.len()),
    };
    let noun = if count == 1 { "solution" } else { "solutions" };
    let short = match short {
        0 => String::new(),
        1 => " and 1 short solution".to_string(),
        n => format!(" and {n} short solutions"),
    };
    let mut text = format!("{count} {noun}{short}, {} nodes, {seconds:.3} s", solved.nodes);
    if !solved.complete {
        text.push_str(" (stopped early: the solutions shown are proven, others may exist)");
    }
    text
}

/// The starting position's diagram for the text output.
pub fn diagram(pos: &Position) -> String {
    crate::uci::display::diagram(pos)
}

#[cfg(test)]
mod tests {
    //! The objects byte for byte as `vorpal solve --json` printed them before its JSON became
    //! derived types (captured from that code, which built each object field by field).
    use super::*;
    use vorpal_engine::solve::{AttackLine, DirectSolution, HelpSolution, Stipulation};
    use vorpal_engine::Move;

    fn task(label: Option<char>, stipulation: &str) -> Task {
        Task {
            label,
            change: String::new(),
            position: Position::startpos(),
            stipulation: stipulation.parse::<Stipulation>().unwrap(),
            stipulation_text: stipulation.to_string(),
            start: None,
        }
    }

    fn line(pos: &Position, ucis: &str) -> Vec<Move> {
        let mut p = *pos;
        ucis.split_whitespace()
            .map(|u| {
                let mv = p.parse_uci(u).unwrap();
                p = p.after(mv);
                mv
            })
            .collect()
    }

    fn attack(mv: Move, refutations: Vec<Move>) -> AttackLine {
        AttackLine {
            mv,
            length: 2,
            threats: Vec::new(),
            defences: Vec::new(),
            refutations,
        }
    }

    #[test]
    fn direct_objects_are_unchanged() {
        let pos = Position::startpos();
        let mv = |u: &str| line(&pos, u)[0];
        let after_c3 = pos.after(mv("b1c3"));
        let refute = |u: &str| line(&after_c3, u)[0];
        let solved = Solved {
            solution: Solution::Direct(DirectSolution {
                keys: vec![attack(mv("g1f3"), Vec::new()), attack(mv("e2e4"), Vec::new())],
                tries: vec![
                    attack(mv("b1c3"), vec![refute("g8f6"), refute("e7e5")]),
                    attack(mv("a2a3"), vec![line(&pos.after(mv("a2a3")), "h7h6")[0]]),
                ],
                forced: vec![mv("h2h3"), mv("d2d4")],
                reflex_goal: None,
            }),
            nodes: 123_456,
            complete: true,
        };
        assert_eq!(
            json(3, &task(Some('b'), "#2"), &pos, &solved, true, 78),
            r##"{"problem":3,"twin":"b","stipulation":"#2","keys":["e2e4","g1f3"],"forced":["d2d4","h2h3"],"tries":[{"move":"a2a3","refutations":["h7h6"]},{"move":"b1c3","refutations":["e7e5","g8f6"]}],"complete":true,"nodes":123456,"ms":78}"##
        );
        let plain = Solved {
            solution: Solution::Direct(DirectSolution::default()),
            nodes: 0,
            complete: false,
        };
        assert_eq!(
            json(1, &task(None, "s#3"), &pos, &plain, false, 0),
            r##"{"problem":1,"stipulation":"s#3","keys":[],"complete":false,"nodes":0,"ms":0}"##
        );
        assert_eq!(
            json(1, &task(None, "#2"), &pos, &plain, true, u128::from(u64::MAX)),
            r##"{"problem":1,"stipulation":"#2","keys":[],"tries":[],"complete":false,"nodes":0,"ms":18446744073709551615}"##
        );
    }

    #[test]
    fn help_objects_and_errors_are_unchanged() {
        let pos = Position::startpos();
        let solved = Solved {
            solution: Solution::Help(HelpSolution {
                lines: vec![line(&pos, "g2g4 e7e5 f2f3 d8h4"), line(&pos, "f2f3 e7e5 g2g4 d8h4")],
                short: vec![line(&pos, "e2e4 e7e5"), line(&pos, "d2d4")],
            }),
            nodes: 42,
            complete: true,
        };
        assert_eq!(
            json(2, &task(Some('a'), "h#2"), &pos, &solved, false, 5),
            r##"{"problem":2,"twin":"a","stipulation":"h#2","solutions":[["f2f3","e7e5","g2g4","d8h4"],["g2g4","e7e5","f2f3","d8h4"]],"short":[["d2d4"],["e2e4","e7e5"]],"complete":true,"nodes":42,"ms":5}"##
        );
        let none = Solved {
            solution: Solution::Help(HelpSolution::default()),
            nodes: 7,
            complete: true,
        };
        assert_eq!(
            json(4, &task(None, "ser-h#3"), &pos, &none, true, 1),
            r##"{"problem":4,"stipulation":"ser-h#3","solutions":[],"complete":true,"nodes":7,"ms":1}"##
        );
        assert_eq!(
            json_error(5, "line 3, 'kzz': a \"piece\" \\ é \u{7}"),
            r##"{"problem":5,"error":"line 3, 'kzz': a \"piece\" \\ é \u0007"}"##
        );
    }
}
