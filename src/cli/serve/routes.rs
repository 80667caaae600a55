//! The router: the page's files, the API, and the layers around them (URI
//! length, body size, JSON for every error, CORS on the API, the access log).

use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::Method;
use axum::middleware;
use axum::routing::{MethodRouter, get};
use tower_http::cors::{Any, CorsLayer};
use tower_http::limit::RequestBodyLimitLayer;

use super::App;
use super::error;
use super::handlers;
use super::limits;
use super::log;
use super::page;

/// A route answering GET (and HEAD), 405 otherwise.
fn only_get(route: MethodRouter<Arc<App>>) -> MethodRouter<Arc<App>> {
    route.fallback(handlers::method_not_allowed)
}

/// The whole application; `log` adds the access log.
pub fn app(state: Arc<App>, log: bool) -> Router {
    let cors = CorsLayer::new()
        .allow_origin(Any)
        .allow_methods([Method::GET, Method::HEAD]);
    let api = Router::new()
        .route("/solve", only_get(get(handlers::solve)))
        .route("/analyze", only_get(get(handlers::analyze)))
        .route("/health", only_get(get(handlers::health)))
        .layer(cors);
    let mut router = api;
    for asset in &page::ASSETS {
        router = router.route(asset.path, only_get(get(|| async { page::respond(asset) })));
    }
    let router = router
        .fallback(handlers::not_found)
        .with_state(state)
        .layer(DefaultBodyLimit::max(limits::MAX_BODY))
        .layer(RequestBodyLimitLayer::new(limits::MAX_BODY))
        .layer(middleware::from_fn(limits::body_length))
        .layer(middleware::from_fn(limits::uri_length))
        .layer(middleware::from_fn(error::json_errors));
    if log {
        router.layer(middleware::from_fn(log::access))
    } else {
        router
    }
}
