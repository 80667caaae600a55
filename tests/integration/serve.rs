//! `c4solver serve` end to end: every endpoint against `c4solver analyze` on
//! positions of the bundled sets, every bad input with its status and the
//! command line's message, many clients at once, a client that hangs up during a
//! long search, and SIGTERM.

use crate::common;

use std::io::Write;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::common::server::Server;
use serde_json::{Value, json};

const SETS: [&str; 6] = [
    "end-easy",
    "middle-easy",
    "middle-medium",
    "begin-easy",
    "begin-medium",
    "begin-hard",
];

/// The first `n` positions of every bundled set (`n / 5` of begin-hard, whose
/// positions take a second or more each without the book).
fn positions(n: usize) -> Vec<String> {
    SETS.iter()
        .flat_map(|&set| {
            let take = if set == "begin-hard" { n / 5 } else { n };
            common::bundled_set(set)
                .entries
                .into_iter()
                .take(take)
                .map(|e| e.moves)
        })
        .collect()
}

/// `c4solver analyze --json ARGS` of every position: one object per position.
fn analyze_cli(args: &[&str], moves: &[String]) -> Vec<Value> {
    let mut all = vec!["analyze", "--json"];
    all.extend_from_slice(args);
    let input: String = moves.iter().map(|m| format!("{m}\n")).collect();
    let out = common::output(&all, input.as_bytes());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), moves.len());
    lines
}

/// The command line's message for the line `moves` (what follows `line 1: `).
fn cli_message(moves: &[u8]) -> String {
    let mut line = moves.to_vec();
    line.push(b'\n');
    let out = common::output(&["analyze"], &line);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    err.trim_end()
        .strip_prefix("c4solver: line 1: ")
        .unwrap_or_else(|| panic!("unexpected message {err:?}"))
        .to_string()
}

/// `pos` as a query value.
fn escape(moves: &[u8]) -> String {
    moves
        .iter()
        .map(|&b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

#[test]
fn the_online_solvers_answer_for_4455() {
    let server = Server::start(&["--threads", "1"]);
    let reply = server.get("/solve?pos=4455");
    assert_eq!(reply.status, 200);
    assert!(
        reply
            .header("content-type")
            .unwrap()
            .contains("application/json")
    );
    // connect4.gamesolver.org's answer, as the issue quotes it.
    assert_eq!(
        reply.json(),
        json!({"pos": "4455", "score": [-4, -3, 18, 2, 2, 18, -3]})
    );
    // pos= is the empty board; a full column is 100.
    assert_eq!(
        server.get("/solve?pos=").json()["score"]
            .as_array()
            .unwrap()
            .len(),
        7
    );
    let full = server.get("/solve?pos=444444").json();
    assert_eq!(full["score"][3], 100);
    assert_eq!(full["pos"], "444444");
}

#[test]
fn every_endpoint_agrees_with_analyze() {
    let moves = positions(50);
    assert_eq!(moves.len(), 260);
    let strong = analyze_cli(&[], &moves);
    let weak = analyze_cli(&["--weak"], &moves);
    let pv_moves: Vec<String> = moves.iter().step_by(6).cloned().collect();
    let pv = analyze_cli(&["--pv"], &pv_moves);
    let server = Server::start(&["--threads", "2"]);
    for round in ["searched", "cached"] {
        for (i, m) in moves.iter().enumerate() {
            let want = &strong[i];
            let solve = server.get(&format!("/solve?pos={m}"));
            assert_eq!(solve.status, 200, "{m}: {}", solve.body);
            let scores: Vec<Value> = want["scores"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| if s.is_null() { json!(100) } else { s.clone() })
                .collect();
            assert_eq!(solve.json(), json!({"pos": m, "score": scores}), "{round}");
            let got = server.get(&format!("/analyze?pos={m}")).json();
            for field in ["moves", "scores", "best", "score"] {
                assert_eq!(got[field], want[field], "{m} {field} ({round})");
            }
            assert_eq!(got["cached"], true, "/solve kept the answer: {m}");
            assert!(got["nodes"].is_u64() && got["time_us"].is_u64() && got["book"].is_boolean());
            let got = server.get(&format!("/analyze?pos={m}&weak=1")).json();
            for field in ["scores", "best", "score"] {
                assert_eq!(got[field], weak[i][field], "{m} weak {field} ({round})");
            }
        }
    }
    for (m, want) in pv_moves.iter().zip(&pv) {
        let got = server.get(&format!("/analyze?pos={m}&pv=1")).json();
        for field in ["scores", "score", "pv"] {
            assert_eq!(got[field], want[field], "{m} pv {field}");
        }
    }
    // The empty board comes from the book: no search.
    let empty = server.get("/analyze?pos=").json();
    assert_eq!(
        (empty["book"].clone(), empty["nodes"].clone()),
        (json!(true), json!(0))
    );
}

#[test]
fn bad_positions_get_the_command_lines_message() {
    let server = Server::start(&["--threads", "1"]);
    let cases: [&[u8]; 8] = [
        b"448",
        b"44a5",
        b"4444444",
        b"1212121",
        b"12121212",
        b"\xff12",
        b"4 4 4",
        b"123456712345671234567123456712345671234567123456712345671",
    ];
    for moves in cases {
        let want = cli_message(moves);
        for endpoint in ["solve", "analyze"] {
            let reply = server.get(&format!("/{endpoint}?pos={}", escape(moves)));
            assert_eq!(reply.status, 400, "{moves:?}");
            assert_eq!(reply.json(), json!({ "error": want }), "{moves:?}");
        }
    }
    assert_eq!(
        cli_message(b"448"),
        "column 8 is out of range (1..=7) at move 3",
        "the issue's example"
    );
    // What only a query can get wrong.
    let cases = [
        ("/solve", 400, "missing pos: give the moves played"),
        ("/analyze?pos=44+5", 400, "pos holds moves only"),
        ("/analyze?pos=44&weak=2", 400, "weak is 1 or 0, found \"2\""),
        ("/nope", 404, "no such path /nope"),
        ("/solve/4455", 404, "no such path /solve/4455"),
    ];
    for (path, status, message) in cases {
        let reply = server.get(path);
        assert_eq!(reply.status, status, "{path}");
        let error = reply.json()["error"].as_str().unwrap().to_string();
        assert!(error.starts_with(message), "{path}: {error}");
    }
    for method in ["POST", "PUT", "DELETE"] {
        let reply = server.send(&format!(
            "{method} /solve?pos=4 HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        ));
        assert_eq!(reply.status, 405, "{method}");
        assert_eq!(reply.header("allow"), Some("GET, HEAD"));
        assert!(reply.json()["error"].as_str().unwrap().contains("use GET"));
    }
    let long = "4".repeat(5000);
    let reply = server.get(&format!("/solve?pos={long}"));
    assert_eq!(reply.status, 414);
    assert!(
        reply.json()["error"]
            .as_str()
            .unwrap()
            .contains("at most 4096")
    );
    // Nothing of it stopped the server.
    assert_eq!(server.get("/solve?pos=4455").status, 200);
}

#[test]
fn cors_health_and_the_page() {
    let server = Server::start(&["--threads", "1"]);
    let reply = server.send(
        "GET /solve?pos=4 HTTP/1.1\r\nHost: t\r\nOrigin: http://elsewhere.example\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(reply.header("access-control-allow-origin"), Some("*"));
    let preflight = server.send(
        "OPTIONS /analyze HTTP/1.1\r\nHost: t\r\nOrigin: http://elsewhere.example\r\n\
         Access-Control-Request-Method: GET\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(preflight.status, 200);
    let health = server.health();
    assert_eq!(
        (health["status"].as_str(), health["threads"].as_u64()),
        (Some("ok"), Some(1))
    );
    let page = server.get("/");
    assert_eq!(page.status, 200);
    assert!(
        page.header("content-type")
            .unwrap()
            .starts_with("text/html")
    );
    assert!(
        page.body
            .contains("<script type=\"module\" src=\"app.js\">")
    );
    for (path, kind) in [
        ("/app.js", "text/javascript"),
        ("/board.js", "text/javascript"),
        ("/game.js", "text/javascript"),
        ("/client.js", "text/javascript"),
        ("/style.css", "text/css"),
    ] {
        let reply = server.get(path);
        assert_eq!(reply.status, 200, "{path}");
        assert!(
            reply.header("content-type").unwrap().starts_with(kind),
            "{path}"
        );
        let file =
            std::fs::read_to_string(format!("{}/web{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        assert_eq!(reply.body, file, "{path} is web{path} as built in");
    }
}

#[test]
fn fifty_clients_at_once() {
    let moves: Vec<String> = common::bundled_set("middle-medium")
        .entries
        .into_iter()
        .skip(100)
        .take(50)
        .map(|e| e.moves)
        .collect();
    let want = analyze_cli(&[], &moves);
    let server = &Server::start(&["--threads", "2"]);
    std::thread::scope(|scope| {
        let handles: Vec<_> = moves
            .iter()
            .map(|m| scope.spawn(move || server.get(&format!("/analyze?pos={m}"))))
            .collect();
        for ((m, want), h) in moves.iter().zip(&want).zip(handles) {
            let reply = h.join().unwrap();
            assert_eq!(reply.status, 200, "{m}: {}", reply.body);
            assert_eq!(reply.json()["scores"], want["scores"], "{m}");
        }
    });
}

/// Sends `GET path` on a new connection without waiting for the answer.
fn start_request(server: &Server, path: &str) -> std::net::TcpStream {
    let mut stream = server.connect();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: t\r\n\r\n").unwrap();
    stream
}

#[test]
fn a_client_that_hangs_up_frees_its_thread() {
    // Without the book, analysing the empty board or a one-stone position takes
    // many seconds: long enough to hang up in the middle.
    let server = Server::start(&["--threads", "2", "--no-book"]);
    let easy = "317125365677263145631455163157";
    let first = start_request(&server, "/analyze?pos=");
    server.wait_for("one busy thread", |h| h["busy"] == 1);
    // Others are answered meanwhile, by the other thread.
    assert_eq!(server.get(&format!("/solve?pos={easy}")).status, 200);
    let second = start_request(&server, "/analyze?pos=4");
    server.wait_for("two busy threads", |h| h["busy"] == 2);
    // A third waits in the queue for a thread.
    let waiting = std::thread::spawn({
        let server_addr = server.addr.clone();
        move || {
            let mut stream = std::net::TcpStream::connect(server_addr).unwrap();
            write!(stream, "GET /analyze?pos=3171253656772631456314551631 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").unwrap();
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut stream, &mut bytes).unwrap();
            (common::server::parse(&bytes), Instant::now())
        }
    });
    server.wait_for("a waiting request", |h| h["waiting"] == 1);
    let hung_up = Instant::now();
    drop(first);
    let (reply, answered) = waiting.join().unwrap();
    assert_eq!(reply.status, 200, "{}", reply.body);
    let freed = answered - hung_up;
    eprintln!("the waiting request was answered {freed:?} after the hang-up");
    assert!(
        freed < Duration::from_secs(1),
        "the thread was freed after {freed:?}"
    );
    drop(second);
    server.wait_for("no busy thread", |h| h["busy"] == 0);
}

#[test]
fn a_full_queue_is_503_with_retry_after() {
    let server = Server::start(&["--threads", "1", "--queue", "1", "--no-book"]);
    let easy = "/solve?pos=317125365677263145631455163157";
    assert_eq!(server.get(easy).status, 200);
    let running = start_request(&server, "/analyze?pos=");
    server.wait_for("one busy thread", |h| h["busy"] == 1);
    let queued = start_request(&server, "/analyze?pos=4");
    server.wait_for("a waiting request", |h| h["waiting"] == 1);
    let reply = server.get("/solve?pos=5");
    assert_eq!(reply.status, 503);
    assert_eq!(reply.header("retry-after"), Some("1"));
    assert!(reply.json()["error"].as_str().unwrap().starts_with("busy"));
    // A cached answer needs no thread: still answered at once.
    let cached = server.get(easy);
    assert_eq!(cached.status, 200, "{}", cached.body);
    drop((running, queued));
    server.wait_for("no busy thread", |h| h["busy"] == 0 && h["waiting"] == 0);
}

#[test]
fn sigterm_ends_the_server_within_two_seconds() {
    let mut server = Server::start(&["--threads", "1", "--no-book"]);
    let in_flight = std::thread::spawn({
        let addr = server.addr.clone();
        move || {
            let mut stream = std::net::TcpStream::connect(addr).unwrap();
            write!(
                stream,
                "GET /analyze?pos= HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
            )
            .unwrap();
            let mut bytes = Vec::new();
            let _ = std::io::Read::read_to_end(&mut stream, &mut bytes);
            bytes
        }
    });
    server.wait_for("one busy thread", |h| h["busy"] == 1);
    let pid = i32::try_from(server.child.id()).unwrap();
    let sent = Instant::now();
    // SAFETY: kill(2) on our own child's pid.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            sent.elapsed() < Duration::from_secs(5),
            "still running after 5 s"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    let took = sent.elapsed();
    eprintln!("the server exited {took:?} after SIGTERM");
    assert!(took < Duration::from_secs(2), "exited after {took:?}");
    assert_eq!(status.code(), Some(143));
    // The request in flight was answered: its search was stopped.
    let reply = common::server::parse(&in_flight.join().unwrap());
    assert_eq!(reply.status, 503);
    assert_eq!(reply.json()["error"], "the server is shutting down");
}

#[test]
fn one_access_log_line_per_request_unless_quiet() {
    let mut server = Server::start_with(&["--threads", "1"], Stdio::piped());
    assert_eq!(server.get("/solve?pos=4455").status, 200);
    assert_eq!(server.get("/nope").status, 404);
    let _ = server.child.kill();
    let mut log = String::new();
    std::io::Read::read_to_string(server.child.stderr.as_mut().unwrap(), &mut log).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), 2, "{log}");
    for (line, (path, status)) in lines
        .iter()
        .zip([("/solve?pos=4455", "200"), ("/nope", "404")])
    {
        let f: Vec<&str> = line.split(' ').collect();
        assert_eq!(&f[..3], ["GET", path, status], "{line}");
        assert!(f[3].ends_with("ms") && f[3].trim_end_matches("ms").parse::<f64>().is_ok());
    }
    let mut quiet = Server::start_with(&["--threads", "1", "--quiet"], Stdio::piped());
    assert_eq!(quiet.get("/solve?pos=4455").status, 200);
    let _ = quiet.child.kill();
    let mut log = String::new();
    std::io::Read::read_to_string(quiet.child.stderr.as_mut().unwrap(), &mut log).unwrap();
    assert_eq!(log, "");
}

#[test]
fn an_address_in_use_is_refused_with_its_reason() {
    let server = Server::start(&["--threads", "1"]);
    let out = common::output(&["serve", "--threads", "1", "--addr", &server.addr], b"");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with(&format!(
            "c4solver: --addr {}: cannot listen there",
            server.addr
        )),
        "{err}"
    );
}
