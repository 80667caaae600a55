//! The router: the page's files, the API, CORS on the API and the rate limit
//! on /solve and /analyze, behind the [`Front`] (the access log, the request
//! metrics, the URI and body limits, JSON for every error).

use std::sync::Arc;

use anyhow::{Context, bail};
use axum::Router;
use axum::http::{HeaderValue, Method};
use axum::middleware;
use axum::routing::{MethodRouter, get};
use tower_http::cors::{AllowOrigin, Any, CorsLayer};

use super::App;
use super::front::Front;
use super::guard::{self, RateLimit};
use super::handlers;
use super::log::Access;
use super::page;

/// `/solve`: the online solver's answer.
pub const SOLVE: &str = "/solve";
/// `/analyze`: the library's answer.
pub const ANALYZE: &str = "/analyze";
/// `/health`: the server and its load.
pub const HEALTH: &str = "/health";
/// The board sizes this server answers.
pub const SIZES: &str = "/sizes";
/// `/metrics`: Prometheus' text.
pub const METRICS: &str = "/metrics";

/// The API's paths, the one list of them (the router's, the metrics' labels).
pub const API: [&str; 5] = [SOLVE, ANALYZE, SIZES, HEALTH, METRICS];

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
) -> Front {
    let mut searched = Router::new()
        .route(SOLVE, only_get(get(handlers::solve)))
        .route(ANALYZE, only_get(get(handlers::analyze)));
    if let Some(limit) = limit {
        searched = searched.route_layer(middleware::from_fn_with_state(limit, guard::rate_limit));
    }
    let api = searched
        .route(SIZES, only_get(get(handlers::sizes)))
        .route(HEALTH, only_get(get(handlers::health)))
        .route(METRICS, only_get(get(handlers::metrics)))
        .layer(cors);
    let mut router = api;
    for asset in &page::ASSETS {
        router = router.route(asset.path, only_get(get(|| async { page::respond(asset) })));
    }
    let router = router.fallback(handlers::not_found).with_state(state);
    Front::new(router, access)
}
