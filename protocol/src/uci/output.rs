//! The one place that writes to stdout and stderr. [`Output`]: whole protocol lines on stdout,
//! flushed one by one, shared by the input loop and the search thread, optionally copied to the
//! `Debug Log File`. It knows no protocol: each adapter formats its notes and errors itself.
//!
//! A failed write to stdout or stderr never panics: it ends the program at once and quietly
//! with [`status::CLOSED_OUTPUT`] (the reader of a pipe went away) or [`status::WRITE_FAILED`]
//! (any other write error), since nobody is left to read what the program would say.

use crate::status;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
pub use vorpal_uci_text::format::one_line;

/// Ends the program after a failed write to stdout or stderr.
fn end_after_write_error(error: &io::Error) -> ! {
    let status = if error.kind() == io::ErrorKind::BrokenPipe {
        status::CLOSED_OUTPUT
    } else {
        status::WRITE_FAILED
    };
    std::process::exit(status)
}

/// A writer on stdout or stderr that ends the program when a write fails (instead of the
/// panic of `println!`, which aborts a release build).
pub struct StdStream<W>(pub W);

impl<W: Write> Write for StdStream<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.0.write(buf) {
            Err(e) if e.kind() != io::ErrorKind::Interrupted => end_after_write_error(&e),
            result => result,
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.0.flush() {
            Err(e) if e.kind() != io::ErrorKind::Interrupted => end_after_write_error(&e),
            result => result,
        }
    }
}

/// Writes `text` to stdout as it is (the caller adds newlines); a failed write ends the program.
pub fn to_stdout(text: &str) {
    let mut out = StdStream(io::stdout().lock());
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// Writes `text` to stderr as it is (the caller adds newlines); a failed write ends the program.
pub fn to_stderr(text: &str) {
    let mut err = StdStream(io::stderr().lock());
    let _ = err.write_all(text.as_bytes()).and_then(|()| err.flush());
}

/// A cloneable handle on the output stream. Every clone writes to the same sink; lines from
/// different threads never interleave.
#[derive(Clone)]
pub struct Output {
    inner: Arc<Mutex<Inner>>,
    errors: Arc<AtomicUsize>,
}

struct Inner {
    sink: Box<dyn Write + Send>,
    log: Option<File>,
}

impl Output {
    /// Output to the process's stdout (a failed write ends the program).
    pub fn stdout() -> Output {
        Output::to(Box::new(StdStream(io::stdout())))
    }

    /// Output to any writer (tests use a shared buffer).
    pub fn to(sink: Box<dyn Write + Send>) -> Output {
        Output {
            inner: Arc::new(Mutex::new(Inner { sink, log: None })),
            errors: Arc::new(AtomicUsize::new(0)),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while holding the lock cannot leave the writer in a bad state: keep going.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Writes one line (a trailing newline is added) and flushes.
    pub fn line(&self, text: &str) {
        self.lines(text);
    }

    /// Writes every line of `text` under one lock, flushing after each line, so a block
    /// (a diagram, a perft listing) is never split by search output. Trailing spaces are
    /// removed: the protocol never ends a line with a space.
    pub fn lines(&self, text: &str) {
        let mut inner = self.lock();
        for line in text.lines() {
            let line = line.trim_end();
            // On stdout a failed write has ended the program already; other sinks are tests.
            let _ = writeln!(inner.sink, "{line}");
            let _ = inner.sink.flush();
            if let Some(log) = inner.log.as_mut() {
                let _ = writeln!(log, "<< {line}");
            }
        }
        if let Some(log) = inner.log.as_mut() {
            let _ = log.flush();
        }
    }

    /// Writes a line that answers a bad input (already in the protocol's dialect) and counts it.
    pub fn error_line(&self, text: &str) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        log::debug!("error answered: {text}");
        self.line(text);
    }

    /// Number of error lines written so far (the command-line mode's exit status uses it).
    pub fn error_count(&self) -> usize {
        self.errors.load(Ordering::Relaxed)
    }

    /// Records an input line in the debug log (as `>> line`).
    pub fn log_input(&self, line: &str) {
        let mut inner = self.lock();
        if let Some(log) = inner.log.as_mut() {
            let _ = writeln!(log, ">> {line}");
            let _ = log.flush();
        }
    }

    /// Starts (or, with an empty path, stops) copying the dialogue to a file, appending.
    pub fn set_log_file(&self, path: &str) -> io::Result<()> {
        let file = if path.is_empty() {
            None
        } else {
            Some(OpenOptions::new().create(true).append(true).open(path)?)
        };
        self.lock().log = file;
        Ok(())
    }
}

/// A writer that appends to a shared buffer (unit tests of the protocol logic, and the fuzz
/// doors' sessions).
#[derive(Clone, Default)]
pub struct Capture(pub Arc<Mutex<Vec<u8>>>);

impl Capture {
    /// Everything written so far.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap_or_else(|p| p.into_inner())).into_owned()
    }
}

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_trimmed_and_errors_counted() {
        let cap = Capture::default();
        let out = Output::to(Box::new(cap.clone()));
        out.lines("a  \nb");
        out.error_line("bad thing");
        assert_eq!(cap.text(), "a\nb\nbad thing\n");
        assert_eq!(out.error_count(), 1);
    }

    #[test]
    fn one_line_cuts_long_text() {
        let long = "x".repeat(500);
        assert_eq!(one_line(&long).len(), 203);
    }
}
