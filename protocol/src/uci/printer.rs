//! The UCI dialect: notes and errors as `info string` lines, and the search thread's output
//! (`info` lines and exactly one `bestmove` per `go`).

use crate::format::info_line;
use crate::output::{one_line, Output};
use crate::session::EngineSession;
use crate::worker::Printer;
use vorpal_engine::search::Report;
use vorpal_engine::{Game, Move, Position};

/// `info string <message>`: a note.
pub fn note_text(message: &str) -> String {
    format!("info string {}", one_line(message))
}

/// `info string error <message>`: the one answer to every bad input.
pub fn error_text(message: &str) -> String {
    format!("info string error {}", one_line(message))
}

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
        out.line(if pos.in_check() {
            "info depth 0 score mate 0"
        } else {
            "info depth 0 score cp 0"
        });
    }

    fn report(&self, pos: &Position, report: Report, out: &Output) {
        match report {
            Report::Info(info) => out.line(&info_line(&info, pos, self.show_wdl)),
            Report::CurrMove { depth, mv, number } => out.line(&format!(
                "info depth {depth} currmove {} currmovenumber {number}",
                pos.move_to_uci(mv)
            )),
            Report::Note(text) => out.line(&note_text(&text)),
        }
    }

    fn error(&self, message: &str, out: &Output) {
        out.error_line(&error_text(message));
    }

    fn finish(&self, game: &Game, best: Option<Move>, ponder: Option<Move>, out: &Output) {
        out.line(&bestmove_line(game.position(), best, ponder));
    }
}

/// `bestmove <m> [ponder <m>]` or `bestmove (none)`; the ponder move is dropped unless legal.
pub fn bestmove_line(pos: &Position, best: Option<Move>, ponder: Option<Move>) -> String {
    let Some(best) = best else {
        return "bestmove (none)".to_string();
    };
    let mut line = format!("bestmove {}", pos.move_to_uci(best));
    let next = pos.after(best);
    if let Some(p) = ponder.filter(|&p| next.is_legal(p)) {
        line.push_str(&format!(" ponder {}", next.move_to_uci(p)));
    }
    line
}
