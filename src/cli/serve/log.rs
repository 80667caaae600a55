//! The access log: one line per request on stderr, `METHOD PATH STATUS MS`
//! (the path with its query, cut as the command line cuts a long field). A
//! request whose client hung up before its answer is logged too, with status
//! [`CANCELLED`].

use std::time::Instant;

use axum::extract::Request;
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;

use c4solver::excerpt;

/// The status logged for a request whose client went away before the answer
/// (nginx's "client closed request"); nothing is sent for it.
pub const CANCELLED: u16 = 499;

/// One request's line, written when it is answered or, if the HTTP stack drops
/// the request first (the client hung up), when it is dropped.
struct Line {
    method: Method,
    path: String,
    start: Instant,
    status: Option<u16>,
}

impl Drop for Line {
    fn drop(&mut self) {
        eprintln!(
            "{} {} {} {:.1}ms",
            self.method,
            self.path,
            self.status.unwrap_or(CANCELLED),
            self.start.elapsed().as_secs_f64() * 1e3
        );
    }
}

/// Times the request and writes its line once it is answered or cancelled.
pub async fn access(request: Request, next: Next) -> Response {
    let mut line = Line {
        method: request.method().clone(),
        path: request
            .uri()
            .path_and_query()
            .map_or_else(|| "/".to_string(), |p| excerpt(p.as_str())),
        start: Instant::now(),
        status: None,
    };
    let response = next.run(request).await;
    line.status = Some(response.status().as_u16());
    response
}
