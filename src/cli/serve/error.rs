//! The API's errors: a status and `{"error": "..."}`, with `Retry-After` on a
//! 503 that is worth retrying.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// Seconds a client told to come back later should wait.
pub const RETRY_AFTER_SECS: u32 = 1;

/// An error answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The message (the command line's for a bad position).
    pub message: String,
    /// Whether to send `Retry-After`.
    pub retry: bool,
}

impl ApiError {
    /// 400 with `message`.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }

    /// 503 with `Retry-After`.
    pub fn unavailable(message: impl Into<String>) -> Self {
        ApiError {
            retry: true,
            ..Self::new(StatusCode::SERVICE_UNAVAILABLE, message)
        }
    }

    /// Any status with `message`.
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
            retry: false,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(json!({ "error": self.message }))).into_response();
        if self.retry {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_SECS));
        }
        response
    }
}
