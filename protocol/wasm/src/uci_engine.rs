//! A UCI engine for a host with one thread: command lines go in through
//! [`UciEngine::command`], a running search goes on a slice at a time through
//! [`UciEngine::step`], and the lines to print gather until [`UciEngine::take_output`].
//!
//! It speaks the `vorpal` binary's UCI with the same text (the option table, `go` and
//! `position` readers and the line formats are that binary's files): `uci`, `isready`,
//! `setoption`, `ucinewgame`, `position`, `go` (depth, nodes, movetime, clock, mate,
//! infinite, ponder, searchmoves, perft), `stop`, `ponderhit`, `bench`, `quit`. What a browser
//! cannot have is left out: the options that read files (`EvalFile`, `AliceTbPath`,
//! `Debug Log File`) and threads (`Threads` is taken; the search runs on one).

use std::time::Duration;
use vorpal_engine::nnue::embedded_network;
use vorpal_engine::search::{Limits, Score, SearchControl, SearchResult, Searcher, SliceBudget, SlicedSearch};
use vorpal_engine::{bench, perft, Evaluator, Game, Position};
use vorpal_uci_text::format::{
    bench_text, bestmove_line, error_text, no_legal_move_line, note_text, one_line, perft_text, report_line, uci_text,
    variant_text,
};
use vorpal_uci_text::go::{parse_go, GoRequest};
use vorpal_uci_text::options::{option_lines, parse_setoption, Change, Settings};
use vorpal_uci_text::position_words::parse_position;

/// The slice a host asks for: new iterations start for 20 ms; an iteration still running
/// after 250 ms pauses (then 500 ms, 1 s, ... for the same iteration).
pub const SLICE: SliceBudget = SliceBudget {
    iterations: Duration::from_millis(20),
    pause: Duration::from_millis(250),
};

/// Options of the native engine that a WebAssembly host cannot use (they name files).
const FILE_OPTIONS: [&str; 3] = ["Debug Log File", "EvalFile", "AliceTbPath"];

/// What the host should do after a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Nothing runs: wait for the next command.
    Idle,
    /// A search runs: call [`UciEngine::step`] again soon (after letting other events in).
    Searching,
    /// The search is over but `go infinite` or `go ponder` holds its `bestmove` until
    /// `stop` or `ponderhit`: wait for the next command.
    Holding,
}

/// One search of a `go`.
struct Running {
    game: Game,
    limits: Limits,
    control: SearchControl,
    /// None when the root has no legal move (nothing to search).
    search: Option<SlicedSearch>,
    result: Option<SearchResult>,
    show_wdl: bool,
}

/// A UCI engine driven by its host's calls (see the module's documentation).
pub struct UciEngine {
    settings: Settings,
    searcher: Searcher,
    game: Game,
    running: Option<Running>,
    out: Vec<String>,
}

impl Default for UciEngine {
    fn default() -> Self {
        UciEngine::new()
    }
}

impl UciEngine {
    /// An engine with the default options at the start position.
    pub fn new() -> UciEngine {
        let settings = Settings::default();
        UciEngine {
            searcher: Searcher::new(settings.search_options()),
            settings,
            game: Game::new(Position::startpos()),
            running: None,
            out: Vec::new(),
        }
    }

    /// The lines printed since the last call, each ending in a newline.
    pub fn take_output(&mut self) -> String {
        let mut text = String::new();
        for line in self.out.drain(..) {
            text.push_str(&line);
            text.push('\n');
        }
        text
    }

    /// What the host should do now.
    pub fn state(&self) -> Step {
        match &self.running {
            None => Step::Idle,
            Some(r) if r.result.is_some() => Step::Holding,
            Some(_) => Step::Searching,
        }
    }

    /// Handles one command line.
    pub fn command(&mut self, line: &str) -> Step {
        let words: Vec<&str> = line.split_whitespace().collect();
        let first = words.first().map(|w| w.to_ascii_lowercase()).unwrap_or_default();
        let rest = words.get(1..).unwrap_or_default();
        match first.as_str() {
            "" | "register" | "debug" => {}
            "uci" => {
                let options: Vec<String> = option_lines()
                    .into_iter()
                    .filter(|l| {
                        !FILE_OPTIONS
                            .iter()
                            .any(|n| l.starts_with(&format!("option name {n} type")))
                    })
                    .collect();
                self.out.push(uci_text(&options));
            }
            "isready" => self.out.push("readyok".into()),
            "setoption" => {
                self.stop();
                match parse_setoption(rest, line) {
                    Ok(change) => self.set_option(change),
                    Err(e) => self.error(&e),
                }
            }
            "ucinewgame" => {
                self.stop();
                self.searcher.clear();
                self.game = Game::new(self.start_position());
            }
            "position" => {
                self.stop();
                match parse_position(rest, self.start_position(), self.settings.rules()) {
                    Err(e) => self.error(&e),
                    Ok((game, problem)) => {
                        if let Some(e) = problem {
                            self.error(&e);
                        }
                        self.game = game;
                    }
                }
            }
            "go" => self.go(rest),
            "stop" => self.stop(),
            "ponderhit" => {
                if let Some(r) = &self.running {
                    r.control.ponderhit();
                    if r.result.is_some() {
                        self.finish();
                    }
                }
            }
            "bench" => {
                self.stop();
                self.bench(rest);
            }
            "quit" => self.stop(),
            _ => self.error(&format!(
                "unknown command '{}' in '{}'",
                one_line(&first),
                one_line(line.trim())
            )),
        }
        self.state()
    }

    /// Runs one slice of the search, if one runs.
    pub fn step(&mut self, budget: SliceBudget) -> Step {
        let Some(run) = self.running.as_mut() else {
            return Step::Idle;
        };
        if run.result.is_none() {
            if let Some(search) = run.search.as_mut() {
                let pos = *run.game.position();
                let (out, show_wdl) = (&mut self.out, run.show_wdl);
                let mut report = |r| out.push(report_line(&pos, r, show_wdl));
                run.result = self.searcher.run_slice(search, &run.control, budget, &mut report);
            }
        }
        let run = self.running.as_ref().expect("a search runs");
        let holding = (run.limits.infinite || run.control.is_pondering()) && !run.control.is_stopped();
        if run.result.is_some() && !holding {
            self.finish();
        }
        self.state()
    }

    /// `go`: a perft at once, or a search that [`UciEngine::step`] carries on.
    fn go(&mut self, words: &[&str]) {
        self.stop();
        let mut errors = Vec::new();
        let request = parse_go(words, self.game.position(), &mut errors);
        for e in &errors {
            self.error(e);
        }
        match request {
            GoRequest::Perft(depth) => {
                let pos = *self.game.position();
                let counts = if depth == 0 {
                    Vec::new()
                } else {
                    perft::divide(&pos, depth)
                };
                self.out.push(perft_text(&pos, depth, &counts).0);
            }
            GoRequest::Search(limits) => {
                let control = SearchControl::new();
                control.reset(limits.ponder);
                let pos = *self.game.position();
                let show_wdl = self.settings.show_wdl;
                let (search, result) = if pos.legal_moves().is_empty() {
                    self.out.push(no_legal_move_line(&pos).to_string());
                    (None, Some(no_move()))
                } else {
                    let out = &mut self.out;
                    let mut report = |r| out.push(report_line(&pos, r, show_wdl));
                    (Some(self.searcher.start_sliced(&self.game, &limits, &mut report)), None)
                };
                self.running = Some(Running {
                    game: self.game.clone(),
                    limits,
                    control,
                    search,
                    result,
                    show_wdl,
                });
            }
        }
    }

    /// Stops a running search and prints its `bestmove`.
    fn stop(&mut self) {
        let Some(run) = self.running.as_mut() else {
            return;
        };
        run.control.stop();
        if run.result.is_none() {
            if let Some(search) = run.search.as_mut() {
                let pos = *run.game.position();
                let (out, show_wdl) = (&mut self.out, run.show_wdl);
                let mut report = |r| out.push(report_line(&pos, r, show_wdl));
                run.result = self.searcher.run_slice(search, &run.control, SLICE, &mut report);
            }
        }
        self.finish();
    }

    /// Prints the `bestmove` of the search that ended (a legal move whatever happened).
    fn finish(&mut self) {
        let Some(run) = self.running.take() else {
            return;
        };
        let pos = *run.game.position();
        let legal = pos.legal_moves();
        let result = run.result.unwrap_or_else(no_move);
        let (best, ponder) = match result.best.filter(|m| legal.contains(m)) {
            Some(best) => (Some(best), result.ponder),
            None => (
                run.limits.search_moves.first().copied().or(legal.first().copied()),
                None,
            ),
        };
        self.out.push(bestmove_line(&pos, best, ponder));
    }

    /// Applies a checked option change (the file options are refused).
    fn set_option(&mut self, change: Change) {
        let mut next = self.settings.clone();
        match change {
            Change::DebugLogFile(_) | Change::EvalFile(_) | Change::AliceTbPath(_) => {
                return self.error("setoption: this option names a file; WebAssembly has none");
            }
            Change::Threads(n) => next.search.threads = n,
            Change::Hash(mb) => next.search.hash_mb = mb,
            Change::MultiPv(n) => next.search.multipv = n,
            Change::SkillLevel(n) => next.search.skill_level = n,
            Change::MoveOverhead(ms) => next.search.move_overhead_ms = ms,
            Change::LimitStrength(on) => next.limit_strength = on,
            Change::Elo(elo) => next.elo = elo,
            Change::ClearHash => return self.searcher.clear(),
            Change::Ponder(on) => next.ponder = on,
            Change::AnalyseMode(on) => next.analyse_mode = on,
            Change::ShowWdl(on) => next.show_wdl = on,
            Change::Chess960(on) => next.chess960 = on,
            Change::EnPassant(mode) => next.en_passant = mode,
            Change::Variant(variant) => next.variant = variant,
            Change::UseNnue(on) => {
                next.use_nnue = on;
                let params = self.searcher.evaluator().params.clone();
                self.searcher.set_evaluator(if on {
                    Evaluator::with_network(params, embedded_network())
                } else {
                    Evaluator::hand_crafted(params)
                });
            }
            Change::SearchParam(name, value) => {
                let mut params = self.searcher.params().clone();
                match params.set(name, value) {
                    Ok(()) => self.searcher.set_params(params),
                    Err(e) => self.error(&format!("setoption: {e}; unchanged")),
                }
                return;
            }
        }
        // Threads are taken as given but the search runs on one (no threads here).
        let mut options = next.search_options();
        options.threads = 1;
        if let Err(e) = self.searcher.set_options(options) {
            return self.error(&format!("setoption: {e}; the previous settings are kept"));
        }
        let variant_changed = next.variant != self.settings.variant;
        let rules_changed = next.rules() != self.settings.rules();
        self.settings = next;
        if variant_changed {
            self.game = Game::new(self.start_position());
            let text = variant_text(self.settings.variant, self.game.position());
            self.out.push(note_text(&text));
        } else if rules_changed {
            self.replay_under_rules();
        }
    }

    /// Replays the game under changed rule options; a move they forbid ends it there.
    fn replay_under_rules(&mut self) {
        let mut start = *self.game.start();
        start.set_rules(self.settings.rules());
        let mut game = Game::new(start);
        for (i, &mv) in self.game.moves().iter().enumerate() {
            if !game.play(mv) {
                let text = format!(
                    "setoption: move {} ({}) is not legal under the new rules; the position is set up to the move before it",
                    i + 1,
                    game.position().move_to_uci(mv)
                );
                self.error(&text);
                break;
            }
        }
        self.game = game;
    }

    /// `bench [depth]`: the fixed benchmark (one thread, its own table), summary only.
    fn bench(&mut self, words: &[&str]) {
        let depth = match words {
            [] => Some(bench::DEFAULT_DEPTH),
            [d] => d
                .parse::<u32>()
                .ok()
                .filter(|d| (1..=vorpal_uci_text::go::MAX_DEPTH).contains(d)),
            _ => None,
        };
        let Some(depth) = depth else {
            return self.error(&format!(
                "bench: expected 'bench [depth]' with a depth in 1..={}",
                vorpal_uci_text::go::MAX_DEPTH
            ));
        };
        let result = bench::run(depth, self.searcher.evaluator(), &mut |_, _, _| {});
        self.out.push(bench_text(&result));
    }

    /// The variant's start position under the current rule options.
    fn start_position(&self) -> Position {
        Position::from_fen(self.settings.variant.start_fen(), self.settings.rules())
            .expect("every variant's start FEN is valid")
    }

    fn error(&mut self, message: &str) {
        self.out.push(error_text(message));
    }
}

/// The result of a search that had no move to choose.
fn no_move() -> SearchResult {
    SearchResult {
        best: None,
        ponder: None,
        score: Score::Cp(0),
        depth: 0,
        completed_best: None,
        nodes: 0,
    }
}

#[cfg(test)]
mod tests;
