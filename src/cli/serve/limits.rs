//! What a request may be: a short URI (a position is at most 64 moves; the
//! command line's longest line is the bound) and no body to speak of.

use axum::extract::Request;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::error::ApiError;

/// The longest URI answered, in bytes: the command line's longest line.
pub const MAX_URI: usize = c4solver::MAX_LINE;

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
