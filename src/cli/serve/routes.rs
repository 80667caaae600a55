//! The router: the page's files, the API, and the layers around them (URI
//! length, body size, JSON for every error, CORS on the API, the rate limit on
//! /solve and /analyze, the access log and the request metrics).

use std::sync::Arc;

use anyhow::{Context, bail};
use axum::Router;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderValue, Method};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get};
use tower_http::cors::{AllowOrigin, Any, CorsLayer};
use tower_http::limit::RequestBodyLimitLayer;

use super::App;
use super::error;
use super::guard::{self, RateLimit};
use super::handlers;
use super::limits;
use super::log::{Access, Line};
use super::page;

/// A route answering GET (and HEAD), 405 otherwise.
fn only_get(route: MethodRouter<Arc<App>>) -> MethodRouter<Arc<App>> {
    route.fallback(handlers::method_not_allowed)
}

/// The CORS layer: every origin if `origins` is empty, else those only.
///
/// # Errors
/// An origin that is not `http://` or `https://` and a host, with its text.
pub fn cors(origins: &[String]) -> anyhow::Result<CorsLayer> {
    let layer = CorsLayer::new().allow_methods([Method::GET, Method::HEAD]);
    if origins.is_empty() {
        return Ok(layer.allow_origin(Any));
    }
    let mut values = Vec::new();
    for origin in origins {
        let origin = origin.trim().trim_end_matches('/');
        let host = origin
            .strip_prefix("https://")
            .or_else(|| origin.strip_prefix("http://"));
        if host.is_none_or(|h| h.is_empty() || h.contains('/')) {
            bail!(
                "--cors-origin {origin:?}: an origin is http:// or https:// and a host[:port], as https://example.org"
            );
        }
        values.push(
            HeaderValue::from_str(origin)
                .with_context(|| format!("--cors-origin {origin:?}: not a header value"))?,
        );
    }
    Ok(layer.allow_origin(AllowOrigin::list(values)))
}

/// The whole application: `access` counts and logs every request, `limit`
/// (if any) limits /solve and /analyze per client address.
pub fn app(
    state: Arc<App>,
    access: Arc<Access>,
    cors: CorsLayer,
    limit: Option<Arc<RateLimit>>,
) -> Router {
    let mut searched = Router::new()
        .route("/solve", only_get(get(handlers::solve)))
        .route("/analyze", only_get(get(handlers::analyze)));
    if let Some(limit) = limit {
        searched = searched.route_layer(middleware::from_fn_with_state(limit, guard::rate_limit));
    }
    let api = searched
        .route("/health", only_get(get(handlers::health)))
        .route("/metrics", only_get(get(handlers::metrics)))
        .layer(cors);
    let mut router = api;
    for asset in &page::ASSETS {
        router = router.route(asset.path, only_get(get(|| async { page::respond(asset) })));
    }
    router
        .fallback(handlers::not_found)
        .with_state(state)
        .layer(DefaultBodyLimit::max(limits::MAX_BODY))
        .layer(RequestBodyLimitLayer::new(limits::MAX_BODY))
        .layer(middleware::from_fn_with_state(access, front))
}

/// Every request's way in, one layer for speed: counted and logged, refused if
/// it breaks a limit, and any error answer made `{"error": ...}`.
async fn front(State(access): State<Arc<Access>>, request: Request, next: Next) -> Response {
    let mut line = Line::start(&access, &request);
    let response = match limits::refusal(&request) {
        Some(refused) => refused.into_response(),
        None => error::as_json(next.run(request).await).await,
    };
    line.answered(&response);
    response
}
