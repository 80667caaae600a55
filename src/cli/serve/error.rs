//! The API's errors: a status and `{"error": "..."}`, with `Retry-After` on a
//! 503 that is worth retrying; [`as_json`] gives the same shape to any error
//! the HTTP stack would write itself.

use axum::Json;
use axum::body::{Body, to_bytes};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// The longest body of a layer's own error kept as its message.
const MAX_LAYER_MESSAGE: usize = 256;

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

/// `response`, or if it is an error that is not JSON (one the HTTP stack wrote
/// itself: none of today's routes leads to one, the body's limits answer
/// through [`ApiError`]), the same status and headers with `{"error": ...}`: its
/// text, or the status's reason, as the message.
pub async fn as_json(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = to_bytes(body, MAX_LAYER_MESSAGE)
        .await
        .ok()
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .filter(|t| !t.is_empty());
    let message = text.unwrap_or_else(|| {
        status
            .canonical_reason()
            .unwrap_or("error")
            .to_ascii_lowercase()
    });
    let (json_parts, body): (_, Body) = Json(json!({ "error": message }))
        .into_response()
        .into_parts();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.extend(json_parts.headers);
    Response::from_parts(parts, body)
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn body(response: Response) -> serde_json::Value {
        let bytes = to_bytes(response.into_body(), 1024).await.unwrap();
        serde_json::from_slice(&bytes).unwrap()
    }

    #[tokio::test]
    async fn a_layers_own_errors_become_json() {
        let plain = (StatusCode::PAYLOAD_TOO_LARGE, "length limit exceeded").into_response();
        let json = as_json(plain).await;
        assert_eq!(json.status(), StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!(json.headers()[header::CONTENT_TYPE], "application/json");
        assert_eq!(body(json).await, json!({"error": "length limit exceeded"}));
        let empty = as_json(StatusCode::REQUEST_TIMEOUT.into_response()).await;
        assert_eq!(body(empty).await, json!({"error": "request timeout"}));
        let ours = ApiError::bad_request("bad character 'x' at move 1").into_response();
        assert_eq!(
            body(as_json(ours).await).await,
            json!({"error": "bad character 'x' at move 1"})
        );
        let fine = as_json("ok".into_response()).await;
        assert_eq!(fine.status(), StatusCode::OK);
        assert_eq!(
            to_bytes(fine.into_body(), 16).await.unwrap().as_ref(),
            b"ok"
        );
    }
}
