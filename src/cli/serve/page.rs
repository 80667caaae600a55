//! The page: the files of `web/`, built into the binary (nothing to install, no
//! network needed by the browser).

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};

/// One file of the page: its path, content type and bytes.
pub struct Asset {
    /// The path it is served at.
    pub path: &'static str,
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// Its bytes.
    pub body: &'static str,
}

macro_rules! asset {
    ($path:literal, $file:literal, $type:expr) => {
        Asset {
            path: $path,
            content_type: $type,
            body: include_str!(concat!("../../../web/", $file)),
        }
    };
}

const JS: &str = "text/javascript; charset=utf-8";

/// Every file of the page.
pub const ASSETS: [Asset; 7] = [
    asset!("/", "index.html", "text/html; charset=utf-8"),
    // The static build's name for the page (a link to it works on both).
    asset!("/index.html", "index.html", "text/html; charset=utf-8"),
    asset!("/style.css", "style.css", "text/css; charset=utf-8"),
    asset!("/app.js", "app.js", JS),
    asset!("/board.js", "board.js", JS),
    asset!("/game.js", "game.js", JS),
    asset!("/client.js", "client.js", JS),
];

/// The response serving `asset`.
pub fn respond(asset: &'static Asset) -> Response {
    let mut response = asset.body.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(asset.content_type),
    );
    // A new binary may bring a new page: the browser checks each time.
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}
