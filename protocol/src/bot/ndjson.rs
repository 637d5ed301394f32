//! Newline-delimited JSON streams: whole lines from a byte stream, empty keep-alive lines
//! skipped, a line longer than a bound refused (a broken or hostile server cannot make the bot
//! buffer without end), and each line decoded into the message type the caller asks for.

use serde::de::DeserializeOwned;
use std::io::{BufRead, BufReader, ErrorKind, Read};

/// The longest line accepted (a `gameFull` of a very long game is a few kB).
pub const MAX_LINE: usize = 1 << 20;

/// What a stream gives next.
#[derive(Debug, PartialEq)]
pub enum Next<T> {
    /// A message.
    Message(T),
    /// A line that is not such a message (its text, and why): logged and skipped.
    Unreadable(String, String),
    /// The server closed the stream.
    End,
}

/// Reads lines from `R`.
pub struct LineReader<R: Read> {
    reader: BufReader<R>,
}

impl<R: Read> LineReader<R> {
    /// Lines of `inner`.
    pub fn new(inner: R) -> LineReader<R> {
        LineReader {
            reader: BufReader::new(inner),
        }
    }

    /// The next non-empty line without its line end; `None` at the end of the stream. An error
    /// says whether the stream went quiet (the read timeout) or broke.
    pub fn next_line(&mut self) -> Result<Option<String>, String> {
        loop {
            let mut buf = Vec::new();
            let n = (&mut self.reader)
                .take(MAX_LINE as u64 + 1)
                .read_until(b'\n', &mut buf)
                .map_err(|e| match e.kind() {
                    ErrorKind::TimedOut | ErrorKind::WouldBlock => "the stream went quiet".to_string(),
                    _ => format!("the stream broke: {e}"),
                })?;
            if n == 0 {
                return Ok(None);
            }
            if buf.len() > MAX_LINE {
                return Err(format!("a line longer than {MAX_LINE} bytes"));
            }
            let text = String::from_utf8_lossy(&buf).trim().to_string();
            if !text.is_empty() {
                return Ok(Some(text));
            }
        }
    }

    /// The next message decoded as `T`.
    pub fn next<T: DeserializeOwned>(&mut self) -> Result<Next<T>, String> {
        Ok(match self.next_line()? {
            None => Next::End,
            Some(line) => match serde_json::from_str::<T>(&line) {
                Ok(msg) => Next::Message(msg),
                Err(e) => Next::Unreadable(line, e.to_string()),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::wire::GameEvent;

    #[test]
    fn lines_messages_and_the_end() {
        let text =
            "\n{\"type\":\"ping\"}\n\n{\"type\":\"gameEnd\",\"game\":{\"id\":\"x\"}}\r\nnot json\n{\"type\":\"ping\"}";
        let mut r = LineReader::new(text.as_bytes());
        assert_eq!(r.next::<GameEvent>().unwrap(), Next::Message(GameEvent::Ping));
        assert!(matches!(
            r.next::<GameEvent>().unwrap(),
            Next::Message(GameEvent::GameEnd { .. })
        ));
        assert!(matches!(r.next::<GameEvent>().unwrap(), Next::Unreadable(line, _) if line == "not json"));
        assert_eq!(r.next::<GameEvent>().unwrap(), Next::Message(GameEvent::Ping));
        assert_eq!(r.next::<GameEvent>().unwrap(), Next::End);
    }

    #[test]
    fn an_endless_line_is_refused() {
        let long = vec![b'x'; MAX_LINE + 10];
        let mut r = LineReader::new(long.as_slice());
        assert!(r.next_line().unwrap_err().contains("longer"));
    }

    struct Quiet;
    impl Read for Quiet {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::new(ErrorKind::TimedOut, "timeout"))
        }
    }

    #[test]
    fn a_quiet_stream_is_an_error() {
        assert_eq!(LineReader::new(Quiet).next_line().unwrap_err(), "the stream went quiet");
    }
}
