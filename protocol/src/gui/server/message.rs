//! Requests and responses as the server hands them to its handler, and the reading of a request
//! head (request line and header fields) within the size limits.

use std::net::SocketAddr;

/// Header fields in one request head at most (more: 431).
pub const MAX_FIELDS: usize = 100;

/// One HTTP request.
#[derive(Clone, Debug)]
pub struct Request {
    /// `GET`, `POST`, ...
    pub method: String,
    /// The request target as sent: path and query (`/api/state?sid=..`).
    pub target: String,
    /// Header fields, names in lower case, in order.
    pub headers: Vec<(String, String)>,
    /// The body (empty while the handler's check runs, before it is read).
    pub body: Vec<u8>,
    /// The client's address.
    pub peer: SocketAddr,
    /// HTTP/1.1 (else HTTP/1.0).
    pub http11: bool,
}

impl Request {
    /// The value of header `name` (any case); the first one when repeated.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// All values of header `name`.
    pub fn headers_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.headers
            .iter()
            .filter(move |(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The path part of the target.
    pub fn path(&self) -> &str {
        self.target.split(['?', '#']).next().unwrap_or("")
    }

    /// The raw value of query parameter `key`, if present.
    pub fn query(&self, key: &str) -> Option<&str> {
        let q = self.target.split_once('?')?.1.split('#').next()?;
        q.split('&')
            .filter_map(|kv| kv.split_once('='))
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v)
    }

    /// The body length announced by `Content-Length`: Ok(None) without one, Err for a bad or
    /// contradictory value.
    pub fn content_length(&self) -> Result<Option<usize>, ()> {
        let mut found: Option<usize> = None;
        for v in self.headers_named("content-length") {
            let v = v.trim();
            if v.is_empty() || v.len() > 18 || !v.bytes().all(|b| b.is_ascii_digit()) {
                return Err(());
            }
            let n: usize = v.parse().map_err(|_| ())?;
            if found.is_some_and(|f| f != n) {
                return Err(());
            }
            found = Some(n);
        }
        Ok(found)
    }

    /// True when the client asked to keep the connection open afterwards.
    pub fn keep_alive(&self) -> bool {
        let tokens = |v: &str, t: &str| v.split(',').any(|x| x.trim().eq_ignore_ascii_case(t));
        let conn = self.header("connection").unwrap_or("");
        if self.http11 {
            !tokens(conn, "close")
        } else {
            tokens(conn, "keep-alive")
        }
    }
}

/// One HTTP response.
#[derive(Clone, Debug)]
pub struct Response {
    /// Status code.
    pub status: u16,
    /// Header fields (besides `Content-Length`, `Connection` and the server's fixed ones).
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Response {
    /// A response with `body` of type `content_type`.
    pub fn new(status: u16, content_type: &str, body: Vec<u8>) -> Response {
        Response {
            status,
            headers: vec![("Content-Type".into(), content_type.into())],
            body,
        }
    }

    /// A plain-text response.
    pub fn text(status: u16, body: &str) -> Response {
        Response::new(status, "text/plain; charset=utf-8", body.as_bytes().to_vec())
    }

    /// The response with one more header field.
    pub fn with(mut self, name: &str, value: &str) -> Response {
        self.headers.push((name.into(), value.into()));
        self
    }
}

/// The reason phrase of a status code.
pub fn reason(status: u16) -> &'static str {
    match status {
        100 => "Continue",
        200 => "OK",
        204 => "No Content",
        303 => "See Other",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        410 => "Gone",
        411 => "Length Required",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "Unknown",
    }
}

/// Why a request head was refused: the status and the text for the client.
pub type HeadError = (u16, &'static str);

/// Parses a complete request head (without the blank line that ends it).
/// Header fields a request may carry once: two `Host` fields must get 400 (RFC 9112 §3.2), and
/// two of the others would leave it open which one the checks read.
const SINGLETONS: [&str; 9] = [
    "host",
    "content-length",
    "transfer-encoding",
    "authorization",
    "origin",
    "cookie",
    "content-type",
    "sec-fetch-site",
    "referer",
];

pub fn parse_head(head: &[u8], peer: SocketAddr) -> Result<Request, HeadError> {
    let text = std::str::from_utf8(head).map_err(|_| (400, "the request head is not UTF-8"))?;
    let mut lines = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    let first = lines.next().unwrap_or("");
    let mut parts = first.split(' ');
    let (Some(method), Some(target), Some(version), None) = (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err((400, "malformed request line"));
    };
    if method.is_empty() || !method.bytes().all(|b| b.is_ascii_uppercase()) {
        return Err((400, "malformed method"));
    }
    if !target.starts_with('/') || target.bytes().any(|b| b <= b' ' || b == 0x7f) {
        return Err((400, "malformed request target"));
    }
    let http11 = match version {
        "HTTP/1.1" => true,
        "HTTP/1.0" => false,
        _ => return Err((505, "only HTTP/1.0 and HTTP/1.1 are spoken here")),
    };
    let mut headers = Vec::new();
    for line in lines {
        if line.is_empty() {
            continue;
        }
        if line.starts_with([' ', '\t']) {
            return Err((400, "folded header lines are not accepted"));
        }
        let (name, value) = line.split_once(':').ok_or((400, "malformed header line"))?;
        let token = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
        if name.is_empty() || !name.bytes().all(token) {
            return Err((400, "malformed header name"));
        }
        if headers.len() >= MAX_FIELDS {
            return Err((431, "too many header fields"));
        }
        let name = name.to_ascii_lowercase();
        if SINGLETONS.contains(&name.as_str()) && headers.iter().any(|(n, _)| *n == name) {
            return Err((400, "a header field that may appear once appears twice"));
        }
        headers.push((name, value.trim().to_string()));
    }
    Ok(Request {
        method: method.to_string(),
        target: target.to_string(),
        headers,
        body: Vec::new(),
        peer,
        http11,
    })
}

/// The end of the head in `buf`: (length of the head, length of the head and its blank line).
pub fn head_end(buf: &[u8]) -> Option<(usize, usize)> {
    let crlf = buf.windows(4).position(|w| w == b"\r\n\r\n").map(|i| (i, i + 4));
    let lf = buf.windows(2).position(|w| w == b"\n\n").map(|i| (i, i + 2));
    match (crlf, lf) {
        (Some(a), Some(b)) => Some(if a.0 <= b.0 { a } else { b }),
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn peer() -> SocketAddr {
        "127.0.0.1:9".parse().unwrap()
    }

    #[test]
    fn heads_are_parsed_strictly() {
        let r = parse_head(
            b"POST /api/cmd?sid=ab&x=1 HTTP/1.1\r\nHost: 127.0.0.1:80\r\nContent-Length: 12\r\nX-A:  b ",
            peer(),
        )
        .unwrap();
        assert_eq!((r.method.as_str(), r.path()), ("POST", "/api/cmd"));
        assert_eq!(r.query("sid"), Some("ab"));
        assert_eq!(r.query("y"), None);
        assert_eq!(r.header("HOST"), Some("127.0.0.1:80"));
        assert_eq!(r.header("x-a"), Some("b"));
        assert_eq!(r.content_length(), Ok(Some(12)));
        assert!(r.keep_alive());
        assert!(parse_head(b"GET / HTTP/2", peer()).is_err());
        assert!(parse_head(b"GET  / HTTP/1.1", peer()).is_err());
        assert!(parse_head(b"get / HTTP/1.1", peer()).is_err());
        assert!(parse_head(b"GET http://x/ HTTP/1.1", peer()).is_err());
        assert!(parse_head(b"GET / HTTP/1.1\r\nNo colon", peer()).is_err());
        assert!(parse_head(b"GET / HTTP/1.1\r\nA: b\r\n folded", peer()).is_err());
        assert!(parse_head(b"GET / HTTP/1.1\r\nBad Name: b", peer()).is_err());
        let many: String = (0..=MAX_FIELDS).map(|i| format!("\r\nX-{i}: v")).collect();
        let head = format!("GET / HTTP/1.1{many}");
        assert_eq!(parse_head(head.as_bytes(), peer()).unwrap_err().0, 431);
        let two = parse_head(b"POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2", peer());
        assert_eq!(two.unwrap_err().0, 400);
        for name in ["Host", "host", "Origin", "Authorization", "Cookie"] {
            let head =
                format!("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: a\r\nAuthorization: t\r\n{name}: b\r\nCookie: c");
            assert_eq!(parse_head(head.as_bytes(), peer()).unwrap_err().0, 400, "two {name}");
        }
        assert!(parse_head(b"GET / HTTP/1.1\r\nAccept: a\r\nAccept: b", peer()).is_ok());
        let neg = parse_head(b"POST / HTTP/1.1\r\nContent-Length: -1", peer()).unwrap();
        assert!(neg.content_length().is_err());
        let old = parse_head(b"GET / HTTP/1.0", peer()).unwrap();
        assert!(!old.keep_alive());
    }

    #[test]
    fn the_head_ends_at_the_first_blank_line() {
        assert_eq!(head_end(b"GET / HTTP/1.1\r\nA: b\r\n\r\nbody"), Some((20, 24)));
        assert_eq!(head_end(b"GET / HTTP/1.1\nA: b\n\nbody"), Some((19, 21)));
        assert_eq!(head_end(b"GET / HTTP/1.1\r\nA: b\r\n"), None);
    }
}
