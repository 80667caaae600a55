//! The access log and the request metrics: one `tracing` event per request on
//! stderr (`--log-format text`: `METHOD PATH STATUS MS cached=.. nodes=..`;
//! `json`: one object a line), and the request's count and duration in
//! [`Metrics`]. A request whose client hung up before its answer is logged and
//! counted too, with status [`CANCELLED`].

use std::sync::Arc;
use std::time::Instant;

use axum::http::{Method, Request};
use axum::response::Response;

use super::metrics::{self, Metrics};
use crate::cli::args::LogFormat as Format;
use c4solver::lines::excerpt;

/// The status logged for a request whose client went away before the answer
/// (nginx's "client closed request"); nothing is sent for it.
pub const CANCELLED: u16 = 499;

/// The target of the access log's events.
pub const TARGET: &str = "c4solver::access";

/// What a handler tells the log of its answer (a response extension).
#[derive(Clone, Copy, Debug)]
pub struct Served {
    /// From the cache.
    pub cached: bool,
    /// The search's nodes (those of the search that found a cached answer).
    pub nodes: u64,
}

/// Sends the access log's events to stderr in `format`.
pub fn install(format: Format) {
    let builder = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_target(false);
    // A second install (in-process tests) keeps the first: nothing to report.
    let _ = match format {
        Format::Text => builder.without_time().with_level(false).try_init(),
        Format::Json => builder
            .json()
            .flatten_event(true)
            .with_target(true)
            .try_init(),
    };
}

/// What the access layer shares: the metrics, and the log's format (`None`:
/// `--quiet`).
pub struct Access {
    /// Where requests are counted.
    pub metrics: Arc<Metrics>,
    /// The log's format.
    pub format: Option<Format>,
}

/// One request's line, written when it is answered or, if the HTTP stack drops
/// the request first (the client hung up), when it is dropped.
pub struct Line {
    access: Arc<Access>,
    method: Method,
    path: String,
    route: &'static str,
    start: Instant,
    status: Option<u16>,
    served: Option<Served>,
}

impl Line {
    /// Starts timing `request` (counted in flight until the line is dropped).
    pub fn start<B>(access: &Arc<Access>, request: &Request<B>) -> Line {
        let uri = request.uri();
        let path = match access.format {
            Some(_) => uri
                .path_and_query()
                .map_or_else(|| "/".to_string(), |p| excerpt(p.as_str())),
            None => String::new(),
        };
        access.metrics.requests_in_flight.inc();
        Line {
            access: access.clone(),
            method: request.method().clone(),
            path,
            route: metrics::route(uri.path()),
            start: Instant::now(),
            status: None,
            served: None,
        }
    }

    /// Takes the status of `response` and what its handler served; the line is
    /// written when it is dropped.
    pub fn answered(&mut self, response: &Response) {
        self.status = Some(response.status().as_u16());
        self.served = response.extensions().get::<Served>().copied();
    }
}

impl Drop for Line {
    fn drop(&mut self) {
        let status = self.status.unwrap_or(CANCELLED);
        let seconds = self.start.elapsed().as_secs_f64();
        let metrics = &self.access.metrics;
        metrics.request(self.route, status, seconds);
        metrics.requests_in_flight.dec();
        let (cached, nodes) = (self.served.map(|s| s.cached), self.served.map(|s| s.nodes));
        let ms = (seconds * 1e4).round() / 10.0;
        let (method, path) = (self.method.as_str(), self.path.as_str());
        match self.access.format {
            None => {}
            Some(Format::Text) => tracing::info!(
                target: TARGET, cached, nodes, "{method} {path} {status} {ms:.1}ms"
            ),
            Some(Format::Json) => {
                tracing::info!(target: TARGET, method, path, status, ms, cached, nodes);
            }
        }
    }
}
