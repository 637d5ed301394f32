//! The one place that writes to stdout: whole lines, flushed one by one, shared by the input
//! loop and the search thread, optionally copied to the `Debug Log File`. Notes and errors are
//! written in the dialect in force: UCI `info string ...` or, after `xboard`, CECP (`# ...`
//! comments and `tellusererror ...`).

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// A cloneable handle on the output stream. Every clone writes to the same sink; lines from
/// different threads never interleave.
#[derive(Clone)]
pub struct Output {
    inner: Arc<Mutex<Inner>>,
    errors: Arc<AtomicUsize>,
    cecp: Arc<AtomicBool>,
}

struct Inner {
    sink: Box<dyn Write + Send>,
    log: Option<File>,
}

impl Output {
    /// Output to the process's stdout.
    pub fn stdout() -> Output {
        Output::to(Box::new(io::stdout()))
    }

    /// Output to any writer (tests use a shared buffer).
    pub fn to(sink: Box<dyn Write + Send>) -> Output {
        Output {
            inner: Arc::new(Mutex::new(Inner { sink, log: None })),
            errors: Arc::new(AtomicUsize::new(0)),
            cecp: Arc::new(AtomicBool::new(false)),
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
            // Write errors (a closed pipe) are ignored: the end of input will end the loop.
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

    /// Switches every clone to the CECP (XBoard) dialect for notes and errors.
    pub fn set_cecp(&self, on: bool) {
        self.cecp.store(on, Ordering::Relaxed);
    }

    /// True in the CECP dialect.
    pub fn is_cecp(&self) -> bool {
        self.cecp.load(Ordering::Relaxed)
    }

    /// A note: `info string <message>` (CECP: `# <message>`, a comment the GUI ignores).
    pub fn info_string(&self, message: &str) {
        if self.is_cecp() {
            self.line(&format!("# {}", one_line(message)));
        } else {
            self.line(&format!("info string {}", one_line(message)));
        }
    }

    /// `info string error <message>`: the one answer to every bad input (CECP:
    /// `tellusererror <message>`, shown by the GUI in an error dialog).
    pub fn error(&self, message: &str) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        log::debug!("error answered: {message}");
        if self.is_cecp() {
            self.line(&format!("tellusererror {}", one_line(message)));
        } else {
            self.line(&format!("info string error {}", one_line(message)));
        }
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

/// Makes `text` safe to print as one protocol line: control characters and replaced invalid
/// UTF-8 become `?`, and the text is cut (with `...`) beyond 200 characters.
pub fn one_line(text: &str) -> String {
    const MAX: usize = 200;
    let mut out: String = text
        .chars()
        .take(MAX)
        .map(|c| {
            if c.is_control() || c == char::REPLACEMENT_CHARACTER {
                '?'
            } else {
                c
            }
        })
        .collect();
    if text.chars().nth(MAX).is_some() {
        out.push_str("...");
    }
    out.trim_end().to_string()
}

/// A writer that appends to a shared buffer (for unit tests of the protocol logic).
#[cfg(test)]
#[derive(Clone, Default)]
pub struct Capture(pub Arc<Mutex<Vec<u8>>>);

#[cfg(test)]
impl Capture {
    /// Everything written so far.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

#[cfg(test)]
impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
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
        out.error("bad\u{0}thing");
        assert_eq!(cap.text(), "a\nb\ninfo string error bad?thing\n");
        assert_eq!(out.error_count(), 1);
    }

    #[test]
    fn one_line_cuts_long_text() {
        let long = "x".repeat(500);
        assert_eq!(one_line(&long).len(), 203);
    }
}
