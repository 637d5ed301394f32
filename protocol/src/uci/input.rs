//! Reading protocol input: lines of any bytes (invalid UTF-8 is replaced, not fatal), with a
//! cap on line length so a runaway writer cannot exhaust memory.

use std::io::{self, BufRead};

/// Longest line kept, in bytes (a 2,000-ply move list is about 10 KB). The rest of a longer
/// line is read and dropped.
pub const MAX_LINE: usize = 1 << 20;

/// One line of input.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A line (without its `\n` / `\r\n`), invalid UTF-8 replaced by U+FFFD.
    Text(String),
    /// A line longer than [`MAX_LINE`] bytes; its length in bytes.
    TooLong(usize),
}

/// Reads the next line; `Ok(None)` at end of input. A last line without a newline counts.
pub fn read_line(reader: &mut dyn BufRead) -> io::Result<Option<Line>> {
    let mut bytes = Vec::new();
    let mut total = 0usize;
    let mut any = false;
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        total += chunk.len();
        if bytes.len() < MAX_LINE {
            let room = MAX_LINE - bytes.len();
            bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
        }
        let used = done.unwrap_or(chunk.len());
        reader.consume(used);
        if done.is_some() {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if total > MAX_LINE {
        return Ok(Some(Line::TooLong(total)));
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    Ok(Some(Line::Text(String::from_utf8_lossy(&bytes).into_owned())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_lines_and_replaces_bad_bytes() {
        let data: &[u8] = b"uci\r\nis\xffready\nlast";
        let mut r = io::BufReader::with_capacity(4, data);
        assert_eq!(read_line(&mut r).unwrap(), Some(Line::Text("uci".into())));
        assert_eq!(read_line(&mut r).unwrap(), Some(Line::Text("is\u{fffd}ready".into())));
        assert_eq!(read_line(&mut r).unwrap(), Some(Line::Text("last".into())));
        assert_eq!(read_line(&mut r).unwrap(), None);
    }

    #[test]
    fn long_lines_are_dropped_whole() {
        let mut data = vec![b'x'; MAX_LINE + 10];
        data.extend_from_slice(b"\nisready\n");
        let mut r = io::BufReader::new(&data[..]);
        assert_eq!(read_line(&mut r).unwrap(), Some(Line::TooLong(MAX_LINE + 10)));
        assert_eq!(read_line(&mut r).unwrap(), Some(Line::Text("isready".into())));
    }
}
