//! `c4solver serve` end to end: every endpoint against `c4solver analyze` on
//! positions of the bundled sets, every bad input with its status and the
//! command line's message, many clients at once, a client that hangs up during a
//! long search, idle and half-sent connections, and SIGTERM under load.

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
    // Byte for byte (the library writes it: `Answer::online_json`).
    assert_eq!(reply.body, r#"{"pos":"4455","score":[-4,-3,18,2,2,18,-3]}"#);
    // A bare `pos` (no `=`) is the empty board too.
    assert_eq!(
        server.get("/solve?pos").body,
        r#"{"pos":"","score":[-2,-1,0,1,0,-1,-2]}"#
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
    // The static build's name for the page serves it too.
    let index = server.get("/index.html");
    assert_eq!(index.status, 200);
    assert_eq!(index.header("content-type"), page.header("content-type"));
    assert_eq!(index.body, page.body);
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

/// What docs/server.md promises: the process exits at most `--grace` + 1 s
/// after SIGTERM (here `--grace 0.7`).
const SHUTDOWN_BOUND: Duration = Duration::from_millis(1700);

/// Asks `path` on its own connection until the server is gone, with no limit
/// on the connection's life: a hard request or a load loop.
fn ask(addr: &str, path: &str) -> Option<common::server::Reply> {
    let mut stream = std::net::TcpStream::connect(addr).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut stream, &mut bytes).ok()?;
    (!bytes.is_empty()).then(|| common::server::parse(&bytes))
}

#[test]
fn sigterm_ends_the_server_within_its_bound_under_load() {
    let mut server = Server::start(&[
        "--threads",
        "2",
        "--no-book",
        "--queue",
        "8",
        "--grace",
        "0.7",
    ]);
    // Cached before the threads are taken: the load below needs no thread.
    let easy = "/solve?pos=317125365677263145631455163157";
    assert_eq!(server.get(easy).status, 200);
    // Three hard searches (many seconds each without the book): two running,
    // one waiting for a thread.
    let hard: Vec<_> = ["/analyze?pos=", "/analyze?pos=4", "/analyze?pos=3"]
        .into_iter()
        .map(|path| {
            let addr = server.addr.clone();
            std::thread::spawn(move || ask(&addr, path))
        })
        .collect();
    server.wait_for("three hard searches", |h| {
        h["busy"] == 2 && h["waiting"] == 1
    });
    // Four clients asking cached answers as fast as they can, for at most 2,000
    // requests each.
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let load: Vec<_> = (0..4)
        .map(|_| {
            let (addr, done) = (server.addr.clone(), done.clone());
            std::thread::spawn(move || {
                let mut answered = 0;
                while answered < 2000 && !done.load(std::sync::atomic::Ordering::Relaxed) {
                    match ask(&addr, easy) {
                        Some(reply) if reply.status == 200 => answered += 1,
                        _ => break,
                    }
                }
                answered
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let pid = i32::try_from(server.child.id()).unwrap();
    let sent = Instant::now();
    // SAFETY: kill(2) on our own child's pid.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            sent.elapsed() < Duration::from_secs(10),
            "still running after 10 s"
        );
        std::thread::sleep(Duration::from_millis(5));
    };
    let took = sent.elapsed();
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    eprintln!("the server exited {took:?} after SIGTERM");
    assert!(took < SHUTDOWN_BOUND, "exited after {took:?}");
    assert_eq!(status.code(), Some(143));
    let answered: usize = load.into_iter().map(|h| h.join().unwrap()).sum();
    assert!(answered > 0, "the load clients were answered");
    // The requests in flight were answered: their searches were stopped.
    for h in hard {
        let reply = h.join().unwrap().expect("an answer before the exit");
        assert_eq!(reply.status, 503);
        assert_eq!(reply.json()["error"], "the server is shutting down");
    }
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

/// Reads from `stream` until the server closes it (true), or the client's own
/// 30 s read timeout passes (false).
fn closed_by_server(mut stream: std::net::TcpStream) -> bool {
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut buf = [0u8; 4096];
    loop {
        match std::io::Read::read(&mut stream, &mut buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return true,
            Err(_) => return false,
        }
    }
}

#[test]
fn silent_idle_and_half_sent_connections_are_closed() {
    let server = Server::start(&["--threads", "1", "--header-timeout", "1"]);
    let silent = server.connect();
    let mut half = server.connect();
    half.write_all(b"GET /solve?pos=44").unwrap();
    let mut headless = server.connect();
    headless
        .write_all(b"GET /solve?pos=4455 HTTP/1.1\r\nHost: t\r\n")
        .unwrap();
    // Kept alive after one answer, then idle.
    let mut idle = server.connect();
    idle.write_all(b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
        .unwrap();
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut byte = [0u8];
        std::io::Read::read_exact(&mut idle, &mut byte).unwrap();
        head.push(byte[0]);
    }
    assert!(head.starts_with(b"HTTP/1.1 200"), "{head:?}");
    for (what, stream) in [
        ("silent", silent),
        ("half a request line", half),
        ("headers never ended", headless),
        ("idle after an answer", idle),
    ] {
        assert!(closed_by_server(stream), "{what}: still open after 30 s");
    }
    assert_eq!(server.get("/solve?pos=4455").status, 200);
}

#[test]
fn idle_sockets_beyond_the_file_limit_do_not_stop_the_server() {
    let server = Server::start(&["--threads", "1", "--no-book", "--header-timeout", "1"]);
    let pid = server.child.id();
    // Room for 8 more connections than the server has files open now.
    let open = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .count();
    let room = u64::try_from(open).unwrap() + 8;
    let limit = libc::rlimit {
        rlim_cur: room,
        rlim_max: room,
    };
    // SAFETY: prlimit(2) on our own child, with a valid rlimit and no old value.
    let set = unsafe {
        libc::prlimit(
            i32::try_from(pid).unwrap(),
            libc::RLIMIT_NOFILE,
            &raw const limit,
            std::ptr::null_mut(),
        )
    };
    assert_eq!(set, 0, "prlimit: {}", std::io::Error::last_os_error());
    // Five times as many silent sockets as the server can hold at once.
    let idle: Vec<_> = (0..40).map(|_| server.connect()).collect();
    // Answered once the header timeout has closed enough of them.
    let reply = server.get("/health");
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.json()["status"], "ok");
    drop(idle);
}

#[test]
fn every_error_is_json() {
    let server = Server::start(&["--threads", "1", "--no-book", "--timeout", "1"]);
    let body = "x".repeat(2000);
    let cases = [
        (
            format!(
                "GET /solve?pos=4 HTTP/1.1\r\nHost: t\r\nContent-Length: 2000\r\nConnection: close\r\n\r\n{body}"
            ),
            413,
            "the request body has 2000 bytes: at most 1024 are read",
        ),
        (
            "GET /solve?pos=4 HTTP/1.1\r\nHost: t\r\nContent-Length: 999999999\r\nConnection: close\r\n\r\n"
                .to_string(),
            413,
            "the request body has 999999999 bytes",
        ),
        (
            "GET /nope HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".to_string(),
            404,
            "no such path /nope",
        ),
        (
            "DELETE /index.html HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".to_string(),
            405,
            "DELETE is not allowed on /index.html",
        ),
        // Regression: a proxy's CONNECT (a host, no path) read "no such path : ".
        (
            "CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\nConnection: close\r\n\r\n"
                .to_string(),
            405,
            "CONNECT is not allowed: this is no proxy; use GET on /solve",
        ),
        (
            format!(
                "GET /solve?pos={} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
                "4".repeat(5000)
            ),
            414,
            "the URI has 5011 bytes",
        ),
        // The empty board without the book: many seconds, over --timeout 1.
        (
            "GET /analyze?pos= HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".to_string(),
            503,
            "the search took longer than --timeout 1 s",
        ),
    ];
    for (request, status, message) in cases {
        let reply = server.send(&request);
        let line = request.lines().next().unwrap();
        assert_eq!(reply.status, status, "{line}: {}", reply.body);
        assert!(
            reply
                .header("content-type")
                .is_some_and(|t| t.starts_with("application/json")),
            "{line}: {:?}",
            reply.headers
        );
        let error = reply.json()["error"].as_str().unwrap().to_string();
        assert!(error.starts_with(message), "{line}: {error}");
    }
}

#[test]
fn pv_and_weak_are_1_or_0_only() {
    let server = Server::start(&["--threads", "1"]);
    for (query, found) in [
        ("pv=", r#""""#),
        ("pv", r#""""#),
        ("pv=yes", r#""yes""#),
        ("pv=true", r#""true""#),
        ("pv=2", r#""2""#),
    ] {
        let reply = server.get(&format!("/analyze?pos=4455&{query}"));
        assert_eq!(reply.status, 400, "{query}");
        assert_eq!(
            reply.json(),
            json!({ "error": format!("pv is 1 or 0, found {found}") }),
            "{query}"
        );
    }
    for query in ["weak=", "weak=yes", "weak=no"] {
        let reply = server.get(&format!("/analyze?pos=4455&{query}"));
        assert_eq!(reply.status, 400, "{query}");
        assert!(
            reply.json()["error"]
                .as_str()
                .unwrap()
                .starts_with("weak is 1 or 0, found"),
            "{query}"
        );
    }
    let on = server.get("/analyze?pos=4455&pv=1&weak=0").json();
    assert!(on["pv"].is_string(), "{on}");
    let off = server.get("/analyze?pos=4455&pv=0&weak=1").json();
    assert!(off["pv"].is_null(), "{off}");
    assert_eq!(off["score"], 1, "a weak score is a sign: {off}");
}

#[test]
fn a_request_whose_client_hung_up_is_logged() {
    let mut server = Server::start_with(&["--threads", "1", "--no-book"], Stdio::piped());
    let stderr = std::io::BufReader::new(server.child.stderr.take().unwrap());
    let (tx, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufRead::lines(stderr) {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let hard = start_request(&server, "/analyze?pos=");
    server.wait_for("one busy thread", |h| h["busy"] == 1);
    drop(hard);
    server.wait_for("no busy thread", |h| h["busy"] == 0);
    let line = loop {
        let line = lines
            .recv_timeout(Duration::from_secs(30))
            .expect("a log line for the request whose client hung up");
        if line.starts_with("GET /analyze") {
            break line;
        }
    };
    let f: Vec<&str> = line.split(' ').collect();
    assert_eq!(&f[..3], ["GET", "/analyze?pos=", "499"], "{line}");
    assert!(f[3].ends_with("ms"), "{line}");
}

/// Every built size is answered: `size=WxH` on /solve and /analyze (the
/// `--size` board by default), `/sizes` lists them, the cache keeps each
/// size's answers apart, and a size not built is refused as `--size` is.
#[test]
fn every_built_size_is_answered() {
    let server = Server::start(&["--threads", "1"]);
    let sizes = server.get("/sizes");
    assert_eq!(sizes.status, 200);
    let v = sizes.json();
    assert_eq!(v["default"], "7x6");
    let listed = v["sizes"].as_array().unwrap();
    assert!(listed.contains(&json!("7x6")));
    assert_eq!(
        listed.len(),
        if cfg!(feature = "all-sizes") { 53 } else { 1 }
    );
    // The same answer with and without the default size named.
    let named = server.get("/analyze?pos=44455554221&size=7x6").json();
    let plain = server.get("/analyze?pos=44455554221").json();
    assert_eq!(named["score"], -15);
    assert_eq!(
        (named["scores"].clone(), named["cached"].clone()),
        (plain["scores"].clone(), json!(false))
    );
    assert_eq!(plain["cached"], true, "one cache entry for both");
    for (size, want) in [
        (
            "9x9",
            "board size 9x9 (90 bits) is not one of the sizes over 64 bits",
        ),
        ("7", "bad board size \"7\": expected WIDTHxHEIGHT"),
        ("3x6", "board size 3x6 is too small"),
    ] {
        for endpoint in ["solve", "analyze"] {
            let reply = server.get(&format!("/{endpoint}?pos=1&size={size}"));
            assert_eq!(reply.status, 400, "{size}");
            let error = reply.json()["error"].as_str().unwrap().to_string();
            assert!(error.starts_with(want), "{error}");
            let (_, stderr, code) = common::run(&["--size", size], "");
            assert_eq!(code, 2);
            assert!(
                stderr.contains(&error),
                "the command line's message: {stderr}"
            );
        }
    }
    if cfg!(feature = "all-sizes") {
        // 4x5 solves at once (8x7 would take hours).
        let small = server.get("/solve?pos=1&size=4x5");
        assert_eq!(small.status, 200);
        assert_eq!(small.json()["score"].as_array().unwrap().len(), 4);
    } else {
        let eight = server.get("/solve?pos=1&size=8x7");
        assert_eq!(eight.status, 400);
        assert!(
            eight
                .body
                .contains("board size 8x7 is not built into this program")
        );
    }
}

/// With `all-sizes`: small boards answered by the server of another size, one
/// cache entry per size for the same moves, and the 7x6 book from a 5x4 server.
#[cfg(feature = "all-sizes")]
#[test]
fn small_boards_from_one_server() {
    let server = Server::start(&["--threads", "1", "--size", "5x4"]);
    assert_eq!(server.get("/sizes").json()["default"], "5x4");
    // John Tromp's table: 4x4 and 5x4 are draws.
    for (size, width) in [("4x4", 4), ("5x4", 5)] {
        let v = server.get(&format!("/analyze?pos=&size={size}")).json();
        assert_eq!(
            (v["score"].clone(), v["cached"].clone()),
            (json!(0), json!(false)),
            "{size}"
        );
        assert_eq!(v["scores"].as_array().unwrap().len(), width);
    }
    let v = server.get("/analyze?pos=").json();
    assert_eq!(
        (v["score"].clone(), v["cached"].clone()),
        (json!(0), json!(true)),
        "5x4 by default"
    );
    let book = server.get("/analyze?pos=&size=7x6").json();
    assert_eq!(
        (book["score"].clone(), book["book"].clone()),
        (json!(1), json!(true))
    );
}
