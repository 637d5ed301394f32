//! An engine's standard output read as bounded lines.
//!
//! Engines are other people's programs, so their output is not trusted: a line longer than
//! [`MAX_LINE`] bytes is cut to that length (the rest is dropped, the cut is counted), bytes that
//! are not UTF-8 are read lossily (as U+FFFD) instead of ending the connection, and the channel
//! to the reader is bounded, so an engine that floods its output is slowed down by the pipe
//! rather than filling memory.

use std::io::{BufRead, BufReader, ErrorKind, Read};
use std::sync::mpsc::SyncSender;
use std::time::Instant;

/// Longest output line kept, in bytes; longer lines are cut to this length and reported.
pub const MAX_LINE: usize = 64 * 1024;

/// Lines read ahead of the client at most (then the engine waits on its pipe).
pub const QUEUE: usize = 256;

/// One line of engine output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputLine {
    /// When the line arrived.
    pub at: Instant,
    /// The text (lossily decoded, without the line end, at most [`MAX_LINE`] bytes of input).
    pub text: String,
    /// Bytes dropped from the end of an overlong line (0 for a whole line).
    pub cut: usize,
    /// True when the line held bytes that are not UTF-8.
    pub lossy: bool,
}

/// Reads `output` to its end, sending each line; stops early when the receiver is gone.
pub fn send_lines(output: impl Read, lines: SyncSender<OutputLine>) {
    read_lines(output, |line| lines.send(line).is_ok());
}

/// Reads `output` to its end, passing each line to `sink`; stops early when `sink` says false.
pub fn read_lines(output: impl Read, mut sink: impl FnMut(OutputLine) -> bool) {
    let mut reader = BufReader::with_capacity(MAX_LINE, output);
    let mut line: Vec<u8> = Vec::new();
    let mut cut = 0usize;
    loop {
        let buf = match reader.fill_buf() {
            Ok([]) => break,
            Ok(buf) => buf,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let end = buf.iter().position(|&b| b == b'\n');
        let chunk = &buf[..end.unwrap_or(buf.len())];
        let room = MAX_LINE - line.len();
        let kept = chunk.len().min(room);
        line.extend_from_slice(&chunk[..kept]);
        cut += chunk.len() - kept;
        let used = chunk.len() + usize::from(end.is_some());
        reader.consume(used);
        if end.is_some() && !sink(finish(&mut line, &mut cut)) {
            return;
        }
    }
    if !line.is_empty() || cut > 0 {
        sink(finish(&mut line, &mut cut));
    }
}

/// The line read so far as an [`OutputLine`]; clears the buffer.
fn finish(line: &mut Vec<u8>, cut: &mut usize) -> OutputLine {
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    let (text, lossy) = match String::from_utf8(std::mem::take(line)) {
        Ok(text) => (text, false),
        Err(e) => (String::from_utf8_lossy(e.as_bytes()).into_owned(), true),
    };
    OutputLine {
        at: Instant::now(),
        text,
        cut: std::mem::take(cut),
        lossy,
    }
}

/// What went wrong with an engine's output so far, reported once per kind.
#[derive(Clone, Debug, Default)]
pub struct OutputProblems {
    /// Lines cut to [`MAX_LINE`].
    pub cut_lines: u64,
    /// Lines with bytes that are not UTF-8.
    pub lossy_lines: u64,
    pending: Vec<String>,
}

impl OutputProblems {
    /// Counts the problems of `line`; the first of each kind becomes a warning for the client.
    pub fn note(&mut self, engine: &str, line: &OutputLine) {
        if line.cut > 0 {
            if self.cut_lines == 0 {
                self.pending.push(format!(
                    "{engine} sent a line of {} bytes; it was cut to {MAX_LINE} (longer lines are cut)",
                    line.text.len() + line.cut
                ));
            }
            self.cut_lines += 1;
        }
        if line.lossy {
            if self.lossy_lines == 0 {
                self.pending
                    .push(format!("{engine} sent bytes that are not UTF-8; they were replaced"));
            }
            self.lossy_lines += 1;
        }
    }

    /// The warnings not yet taken (each kind is reported once).
    pub fn take(&mut self) -> Vec<String> {
        std::mem::take(&mut self.pending)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    fn read_all(bytes: &[u8]) -> Vec<OutputLine> {
        let (tx, rx) = mpsc::sync_channel(QUEUE);
        let input = bytes.to_vec();
        let reader = std::thread::spawn(move || send_lines(&input[..], tx));
        let lines: Vec<OutputLine> = rx.iter().collect();
        reader.join().unwrap();
        lines
    }

    #[test]
    fn whole_lines_and_line_ends() {
        let lines = read_all(b"uciok\r\nreadyok\nlast");
        let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, ["uciok", "readyok", "last"]);
        assert!(lines.iter().all(|l| l.cut == 0 && !l.lossy));
    }

    #[test]
    fn overlong_lines_are_cut_and_counted() {
        let mut input = vec![b'x'; 3 * MAX_LINE + 17];
        input.extend_from_slice(b"\nbestmove e2e4\n");
        let lines = read_all(&input);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].text.len(), MAX_LINE);
        assert_eq!(lines[0].cut, 2 * MAX_LINE + 17);
        assert_eq!(lines[1].text, "bestmove e2e4");
        let mut problems = OutputProblems::default();
        problems.note("E", &lines[0]);
        problems.note("E", &lines[0]);
        let warnings = problems.take();
        assert_eq!(warnings.len(), 1, "one warning per kind: {warnings:?}");
        assert!(warnings[0].contains("cut"), "{warnings:?}");
        assert_eq!(problems.cut_lines, 2);
        assert!(problems.take().is_empty());
    }

    #[test]
    fn bytes_that_are_not_utf8_are_replaced() {
        let lines = read_all(b"id name \xff\xfeBad\ninfo depth 1\n");
        assert_eq!(lines[0].text, "id name \u{fffd}\u{fffd}Bad");
        assert!(lines[0].lossy && !lines[1].lossy);
    }
}
