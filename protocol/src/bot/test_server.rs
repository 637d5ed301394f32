//! A scripted HTTP server on 127.0.0.1 for the client's tests: each connection gets the next
//! scripted answer (status, headers, body lines, whether to close or to hold the connection
//! open), and the requests are kept for the test to read.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// One scripted answer.
#[derive(Clone)]
pub struct Answer {
    /// The status line's code and text, e.g. `"200 OK"`.
    pub status: &'static str,
    /// Extra header lines.
    pub headers: Vec<String>,
    /// The body (written as it is, then the connection closes unless `hold`).
    pub body: String,
    /// Keep the connection open silently after the body (a quiet stream).
    pub hold: Option<Duration>,
}

impl Answer {
    /// `status` with `body` and nothing else.
    pub fn new(status: &'static str, body: &str) -> Answer {
        Answer {
            status,
            headers: Vec::new(),
            body: body.to_string(),
            hold: None,
        }
    }
}

/// The server: its base URL and the requests seen (request line and headers, lower-cased
/// header names).
pub struct TestServer {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// Every request's head, in order.
    pub requests: Arc<Mutex<Vec<String>>>,
}

/// Starts a server answering connections with `script`, in order (then closing them).
pub fn serve(script: Vec<Answer>) -> TestServer {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let requests = Arc::new(Mutex::new(Vec::new()));
    let seen = requests.clone();
    std::thread::spawn(move || {
        for answer in script {
            let Ok((stream, _)) = listener.accept() else { return };
            let seen = seen.clone();
            std::thread::spawn(move || answer_one(stream, &answer, &seen));
        }
    });
    TestServer { base, requests }
}

fn answer_one(mut stream: TcpStream, answer: &Answer, seen: &Mutex<Vec<String>>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut head = String::new();
    let mut length = 0usize;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
        head.push_str(&line);
    }
    let mut body = vec![0u8; length];
    let _ = std::io::Read::read_exact(&mut reader, &mut body);
    head.push_str(&String::from_utf8_lossy(&body));
    seen.lock().unwrap().push(head);
    let mut text = format!("HTTP/1.1 {}\r\nConnection: close\r\n", answer.status);
    for h in &answer.headers {
        text += &format!("{h}\r\n");
    }
    text += "\r\n";
    text += &answer.body;
    let _ = stream.write_all(text.as_bytes());
    let _ = stream.flush();
    if let Some(hold) = answer.hold {
        std::thread::sleep(hold);
    }
}
