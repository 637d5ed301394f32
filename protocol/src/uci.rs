//! The UCI loop: reads commands, dispatches on their words (`["go", rest @ ..] => ...`), and
//! answers every bad input with one `info string error ...` line while it keeps serving.
//! `xboard` hands the engine over to the CECP loop (`xboard/`).
//!
//! Commands that change what the search works with (`position`, `ucinewgame`, `setoption`,
//! `go`, `perft`, `bench`, `flip`) first stop a running search, whose `bestmove` is printed
//! before anything else. Read-only commands (`isready`, `d`, `fen`, `moves`, `eval`,
//! `result`, `help`, `uci`) are answered at once, also during a search.

use crate::go::{parse_go, GoRequest};
use crate::input::{read_line, Line, MAX_LINE};
use crate::options::{available_memory_mb, option_lines, parse_setoption, Change, Settings};
use crate::output::{one_line, Output};
use crate::worker::{Job, UciPrinter, Worker};
use std::any::Any;
use std::io::BufRead;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use vorpal_engine::search::Searcher;
use vorpal_engine::{Game, Position, Rules};

/// Engine name and version as sent in `id name`.
pub const ENGINE: &str = concat!("Vorpal ", env!("CARGO_PKG_VERSION"));
/// Sent in `id author`.
pub const AUTHOR: &str = "the Vorpal developers";

/// Whether the loop goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading commands.
    Continue,
    /// `quit` was received.
    Quit,
    /// `xboard` was received: the dialogue goes on in CECP (`xboard/`).
    Xboard,
}

/// The engine as the protocol sees it: settings, the current game, and the search thread.
pub struct Uci {
    pub(crate) out: Output,
    pub(crate) settings: Settings,
    pub(crate) game: Game,
    pub(crate) worker: Worker,
    pub(crate) debug: bool,
}

/// Runs the UCI loop on `input` until `quit` or the end of input.
pub fn run_loop(input: &mut dyn BufRead, out: Output) {
    out.line(&format!(
        "{ENGINE} by {AUTHOR} (Alice chess; 'help' lists the commands)"
    ));
    let mut uci = Uci::new(out.clone());
    loop {
        match read_line(input) {
            Ok(Some(Line::Text(line))) => {
                // A bug must not end the dialogue (where panics unwind: debug and test builds).
                match panic::catch_unwind(AssertUnwindSafe(|| uci.handle_line(&line))) {
                    Ok(Flow::Quit) => break,
                    Ok(Flow::Xboard) => return crate::xboard::serve(input, uci),
                    Ok(Flow::Continue) => {}
                    Err(e) => out.error(&format!(
                        "internal error while handling '{}': {}; the engine keeps serving",
                        one_line(&line),
                        panic_text(e.as_ref())
                    )),
                }
            }
            Ok(Some(Line::TooLong(n))) => {
                out.error(&format!("input line of {n} bytes is longer than {MAX_LINE}; ignored"))
            }
            Ok(None) => {
                log::debug!("end of input: quitting");
                break;
            }
            Err(e) => {
                log::error!("reading input failed: {e}; quitting");
                break;
            }
        }
    }
    uci.quit();
}

/// The message of a caught panic.
pub fn panic_text(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("unknown panic")
}

impl Uci {
    /// A fresh engine: default settings, the start position.
    pub fn new(out: Output) -> Uci {
        let settings = Settings::default();
        let worker = Worker::new(Searcher::new(settings.search_options()), out.clone());
        Uci {
            out,
            settings,
            game: Game::new(Position::startpos()),
            worker,
            debug: false,
        }
    }

    /// The rules positions are set up under.
    pub(crate) fn rules(&self) -> Rules {
        self.settings.rules()
    }

    /// Stops any search (its `bestmove` is printed) before leaving.
    pub fn quit(&mut self) {
        self.worker.stop();
    }

    /// Waits until a running search ends on its own (command-line mode).
    pub fn wait(&mut self) {
        self.worker.wait();
    }

    /// Handles one input line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        self.out.log_input(line);
        log::debug!("input: {line}");
        let words: Vec<&str> = line.split_whitespace().collect();
        let command = words.first().map(|w| w.to_ascii_lowercase()).unwrap_or_default();
        let mut lowered = words.clone();
        if let Some(first) = lowered.first_mut() {
            *first = &command;
        }
        match lowered.as_slice() {
            [] => {}
            ["uci", ..] => self.cmd_uci(),
            ["isready", ..] => self.out.line("readyok"),
            ["debug", rest @ ..] => self.cmd_debug(rest),
            ["register", ..] => {}
            ["setoption", rest @ ..] => {
                self.worker.stop();
                match parse_setoption(rest, line) {
                    Ok(change) => self.apply(change),
                    Err(e) => self.out.error(&e),
                }
            }
            ["ucinewgame", ..] => {
                self.worker.searcher().clear();
                self.game = Game::new(self.start_position());
            }
            ["position", rest @ ..] => {
                self.worker.stop();
                self.cmd_position(rest);
            }
            ["go", rest @ ..] => self.cmd_go(rest),
            ["stop", ..] => self.worker.stop(),
            ["ponderhit", ..] => self.worker.ponderhit(),
            ["xboard", ..] => {
                self.worker.stop();
                return Flow::Xboard;
            }
            ["quit", ..] => {
                self.quit();
                return Flow::Quit;
            }
            _ => self.extension(&lowered, line),
        }
        Flow::Continue
    }

    /// Commands beyond UCI (in `commands.rs`).
    fn extension(&mut self, words: &[&str], line: &str) {
        match words {
            ["d", ..] => self.cmd_d(),
            ["fen", rest @ ..] => self.cmd_fen(rest),
            ["moves", ..] => self.cmd_moves(),
            ["perft", rest @ ..] => {
                self.worker.stop();
                self.cmd_perft(rest);
            }
            ["eval", ..] => self.cmd_eval(),
            ["bench", rest @ ..] => {
                self.worker.stop();
                self.cmd_bench(rest);
            }
            ["result", ..] => self.cmd_result(),
            ["flip", ..] => {
                self.worker.stop();
                self.cmd_flip();
            }
            ["help", ..] => self.cmd_help(),
            [command, ..] => self.out.error(&format!(
                "unknown command '{}' in '{}' (type 'help' for the list)",
                one_line(command),
                one_line(line.trim())
            )),
            [] => {}
        }
    }

    fn cmd_uci(&self) {
        let mut text = format!("id name {ENGINE}\nid author {AUTHOR}\n");
        for line in option_lines() {
            text.push_str(&line);
            text.push('\n');
        }
        text.push_str("uciok");
        self.out.lines(&text);
    }

    fn cmd_debug(&mut self, words: &[&str]) {
        match words {
            ["on"] | [] => self.debug = true,
            ["off"] => self.debug = false,
            _ => self
                .out
                .error(&format!("debug: expected 'on' or 'off', found '{}'", words.join(" "))),
        }
    }

    fn cmd_go(&mut self, words: &[&str]) {
        self.worker.stop();
        let mut errors = Vec::new();
        let request = parse_go(words, self.game.position(), &mut errors);
        for e in &errors {
            self.out.error(e);
        }
        match request {
            GoRequest::Perft(depth) => self.perft(depth, *self.game.position()),
            GoRequest::Search(limits) => {
                if self.debug {
                    self.out.info_string(&format!("debug: go {limits:?}"));
                }
                self.worker.start(Job {
                    game: self.game.clone(),
                    limits,
                    printer: Arc::new(UciPrinter {
                        show_wdl: self.settings.show_wdl,
                    }),
                })
            }
        }
    }

    /// Applies a checked option change.
    pub(crate) fn apply(&mut self, change: Change) {
        let mut next = self.settings.clone();
        match change {
            Change::Threads(n) => next.search.threads = n,
            Change::Hash(mb) => {
                if let Some(free) = available_memory_mb().filter(|&free| mb > free + self.settings.search.hash_mb) {
                    return self.out.error(&format!(
                        "setoption: Hash {mb} MB is more than the memory available ({free} MB); unchanged"
                    ));
                }
                next.search.hash_mb = mb
            }
            Change::MultiPv(n) => next.search.multipv = n,
            Change::SkillLevel(n) => next.search.skill_level = n,
            Change::MoveOverhead(ms) => next.search.move_overhead_ms = ms,
            Change::LimitStrength(on) => next.limit_strength = on,
            Change::Elo(elo) => next.elo = elo,
            Change::ClearHash => return self.worker.searcher().clear(),
            Change::Ponder(on) => next.ponder = on,
            Change::AnalyseMode(on) => next.analyse_mode = on,
            Change::ShowWdl(on) => next.show_wdl = on,
            Change::Chess960(on) => {
                self.settings.chess960 = on;
                self.replay_under_rules();
                return;
            }
            Change::DebugLogFile(path) => {
                if let Err(e) = self.out.set_log_file(&path) {
                    return self
                        .out
                        .error(&format!("setoption: cannot open Debug Log File '{path}': {e}"));
                }
                next.debug_log = path;
            }
            Change::Variant(variant) => {
                self.settings.variant = variant;
                self.game = Game::new(self.start_position());
                self.out.info_string(&format!(
                    "variant {} files {} ranks 8 pocket 0 template fairy startpos {}",
                    variant.name(),
                    variant.files(),
                    self.game.position().to_fen()
                ));
                return;
            }
            Change::EnPassant(mode) => {
                self.settings.en_passant = mode;
                self.replay_under_rules();
                return;
            }
            Change::SearchParam(name, value) => {
                let mut searcher = self.worker.searcher();
                let mut params = searcher.params().clone();
                if let Err(e) = params.set(name, value) {
                    drop(searcher);
                    return self.out.error(&format!("setoption: {e}; unchanged"));
                }
                searcher.set_params(params);
                return;
            }
        }
        let search = next.search_options();
        if search != self.settings.search_options() {
            if let Err(e) = self.worker.searcher().set_options(search) {
                return self
                    .out
                    .error(&format!("setoption: {e}; the previous settings are kept"));
            }
        }
        self.settings = next;
    }

    /// The start position of the current variant under the current rules.
    pub(crate) fn start_position(&self) -> Position {
        Position::from_fen(self.settings.variant.start_fen(), self.rules()).expect("every variant's start FEN is valid")
    }

    /// Replays the current game under changed rule options (`AliceEnPassant`,
    /// `UCI_Chess960`). A move the new rules forbid ends the game there, and says so.
    fn replay_under_rules(&mut self) {
        let mut start = *self.game.start();
        start.set_rules(self.rules());
        let mut game = Game::new(start);
        let moves = self.game.moves().to_vec();
        for (i, &mv) in moves.iter().enumerate() {
            if !game.play(mv) {
                self.out.error(&format!(
                    "setoption: move {} ({}) is not legal under the new rules; the position is set up to the move before it",
                    i + 1,
                    game.position().move_to_uci(mv)
                ));
                break;
            }
        }
        self.game = game;
    }
}
