//! The UCI adapter: parses each command line (dispatching on its words, `["go", rest @ ..] =>
//! ...`) into calls on the [`EngineSession`], and answers every bad input with one
//! `info string error ...` line while the loop keeps serving. `xboard` hands the session over
//! to the CECP adapter (`xboard/`).
//!
//! Commands that change what the search works with (`position`, `ucinewgame`, `setoption`,
//! `go`, `perft`, `bench`, `flip`) first stop a running search, whose `bestmove` is printed
//! before anything else. Read-only commands (`isready`, `d`, `fen`, `moves`, `eval`,
//! `result`, `help`, `uci`) are answered at once, also during a search.

mod commands;
pub mod display;
pub mod input;
pub mod output;
pub mod panics;
mod printer;
pub mod serve;
pub mod session;
pub mod worker;

use crate::uci::input::MAX_LINE;
use crate::uci::output::one_line;
use crate::uci::serve::{Flow, Protocol};
use crate::uci::session::{EngineSession, AUTHOR, ENGINE};
pub use commands::{command_help, mirror_fen};
pub use printer::error_text;
use printer::{error, note_text, UciPrinter};
use std::sync::Arc;
use vorpal_uci_text::go::{parse_go, GoRequest};
use vorpal_uci_text::options::{option_lines, parse_setoption};

/// The UCI side of a session: the protocol's own state (`debug`) and its commands.
#[derive(Default)]
pub struct Uci {
    debug: bool,
    /// Makes the CECP adapter that the `xboard` command hands the session to (given by the
    /// program, so that this room does not import the CECP one, which builds on its session).
    cecp: Option<fn() -> Box<dyn Protocol>>,
}

impl Uci {
    /// A fresh UCI adapter (without a CECP adapter to switch to: see [`Uci::switching_to`]).
    pub fn new() -> Uci {
        Uci::default()
    }

    /// A UCI adapter whose `xboard` command switches the session to the adapter `cecp` makes.
    pub fn switching_to(cecp: fn() -> Box<dyn Protocol>) -> Uci {
        Uci {
            cecp: Some(cecp),
            ..Uci::default()
        }
    }

    /// The start-up banner (the one line the UCI loop prints unasked).
    pub fn banner() -> String {
        format!("{ENGINE} by {AUTHOR} (Alice chess; 'help' lists the commands)")
    }

    /// Handles one input line.
    pub fn handle_line(&mut self, session: &mut EngineSession, line: &str) -> Flow {
        let words: Vec<&str> = line.split_whitespace().collect();
        let command = words.first().map(|w| w.to_ascii_lowercase()).unwrap_or_default();
        let mut lowered = words.clone();
        if let Some(first) = lowered.first_mut() {
            *first = &command;
        }
        match lowered.as_slice() {
            [] => {}
            ["uci", ..] => cmd_uci(session),
            ["isready", ..] => session.out().line("readyok"),
            ["debug", rest @ ..] => self.cmd_debug(session, rest),
            ["register", ..] => {}
            ["setoption", rest @ ..] => {
                session.stop();
                match parse_setoption(rest, line) {
                    Ok(change) => cmd_setoption(session, change),
                    Err(e) => error(session, &e),
                }
            }
            ["ucinewgame", ..] => session.new_game(),
            ["position", rest @ ..] => {
                session.stop();
                commands::cmd_position(session, rest);
            }
            ["go", rest @ ..] => self.cmd_go(session, rest),
            ["stop", ..] => session.stop(),
            ["ponderhit", ..] => session.ponderhit(),
            ["xboard", ..] if self.cecp.is_some() => {
                session.stop();
                if let Some(cecp) = self.cecp {
                    return Flow::Switch(cecp());
                }
            }
            ["quit", ..] => {
                session.stop();
                return Flow::Quit;
            }
            _ => extension(session, &lowered, line),
        }
        Flow::Continue
    }

    fn cmd_debug(&mut self, session: &EngineSession, words: &[&str]) {
        match words {
            ["on"] | [] => self.debug = true,
            ["off"] => self.debug = false,
            _ => error(
                session,
                &format!("debug: expected 'on' or 'off', found '{}'", words.join(" ")),
            ),
        }
    }

    fn cmd_go(&mut self, session: &mut EngineSession, words: &[&str]) {
        session.stop();
        let mut errors = Vec::new();
        let request = parse_go(words, session.position(), &mut errors);
        for e in &errors {
            error(session, e);
        }
        match request {
            GoRequest::Perft(depth) => {
                let threads = session.settings().search.threads;
                commands::run_perft(session, depth, *session.position(), threads)
            }
            GoRequest::Search(limits) => {
                if self.debug {
                    session.out().line(&note_text(&format!("debug: go {limits:?}")));
                }
                let printer = Arc::new(UciPrinter {
                    show_wdl: session.settings().show_wdl,
                });
                session.start_search(limits, printer);
            }
        }
    }
}

impl Protocol for Uci {
    fn handle_line(&mut self, session: &mut EngineSession, line: &str) -> Flow {
        Uci::handle_line(self, session, line)
    }

    fn line_too_long(&mut self, session: &mut EngineSession, bytes: usize) {
        error(
            session,
            &format!("input line of {bytes} bytes is longer than {MAX_LINE}; ignored"),
        );
    }

    fn report_error(&self, session: &EngineSession, message: &str) {
        error(session, message);
    }

    fn end(&mut self, session: &mut EngineSession) {
        session.stop();
    }
}

/// Commands beyond UCI (in `commands.rs`).
fn extension(session: &mut EngineSession, words: &[&str], line: &str) {
    match words {
        ["d", ..] => commands::cmd_d(session),
        ["fen", rest @ ..] => commands::cmd_fen(session, rest),
        ["moves", ..] => commands::cmd_moves(session),
        ["perft", rest @ ..] => {
            session.stop();
            commands::cmd_perft(session, rest);
        }
        ["eval", ..] => commands::cmd_eval(session),
        ["bench", rest @ ..] => {
            session.stop();
            commands::cmd_bench(session, rest);
        }
        ["result", ..] => commands::cmd_result(session),
        ["flip", ..] => {
            session.stop();
            commands::cmd_flip(session);
        }
        ["help", ..] => commands::cmd_help(session),
        [command, ..] => error(
            session,
            &format!(
                "unknown command '{}' in '{}' (type 'help' for the list)",
                one_line(command),
                one_line(line.trim())
            ),
        ),
        [] => {}
    }
}

fn cmd_uci(session: &EngineSession) {
    session.out().lines(&vorpal_uci_text::format::uci_text(&option_lines()));
}

/// Applies a checked option change; a new variant is announced with Fairy-Stockfish's line.
fn cmd_setoption(session: &mut EngineSession, change: vorpal_uci_text::options::Change) {
    let variant = matches!(change, vorpal_uci_text::options::Change::Variant(_));
    if let Err(e) = session.apply(change) {
        return error(session, &e);
    }
    if variant {
        let text = vorpal_uci_text::format::variant_text(session.settings().variant, session.position());
        session.out().line(&note_text(&text));
    }
}
