//! What a request may be: a short URI (a position is at most 64 moves; the
//! command line's longest line is the bound) and no body to speak of.

use axum::http::{Request, StatusCode, header};

use super::error::ApiError;

/// The longest URI answered, in bytes: the command line's longest line.
pub const MAX_URI: usize = c4solver::lines::MAX_LINE;

/// The largest request body read (the API takes none).
pub const MAX_BODY: usize = 1024;

/// The refusal of `request`, if it breaks a limit: 414 for a URI longer than
/// [`MAX_URI`], 413 for a body announced longer than [`MAX_BODY`].
pub fn refusal<B>(request: &Request<B>) -> Option<ApiError> {
    uri_length(request).or_else(|| body_length(request))
}

/// 414 for a URI longer than [`MAX_URI`].
fn uri_length<B>(request: &Request<B>) -> Option<ApiError> {
    let len = request
        .uri()
        .path_and_query()
        .map_or(0, |p| p.as_str().len());
    (len > MAX_URI).then(|| {
        ApiError::new(
            StatusCode::URI_TOO_LONG,
            format!("the URI has {len} bytes: at most {MAX_URI} are read"),
        )
    })
}

/// 413 for a body announced longer than [`MAX_BODY`] (`Content-Length`), before
/// any of it is read. A longer chunked body is cut where it passes the limit
/// ([`super::front`]).
fn body_length<B>(request: &Request<B>) -> Option<ApiError> {
    let announced = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    announced.filter(|&n| n > MAX_BODY as u64).map(|len| {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the request body has {len} bytes: at most {MAX_BODY} are read (the API takes none)"
            ),
        )
    })
}
