//! The read loop of a session: reads input lines and hands each to the protocol in force,
//! which may hand the session over to another protocol (UCI's `xboard`). A bug while
//! handling a line must not end the dialogue: where panics unwind (debug and test builds) the
//! protocol reports it and the loop goes on.

use crate::uci::input::{read_line, Line};
use crate::uci::panics::panic_text;
use crate::uci::session::EngineSession;
use std::io::BufRead;
use std::panic::{self, AssertUnwindSafe};

/// What the read loop does after a line.
pub enum Flow {
    /// Keep reading commands.
    Continue,
    /// The protocol's `quit`.
    Quit,
    /// Go on with another protocol (the session is kept).
    Switch(Box<dyn Protocol>),
}

/// A protocol adapter: parses its commands into session calls and prints in its dialect.
pub trait Protocol {
    /// Handles one input line.
    fn handle_line(&mut self, session: &mut EngineSession, line: &str) -> Flow;
    /// An input line of `bytes` bytes was too long and is dropped.
    fn line_too_long(&mut self, session: &mut EngineSession, bytes: usize);
    /// Prints `message` as this protocol's error line.
    fn report_error(&self, session: &EngineSession, message: &str);
    /// Handling `line` failed inside the engine with `message`; the loop goes on.
    fn internal_error(&mut self, session: &mut EngineSession, line: &str, message: &str) {
        let what = format!(
            "internal error while handling '{}': {message}; the engine keeps serving",
            crate::uci::output::one_line(line)
        );
        self.report_error(session, &what);
    }
    /// The dialogue ends (`quit` or the end of input): stop what runs.
    fn end(&mut self, session: &mut EngineSession);
}

/// Serves `protocol` on `input` until `quit` or the end of input.
pub fn serve(input: &mut dyn BufRead, mut session: EngineSession, mut protocol: Box<dyn Protocol>) {
    loop {
        match read_line(input) {
            Ok(Some(Line::Text(line))) => {
                session.out().log_input(&line);
                log::debug!("input: {line}");
                match panic::catch_unwind(AssertUnwindSafe(|| protocol.handle_line(&mut session, &line))) {
                    Ok(Flow::Continue) => {}
                    Ok(Flow::Quit) => break,
                    Ok(Flow::Switch(next)) => protocol = next,
                    Err(e) => protocol.internal_error(&mut session, &line, panic_text(e.as_ref())),
                }
            }
            Ok(Some(Line::TooLong(n))) => protocol.line_too_long(&mut session, n),
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
    protocol.end(&mut session);
}
