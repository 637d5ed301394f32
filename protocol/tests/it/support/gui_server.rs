//! Driving a real `vorpal gui` for the GUI's tests: start it on a free port, read the link it
//! prints (with its access token), send raw HTTP/1.1 requests, and look at its child processes
//! in `/proc` (Linux).

use super::harness::{vorpal_binary, SOON};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// A running `vorpal gui`; killed when dropped.
pub struct GuiServer {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// The access token from the printed link.
    pub token: String,
}

/// One HTTP answer.
#[derive(Clone, Debug)]
pub struct Reply {
    /// Status code.
    pub status: u16,
    /// Header fields, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body (lossily decoded).
    pub body: String,
}

impl Reply {
    /// The value of header `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The body as JSON (Null when it is not JSON).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or(serde_json::Value::Null)
    }
}

/// The fake engines' folder.
pub fn fake_engines() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/gui/fake-engines")
}

/// `--engine` settings for `misbehaving.sh MODE` (and its FILE argument, if any).
pub fn misbehaving(mode: &str, file: Option<&str>) -> Vec<String> {
    let script = fake_engines().join("misbehaving.sh");
    let mut v = vec![
        "--engine".to_string(),
        format!("cmd={}", script.display()),
        format!("arg={mode}"),
        format!("name=M-{mode}"),
    ];
    if let Some(f) = file {
        v.push(format!("arg={f}"));
    }
    v
}

impl GuiServer {
    /// Starts `vorpal gui --port 0 ARGS` and waits for its link.
    pub fn start(args: &[&str]) -> GuiServer {
        GuiServer::start_with_env(args, &[])
    }

    /// [`GuiServer::start`] with extra environment variables.
    pub fn start_with_env(args: &[&str], env: &[(&str, &str)]) -> GuiServer {
        GuiServer::launch(Command::new(vorpal_binary()), args, env)
    }

    /// [`GuiServer::start`] under an open-file limit of `files` (the server's process is the
    /// shell's, replaced by `exec`).
    pub fn start_with_file_limit(files: u32, args: &[&str]) -> GuiServer {
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(format!("ulimit -n {files} && exec \"$0\" \"$@\""))
            .arg(vorpal_binary());
        GuiServer::launch(cmd, args, &[])
    }

    fn launch(mut cmd: Command, args: &[&str], env: &[(&str, &str)]) -> GuiServer {
        cmd.args(["gui", "--port", "0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().expect("vorpal gui starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let line = rx.recv_timeout(SOON).expect("vorpal gui prints its link");
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no link in {line:?}"))
            .to_string();
        let rest = url.strip_prefix("http://").unwrap();
        let (addr, token) = rest
            .split_once("/?token=")
            .unwrap_or_else(|| panic!("no token in {url}"));
        GuiServer {
            child,
            addr: addr.to_string(),
            token: token.to_string(),
        }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The exit status once the server has ended (waiting up to `wait`).
    pub fn exit_within(&mut self, wait: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + wait;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() > deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// True while the server runs.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Sends one request on a new connection (`Host` set to the server's address unless given)
    /// and reads the answer.
    pub fn request(&self, method: &str, target: &str, headers: &[(&str, &str)], body: &[u8]) -> Reply {
        let mut stream = TcpStream::connect(&self.addr).expect("connect to vorpal gui");
        stream.set_read_timeout(Some(SOON)).unwrap();
        let mut head = format!("{method} {target} HTTP/1.1\r\nConnection: close\r\n");
        if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
            head.push_str(&format!("Host: {}\r\n", self.addr));
        }
        for (k, v) in headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        if !body.is_empty() || method == "POST" {
            head.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        head.push_str("\r\n");
        let mut bytes = head.into_bytes();
        bytes.extend_from_slice(body);
        // A refused request may be answered before all of it is sent.
        let _ = stream.write_all(&bytes);
        read_reply(&mut stream)
    }

    /// A request with the access token (`Authorization: token T`) and, for a body, JSON.
    pub fn api(&self, method: &str, target: &str, json: Option<&str>) -> Reply {
        let auth = format!("token {}", self.token);
        let mut headers = vec![("Authorization", auth.as_str())];
        if json.is_some() {
            headers.push(("Content-Type", "application/json"));
        }
        self.request(method, target, &headers, json.unwrap_or("").as_bytes())
    }

    /// A new session's id.
    pub fn new_session(&self) -> String {
        let r = self.api("POST", "/api/session", None);
        assert_eq!(r.status, 200, "{}", r.body);
        r.json()["sid"].as_str().expect("a session id").to_string()
    }

    /// A new session in analysis mode, which starts its engine (a page between people
    /// starts none).
    pub fn engine_session(&self) -> String {
        let sid = self.new_session();
        let r = self.api(
            "POST",
            &format!("/api/cmd?sid={sid}"),
            Some(r#"{"cmd":"settings","mode":"analysis"}"#),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        sid
    }

    /// The state of session `sid` now.
    pub fn state(&self, sid: &str) -> serde_json::Value {
        let r = self.api("GET", &format!("/api/state?sid={sid}&since=0"), None);
        assert_eq!(r.status, 200, "{}", r.body);
        r.json()
    }

    /// Waits up to `wait` for `test` to hold on session `sid`'s state; returns the last state.
    pub fn wait_state(
        &self,
        sid: &str,
        wait: Duration,
        test: impl Fn(&serde_json::Value) -> bool,
    ) -> serde_json::Value {
        let deadline = Instant::now() + wait;
        loop {
            let s = self.state(sid);
            if test(&s) || Instant::now() > deadline {
                return s;
            }
            thread::sleep(Duration::from_millis(50));
        }
    }

    /// Process ids of the server's children (its engines), zombies excluded.
    pub fn children(&self) -> Vec<u32> {
        children_of(self.pid())
    }

    /// Sends `signal` (`TERM`, `INT`, `KILL`) to the server.
    pub fn signal(&self, signal: &str) {
        let ok = Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(self.pid().to_string())
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "kill -{signal} failed");
    }
}

impl Drop for GuiServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads an HTTP answer up to the end of the connection.
pub fn read_reply(stream: &mut TcpStream) -> Reply {
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Reply {
        status,
        headers,
        body: body.to_string(),
    }
}

/// The state letter of process `pid` (`R`, `S`, `Z`, ...), None when it is gone.
pub fn process_state(pid: u32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(')')?.1.split_whitespace().next()?.chars().next()
}

/// Live (not zombie) children of `parent`.
pub fn children_of(parent: u32) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                return false;
            };
            let Some((_, rest)) = stat.rsplit_once(')') else {
                return false;
            };
            let mut f = rest.split_whitespace();
            let state = f.next().unwrap_or("");
            let ppid: u32 = f.next().and_then(|p| p.parse().ok()).unwrap_or(0);
            ppid == parent && state != "Z"
        })
        .collect()
}

/// Waits up to `wait` for `test` to hold.
pub fn eventually(wait: Duration, test: impl Fn() -> bool) -> bool {
    let deadline = Instant::now() + wait;
    loop {
        if test() {
            return true;
        }
        if Instant::now() > deadline {
            return false;
        }
        thread::sleep(Duration::from_millis(25));
    }
}
