//! `vorpal solve`: the problem solver's front end. Reads Popeye input files (or one FEN with a
//! stipulation), solves every problem and twin with the engine's exact solver, and prints the
//! solutions as text (Popeye's layout, the project's SAN) or one JSON object per line.
//! The exit status is 1 when any problem could not be read or set up.

mod args;
pub(crate) mod extras;
pub(crate) mod popeye_input;
pub(crate) mod problem;
pub(crate) mod report;
pub(crate) mod text;

use args::Args;
pub use args::SolveArgs;
use problem::{problem_rules, InputError, Problem, Task};
use std::io::{IsTerminal, Read, Write};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};
use vorpal_engine::solve::{line_positions, solve, Play, SolveControl, SolveOptions, Stipulation};
use vorpal_engine::tablebase::Tablebases;
use vorpal_engine::{Move, Position, Rules};

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

/// Runs `vorpal solve` with the settings of its command line; returns the exit status.
pub(crate) fn run(args: Args) -> i32 {
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
        let problems = popeye_input::parse(&text);
        if problems.is_empty() {
            self.error(1, &format!("{file} holds no problem"));
        }
        for (i, parsed) in problems.into_iter().enumerate() {
            // Nobody reads the output any more: stop quietly.
            if self.printer.closed {
                return;
            }
            match parsed {
                // `vorpal solve` is strict: what Popeye would ignore stops the problem.
                Ok(problem) => match problem.ignored.first() {
                    Some(e) => self.input_error(i + 1, e),
                    None => self.run_problem(i + 1, &problem),
                },
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
        let popeye_only = problem.options.extras.unsupported().or(problem
            .options
            .extras
            .half_duplex
            .then_some("HalfDuplex"));
        if let Some(name) = popeye_only {
            return self.error(number, &format!("option {name}: only 'vorpal popeye' reads it"));
        }
        if problem.stipulation.as_ref().is_some_and(|s| s.1.contains('~')) {
            return self.error(number, "stipulation ~n (any move): only 'vorpal popeye' reads it");
        }
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
            variations: variations && !play.has_lines(),
            max_solutions: self.args.max_solutions.or(problem_options.max_solutions),
            max_refutations: problem_options.refutations.unwrap_or(1),
            pruning: !self.args.no_pruning,
            short: !self.args.no_short,
            proof_start: play.is_proof().then_some(base),
            tablebases: self.tablebases.clone(),
            max_threat: problem_options.extras.max_threat(),
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
