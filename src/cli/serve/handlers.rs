//! The API's handlers: `/solve`, `/analyze`, `/health`, and the JSON answers to
//! an unknown path or a wrong method.

use std::sync::Arc;

use axum::Json;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::App;
use super::answer::{self, Analyzed, Answer, Parsed, Task};
use super::error::ApiError;
use super::pool::Full;
use super::query::{self, Params};
use c4solver::excerpt;

/// The message of a query without `pos`.
pub const MISSING_POS: &str =
    "missing pos: give the moves played, as in ?pos=4455 (pos= is the empty board)";

/// `GET /solve?pos=MOVES`: the online solver's answer, `{"pos", "score"}`.
pub async fn solve(
    State(app): State<Arc<App>>,
    RawQuery(q): RawQuery,
) -> Result<Json<Value>, ApiError> {
    let params = query::parse(q.as_deref()).map_err(ApiError::bad_request)?;
    let strong = Params {
        weak: false,
        pv: false,
        ..params
    };
    let (parsed, found, _) = answer(&app, &strong).await?;
    Ok(Json(answer::solve_json(&found, &parsed.moves)))
}

/// `GET /analyze?pos=MOVES[&weak=1][&pv=1]`: the library's answer (the fields
/// of `analyze --json`, docs/answer.md) and `cached`.
pub async fn analyze(
    State(app): State<Arc<App>>,
    RawQuery(q): RawQuery,
) -> Result<Json<Analyzed>, ApiError> {
    let params = query::parse(q.as_deref()).map_err(ApiError::bad_request)?;
    let (parsed, found, cached) = answer(&app, &params).await?;
    Ok(Json(answer::analyze_json(found, &parsed.moves, cached)))
}

/// `GET /health`: the server answers, with its board and load.
pub async fn health(State(app): State<Arc<App>>) -> Json<Value> {
    Json(json!({
        "status": "ok",
        "size": format!("{}x{}", app.width, app.height),
        "threads": app.pool.threads(),
        "busy": app.pool.busy(),
        "waiting": app.pool.waiting(),
        "queue": app.pool.capacity(),
        "cached": app.cache.len(),
    }))
}

/// Any other path: 404.
pub async fn not_found(uri: Uri) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!(
            "no such path {}: the API is /solve, /analyze and /health, the page is /",
            excerpt(uri.path())
        ),
    )
}

/// A known path with another method than GET (or HEAD): 405 with `Allow`.
pub async fn method_not_allowed(method: Method, uri: Uri) -> Response {
    let mut response = ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!(
            "{} is not allowed on {}: use GET",
            excerpt(method.as_str()),
            excerpt(uri.path())
        ),
    )
    .into_response();
    response
        .headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
    response
}

/// The answer for `params`: from the cache, or from a solver thread (then kept
/// in the cache), and whether it was cached.
async fn answer(app: &App, params: &Params) -> Result<(Parsed, Answer, bool), ApiError> {
    let pos = params
        .pos
        .as_deref()
        .ok_or_else(|| ApiError::bad_request(MISSING_POS))?;
    let parsed = (app.parse)(pos).map_err(ApiError::bad_request)?;
    let key = (parsed.key, params.weak, params.pv);
    if let Some(answer) = app.cache.get(&key) {
        return Ok((parsed, answer, true));
    }
    let task = Task {
        moves: parsed.moves.clone(),
        position: parsed.position.clone(),
        weak: params.weak,
        pv: params.pv,
    };
    let mut ticket = app.pool.submit(task).map_err(|Full| {
        ApiError::unavailable(format!(
            "busy: {} searches wait for the {} solver threads; try again later",
            app.pool.capacity(),
            app.pool.threads()
        ))
    })?;
    match tokio::time::timeout(app.timeout, ticket.answer()).await {
        Ok(Some(answer)) => {
            app.cache.put(key, answer.clone());
            Ok((parsed, answer, false))
        }
        Ok(None) => Err(ApiError::unavailable("the server is shutting down")),
        Err(_) => Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the search took longer than --timeout {} s and was stopped",
                app.timeout.as_secs()
            ),
        )),
    }
}
