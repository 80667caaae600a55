//! The access log: one line per request on stderr, `METHOD PATH STATUS MS`
//! (the path with its query, cut as the command line cuts a long field).

use std::time::Instant;

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;

use c4solver::excerpt;

/// Times the request and writes its line once it is answered.
pub async fn access(request: Request, next: Next) -> Response {
    let start = Instant::now();
    let method = request.method().clone();
    let path = request
        .uri()
        .path_and_query()
        .map_or_else(|| "/".to_string(), |p| excerpt(p.as_str()));
    let response = next.run(request).await;
    eprintln!(
        "{method} {path} {} {:.1}ms",
        response.status().as_u16(),
        start.elapsed().as_secs_f64() * 1e3
    );
    response
}
