//! `vorpal solve`: the problem solver's front end. Reads Popeye input files (or one FEN with a
//! stipulation), solves every problem and twin with the engine's exact solver, and prints the
//! solutions as text (Popeye's layout, the project's SAN) or one JSON object per line.
//! The exit status is 1 when any problem could not be read or set up.

pub(crate) mod popeye;
mod problem;
mod report;
mod text;

use problem::{problem_rules, InputError, Problem, Task};
use std::io::{IsTerminal, Read, Write};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};
use vorpal_engine::solve::{line_positions, solve, Play, SolveControl, SolveOptions, Stipulation};
use vorpal_engine::tablebase::Tablebases;
use vorpal_engine::{EnPassant, Move, Position, Rules, Variant};

const USAGE: &str = "\
usage: vorpal solve PROBLEM.inp [options]        Popeye input (- for stdin)
       vorpal solve --fen <FEN> --stip <stip> [options]
  --stip          #n, =n, s#n, r#n, semi-r#n, h#n, h#n.5, h=n, hs#n, ser-#n, ser-h#n,
                  ser-s#n, ser-=n (with --fen; the FEN's side moves first), or a proof game
                  dian / dian.5 (the FEN is the diagram, the game starts from the start
                  position) or a=>bn (from the position of --from)
  --from FEN      the start position of an a=>b proof game
  --no-short      leave out the short solutions (cooks) of line stipulations
  --tries         also tries and their refutations (Popeye's option try)
  --vari          also threats and variations (Popeye's option vari)
  --maxsolutions N, --maxtime S
                  stop after N solutions or S seconds
  --variant NAME  the variant (default alice)
  --ep MODE       en passant: off (default), normal or double; Popeye plays en passant on the
                  pawn's board, which is --ep normal (option enpassant implies it)
  --tb DIR        endgame tables (vorpal tb generate) decide direct mates (#n) in positions
                  of at most four men at once; the solutions stay exact
  --threads N     threads (default: all cores)
  --json          one JSON object per line per problem or twin
  --progress      the progress line on stderr even when it is not a terminal
  --no-pruning    the plain full-width search (to check the exact prunings)";

/// The parsed command line.
#[derive(Default)]
struct Args {
    file: Option<String>,
    fen: Option<String>,
    from: Option<String>,
    stip: Option<String>,
    no_short: bool,
    tries: bool,
    variations: bool,
    max_solutions: Option<usize>,
    max_time: Option<u64>,
    variant: Variant,
    en_passant: Option<EnPassant>,
    threads: Option<usize>,
    tb_dir: Option<String>,
    json: bool,
    progress: bool,
    no_pruning: bool,
}

/// A positive number after `flag`.
fn number<T: std::str::FromStr + PartialOrd + From<u8>>(flag: &str, value: Option<&&str>) -> Result<T, String> {
    value
        .and_then(|v| v.parse::<T>().ok())
        .filter(|n| *n >= T::from(1))
        .ok_or_else(|| format!("{flag} takes a positive number"))
}

fn parse_args(words: &[&str]) -> Result<Args, String> {
    let mut args = Args::default();
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        let value = words.get(i + 1);
        let mut takes_value = true;
        match word {
            "--fen" | "--from" => {
                // The FEN may come as one argument or as its six words.
                let rest: Vec<&str> = words[i + 1..]
                    .iter()
                    .take_while(|w| !w.starts_with("--"))
                    .copied()
                    .collect();
                if rest.is_empty() {
                    return Err(format!("{word} takes a FEN"));
                }
                let fen = Some(rest.join(" "));
                if word == "--fen" {
                    args.fen = fen;
                } else {
                    args.from = fen;
                }
                i += rest.len();
                takes_value = false;
            }
            "--stip" | "--stipulation" => {
                args.stip = Some(value.ok_or("--stip takes a stipulation (e.g. h#2)")?.to_string())
            }
            "--maxsolutions" => args.max_solutions = Some(number(word, value)?),
            "--maxtime" => args.max_time = Some(number(word, value)?),
            "--threads" => args.threads = Some(number(word, value)?),
            "--tb" => args.tb_dir = Some(value.ok_or("--tb takes a directory of endgame tables")?.to_string()),
            "--variant" => args.variant = value.ok_or("--variant takes a variant name")?.parse()?,
            "--ep" => args.en_passant = Some(value.ok_or("--ep takes off, normal or double")?.parse()?),
            _ => {
                takes_value = false;
                match word {
                    "--tries" => args.tries = true,
                    "--vari" => args.variations = true,
                    "--json" => args.json = true,
                    "--progress" => args.progress = true,
                    "--no-pruning" => args.no_pruning = true,
                    "--no-short" => args.no_short = true,
                    w if w.starts_with("--") => return Err(format!("unknown option '{w}'")),
                    w if args.file.is_none() => args.file = Some(w.to_string()),
                    w => return Err(format!("unexpected argument '{w}'")),
                }
            }
        }
        i += if takes_value { 2 } else { 1 };
    }
    match (&args.file, &args.fen) {
        (Some(_), Some(_)) => Err("give a problem file or --fen, not both".into()),
        (None, None) => Err("give a problem file or --fen with --stip".into()),
        (None, Some(_)) if args.stip.is_none() => Err("--fen needs --stip".into()),
        (Some(_), None) if args.stip.is_some() => Err("--stip goes with --fen".into()),
        _ => Ok(args),
    }
}

/// The moves of a solution line of `stipulation` in UCI, each in the position it is played in
/// (in series play the other side passes between the series moves).
pub(crate) fn uci_line(pos: &Position, stipulation: &Stipulation, line: &[Move]) -> Vec<String> {
    line_positions(pos, stipulation, line)
        .iter()
        .zip(line)
        .map(|(p, &m)| p.move_to_uci(m))
        .collect()
}

/// Standard output that stops writing once the reader has gone (never a panic on a closed
/// pipe).
struct Printer {
    closed: bool,
}

impl Printer {
    fn line(&mut self, text: &str) {
        if !self.closed {
            let mut out = std::io::stdout().lock();
            self.closed = writeln!(out, "{text}").and_then(|_| out.flush()).is_err();
        }
    }
}

/// Writes a line to stderr (a closed stderr is ignored, never a panic).
fn warn(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

/// Runs `vorpal solve` with `words` (the arguments after `solve`); returns the exit status.
pub fn run(words: &[&str]) -> i32 {
    if matches!(words, ["--help" | "-h"]) {
        Printer { closed: false }.line(USAGE);
        return 0;
    }
    let args = match parse_args(words) {
        Ok(args) => args,
        Err(e) => {
            warn(&format!("error: {e}\n{USAGE}"));
            return 1;
        }
    };
    let pool = match args.threads {
        Some(n) => match rayon::ThreadPoolBuilder::new().num_threads(n).build() {
            Ok(pool) => Some(pool),
            Err(e) => {
                warn(&format!("error: cannot start {n} threads: {e}"));
                return 1;
            }
        },
        None => None,
    };
    let tablebases = match &args.tb_dir {
        Some(dir) => match Tablebases::open(std::path::Path::new(dir)) {
            Ok(tb) => Some(Arc::new(tb)),
            Err(e) => {
                warn(&format!("error: --tb {dir}: {e}"));
                return 1;
            }
        },
        None => None,
    };
    let mut session = SolveRun {
        args,
        tablebases,
        printer: Printer { closed: false },
        failed: false,
    };
    match pool {
        Some(pool) => pool.install(|| session.run_all()),
        None => session.run_all(),
    }
    if session.printer.closed {
        // Nobody reads the output any more: quiet, with the status of every one-shot command.
        return crate::status::CLOSED_OUTPUT;
    }
    i32::from(session.failed)
}

/// One run over the input.
struct SolveRun {
    args: Args,
    tablebases: Option<Arc<Tablebases>>,
    printer: Printer,
    failed: bool,
}

impl SolveRun {
    fn rules(&self) -> Rules {
        Rules::for_variant(self.args.variant).with_ep(self.args.en_passant.unwrap_or_default())
    }

    fn run_all(&mut self) {
        if let Some(fen) = self.args.fen.clone() {
            self.run_fen(&fen);
            return;
        }
        let file = self.args.file.clone().unwrap_or_default();
        let text = if file == "-" {
            let mut text = String::new();
            std::io::stdin().read_to_string(&mut text).map(|_| text)
        } else {
            std::fs::read_to_string(&file)
        };
        let text = match text {
            Ok(text) => text,
            Err(e) => {
                self.error(1, &format!("cannot read {file}: {e}"));
                return;
            }
        };
        let problems = popeye::parse(&text);
        if problems.is_empty() {
            self.error(1, &format!("{file} holds no problem"));
        }
        for (i, parsed) in problems.into_iter().enumerate() {
            // Nobody reads the output any more: stop quietly.
            if self.printer.closed {
                return;
            }
            match parsed {
                Ok(problem) => self.run_problem(i + 1, &problem),
                Err(e) => self.input_error(i + 1, &e),
            }
        }
    }

    fn error(&mut self, problem: usize, message: &str) {
        self.failed = true;
        if self.args.json {
            self.printer.line(&report::json_error(problem, message));
        } else {
            warn(&format!("error: problem {problem}: {message}"));
        }
    }

    fn input_error(&mut self, problem: usize, e: &InputError) {
        self.error(problem, &e.to_string());
    }

    fn run_fen(&mut self, fen: &str) {
        let stip_text = self.args.stip.clone().unwrap_or_default();
        let stipulation: Stipulation = match stip_text.parse() {
            Ok(s) => s,
            Err(e) => return self.error(1, &e.0),
        };
        let position = match Position::from_fen(fen, self.rules()) {
            Ok(p) => p,
            Err(e) => return self.error(1, &format!("bad FEN: {e}")),
        };
        let task = Task {
            label: None,
            change: String::new(),
            position,
            stipulation,
            stipulation_text: stip_text,
            start: None,
        };
        let options = problem::ProblemOptions::default();
        self.solve_task(1, &task, &options);
    }

    fn run_problem(&mut self, number: usize, problem: &Problem) {
        let rules = problem_rules(self.rules(), &problem.options, self.args.en_passant.is_some());
        let tasks = match problem.tasks(rules) {
            Ok(tasks) => tasks,
            Err(e) => return self.input_error(number, &e),
        };
        if !self.args.json {
            self.printer.line("");
            for header in &problem.headers {
                self.printer.line(&format!("  {header}"));
            }
            if !problem.options.no_board {
                self.printer.line("");
                self.printer.line(&report::diagram(&tasks[0].position));
            }
        }
        for task in &tasks {
            self.solve_task(number, task, &problem.options);
        }
    }

    fn solve_task(&mut self, number: usize, task: &Task, problem_options: &problem::ProblemOptions) {
        if self.printer.closed {
            return;
        }
        let tries = self.args.tries || problem_options.tries;
        let variations = self.args.variations || problem_options.variations;
        let play = task.stipulation.play;
        // A proof game starts from the variant's start position (`dia`) or from --from (`a=>b`).
        let base = match play {
            Play::ProofGame => Position::start(task.position.rules()),
            Play::AToB => match (&self.args.from, task.start) {
                (Some(fen), _) => match Position::from_fen(fen, task.position.rules()) {
                    Ok(p) => p,
                    Err(e) => return self.error(number, &format!("bad --from FEN: {e}")),
                },
                (None, Some(start)) => start,
                (None, None) => {
                    return self.error(
                        number,
                        "an a=>b proof game needs its start position: --from <FEN>, or in Popeye input \
                         the pieces before the stipulation (the diagram's after it)",
                    )
                }
            },
            _ => task.position,
        };
        let options = SolveOptions {
            tries: tries && !play.has_lines(),
            variations: variations && play == Play::Direct,
            max_solutions: self.args.max_solutions.or(problem_options.max_solutions),
            max_refutations: problem_options.refutations.unwrap_or(1),
            pruning: !self.args.no_pruning,
            short: !self.args.no_short,
            proof_start: play.is_proof().then_some(base),
            tablebases: self.tablebases.clone(),
            ..SolveOptions::default()
        };
        let max_time = self.args.max_time.or(problem_options.max_time);
        let start = Instant::now();
        // A deadline beyond what the clock can represent is no deadline.
        let control = SolveControl::new(max_time.and_then(|s| start.checked_add(Duration::from_secs(s))));
        let done = AtomicBool::new(false);
        let terminal = std::io::stderr().is_terminal();
        let show_progress = self.args.progress || terminal;
        let what = format!(
            "problem {number}{}",
            task.label.map_or(String::new(), |l| format!(" {l})"))
        );
        let solved = std::thread::scope(|scope| {
            if show_progress {
                scope.spawn(|| report::progress(&what, &control, &done, terminal));
            }
            let solved = solve(&task.position, &task.stipulation, &options, &control);
            done.store(true, std::sync::atomic::Ordering::Relaxed);
            solved
        });
        let elapsed = start.elapsed();
        if self.args.json {
            let line = report::json(number, task, &base, &solved, options.tries, elapsed.as_millis());
            self.printer.line(&line);
            return;
        }
        self.printer.line("");
        self.printer.line(&format!("  {}", text::heading(task)));
        let lines = match &solved.solution {
            vorpal_engine::solve::Solution::Direct(d) => text::direct(&base, d, options.variations),
            vorpal_engine::solve::Solution::Help(h) => text::lines(&base, &task.stipulation, h),
        };
        if !lines.is_empty() && !lines[0].is_empty() {
            self.printer.line("");
        }
        for line in &lines {
            self.printer.line(line);
        }
        self.printer.line("");
        self.printer.line(&report::summary(&solved, elapsed.as_secs_f64()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_line() {
        let args = parse_args(&[
            "--fen",
            "8/8/8/2Q1|k3/8/2|R5/3|p4/K7",
            "b",
            "-",
            "-",
            "0",
            "1",
            "--stip",
            "h#2",
        ])
        .unwrap();
        assert_eq!(args.fen.as_deref(), Some("8/8/8/2Q1|k3/8/2|R5/3|p4/K7 b - - 0 1"));
        assert_eq!(args.stip.as_deref(), Some("h#2"));
        let args = parse_args(&["p.inp", "--json", "--tries", "--maxtime", "5", "--ep", "normal"]).unwrap();
        assert!(args.json && args.tries && args.max_time == Some(5));
        assert_eq!(args.en_passant, Some(EnPassant::Normal));
        for bad in [
            &["--fen", "x"][..],
            &[][..],
            &["a.inp", "b.inp"][..],
            &["a.inp", "--maxtime"][..],
            &["a.inp", "--frob"][..],
        ] {
            assert!(parse_args(bad).is_err(), "{bad:?}");
        }
    }
}
