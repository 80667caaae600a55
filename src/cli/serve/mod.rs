//! `c4solver serve`: the board page and the HTTP API, on axum over tokio.
//!
//! Every built board size is answered: a request names its size (`size=WxH`,
//! the `--size` board by default; `/sizes` lists them). Requests are parsed by
//! the command line's own parser ([`solver::parse`]),
//! answered from the [`cache::Cache`] or by a search on the solver threads
//! ([`pool::Pool`], outside the async runtime), one search per answer at a
//! time ([`flight::Flights`]). Connections are hyper's HTTP/1 with a header
//! timeout (`--header-timeout`), at most `--max-connections` at once. The
//! first SIGINT or SIGTERM (tokio's signal streams) stops accepting
//! connections, lets the requests in flight finish for at most `--grace`, then
//! stops their searches and exits within [`EXIT_AFTER_GRACE`] more.

mod answer;
mod cache;
mod error;
mod flight;
mod front;
mod guard;
mod handlers;
mod limits;
mod log;
mod metrics;
mod page;
mod pool;
mod query;
mod routes;
mod solver;

use c4solver::Size;
use std::convert::Infallible;
use std::io::Write;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use axum::extract::Request;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpStream;
use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::Semaphore;

use super::Exit;
use super::args::{EngineArgs, ServeArgs};
use super::engine;
use super::signals::Signals;
use cache::Cache;
use flight::Flights;
use front::Front;
use guard::{Peer, RateLimit};
use log::Access;
use metrics::Metrics;
use pool::Pool;

/// When, after `--grace`, the connections still open are dropped (the
/// requests whose search was stopped at the end of the grace are answered a
/// few milliseconds after it unless the machine is very loaded).
pub const DRAIN_AFTER_GRACE: Duration = Duration::from_millis(500);

/// When, after `--grace`, the process ends whatever still runs (a watchdog
/// thread, so that neither a loaded runtime nor a thread that does not stop
/// can hold the exit). docs/server.md promises `--grace` + 1 s from the signal:
/// this bound and the scheduler's delay.
pub const EXIT_AFTER_GRACE: Duration = Duration::from_millis(800);

/// How long to wait before accepting again after an error (out of file
/// descriptors: the idle connections' header timeout frees some).
const ACCEPT_RETRY: Duration = Duration::from_millis(50);

/// What every handler shares.
pub struct App {
    /// The solver threads and their queue.
    pub pool: Pool,
    /// Recent answers.
    pub cache: Arc<Cache>,
    /// The searches under way, one per answer.
    pub flights: Arc<Flights>,
    /// What `/metrics` shows.
    pub metrics: Arc<Metrics>,
    /// The board of a request without `size` (`--size`).
    pub size: Size,
    /// The longest wait on a board of at most 64 bits and over 64 bits, with the
    /// option that sets each (`--timeout`, `--wide-timeout`).
    pub limits: [(Duration, &'static str); 2],
    /// Whether the access log is written (else the handlers tell it nothing).
    pub logged: bool,
}

impl App {
    /// The longest wait of a request on the `size` board, and the option that
    /// sets it.
    pub fn limit(&self, size: Size) -> (Duration, &'static str) {
        self.limits[usize::from(size.is_wide())]
    }
}

/// Serves until a signal stops it.
///
/// # Errors
/// Options, book or table errors (as the other commands report them), an
/// address that cannot be listened on, a runtime that cannot start.
pub fn run(args: &ServeArgs, engine: &EngineArgs, signals: &Signals) -> anyhow::Result<Exit> {
    if args.rate_limit == 0 && args.rate_burst.is_some() {
        anyhow::bail!("--rate-burst applies past --rate-limit: give a --rate-limit above 0");
    }
    let cors = routes::cors(&args.cors_origin)?;
    let threads = engine::threads(engine);
    let works = solver::workers(engine, threads)?;
    let metrics = Arc::new(Metrics::new());
    let app = Arc::new(App {
        pool: Pool::start(works, args.queue, metrics.searches.clone())?,
        cache: Arc::new(Cache::new(args.cache)),
        flights: Arc::default(),
        metrics: metrics.clone(),
        size: engine.size,
        limits: [false, true].map(|wide| {
            let (secs, flag) = args.limit(wide);
            (Duration::from_secs(secs), flag)
        }),
        logged: !args.quiet,
    });
    if !args.quiet {
        log::install(args.log_format);
    }
    let access = Arc::new(Access {
        metrics,
        format: (!args.quiet).then_some(args.log_format),
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("c4solver-http")
        .build()
        .context("cannot start the HTTP runtime")?;
    let served = runtime.block_on(async {
        let limit = RateLimit::new(
            args.rate_limit,
            args.rate_burst.unwrap_or(args.rate_limit.saturating_mul(2)),
            app.metrics.clone(),
        );
        if let Some(limit) = &limit {
            tokio::spawn(limit.clone().forget());
        }
        let front = routes::app(app.clone(), access, cors, limit);
        serve(app, front, args, signals.clone()).await
    });
    // A task still waiting on a stopped search must not hold the exit.
    runtime.shutdown_background();
    served.map(|()| Exit::Ok)
}

/// Resolves at the first SIGINT or SIGTERM.
fn stop_signal() -> anyhow::Result<impl Future<Output = ()>> {
    let mut terminate = signal(SignalKind::terminate()).context("cannot watch SIGTERM")?;
    let mut interrupt = signal(SignalKind::interrupt()).context("cannot watch SIGINT")?;
    Ok(async move {
        tokio::select! {
            _ = terminate.recv() => {}
            _ = interrupt.recv() => {}
        }
    })
}

/// The connections: at most `max` are served by `front`, the others are answered 503.
struct Connections {
    front: Front,
    http: http1::Builder,
    over: http1::Builder,
    open: Arc<Semaphore>,
    max: usize,
    graceful: GracefulShutdown,
    app: Arc<App>,
    /// Whether requests carry their [`Peer`] (the rate limit's key).
    peers: bool,
}

impl Connections {
    /// Serves `stream` from `peer` on a task of its own.
    fn serve(&self, stream: TcpStream, peer: SocketAddr) {
        let _ = stream.set_nodelay(true);
        let io = TokioIo::new(stream);
        let Ok(permit) = self.open.clone().try_acquire_owned() else {
            let max = self.max;
            let service = service_fn(move |_: Request<Incoming>| async move {
                Ok::<_, Infallible>(guard::too_many_connections(max))
            });
            let connection = self.graceful.watch(self.over.serve_connection(io, service));
            tokio::spawn(async move {
                let _ = connection.await;
            });
            return;
        };
        let front = self.front.clone();
        let peers = self.peers;
        let service = service_fn(move |mut request: Request<Incoming>| {
            if peers {
                request.extensions_mut().insert(Peer(peer));
            }
            front.call(request)
        });
        let connection = self.graceful.watch(self.http.serve_connection(io, service));
        let metrics = self.app.metrics.clone();
        metrics.connections.inc();
        tokio::spawn(async move {
            // A connection's errors (a reset, a header timeout) are its own.
            let _ = connection.await;
            metrics.connections.dec();
            drop(permit);
        });
    }
}

/// Listens, prints the URL, and serves until a signal, then shuts down within
/// `--grace` and [`EXIT_AFTER_GRACE`].
async fn serve(
    app: Arc<App>,
    front: Front,
    args: &ServeArgs,
    signals: Signals,
) -> anyhow::Result<()> {
    let stopped = stop_signal()?;
    let listener = tokio::net::TcpListener::bind(&args.addr)
        .await
        .with_context(|| format!("--addr {}: cannot listen there", args.addr))?;
    let addr = listener.local_addr().context("--addr: no local address")?;
    // A reader that went away does not stop the server: the URL is only news.
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "c4solver: serving http://{addr}/ (Ctrl-C to stop)");
    let _ = stdout.flush();
    drop(stdout);
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(Duration::from_secs(args.header_timeout));
    let mut over = http.clone();
    over.keep_alive(false);
    let connections = Connections {
        front,
        http,
        over,
        open: Arc::new(Semaphore::new(args.max_connections)),
        max: args.max_connections,
        graceful: GracefulShutdown::new(),
        app: app.clone(),
        peers: args.rate_limit > 0,
    };
    let mut stopped = std::pin::pin!(stopped);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut stopped => break,
        };
        match accepted {
            Ok((stream, peer)) => connections.serve(stream, peer),
            Err(_) => tokio::time::sleep(ACCEPT_RETRY).await,
        }
    }
    let seen = Instant::now();
    let grace = args.grace;
    watchdog(
        seen + grace + EXIT_AFTER_GRACE,
        signals.exit_code().unwrap_or(0),
    );
    drop(listener);
    let mut drained = std::pin::pin!(connections.graceful.shutdown());
    if tokio::time::timeout(grace, &mut drained).await.is_err() {
        // The requests still in flight are answered 503 as their searches stop.
        app.pool.stop_all();
        let left = (seen + grace + DRAIN_AFTER_GRACE).saturating_duration_since(Instant::now());
        let _ = tokio::time::timeout(left, &mut drained).await;
    }
    Ok(())
}

/// Ends the process with `code` at `deadline` if it has not ended by then.
fn watchdog(deadline: Instant, code: u8) {
    let _ = std::thread::Builder::new()
        .name("c4solver-exit".into())
        .spawn(move || {
            std::thread::sleep(deadline.saturating_duration_since(Instant::now()));
            std::process::exit(i32::from(code));
        });
}
