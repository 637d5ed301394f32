//! The UCI dialect: notes and errors as `info string` lines, and the search thread's output
//! (`info` lines and exactly one `bestmove` per `go`).

use crate::uci::output::Output;
use crate::uci::session::EngineSession;
use crate::uci::worker::Printer;
use vorpal_engine::search::Report;
use vorpal_engine::{Game, Move, Position};
pub use vorpal_uci_text::format::{bestmove_line, error_text, note_text};
use vorpal_uci_text::format::{no_legal_move_line, report_line};

/// Prints an error line in UCI (the one answer to every bad input).
pub fn error(session: &EngineSession, message: &str) {
    session.out().error_line(&error_text(message));
}

/// Prints one search in UCI.
pub struct UciPrinter {
    /// Print `wdl` in `info` lines.
    pub show_wdl: bool,
}

impl Printer for UciPrinter {
    fn no_legal_move(&self, pos: &Position, out: &Output) {
        out.line(no_legal_move_line(pos));
    }

    fn report(&self, pos: &Position, report: Report, out: &Output) {
        out.line(&report_line(pos, report, self.show_wdl));
    }

    fn error(&self, message: &str, out: &Output) {
        out.error_line(&error_text(message));
    }

    fn finish(&self, game: &Game, best: Option<Move>, ponder: Option<Move>, out: &Output) {
        out.line(&bestmove_line(game.position(), best, ponder));
    }
}
