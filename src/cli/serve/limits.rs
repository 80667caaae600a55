//! What a request may be: a short URI (a position is at most 64 moves; the
//! command line's longest line is the bound) and no body to speak of.

use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::error::ApiError;

/// The longest URI answered, in bytes: the command line's longest line.
pub const MAX_URI: usize = c4solver::input::MAX_LINE;

/// The largest request body read (the API takes none).
pub const MAX_BODY: usize = 1024;

/// Refuses a URI longer than [`MAX_URI`] with 414.
pub async fn uri_length(request: Request, next: Next) -> Response {
    let len = request
        .uri()
        .path_and_query()
        .map_or(0, |p| p.as_str().len());
    if len > MAX_URI {
        return ApiError::new(
            StatusCode::URI_TOO_LONG,
            format!("the URI has {len} bytes: at most {MAX_URI} are read"),
        )
        .into_response();
    }
    next.run(request).await
}

/// Refuses a body announced longer than [`MAX_BODY`] (`Content-Length`) with
/// 413, before any of it is read. A longer chunked body is cut by tower-http's
/// limit instead.
pub async fn body_length(request: Request, next: Next) -> Response {
    let announced = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if let Some(len) = announced.filter(|&n| n > MAX_BODY as u64) {
        return ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the request body has {len} bytes: at most {MAX_BODY} are read (the API takes none)"
            ),
        )
        .into_response();
    }
    next.run(request).await
}
