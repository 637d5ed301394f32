//! A small HTTP/1.1 server over `std::net`, bounded in every resource a client controls.
//!
//! The one door is [`serve`]: it accepts connections and answers each on its own thread with a
//! [`Handler`]. The limits ([`Limits`]): a cap on open connections (at the cap the connection
//! idle longest is closed, so idle sockets never lock out a page; if the system runs out of file
//! handles the same happens and accepting pauses briefly, never crashing or spinning), time
//! limits for an idle connection, a request head, a body and a write, a size limit for the head
//! (431) and the body (413), bodies only with `Content-Length`. Every response carries the
//! configured fixed headers. A handler sees each request twice: [`Handler::check`] before the
//! body is read (to refuse it cheaply), then [`Handler::handle`] with the body.

mod connection;
mod message;
mod registry;

pub use message::{parse_head, Request, Response};

use registry::Registry;
use std::net::TcpListener;
use std::sync::Arc;
use std::thread;
use std::time::Duration;

/// Stack of a connection thread (the handlers need little; hundreds of connections may be open).
const STACK: usize = 512 * 1024;

/// What a server lets one client use.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Connections open at once.
    pub max_connections: usize,
    /// Bytes of one request head.
    pub max_head: usize,
    /// Bytes of one request body.
    pub max_body: usize,
    /// How long a connection may wait for the first byte of its next request.
    pub idle_timeout: Duration,
    /// How long a request head may take from its first byte.
    pub head_timeout: Duration,
    /// How long a request body may take.
    pub body_timeout: Duration,
    /// How long writing one response may take.
    pub write_timeout: Duration,
    /// Header fields sent with every response.
    pub headers: Vec<(String, String)>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_connections: connection_cap(),
            max_head: 16 * 1024,
            max_body: 1 << 20,
            idle_timeout: Duration::from_secs(15),
            head_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            write_timeout: Duration::from_secs(10),
            headers: Vec::new(),
        }
    }
}

/// The connection cap: 1000, or less when the process may open fewer files (128 handles are
/// kept for the engines' pipes and the rest).
fn connection_cap() -> usize {
    let soft = std::fs::read_to_string("/proc/self/limits").ok().and_then(|text| {
        let line = text.lines().find(|l| l.starts_with("Max open files"))?;
        line.split_whitespace().nth(3)?.parse::<usize>().ok()
    });
    match soft {
        Some(n) => n.saturating_sub(128).clamp(16, 1000),
        None => 1000,
    }
}

/// Answers requests.
pub trait Handler: Send + Sync + 'static {
    /// Looks at a request before its body is read (`request.body` is empty); an answer here is
    /// final and the body is never read.
    fn check(&self, request: &Request) -> Option<Response>;
    /// Answers a request that passed [`Handler::check`], its body read.
    fn handle(&self, request: &Request) -> Response;
}

/// Serves connections from `listener` with `handler` for as long as the process runs.
pub fn serve(listener: TcpListener, limits: Limits, handler: Arc<dyn Handler>) {
    let registry = Arc::new(Registry::new(limits.max_connections));
    let limits = Arc::new(limits);
    loop {
        let (stream, peer) = match listener.accept() {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file handles (or another passing failure): free the oldest idle
                // connection and pause, so the loop never spins.
                log::warn!("accept failed: {e}");
                registry.evict_oldest_idle();
                thread::sleep(Duration::from_millis(50));
                continue;
            }
        };
        let stream = Arc::new(stream);
        let Some(id) = registry.admit(&stream) else {
            log::warn!("every connection busy; refusing {peer}");
            continue;
        };
        let (reg, lim, han, conn) = (registry.clone(), limits.clone(), handler.clone(), stream.clone());
        let spawned = thread::Builder::new()
            .name("gui-http".into())
            .stack_size(STACK)
            .spawn(move || {
                connection::serve(&conn, peer, han.as_ref(), &lim, &|idle| reg.set_idle(id, idle));
                reg.remove(id);
            });
        if spawned.is_err() {
            registry.remove(id);
            thread::sleep(Duration::from_millis(10));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::net::TcpStream;

    /// A handler with a fault injected: `/check-panic` panics before the body is read,
    /// `/panic` while answering; everything else is answered 200.
    struct Faulty;

    impl Handler for Faulty {
        fn check(&self, request: &Request) -> Option<Response> {
            assert!(request.path() != "/check-panic", "fault injected in check");
            None
        }
        fn handle(&self, request: &Request) -> Response {
            assert!(request.path() != "/panic", "fault injected in handle");
            Response::text(200, "alive")
        }
    }

    fn ask(port: u16, path: &str) -> String {
        let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        write!(s, "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").unwrap();
        let mut answer = String::new();
        let _ = s.read_to_string(&mut answer);
        answer
    }

    /// A panic in a handler (the kind of bug the PGN import had) answers that one request
    /// with 500 and leaves the server serving every other.
    #[test]
    fn a_panicking_handler_leaves_the_server_answering() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        thread::spawn(move || serve(listener, Limits::default(), Arc::new(Faulty)));
        for _ in 0..3 {
            for path in ["/panic", "/check-panic"] {
                let answer = ask(port, path);
                assert!(answer.starts_with("HTTP/1.1 500 "), "{path}: {answer}");
                assert!(answer.contains("internal error"), "{answer}");
            }
            assert!(ask(port, "/").starts_with("HTTP/1.1 200 "));
        }
    }
}
