//! The API's handlers: `/solve`, `/analyze`, `/sizes`, `/health`, `/metrics`,
//! and the JSON answers to an unknown path or a wrong method.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::App;
use super::answer::{self, Answer, Parsed, Task};
use super::error::ApiError;
use super::flight::{Flight, Found};
use super::log::Served;
use super::metrics;
use super::pool::{Failure, Full};
use super::query::{self, Params};
use super::solver;
use c4solver::{Size, excerpt};

/// The message of a query without `pos`.
pub const MISSING_POS: &str =
    "missing pos: give the moves played, as in ?pos=4455 (pos= is the empty board)";

/// `GET /solve?pos=MOVES[&size=WxH]`: the online solver's answer, `{"pos", "score"}`.
pub async fn solve(State(app): State<Arc<App>>, uri: Uri) -> Response {
    let answered = async {
        let params = query::parse(uri.query()).map_err(ApiError::bad_request)?;
        let strong = Params {
            weak: false,
            pv: false,
            ..params
        };
        let (parsed, found, cached) = answer(&app, &strong).await?;
        let json = Json(answer::solve_json(&found, &parsed.moves));
        Ok::<_, ApiError>(served(&app, json, cached, &found))
    };
    answered.await.unwrap_or_else(IntoResponse::into_response)
}

/// `GET /analyze?pos=MOVES[&size=WxH][&weak=1][&pv=1]`: the library's answer
/// (the fields of `analyze --json`, docs/answer.md) and `cached`.
pub async fn analyze(State(app): State<Arc<App>>, uri: Uri) -> Response {
    let answered = async {
        let params = query::parse(uri.query()).map_err(ApiError::bad_request)?;
        let (parsed, found, cached) = answer(&app, &params).await?;
        let json = Json(answer::analyze_json(&found, &parsed.moves, cached));
        Ok::<_, ApiError>(served(&app, json, cached, &found))
    };
    answered.await.unwrap_or_else(IntoResponse::into_response)
}

/// `json` with what the access log tells of it (nothing without a log).
fn served(app: &App, json: impl IntoResponse, cached: bool, found: &Answer) -> Response {
    let mut response = json.into_response();
    if app.logged {
        response.extensions_mut().insert(Served {
            cached,
            nodes: found.nodes,
        });
    }
    response
}

/// `GET /sizes`: every board size this program answers (`size=WxH`), and the
/// one a request without `size` gets (`--size`).
pub async fn sizes(State(app): State<Arc<App>>) -> Json<Value> {
    Json(sizes_json(app.size))
}

/// `/sizes`'s answer: `{"sizes": ["7x6", ...], "default": "7x6"}`.
fn sizes_json(default: Size) -> Value {
    let sizes: Vec<String> = Size::BUILT.iter().map(Size::to_string).collect();
    json!({ "sizes": sizes, "default": default.to_string() })
}

/// `GET /health`: the server answers, with its board and load.
pub async fn health(State(app): State<Arc<App>>) -> Json<Value> {
    Json(json!({
        "status": "ok",
        "size": app.size.to_string(),
        "threads": app.pool.threads(),
        "busy": app.pool.busy(),
        "waiting": app.pool.waiting(),
        "queue": app.pool.capacity(),
        "cached": app.cache.len(),
        "searches": app.flights.len(),
    }))
}

/// `GET /metrics`: every metric, in the Prometheus text format.
pub async fn metrics(State(app): State<Arc<App>>) -> Response {
    let text = app.metrics.render(app.pool.waiting(), app.pool.busy());
    metrics::respond(text)
}

/// Any other path: 404.
pub async fn not_found(uri: Uri) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!(
            "no such path {}: the API is /solve, /analyze, /sizes, /health and /metrics, the page is /",
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

/// The answer for `params`: from the cache, or from the search that finds it
/// (one per answer at a time: requests for an answer being searched wait for
/// that search), and whether it was cached.
async fn answer(app: &App, params: &Params<'_>) -> Result<(Parsed, Arc<Answer>, bool), ApiError> {
    let asked = Instant::now();
    let pos = params
        .pos
        .as_deref()
        .ok_or_else(|| ApiError::bad_request(MISSING_POS))?;
    let size = params.size.unwrap_or(app.size);
    let parsed = solver::parse(size, pos).map_err(ApiError::bad_request)?;
    let key = (size, parsed.key, params.weak, params.pv);
    if let Some(answer) = app.cache.get(&key) {
        app.metrics.cache_hits.inc();
        return Ok((parsed, answer, true));
    }
    let task = Task {
        moves: parsed.moves.clone(),
        position: parsed.position,
        weak: params.weak,
        pv: params.pv,
    };
    let found = app
        .flights
        .join(key, &app.cache, || app.pool.submit(task))
        .map_err(|Full| {
            ApiError::unavailable(format!(
                "busy: {} searches wait for the {} solver threads; try again later",
                app.pool.capacity(),
                app.pool.threads()
            ))
        })?;
    let flight = match found {
        Found::Cached(answer) => {
            app.metrics.cache_hits.inc();
            return Ok((parsed, answer, true));
        }
        Found::Searching(flight) => flight,
    };
    if !flight.led {
        app.metrics.joined.inc();
    }
    let Flight {
        search, started, ..
    } = flight;
    match tokio::time::timeout(app.timeout, search).await {
        Ok(Ok(answer)) => Ok((parsed, answer, false)),
        Ok(Err(Failure::Stopped)) => Err(ApiError::unavailable("the server is shutting down")),
        Ok(Err(Failure::Failed(why))) => Err(ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, why)),
        Err(_) => Err(timed_out(app, asked, started.get().copied())),
    }
}

/// The 503 of a request that waited `--timeout` from `asked`: in the queue
/// all along if no thread took its search before its deadline (a loaded
/// runtime may wake the request after a thread took it), or with how much of
/// it the search took.
fn timed_out(app: &App, asked: Instant, started: Option<Instant>) -> ApiError {
    let limit = app.timeout.as_secs();
    match started.filter(|&s| s < asked + app.timeout) {
        None => ApiError::unavailable(format!(
            "no solver thread was free within --timeout {limit} s: the search waited in the queue all along; try again later"
        )),
        Some(started) => {
            let queued = started.saturating_duration_since(asked);
            let searched = app.timeout.saturating_sub(queued);
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the search took longer than --timeout {limit} s: {} s searching after {} s in the queue",
                    tenths(searched),
                    tenths(queued)
                ),
            )
        }
    }
}

/// `d` in seconds with one decimal.
fn tenths(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_lists_every_built_size_and_the_default() {
        let v = sizes_json(Size::STANDARD);
        assert_eq!(v["default"], "7x6");
        let sizes = v["sizes"].as_array().unwrap();
        assert_eq!(sizes.len(), Size::BUILT.len());
        assert!(sizes.contains(&json!("7x6")));
        assert_eq!(sizes.len() == 53, cfg!(feature = "all-sizes"));
    }
}
