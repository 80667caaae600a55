//! A `c4solver serve` started for a test on a free loopback port, and a plain
//! HTTP/1.1 client over a TCP stream (so that a test controls every byte and
//! can hang up mid-request).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::Duration;

/// A running server, killed when dropped.
pub struct Server {
    /// The child process.
    pub child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    _stdout: BufReader<ChildStdout>,
}

/// One HTTP answer.
#[derive(Debug)]
pub struct Reply {
    /// The status code.
    pub status: u16,
    /// The header lines, lower-cased names.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: String,
}

impl Reply {
    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", self.body))
    }
}

impl Server {
    /// Starts `c4solver serve --addr 127.0.0.1:0 ARGS` and waits for its URL.
    pub fn start(args: &[&str]) -> Server {
        Self::start_with(args, Stdio::null())
    }

    /// As [`Server::start`], with the server's stderr going to `stderr`.
    pub fn start_with(args: &[&str], stderr: Stdio) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_c4solver"))
            .args(["serve", "--addr", "127.0.0.1:0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("the c4solver binary runs");
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no URL in {line:?}"))
            .to_string();
        Server {
            child,
            addr,
            _stdout: stdout,
        }
    }

    /// The base URL, `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// `GET path`.
    pub fn get(&self, path: &str) -> Reply {
        self.send(&format!(
            "GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n"
        ))
    }

    /// Sends `raw` (a whole request) and reads the answer to the end.
    pub fn send(&self, raw: &str) -> Reply {
        let mut stream = self.connect();
        stream.write_all(raw.as_bytes()).unwrap();
        let mut bytes = Vec::new();
        stream.read_to_end(&mut bytes).unwrap();
        parse(&bytes)
    }

    /// A connection, with a read timeout so that a hung server fails the test.
    pub fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(&self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        stream
    }

    /// `GET /health`'s JSON.
    pub fn health(&self) -> serde_json::Value {
        self.get("/health").json()
    }

    /// Waits until `ready` holds of `/health` (at most 30 s).
    pub fn wait_for(&self, what: &str, ready: impl Fn(&serde_json::Value) -> bool) {
        for _ in 0..3000 {
            if ready(&self.health()) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("the server never had {what}: {}", self.health());
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Parses a whole HTTP/1.1 answer (with a Content-Length body).
pub fn parse(bytes: &[u8]) -> Reply {
    let text = String::from_utf8_lossy(bytes);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no header end in {text:?}"));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {head:?}"));
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    assert!(
        !headers
            .iter()
            .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked")),
        "a chunked body: {head}"
    );
    Reply {
        status,
        headers,
        body: body.to_string(),
    }
}
