//! `GET /metrics`: what an operator watches, in the Prometheus text format
//! (OpenMetrics, prometheus-client's encoding): requests by route and status,
//! their durations, searches started, cache hits, and the load now.

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

use super::page;
use super::routes::API;

/// The content type of the answer: OpenMetrics text, which Prometheus reads.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// A request's labels: its route (a fixed set, never the raw path) and status.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RequestLabels {
    /// One of [`ROUTES`]: an API path, `page` or `other`.
    pub route: &'static str,
    /// The status answered (499: the client hung up first).
    pub status: u16,
}

/// A duration's label: the route.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RouteLabel {
    /// As in [`RequestLabels`].
    pub route: &'static str,
}

type Durations = Family<RouteLabel, Histogram, fn() -> Histogram>;

/// Every route label, in the order of [`Metrics::routes`]: the API's paths
/// ([`API`]), then `page` and `other`.
pub const ROUTES: [&str; API.len() + 2] = {
    let mut routes = ["page"; API.len() + 2];
    let mut i = 0;
    while i < API.len() {
        routes[i] = API[i];
        i += 1;
    }
    routes[API.len() + 1] = "other";
    routes
};

/// One route's metrics, taken from their families once so that counting a
/// request takes no lock on a family's map: its 200s and its durations.
struct Route {
    ok: Counter,
    durations: Histogram,
}

/// Every metric, shared by the handlers, the solver threads and the log layer.
pub struct Metrics {
    registry: Registry,
    /// `c4solver_requests_total{route,status}`.
    pub requests: Family<RequestLabels, Counter>,
    /// `c4solver_request_duration_seconds{route}`.
    pub durations: Durations,
    /// `c4solver_searches_total`: searches a solver thread started.
    pub searches: Counter,
    /// `c4solver_cache_hits_total`: answers served from the cache.
    pub cache_hits: Counter,
    /// `c4solver_shared_searches_total`: requests that joined a search another
    /// request had started for the same answer.
    pub joined: Counter,
    /// `c4solver_rate_limited_total`: requests refused with 429.
    pub rate_limited: Counter,
    /// `c4solver_queue_depth`: searches waiting for a thread (set when read).
    pub queue_depth: Gauge,
    /// `c4solver_searches_in_flight`: threads searching (set when read).
    pub in_flight: Gauge,
    /// `c4solver_requests_in_flight`: requests being answered.
    pub requests_in_flight: Gauge,
    /// `c4solver_connections_open`.
    pub connections: Gauge,
    /// Each of [`ROUTES`]' handles.
    routes: [Route; ROUTES.len()],
}

/// Buckets from 0.25 ms to about 8 minutes (doubling): a cached answer to the
/// longest search.
fn buckets() -> Histogram {
    Histogram::new(exponential_buckets(0.000_25, 2.0, 22))
}

impl Metrics {
    /// Every metric at zero, registered.
    pub fn new() -> Metrics {
        let mut registry = Registry::default();
        let requests = Family::<RequestLabels, Counter>::default();
        let durations: Durations = Family::new_with_constructor(buckets);
        let (searches, cache_hits, joined, rate_limited) = Default::default();
        let (queue_depth, in_flight, requests_in_flight, connections) = Default::default();
        let routes = ROUTES.map(|route| Route {
            ok: requests.get_or_create_owned(&RequestLabels { route, status: 200 }),
            durations: durations.get_or_create_owned(&RouteLabel { route }),
        });
        let m = Metrics {
            registry: Registry::default(),
            requests,
            durations,
            searches,
            cache_hits,
            joined,
            rate_limited,
            queue_depth,
            in_flight,
            requests_in_flight,
            connections,
            routes,
        };
        let r = &mut registry;
        r.register(
            "c4solver_requests",
            "Requests answered, by route and status (499: the client hung up first)",
            m.requests.clone(),
        );
        r.register(
            "c4solver_request_duration_seconds",
            "Time from a request's head to its answer, by route",
            m.durations.clone(),
        );
        r.register(
            "c4solver_searches",
            "Searches started on a solver thread",
            m.searches.clone(),
        );
        r.register(
            "c4solver_cache_hits",
            "Answers served from the cache",
            m.cache_hits.clone(),
        );
        r.register(
            "c4solver_shared_searches",
            "Requests that waited for a search another request had started",
            m.joined.clone(),
        );
        r.register(
            "c4solver_rate_limited",
            "Requests refused with 429 by --rate-limit",
            m.rate_limited.clone(),
        );
        r.register(
            "c4solver_queue_depth",
            "Searches waiting for a solver thread",
            m.queue_depth.clone(),
        );
        r.register(
            "c4solver_searches_in_flight",
            "Solver threads searching",
            m.in_flight.clone(),
        );
        r.register(
            "c4solver_requests_in_flight",
            "Requests being answered",
            m.requests_in_flight.clone(),
        );
        r.register(
            "c4solver_connections_open",
            "Connections open (--max-connections bounds them)",
            m.connections.clone(),
        );
        Metrics { registry, ..m }
    }

    /// The text of every metric, `waiting` and `busy` the pool's load now.
    pub fn render(&self, waiting: usize, busy: usize) -> String {
        self.queue_depth
            .set(i64::try_from(waiting).unwrap_or(i64::MAX));
        self.in_flight.set(i64::try_from(busy).unwrap_or(i64::MAX));
        let mut text = String::new();
        // Writing to a String cannot fail.
        let _ = encode(&mut text, &self.registry);
        text
    }

    /// Counts one request of `route` answered `status` after `seconds`.
    pub fn request(&self, route: &'static str, status: u16, seconds: f64) {
        let handles = ROUTES
            .iter()
            .position(|&r| r == route)
            .map(|i| &self.routes[i]);
        match handles {
            Some(h) if status == 200 => h.ok.inc(),
            _ => self
                .requests
                .get_or_create(&RequestLabels { route, status })
                .inc(),
        };
        match handles {
            Some(h) => h.durations.observe(seconds),
            None => self
                .durations
                .get_or_create(&RouteLabel { route })
                .observe(seconds),
        }
    }
}

/// The route label of `path`: the API's paths, the page's files, or `other`.
pub fn route(path: &str) -> &'static str {
    if let Some(api) = API.iter().find(|&&p| p == path) {
        return api;
    }
    if page::ASSETS.iter().any(|a| a.path == path) {
        return "page";
    }
    "other"
}

/// The `/metrics` answer for `text`.
pub fn respond(text: String) -> Response {
    let mut response = text.into_response();
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(CONTENT_TYPE));
    response
}

/// The value of the sample `name` (with its labels, as written) in `text`, if
/// any.
#[cfg(test)]
fn sample(text: &str, name: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_metric_is_written_and_moves() {
        let m = Metrics::new();
        let before = m.render(0, 0);
        for name in [
            "c4solver_searches_total",
            "c4solver_cache_hits_total",
            "c4solver_queue_depth",
            "c4solver_searches_in_flight",
        ] {
            assert_eq!(sample(&before, name), Some(0.0), "{name} in {before}");
        }
        m.request("/solve", 200, 0.001);
        m.request("/solve", 200, 0.002);
        m.request("/solve", 400, 0.003);
        m.searches.inc();
        m.cache_hits.inc();
        let after = m.render(3, 2);
        assert_eq!(
            sample(
                &after,
                r#"c4solver_requests_total{route="/solve",status="200"}"#
            ),
            Some(2.0),
            "{after}"
        );
        assert_eq!(
            sample(
                &after,
                r#"c4solver_requests_total{route="/solve",status="400"}"#
            ),
            Some(1.0),
            "{after}"
        );
        assert_eq!(
            sample(
                &after,
                r#"c4solver_request_duration_seconds_count{route="/solve"}"#
            ),
            Some(3.0)
        );
        assert_eq!(sample(&after, "c4solver_searches_total"), Some(1.0));
        assert_eq!(sample(&after, "c4solver_cache_hits_total"), Some(1.0));
        assert_eq!(sample(&after, "c4solver_queue_depth"), Some(3.0));
        assert_eq!(sample(&after, "c4solver_searches_in_flight"), Some(2.0));
        assert!(after.ends_with("# EOF\n"), "{after}");
    }

    #[test]
    fn routes_are_a_fixed_set() {
        assert_eq!(
            ROUTES,
            [
                "/solve", "/analyze", "/sizes", "/health", "/metrics", "page", "other"
            ]
        );
        assert_eq!(route("/solve"), "/solve");
        assert_eq!(route("/metrics"), "/metrics");
        assert_eq!(route("/app.js"), "page");
        assert_eq!(route("/sizes"), "/sizes");
        assert_eq!(route("/solve/4455"), "other");
        assert_eq!(route("/anything"), "other");
    }
}
