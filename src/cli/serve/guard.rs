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

/// The key of a client address: an IPv4 address (an IPv4-mapped IPv6 one
/// included) as it is, an IPv6 one by its /64 prefix, which one host or home
/// usually holds whole (so that it cannot take a new address per request).
pub fn client(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => {
            let prefix = u128::from(v6) & !u128::from(u64::MAX);
            IpAddr::V6(prefix.into())
        }
        v4 => v4,
    }
}

/// The middleware: a request over its address's rate is answered 429 with
/// `Retry-After` (whole seconds, at least 1).
pub async fn rate_limit(
    State(limit): State<Arc<RateLimit>>,
    request: Request,
    next: Next,
) -> Response {
    let ip = request.extensions().get::<Peer>().map(|p| client(p.0.ip()));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ipv6_client_is_its_64_prefix_and_an_ipv4_one_itself() {
        let key = |s: &str| client(s.parse().unwrap()).to_string();
        assert_eq!(key("203.0.113.7"), "203.0.113.7");
        assert_eq!(key("::ffff:203.0.113.7"), "203.0.113.7");
        assert_eq!(key("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), "2001:db8:1:2::");
        assert_eq!(key("2001:db8:1:2::1"), key("2001:db8:1:2:ffff::9"));
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
    }

    #[test]
    fn a_burst_then_a_wait() {
        let limit = RateLimit::new(1, 2, Arc::new(Metrics::new())).unwrap();
        let ip: IpAddr = "192.0.2.1".parse().unwrap();
        assert_eq!(limit.check(ip), None);
        assert_eq!(limit.check(ip), None);
        let wait = limit.check(ip).expect("over the burst");
        assert!(wait <= Duration::from_secs(1), "{wait:?}");
        assert_eq!(
            limit.check("192.0.2.2".parse().unwrap()),
            None,
            "another client"
        );
        assert!(RateLimit::new(0, 5, Arc::new(Metrics::new())).is_none());
    }
}
