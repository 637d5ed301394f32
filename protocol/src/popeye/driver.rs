//! Runs the problems of one Popeye input and writes Popeye's page: for each problem the
//! header, the diagram (unless `NoBoard`), each twin's solutions and the closing line;
//! input errors go to the error stream as Popeye's `input-error:` lines, and the other
//! problems are still solved.

use super::any_move::AnyMove;
use super::duplex;
use super::layout;
use super::notation::popeye_move;
use super::postkey;
use super::series;
use super::setplay;
use crate::solve::popeye_input;
use crate::solve::problem::{problem_rules, Problem, Task};
use crate::solve::text;
use std::io::Write;
use std::time::{Duration, Instant};
use vorpal_engine::solve::{solve, Play, Solution, SolveControl, SolveOptions, Stipulation};
use vorpal_engine::{EnPassant, Position, Rules, Variant};

/// The limits of one run (from the command line).
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Seconds per problem.
    pub max_time: Option<u64>,
    /// The memory bound in bytes (bounds the solver's proof table).
    pub max_mem: Option<u64>,
    /// Stop every solve at once (the fuzz door: everything but the search itself).
    pub stop_at_once: bool,
    /// No times in the closing lines (`-regression`).
    pub regression: bool,
}

/// The solver's proof table size (log2 of its entries of 8 bytes) under a memory bound: a
/// quarter of the bound at most, never more than the solver's default.
pub fn table_bits(max_mem: Option<u64>) -> u32 {
    let default = SolveOptions::default().table_bits;
    match max_mem {
        None => default,
        Some(bytes) => {
            let entries = (bytes / 4 / 8).max(1);
            (63 - entries.leading_zeros()).clamp(10, default)
        }
    }
}

/// One run: the page and the error stream.
pub struct Page<'a> {
    out: &'a mut dyn Write,
    err: &'a mut dyn Write,
    limits: Limits,
    /// The reader of the page has gone (a closed pipe): stop quietly.
    pub closed: bool,
}

impl<'a> Page<'a> {
    /// A page writing to `out` and `err`.
    pub fn new(out: &'a mut dyn Write, err: &'a mut dyn Write, limits: Limits) -> Page<'a> {
        Page {
            out,
            err,
            limits,
            closed: false,
        }
    }

    /// Writes one line of the page.
    pub fn line_raw(&mut self, text: &str) {
        self.line(text);
    }

    fn line(&mut self, text: &str) {
        if !self.closed {
            self.closed = writeln!(self.out, "{text}").and_then(|_| self.out.flush()).is_err();
        }
    }

    fn error(&mut self, text: &str) {
        let _ = writeln!(self.err, "input-error:{text}");
    }

    /// Solves every problem of `input` (bytes as read: CRLF and stray bytes are accepted).
    pub fn run(&mut self, input: &[u8]) {
        let text = String::from_utf8_lossy(input);
        for parsed in popeye_input::parse(&text) {
            if self.closed {
                return;
            }
            match parsed {
                Ok(problem) => {
                    for ignored in &problem.ignored {
                        self.error(&ignored.to_string());
                    }
                    self.problem(&problem)
                }
                Err(e) => self.error(&e.to_string()),
            }
        }
    }

    /// Popeye's rules for Alice problems: en passant on the board of the double-stepped pawn.
    fn rules(problem: &Problem) -> Rules {
        let rules = Rules::for_variant(Variant::Alice).with_ep(EnPassant::Normal);
        problem_rules(rules, &problem.options, true)
    }

    fn problem(&mut self, problem: &Problem) {
        let adjusted = self.white_to_play(problem);
        let problem = adjusted.as_ref().unwrap_or(problem);
        let extras = &problem.options.extras;
        let refused = extras
            .unsupported()
            .filter(|&name| name != "SetPlay" && name != "Defence" && name != "PostKeyPlay");
        if let Some(name) = refused {
            return self.error(&format!(
                "option {name} is not supported by Vorpal; the problem is not solved"
            ));
        }
        let tasks = match problem.tasks(Self::rules(problem)) {
            Ok(tasks) => tasks,
            Err(e) => return self.error(&e.to_string()),
        };
        let any_move = tasks.iter().any(|t| AnyMove::of(&t.stipulation_text).is_some());
        let help = tasks.iter().all(|t| t.stipulation.play == Play::Help);
        let battle = tasks.iter().all(|t| !t.stipulation.play.has_lines());
        // Proof games (`dia`) take them too; `a=>b` does not.
        let series = tasks
            .iter()
            .all(|t| t.stipulation.play.is_series() || t.stipulation.play == Play::ProofGame);
        if extras.half_duplex && !any_move && !help && !battle && !series {
            return self.error(
                "option HalfDuplex is supported in help, series, direct, self and reflex play, dia proof games and with ~n only; the problem is not solved",
            );
        }
        if extras.post_key_play && !tasks.iter().all(|t| t.stipulation.play == Play::Direct) {
            return self.error("option PostKeyPlay is supported in direct play only; the problem is not solved");
        }
        if extras.set_play && !help && !battle && !series {
            return self.error(
                "option SetPlay is supported in help, series, direct, self and reflex play and dia proof games only; the problem is not solved",
            );
        }
        if extras.duplex && !help && !battle && !series {
            return self.error(
                "option Duplex is supported in help, series, direct, self and reflex play and dia proof games only; the problem is not solved",
            );
        }
        let start = Instant::now();
        // Under NoBoard Popeye prints neither the header lines nor the diagram.
        if !problem.options.no_board {
            self.line("");
            for header in layout::meta(problem) {
                self.line(&header);
            }
            let diagram = self.diagram_position(problem, &tasks);
            self.line("");
            for row in layout::diagram(&diagram.0) {
                self.line(&row);
            }
            // Popeye shows `Threat N` after the stipulation (`#3/1`).
            let stipulation = match extras.threat {
                Some(t) => format!("{}/{t}", diagram.1),
                None => diagram.1.clone(),
            };
            self.line(&layout::stipulation_line(&stipulation, &diagram.0));
            for row in layout::alice_lines(&diagram.0) {
                self.line(&row);
            }
            if extras.threat.is_some_and(|t| !threat_applies(&tasks[0].stipulation, t)) {
                self.line("Option \"Threat\" not applicable or indicated maximum threat length too big");
            }
            if extras.duplex {
                self.line(&layout::centred("Duplex"));
            }
            if extras.half_duplex {
                self.line(&layout::centred("HalfDuplex"));
            }
        }
        if problem.zero {
            self.line("");
            self.line("zeroposition");
            self.line("");
        }
        let mut complete = true;
        for task in &tasks {
            if let Some(heading) = layout::twin_heading(task) {
                self.line("");
                self.line(&heading);
            }
            complete &= self.task(task, problem, start);
            if self.closed {
                return;
            }
        }
        // The command line's `-maxtime` or the problem's `option maxtime`, whichever is less.
        let by_time = self
            .limits
            .max_time
            .into_iter()
            .chain(problem.options.max_time)
            .min()
            .is_some_and(|s| start.elapsed() >= Duration::from_secs(s));
        let seconds = if self.limits.regression {
            0.0
        } else {
            start.elapsed().as_secs_f64()
        };
        // A finished solve ends its lines with a blank line; lines cut short by the time
        // limit run into the closing line (a tree is closed by the task itself).
        let cut_lines = by_time && !complete && tasks.last().is_some_and(|t| t.stipulation.play.has_lines());
        if !cut_lines {
            self.line("");
        }
        self.line(&layout::closing(complete, by_time, seconds));
        self.line("");
        self.line("");
    }

    /// Popeye's `WhiteToPlay` in help play: `h#n` becomes `h#(n-1).5`, White starting (and
    /// the stipulation line says so); with `h#n.5` it does not apply and is ignored, with
    /// Popeye's notice. None when the problem stays as it is.
    fn white_to_play(&mut self, problem: &Problem) -> Option<Problem> {
        let (stip, text, line) = problem.stipulation.clone()?;
        if !problem.options.white_to_play || stip.play != Play::Help {
            return None;
        }
        let mut changed = problem.clone();
        changed.options.white_to_play = false;
        if stip.half_move {
            self.line("WhiteToPlay not applicable - ignored");
            return Some(changed);
        }
        let shorter = half_move_less(&text);
        let parsed = shorter.parse().ok()?;
        changed.stipulation = Some((parsed, shorter, line));
        Some(changed)
    }

    /// The diagram's position and stipulation text (with `zeroposition` the diagram is not
    /// one of the tasks: it is built from the first task's stipulation).
    fn diagram_position(&self, problem: &Problem, tasks: &[Task]) -> (Position, String) {
        let first = &tasks[0];
        if !problem.zero {
            return (first.position, first.stipulation_text.clone());
        }
        let mut plain = problem.clone();
        plain.zero = false;
        plain.twins.clear();
        match plain.tasks(Self::rules(problem)) {
            Ok(t) => (t[0].position, t[0].stipulation_text.clone()),
            Err(_) => (first.position, first.stipulation_text.clone()),
        }
    }

    /// Solves one task and writes its lines; false when the solve stopped early.
    fn task(&mut self, task: &Task, problem: &Problem, start: Instant) -> bool {
        let options = &problem.options;
        if let Some(kind) = AnyMove::of(&task.stipulation_text) {
            return self.any_move(kind, task, options.extras.half_duplex);
        }
        let play = task.stipulation.play;
        let base = match play {
            Play::ProofGame => Position::start(task.position.rules()),
            Play::AToB => match task.start {
                Some(start) => start,
                None => {
                    self.error("an a=>b proof game needs its start position (the pieces before the stipulation)");
                    return true;
                }
            },
            _ => task.position,
        };
        let solve_options = SolveOptions {
            // Popeye's `Defence N`: tries with up to N refutations.
            tries: (options.tries || options.extras.defence.is_some()) && !play.has_lines(),
            variations: options.variations && !play.has_lines(),
            max_solutions: options.max_solutions,
            max_refutations: options
                .extras
                .defence
                .map(|n| n as usize)
                .or(options.refutations)
                .unwrap_or(1),
            proof_start: play.is_proof().then_some(base),
            table_bits: table_bits(self.limits.max_mem),
            max_threat: options.extras.max_threat(),
            ..SolveOptions::default()
        };
        let max_time = self.limits.max_time.into_iter().chain(options.max_time).min();
        let deadline = if self.limits.stop_at_once {
            Some(Instant::now())
        } else {
            max_time.and_then(|s| start.checked_add(Duration::from_secs(s)))
        };
        let control = SolveControl::new(deadline);
        if self.limits.stop_at_once {
            control.stop();
        }
        if options.extras.post_key_play {
            let Some(after_key) = other_side_to_move(&task.position) else {
                self.error("PostKeyPlay: the position with the defender to move is impossible");
                return true;
            };
            let lines = postkey::post_key_play(&after_key, &task.stipulation, &solve_options, &control);
            self.line("");
            for line in lines {
                self.line(&line);
            }
            return !control.stopped();
        }
        let solved = solve(&task.position, &task.stipulation, &solve_options, &control);
        match &solved.solution {
            Solution::Direct(d) => {
                let extras = &options.extras;
                if !extras.half_duplex {
                    if extras.set_play {
                        self.direct_set_play(task, options.variations, &solve_options, &control);
                    }
                    for line in text::direct_in(&base, d, solve_options.variations, popeye_move) {
                        self.line(&line);
                    }
                    // Popeye closes a finished tree with a blank line (not a stopped one, nor
                    // reflex play's forced moves).
                    if solved.complete && d.forced.is_empty() {
                        self.line("");
                    }
                }
                if extras.half_duplex || extras.duplex {
                    return (extras.half_duplex || solved.complete)
                        && self.reversed_battle(task, &solve_options, &control);
                }
            }
            Solution::Help(h) => {
                let extras = &options.extras;
                if play == Play::Help && extras.set_play {
                    self.set_play(task, &solve_options, &control);
                }
                if !extras.half_duplex {
                    if (play.is_series() || play == Play::ProofGame) && extras.set_play {
                        self.series_set_play(&task.position, &task.stipulation);
                    }
                    // Popeye names the goal reached after a proof game's last move.
                    let goal = if play == Play::ProofGame { " dia" } else { "" };
                    self.line("");
                    for line in text::lines_in(&base, &task.stipulation, h, popeye_move) {
                        self.line(&format!("{line}{goal}"));
                    }
                }
                if play == Play::Help && (extras.half_duplex || extras.duplex) {
                    return solved.complete && self.reversed(task, &solve_options, &control);
                }
                if (play.is_series() || play == Play::ProofGame) && (extras.half_duplex || extras.duplex) {
                    return (extras.half_duplex || solved.complete)
                        && self.reversed_lines(task, &base, extras.set_play, &solve_options, &control);
                }
            }
        }
        solved.complete
    }

    /// `SetPlay` in help play: half a move less, the other side starting (`h#2`: the lines of
    /// `h#1.5` with White first), short solutions included, before the solution.
    fn set_play(&mut self, task: &Task, solve_options: &SolveOptions, control: &SolveControl) {
        let set_text = half_move_less(&task.stipulation_text);
        let (Ok(stipulation), Some(start)) = (set_text.parse(), other_side_to_move(&task.position)) else {
            self.line("");
            return;
        };
        let solved = solve(&start, &stipulation, solve_options, control);
        self.line("");
        if let Solution::Help(h) = &solved.solution {
            for line in text::lines_in(&start, &stipulation, h, popeye_move) {
                self.line(&line);
            }
        }
    }

    /// `SetPlay` in direct play: the defender moves first (see [`setplay`]).
    fn direct_set_play(&mut self, task: &Task, variations: bool, solve_options: &SolveOptions, control: &SolveControl) {
        let Some(start) = other_side_to_move(&task.position) else {
            return self.king_capturable();
        };
        self.line("");
        for line in setplay::direct_set_play(&start, &task.stipulation, variations, solve_options, control) {
            self.line(&line);
        }
    }

    /// `HalfDuplex` and `Duplex`'s second part in direct, self and reflex play: the other side
    /// is the attacker (it moves first), its solution printed as a direct solution is.
    fn reversed_battle(&mut self, task: &Task, solve_options: &SolveOptions, control: &SolveControl) -> bool {
        let Some(start) = other_side_to_move(&task.position) else {
            self.error("HalfDuplex: the position with the other side to move is impossible");
            return true;
        };
        let solved = solve(&start, &task.stipulation, solve_options, control);
        let Solution::Direct(d) = &solved.solution else {
            return solved.complete;
        };
        for line in text::direct_in(&start, d, solve_options.variations, popeye_move) {
            self.line(&line);
        }
        if solved.complete && d.forced.is_empty() {
            self.line("");
        }
        solved.complete
    }

    /// `SetPlay` in series play and proof games before a solution (see [`series`]): Popeye's
    /// notice in direct series play, an empty paragraph in a proof game, else the other side's
    /// moves that reach the goal at once.
    fn series_set_play(&mut self, pos: &Position, stipulation: &Stipulation) {
        // A proof game's set play is empty; Popeye prints its paragraph all the same.
        if stipulation.play == Play::ProofGame {
            return self.line("");
        }
        if !series::set_play_applies(stipulation) {
            return self.line(series::SET_PLAY_IGNORED);
        }
        let Some(passed) = other_side_to_move(pos) else {
            return self.king_capturable();
        };
        self.line("");
        for line in series::set_play(&passed, stipulation) {
            self.line(&line);
        }
    }

    /// Popeye's message when the set play's position is illegal (the side to move could take
    /// the king): on the error stream, and no set play is shown.
    fn king_capturable(&mut self) {
        let _ = writeln!(self.err, "\nthe side to play can capture the king");
    }

    /// `HalfDuplex` and `Duplex`'s second part in series play and proof games: the other side
    /// plays the series (the series solver plays the side to move), or Black starts the proof
    /// game from `base` (the game array) and reaches the diagram with the other side to move.
    fn reversed_lines(
        &mut self,
        task: &Task,
        base: &Position,
        set_play: bool,
        solve_options: &SolveOptions,
        control: &SolveControl,
    ) -> bool {
        let proof = task.stipulation.play == Play::ProofGame;
        let (Some(start), Some(target)) = (other_side_to_move(base), other_side_to_move(&task.position)) else {
            self.error("HalfDuplex: the position with the other side to move is impossible");
            return true;
        };
        if set_play {
            self.series_set_play(&start, &task.stipulation);
        }
        let options = SolveOptions {
            proof_start: proof.then_some(start),
            ..solve_options.clone()
        };
        let solved = solve(&target, &task.stipulation, &options, control);
        let goal = if proof { " dia" } else { "" };
        self.line("");
        if let Solution::Help(h) = &solved.solution {
            for line in text::lines_in(&start, &task.stipulation, h, popeye_move) {
                self.line(&format!("{line}{goal}"));
            }
        }
        solved.complete
    }

    /// `HalfDuplex` and `Duplex`'s second part: the other side starts and is mated.
    fn reversed(&mut self, task: &Task, solve_options: &SolveOptions, control: &SolveControl) -> bool {
        let start = other_side_to_move(&task.position);
        let mirror = duplex::reversed(&task.position);
        let (Some(start), Some(mirror)) = (start, mirror) else {
            self.error("HalfDuplex: the position with the other side to move is impossible");
            return true;
        };
        let solved = solve(&mirror, &task.stipulation, solve_options, control);
        let Solution::Help(h) = &solved.solution else {
            return solved.complete;
        };
        let Some(lines) = duplex::mapped_back(&start, &mirror, h) else {
            self.error("HalfDuplex: a line could not be mapped back");
            return solved.complete;
        };
        self.line("");
        for line in text::lines_in(&start, &task.stipulation, &lines, popeye_move) {
            self.line(&line);
        }
        solved.complete
    }

    /// The any-move stipulations (`~n`, `h~n`, `ser-~n`) for the side to move (the other side with `HalfDuplex`).
    fn any_move(&mut self, kind: AnyMove, task: &Task, half_duplex: bool) -> bool {
        let mut pos = task.position;
        if half_duplex {
            match other_side_to_move(&pos) {
                Some(p) => pos = p,
                None => {
                    self.error("HalfDuplex: the side not to move would be in check");
                    return true;
                }
            }
        }
        for line in kind.page(&pos) {
            self.line(&line);
        }
        true
    }
}

/// A help stipulation's text half a move shorter: `h#2` -> `h#1.5`, `h#2.5` -> `h#2`.
fn half_move_less(text: &str) -> String {
    match text.strip_suffix(".5") {
        Some(whole) => whole.to_string(),
        None => {
            let digits = text.trim_start_matches(|c: char| !c.is_ascii_digit());
            let moves: u32 = digits.parse().unwrap_or(0);
            format!("{}{}.5", &text[..text.len() - digits.len()], moves.saturating_sub(1))
        }
    }
}

/// `pos` with the other side to move (no en passant square), or None when that is illegal.
fn other_side_to_move(pos: &Position) -> Option<Position> {
    let fen = pos.to_fen();
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() < 4 {
        return None;
    }
    let side = if fields[1] == "w" { "b" } else { "w" };
    fields[1] = side;
    fields[3] = "-";
    Position::from_fen(&fields.join(" "), pos.rules()).ok()
}

/// Whether Popeye applies `Threat t` to `stipulation`: in direct, self and reflex play when
/// the attacker has at least `t` moves after its first.
fn threat_applies(stipulation: &Stipulation, t: u64) -> bool {
    !stipulation.play.has_lines() && u64::from(stipulation.moves) > t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_bounds_the_table() {
        assert_eq!(table_bits(None), SolveOptions::default().table_bits);
        assert_eq!(table_bits(Some(1 << 30)), SolveOptions::default().table_bits);
        assert_eq!(table_bits(Some(1 << 20)), 15);
        assert_eq!(table_bits(Some(1)), 10);
    }
}
