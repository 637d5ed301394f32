//! One connection: requests read one after another (keep-alive) within the limits, each checked
//! by the handler before its body is read, then answered. Any limit broken ends the connection
//! after a short answer (408, 411, 413, 431, 400); a client that goes away only ends its thread.

use super::message::{head_end, parse_head, reason, Request, Response};
use super::{Handler, Limits};
use crate::uci::panics::panic_text;
use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// How one read ended.
enum Got {
    Bytes,
    Closed,
    TimedOut,
}

/// Reads once into `buf`, waiting until `deadline` at most.
fn read_some(stream: &TcpStream, buf: &mut Vec<u8>, deadline: Instant) -> Got {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Got::TimedOut;
    }
    if stream
        .set_read_timeout(Some(left.max(Duration::from_millis(1))))
        .is_err()
    {
        return Got::Closed;
    }
    let mut chunk = [0u8; 8192];
    loop {
        return match (&mut &*stream).read(&mut chunk) {
            Ok(0) => Got::Closed,
            Ok(n) => {
                buf.extend_from_slice(&chunk[..n]);
                Got::Bytes
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => Got::TimedOut,
            Err(_) => Got::Closed,
        };
    }
}

/// The outcome of waiting for a request head.
enum Head {
    /// The head's bytes (the rest of `buf` is the body or the next request).
    Complete(Vec<u8>),
    /// The client closed or stayed silent: end quietly.
    Gone,
    /// A limit was broken: answer this and close.
    Refused(u16, &'static str),
}

fn read_head(stream: &TcpStream, buf: &mut Vec<u8>, limits: &Limits) -> Head {
    let idle_deadline = Instant::now() + limits.idle_timeout;
    let mut deadline = idle_deadline;
    let mut started = !buf.is_empty();
    if started {
        deadline = Instant::now() + limits.head_timeout;
    }
    loop {
        if let Some((head, whole)) = head_end(buf) {
            if head > limits.max_head {
                return Head::Refused(431, "request header fields too large");
            }
            let bytes = buf[..head].to_vec();
            buf.drain(..whole);
            return Head::Complete(bytes);
        }
        if buf.len() > limits.max_head {
            return Head::Refused(431, "request header fields too large");
        }
        match read_some(stream, buf, deadline) {
            Got::Bytes if !started => {
                started = true;
                deadline = Instant::now() + limits.head_timeout;
            }
            Got::Bytes => {}
            Got::Closed => return Head::Gone,
            Got::TimedOut if started => return Head::Refused(408, "the request head came too slowly"),
            Got::TimedOut => return Head::Gone,
        }
    }
}

/// Reads a body of `len` bytes (some may be in `buf` already) within the body timeout.
fn read_body(stream: &TcpStream, buf: &mut Vec<u8>, len: usize, limits: &Limits) -> Option<Vec<u8>> {
    let deadline = Instant::now() + limits.body_timeout;
    while buf.len() < len {
        match read_some(stream, buf, deadline) {
            Got::Bytes => {}
            Got::Closed | Got::TimedOut => return None,
        }
    }
    Some(buf.drain(..len).collect())
}

/// Writes `response`; false when the client has gone.
fn write_response(stream: &TcpStream, response: &Response, keep_alive: bool, limits: &Limits) -> bool {
    let mut out = format!("HTTP/1.1 {} {}\r\n", response.status, reason(response.status));
    for (name, value) in limits.headers.iter().chain(&response.headers) {
        out.push_str(&format!("{name}: {value}\r\n"));
    }
    out.push_str(&format!(
        "Content-Length: {}\r\nConnection: {}\r\n\r\n",
        response.body.len(),
        if keep_alive { "keep-alive" } else { "close" }
    ));
    let mut bytes = out.into_bytes();
    bytes.extend_from_slice(&response.body);
    let _ = stream.set_write_timeout(Some(limits.write_timeout));
    (&mut &*stream).write_all(&bytes).is_ok()
}

/// Answers a broken limit and closes, reading (and dropping) what the client still sends for a
/// moment, so that it sees the answer rather than a reset connection.
fn refuse(stream: &TcpStream, status: u16, text: &str, limits: &Limits) {
    if write_response(stream, &Response::text(status, text), false, limits) {
        linger(stream, limits);
    }
}

/// Closes our side, then reads and drops what the client still sends for a moment.
fn linger(stream: &TcpStream, limits: &Limits) {
    let _ = stream.shutdown(Shutdown::Write);
    let deadline = Instant::now() + Duration::from_millis(500);
    let mut drained = 0usize;
    let mut sink = Vec::new();
    while drained < 4 * limits.max_body {
        sink.clear();
        match read_some(stream, &mut sink, deadline) {
            Got::Bytes => drained += sink.len(),
            _ => break,
        }
    }
}

/// Runs a handler call, turning a panic into a 500 answer: one request's bug never ends the
/// server (the release profile unwinds for this; locks the handler held recover from poison).
fn guarded<T>(call: impl FnOnce() -> T) -> Result<T, Response> {
    panic::catch_unwind(AssertUnwindSafe(call)).map_err(|e| {
        log::error!("a request handler panicked: {}", panic_text(e.as_ref()));
        Response::text(
            500,
            "internal error: the server caught a fault in this request and goes on",
        )
    })
}

/// Serves requests on `stream` until it closes or breaks a limit.
pub fn serve(stream: &TcpStream, peer: SocketAddr, handler: &dyn Handler, limits: &Limits, idle: &dyn Fn(bool)) {
    let _ = stream.set_nodelay(true);
    let mut buf = Vec::new();
    loop {
        idle(true);
        let head = match read_head(stream, &mut buf, limits) {
            Head::Complete(h) => h,
            Head::Gone => return,
            Head::Refused(status, text) => return refuse(stream, status, text, limits),
        };
        idle(false);
        let mut request: Request = match parse_head(&head, peer) {
            Ok(r) => r,
            Err((status, text)) => return refuse(stream, status, text, limits),
        };
        if request.header("transfer-encoding").is_some() {
            return refuse(stream, 411, "send the body with Content-Length", limits);
        }
        let Ok(len) = request.content_length() else {
            return refuse(stream, 400, "bad Content-Length", limits);
        };
        let len = len.unwrap_or(0);
        let keep_alive = request.keep_alive();
        let checked = match guarded(|| handler.check(&request)) {
            Ok(c) => c,
            Err(answer) => {
                if write_response(stream, &answer, false, limits) {
                    linger(stream, limits);
                }
                return;
            }
        };
        if let Some(answer) = checked {
            // A body not read cannot be skipped safely: close unless there is none.
            let keep = keep_alive && len == 0;
            let written = write_response(stream, &answer, keep, limits);
            if written && keep {
                continue;
            }
            if written {
                linger(stream, limits);
            }
            return;
        }
        if len > limits.max_body {
            let text = format!(
                "request body too large: {} KiB, the server takes at most {} KiB",
                len.div_ceil(1024),
                limits.max_body / 1024
            );
            return refuse(stream, 413, &text, limits);
        }
        let expects = request
            .header("expect")
            .is_some_and(|v| v.eq_ignore_ascii_case("100-continue"));
        if expects && len > buf.len() && (&mut &*stream).write_all(b"HTTP/1.1 100 Continue\r\n\r\n").is_err() {
            return;
        }
        request.body = match read_body(stream, &mut buf, len, limits) {
            Some(b) => b,
            None => return refuse(stream, 408, "the request body came too slowly", limits),
        };
        let (answer, keep_alive) = match guarded(|| handler.handle(&request)) {
            Ok(answer) => (answer, keep_alive),
            Err(answer) => (answer, false),
        };
        if !write_response(stream, &answer, keep_alive, limits) || !keep_alive {
            return;
        }
    }
}
