//! What protects the machine from its clients: a rate limit per client address
//! on the API (`--rate-limit`, governor's keyed GCRA limiter) and the answer
//! given to a connection over `--max-connections`.

use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::Clock;
use governor::{DefaultKeyedRateLimiter, Quota};

use super::error::ApiError;
use super::metrics::Metrics;

/// The client's socket address, put in each request's extensions by the
/// connection that carries it.
#[derive(Clone, Copy, Debug)]
pub struct Peer(pub SocketAddr);

/// How often the limiter forgets the addresses that are back to a full burst
/// (their state is a few bytes each; this bounds the map to recent clients).
pub const FORGET_EVERY: Duration = Duration::from_secs(60);

/// The rate limit per client address.
pub struct RateLimit {
    limiter: DefaultKeyedRateLimiter<IpAddr>,
    metrics: Arc<Metrics>,
    per_second: u32,
    burst: u32,
}

impl RateLimit {
    /// `per_second` requests a second per address, `burst` at once; `None` if
    /// `per_second` is 0 (no limit).
    pub fn new(per_second: u32, burst: u32, metrics: Arc<Metrics>) -> Option<Arc<RateLimit>> {
        let rate = NonZeroU32::new(per_second)?;
        let burst = NonZeroU32::new(burst).unwrap_or(rate);
        let quota = Quota::per_second(rate).allow_burst(burst);
        Some(Arc::new(RateLimit {
            limiter: DefaultKeyedRateLimiter::keyed(quota),
            metrics,
            per_second,
            burst: burst.get(),
        }))
    }

    /// Forgets the addresses back to a full burst, every [`FORGET_EVERY`].
    pub async fn forget(self: Arc<Self>) {
        let mut every = tokio::time::interval(FORGET_EVERY);
        loop {
            every.tick().await;
            self.limiter.retain_recent();
            self.limiter.shrink_to_fit();
        }
    }

    /// The wait before `ip` may send its next request, `None` if it may now.
    fn check(&self, ip: IpAddr) -> Option<Duration> {
        let refused = self.limiter.check_key(&ip).err()?;
        Some(refused.wait_time_from(self.limiter.clock().now()))
    }
}

/// The middleware: a request over its address's rate is answered 429 with
/// `Retry-After` (whole seconds, at least 1).
pub async fn rate_limit(
    State(limit): State<Arc<RateLimit>>,
    request: Request,
    next: Next,
) -> Response {
    let ip = request
        .extensions()
        .get::<Peer>()
        .map(|p| p.0.ip().to_canonical());
    let Some(wait) = ip.and_then(|ip| limit.check(ip)) else {
        return next.run(request).await;
    };
    limit.metrics.rate_limited.inc();
    let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    let mut response = ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        format!(
            "too many requests: at most {} a second from one address (bursts of {}) by --rate-limit; try again in {} s",
            limit.per_second,
            limit.burst,
            secs.max(1)
        ),
    )
    .into_response();
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(secs.max(1)));
    response
}

/// The answer to every request of a connection over `--max-connections`
/// (sent with `Connection: close`).
pub fn too_many_connections(max: usize) -> Response {
    ApiError::unavailable(format!(
        "too many connections: the server holds at most {max} (--max-connections); try again later"
    ))
    .into_response()
}
