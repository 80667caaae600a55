//! `c4solver serve` for a public deployment: `/metrics` present and moving, one
//! search per answer for many clients at once (and for the others when one hangs
//! up), `--rate-limit`'s 429, `--max-connections`, `--cors-origin`, JSON access
//! logs, `--grace`, and timeouts that say where the time went.

use std::io::{Read, Write};
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::common;
use crate::common::server::{Reply, Server};
use serde_json::Value;

/// A position that takes a few seconds to analyze without the book: long enough
/// for other requests to join its search.
const HARD: &str = "133725611";

/// `/metrics`' text.
fn metrics(server: &Server) -> String {
    let reply = server.get("/metrics");
    assert_eq!(reply.status, 200, "{}", reply.body);
    reply.body
}

/// The value of the sample `name` (labels included, as written) in `text`.
fn sample(text: &str, name: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
}

/// The value of `name` now (0 if absent).
fn value(server: &Server, name: &str) -> f64 {
    sample(&metrics(server), name).unwrap_or(0.0)
}

/// Waits until `ready` holds of `/metrics`' text (at most 30 s).
fn wait_for_metrics(server: &Server, what: &str, ready: impl Fn(&str) -> bool) {
    for _ in 0..3000 {
        if ready(&metrics(server)) {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("the metrics never showed {what}: {}", metrics(server));
}

/// Sends `GET path` on a new connection without waiting for the answer.
fn start_request(server: &Server, path: &str) -> std::net::TcpStream {
    let mut stream = server.connect();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    stream
}

/// Reads the answer of a request started with [`start_request`].
fn finish(mut stream: std::net::TcpStream) -> Reply {
    let mut bytes = Vec::new();
    stream.read_to_end(&mut bytes).unwrap();
    common::server::parse(&bytes)
}

#[test]
fn metrics_are_present_and_move() {
    let server = Server::start(&["--threads", "1"]);
    let before = metrics(&server);
    for name in [
        "c4solver_searches_total",
        "c4solver_cache_hits_total",
        "c4solver_queue_depth",
        "c4solver_searches_in_flight",
    ] {
        assert_eq!(sample(&before, name), Some(0.0), "{name}: {before}");
    }
    let reply = server.get("/metrics");
    assert!(
        reply
            .header("content-type")
            .unwrap()
            .starts_with("application/openmetrics-text"),
        "{:?}",
        reply.headers
    );
    assert_eq!(server.get("/solve?pos=4455").status, 200);
    assert_eq!(server.get("/solve?pos=4455").status, 200);
    assert_eq!(server.get("/solve?pos=448").status, 400);
    let after = metrics(&server);
    for kind in [
        "# TYPE c4solver_requests counter",
        "# TYPE c4solver_request_duration_seconds histogram",
    ] {
        assert!(after.contains(kind), "{kind}: {after}");
    }
    let solve_200 = r#"c4solver_requests_total{route="/solve",status="200"}"#;
    assert_eq!(sample(&after, solve_200), Some(2.0), "{after}");
    assert_eq!(
        sample(
            &after,
            r#"c4solver_requests_total{route="/solve",status="400"}"#
        ),
        Some(1.0)
    );
    assert_eq!(
        sample(
            &after,
            r#"c4solver_request_duration_seconds_count{route="/solve"}"#
        ),
        Some(3.0)
    );
    assert_eq!(sample(&after, "c4solver_searches_total"), Some(1.0));
    assert_eq!(sample(&after, "c4solver_cache_hits_total"), Some(1.0));
    assert_eq!(sample(&after, "c4solver_queue_depth"), Some(0.0));
    assert_eq!(sample(&after, "c4solver_searches_in_flight"), Some(0.0));
}

#[test]
fn twenty_clients_asking_one_position_share_one_search() {
    let server = &Server::start(&["--threads", "2", "--no-book"]);
    let path = format!("/analyze?pos={HARD}");
    let answers: Vec<Value> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..20).map(|_| scope.spawn(|| server.get(&path))).collect();
        handles
            .into_iter()
            .map(|h| {
                let reply = h.join().unwrap();
                assert_eq!(reply.status, 200, "{}", reply.body);
                let mut json = reply.json();
                // Whether the cache or the search answered it depends on when
                // it came; the answer itself does not.
                json.as_object_mut().unwrap().remove("cached");
                json
            })
            .collect()
    });
    assert!(answers.iter().all(|a| *a == answers[0]), "{answers:?}");
    assert!(answers[0]["scores"].is_array());
    let after = metrics(server);
    assert_eq!(
        sample(&after, "c4solver_searches_total"),
        Some(1.0),
        "{after}"
    );
    let shared = sample(&after, "c4solver_shared_searches_total").unwrap();
    let hits = sample(&after, "c4solver_cache_hits_total").unwrap();
    assert_eq!(shared + hits, 19.0, "{after}");
}

#[test]
fn a_shared_search_goes_on_while_one_client_waits_and_stops_when_none_does() {
    let server = Server::start(&["--threads", "1", "--no-book"]);
    let path = format!("/analyze?pos={HARD}");
    let first = start_request(&server, &path);
    server.wait_for("one busy thread", |h| h["busy"] == 1);
    let second = start_request(&server, &path);
    wait_for_metrics(&server, "the second request joining", |m| {
        sample(m, "c4solver_shared_searches_total") == Some(1.0)
    });
    // The client that started the search hangs up: the other still gets it.
    drop(first);
    let reply = finish(second);
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.json()["cached"], false);
    assert_eq!(value(&server, "c4solver_searches_total"), 1.0);
    // Both clients of a long search (the empty board, minutes without the
    // book) hang up: the search stops.
    let third = start_request(&server, "/analyze?pos=");
    server.wait_for("one busy thread", |h| h["busy"] == 1);
    let fourth = start_request(&server, "/analyze?pos=");
    wait_for_metrics(&server, "the fourth request joining", |m| {
        sample(m, "c4solver_shared_searches_total") == Some(2.0)
    });
    drop(third);
    assert_eq!(server.health()["busy"], 1, "one client still waits");
    drop(fourth);
    server.wait_for("the search stopped", |h| {
        h["busy"] == 0 && h["searches"] == 0
    });
    assert_eq!(value(&server, "c4solver_searches_total"), 2.0);
}

#[test]
fn over_the_rate_limit_is_429_with_retry_after() {
    let server = Server::start(&["--threads", "1", "--rate-limit", "1", "--rate-burst", "3"]);
    let replies: Vec<Reply> = (0..10).map(|_| server.get("/solve?pos=4455")).collect();
    for reply in &replies[..3] {
        assert_eq!(reply.status, 200, "the burst: {}", reply.body);
    }
    let refused: Vec<&Reply> = replies.iter().filter(|r| r.status == 429).collect();
    assert!(!refused.is_empty(), "10 requests at once, 3 a burst");
    for reply in &refused {
        let wait: u64 = reply.header("retry-after").unwrap().parse().unwrap();
        assert!((1..=2).contains(&wait), "Retry-After {wait}");
        let error = reply.json()["error"].as_str().unwrap().to_string();
        assert!(
            error.starts_with(
                "too many requests: at most 1 a second from one address (bursts of 3) by --rate-limit"
            ),
            "{error}"
        );
    }
    // /health and the page are not limited.
    for _ in 0..5 {
        assert_eq!(server.get("/health").status, 200);
        assert_eq!(server.get("/").status, 200);
    }
    let limited = value(&server, "c4solver_rate_limited_total");
    assert_eq!(limited, refused.len() as f64);
    assert_eq!(
        value(
            &server,
            r#"c4solver_requests_total{route="/solve",status="429"}"#
        ),
        limited
    );
}

/// Sends `GET /health` on `stream` (kept alive) and reads its answer.
fn health_on(stream: &mut std::net::TcpStream) -> Reply {
    stream
        .write_all(b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
        .unwrap();
    let mut bytes = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = stream.read(&mut buf).unwrap();
        assert!(n > 0, "closed: {bytes:?}");
        bytes.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&bytes);
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length: usize = head
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("content-length:")
                        .map(|v| v.trim().parse().unwrap())
                })
                .unwrap();
            if body.len() >= length {
                return common::server::parse(&bytes);
            }
        }
    }
}

#[test]
fn connections_over_the_maximum_are_503_and_closed() {
    let server = Server::start(&["--threads", "1", "--max-connections", "2"]);
    let mut held: Vec<_> = (0..2).map(|_| server.connect()).collect();
    for stream in &mut held {
        assert_eq!(health_on(stream).status, 200);
    }
    let reply = server.get("/solve?pos=4455");
    assert_eq!(reply.status, 503, "{}", reply.body);
    assert_eq!(reply.header("retry-after"), Some("1"));
    assert_eq!(reply.header("connection"), Some("close"));
    assert_eq!(
        reply.json()["error"],
        "too many connections: the server holds at most 2 (--max-connections); try again later"
    );
    // The held ones still work; once one closes, a new one is served.
    assert_eq!(health_on(&mut held[0]).status, 200);
    drop(held.pop());
    let mut status = 0;
    for _ in 0..500 {
        status = server.get("/solve?pos=4455").status;
        if status == 200 {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(status, 200, "a freed connection is served");
}

#[test]
fn cors_origin_restricts_the_origins() {
    let server = Server::start(&[
        "--threads",
        "1",
        "--cors-origin",
        "https://a.example,https://b.example",
    ]);
    let ask = |origin: &str| {
        server.send(&format!(
            "GET /solve?pos=4 HTTP/1.1\r\nHost: t\r\nOrigin: {origin}\r\nConnection: close\r\n\r\n"
        ))
    };
    for origin in ["https://a.example", "https://b.example"] {
        let reply = ask(origin);
        assert_eq!(reply.status, 200);
        assert_eq!(reply.header("access-control-allow-origin"), Some(origin));
    }
    let other = ask("https://c.example");
    assert_eq!(other.header("access-control-allow-origin"), None);
    let out = common::output(&["serve", "--cors-origin", "a.example"], b"");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("c4solver: --cors-origin \"a.example\": an origin is http:// or https://"),
        "{err}"
    );
}

#[test]
fn json_access_log_lines_parse() {
    let mut server =
        Server::start_with(&["--threads", "1", "--log-format", "json"], Stdio::piped());
    assert_eq!(server.get("/solve?pos=4455").status, 200);
    assert_eq!(server.get("/solve?pos=4455").status, 200);
    assert_eq!(server.get("/nope").status, 404);
    let _ = server.child.kill();
    let mut log = String::new();
    server
        .child
        .stderr
        .as_mut()
        .unwrap()
        .read_to_string(&mut log)
        .unwrap();
    let lines: Vec<Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(lines.len(), 3, "{log}");
    for (line, (path, status, cached)) in lines.iter().zip([
        ("/solve?pos=4455", 200, Some(false)),
        ("/solve?pos=4455", 200, Some(true)),
        ("/nope", 404, None),
    ]) {
        assert_eq!(line["method"], "GET", "{line}");
        assert_eq!(line["path"], path, "{line}");
        assert_eq!(line["status"], status, "{line}");
        assert!(line["ms"].as_f64().is_some_and(|ms| ms >= 0.0), "{line}");
        assert_eq!(line["cached"].as_bool(), cached, "{line}");
        assert_eq!(line["nodes"].is_u64(), cached.is_some(), "{line}");
        assert!(line["timestamp"].is_string(), "{line}");
    }
}

#[test]
fn a_search_that_ends_within_the_grace_is_answered() {
    let mut server = Server::start(&["--threads", "1", "--no-book", "--grace", "60"]);
    let hard = start_request(&server, &format!("/analyze?pos={HARD}"));
    server.wait_for("one busy thread", |h| h["busy"] == 1);
    let pid = i32::try_from(server.child.id()).unwrap();
    // SAFETY: kill(2) on our own child's pid.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let reply = finish(hard);
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert!(reply.json()["scores"].is_array());
    // It exits once the last request is answered, long before the grace ends.
    let sent = Instant::now();
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(sent.elapsed() < Duration::from_secs(50), "still running");
        std::thread::sleep(Duration::from_millis(5));
    };
    assert_eq!(status.code(), Some(143));
}

#[test]
fn a_timeout_says_whether_it_waited_in_the_queue_or_searched() {
    // The empty board without the book takes the reference search far longer
    // than the timeout on any machine (the tuned one may end in 2 s on a fast one).
    let server = Server::start(&[
        "--threads",
        "1",
        "--no-book",
        "--solver",
        "reference",
        "--timeout",
        "2",
    ]);
    let first = start_request(&server, "/analyze?pos=");
    server.wait_for("one busy thread", |h| h["busy"] == 1);
    let queued = start_request(&server, "/analyze?pos=4");
    server.wait_for("a waiting request", |h| h["waiting"] == 1);
    // A third request joins the first one's search, which goes on after the
    // first times out: the queued request never gets the thread.
    let joined = start_request(&server, "/analyze?pos=");
    wait_for_metrics(&server, "the third request joining", |m| {
        sample(m, "c4solver_shared_searches_total") == Some(1.0)
    });
    let searched = |reply: Reply| {
        assert_eq!(reply.status, 503, "{}", reply.body);
        let error = reply.json()["error"].as_str().unwrap().to_string();
        assert!(
            error.starts_with("the search took longer than --timeout 2 s: ")
                && error.ends_with(" s in the queue"),
            "{error}"
        );
    };
    searched(finish(first));
    let reply = finish(queued);
    assert_eq!(reply.status, 503, "{}", reply.body);
    assert_eq!(reply.header("retry-after"), Some("1"));
    assert_eq!(
        reply.json()["error"],
        "no solver thread was free within --timeout 2 s: the search waited in the queue all along; try again later"
    );
    searched(finish(joined));
}
