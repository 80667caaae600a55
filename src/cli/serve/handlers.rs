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
use c4solver::{Size, lines::excerpt};

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
        let json = (
            [(header::CONTENT_TYPE, "application/json")],
            found.online_json(&parsed.moves),
        );
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

/// Any other path: 404; a CONNECT (a proxy's method, whose target is a host,
/// no path) 405.
pub async fn not_found(method: Method, uri: Uri) -> Response {
    if method == Method::CONNECT {
        return with_allow(ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "CONNECT is not allowed: this is no proxy; use GET on /solve, /analyze, /health, /metrics or the page, /",
        ));
    }
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!(
            "no such path {}: the API is /solve, /analyze, /sizes, /health and /metrics, the page is /",
            excerpt(uri.path())
        ),
    )
    .into_response()
}

/// `error` with `Allow: GET, HEAD`.
fn with_allow(error: ApiError) -> Response {
    let mut response = error.into_response();
    response
        .headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
    response
}

/// A known path with another method than GET (or HEAD): 405 with `Allow`.
pub async fn method_not_allowed(method: Method, uri: Uri) -> Response {
    with_allow(ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!(
            "{} is not allowed on {}: use GET",
            excerpt(method.as_str()),
            excerpt(uri.path())
        ),
    ))
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
    // One deadline for the timer and for the message's reckoning.
    let (timeout, flag) = app.limit(size);
    let deadline = asked + timeout;
    match tokio::time::timeout_at(deadline.into(), search).await {
        Ok(Ok(answer)) => Ok((parsed, answer, false)),
        Ok(Err(Failure::Stopped)) => Err(ApiError::unavailable("the server is shutting down")),
        Ok(Err(Failure::Failed(why))) => Err(ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, why)),
        Err(_) => Err(timed_out((timeout, flag), asked, started.get().copied())),
    }
}

/// A search started less than this before its request's deadline (the
/// message's tenth of a second) counts as never started. Requests sent
/// together time out together: when the first one's search is stopped at its
/// deadline, its thread takes the next one's search milliseconds before that
/// one's own deadline, which read "0.0 s searching after 3.0 s in the queue"
/// (one run in three); that request waited in the queue.
pub const LATE_START: Duration = Duration::from_millis(100);

/// The 503 of a request asked at `asked` that waited `timeout`: in the queue
/// all along if no thread took its search [`LATE_START`] before its deadline
/// (a thread may also take it after the deadline, before the request is
/// woken), or with how much of it the search took.
fn timed_out(
    (timeout, flag): (Duration, &str),
    asked: Instant,
    started: Option<Instant>,
) -> ApiError {
    let limit = timeout.as_secs();
    match started.filter(|&s| s + LATE_START < asked + timeout) {
        None => ApiError::unavailable(format!(
            "no solver thread was free within {flag} {limit} s: the search waited in the queue all along; try again later"
        )),
        Some(started) => {
            let queued = started.saturating_duration_since(asked);
            let searched = timeout.saturating_sub(queued);
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the search took longer than {flag} {limit} s: {} s searching after {} s in the queue{}",
                    tenths(searched),
                    tenths(queued),
                    if flag == "--wide-timeout" {
                        WIDE_HINT
                    } else {
                        ""
                    }
                ),
            )
        }
    }
}

/// What a search stopped by `--wide-timeout` tells the page's reader to expect.
pub const WIDE_HINT: &str = "; on a board over 64 bits a position with few stones can take \
     hours: play more moves, or start the server with a larger --wide-timeout";

/// `d` in seconds with one decimal.
fn tenths(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(started_after: Option<Duration>) -> String {
        let asked = Instant::now();
        let timeout = Duration::from_secs(3);
        timed_out(
            (timeout, "--timeout"),
            asked,
            started_after.map(|d| asked + d),
        )
        .message
    }

    #[test]
    fn a_search_started_at_its_deadline_waited_in_the_queue() {
        let queued = "no solver thread was free within --timeout 3 s: the search waited in the queue all along; try again later";
        // Regression: a search taken 4 ms before its deadline (the thread freed
        // by another request's timeout) read "0.0 s searching after 3.0 s".
        for after in [
            None,
            Some(Duration::from_millis(2_996)),
            Some(Duration::from_secs(3)),
            Some(Duration::from_secs(4)),
        ] {
            assert_eq!(message(after), queued, "{after:?}");
        }
        assert_eq!(
            message(Some(Duration::from_millis(800))),
            "the search took longer than --timeout 3 s: 2.2 s searching after 0.8 s in the queue"
        );
        assert_eq!(
            message(Some(Duration::from_millis(2_700))),
            "the search took longer than --timeout 3 s: 0.3 s searching after 2.7 s in the queue"
        );
    }

    #[test]
    fn a_wide_boards_search_says_what_to_expect() {
        let asked = Instant::now();
        let limit = (Duration::from_secs(60), "--wide-timeout");
        assert_eq!(
            timed_out(limit, asked, Some(asked)).message,
            format!(
                "the search took longer than --wide-timeout 60 s: 60.0 s searching after 0.0 s in the queue{WIDE_HINT}"
            )
        );
        assert!(
            timed_out(limit, asked, None)
                .message
                .starts_with("no solver thread was free within --wide-timeout 60 s")
        );
    }

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
