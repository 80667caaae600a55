//! `c4solver serve`: the board page and the HTTP API, on axum over tokio.
//!
//! Requests are parsed by the command line's own parser ([`solver::parse`]),
//! answered from the [`cache::Cache`] or queued for the solver threads
//! ([`pool::Pool`]), which run outside the async runtime. Connections are
//! hyper's HTTP/1 with a header timeout (`--header-timeout`): a connection
//! that does not send a whole request head in time, idle or half-sent, is
//! closed. The first SIGINT or SIGTERM stops accepting connections, lets the
//! requests in flight finish for at most [`GRACE`], then stops their searches
//! and exits within [`SHUTDOWN`] of the signal.

mod answer;
mod cache;
mod error;
mod handlers;
mod limits;
mod log;
mod page;
mod pool;
mod query;
mod routes;
mod solver;

use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;

use super::Outcome;
use super::args::{EngineArgs, ServeArgs};
use super::engine;
use super::signals::Signals;
use answer::Parsed;
use cache::Cache;
use pool::Pool;

/// How long the requests in flight may go on after a stop signal.
pub const GRACE: Duration = Duration::from_millis(700);

/// When, after the stop signal is seen, the connections still open are
/// dropped (the requests whose search was stopped at [`GRACE`] are answered a
/// few milliseconds after it unless the machine is very loaded).
pub const DRAIN: Duration = Duration::from_millis(1200);

/// When, after the stop signal is seen, the process ends whatever still runs
/// (a watchdog thread, so that neither a loaded runtime nor a thread that does
/// not stop can hold the exit). docs/server.md promises 1.7 s from the signal:
/// this bound, the signal's poll and the scheduler's delay.
pub const SHUTDOWN: Duration = Duration::from_millis(1500);

/// How often the signal flag is looked at.
const SIGNAL_POLL: Duration = Duration::from_millis(20);

/// How long to wait before accepting again after an error (out of file
/// descriptors: the idle connections' header timeout frees some).
const ACCEPT_RETRY: Duration = Duration::from_millis(50);

/// What every handler shares.
pub struct App {
    /// The solver threads and their queue.
    pub pool: Pool,
    /// Recent answers.
    pub cache: Cache,
    /// The command line's parser for this board.
    pub parse: fn(&[u8]) -> Result<Parsed, String>,
    /// The longest search of one request.
    pub timeout: Duration,
    /// The board's width.
    pub width: usize,
    /// The board's height.
    pub height: usize,
}

/// Serves until a signal stops it.
///
/// # Errors
/// Options, book or table errors (as the other commands report them), an
/// address that cannot be listened on, a runtime that cannot start.
pub fn run<const W: usize, const H: usize>(
    args: &ServeArgs,
    engine: &EngineArgs,
    signals: &Signals,
) -> anyhow::Result<Outcome> {
    let threads = engine::threads(engine);
    let works = solver::workers::<W, H>(engine, threads)?;
    let queue = usize::try_from(args.queue).unwrap_or(usize::MAX);
    let app = Arc::new(App {
        pool: Pool::start(works, queue)?,
        cache: Cache::new(args.cache),
        parse: solver::parse::<W, H>,
        timeout: Duration::from_secs(args.timeout),
        width: W,
        height: H,
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("c4solver-http")
        .build()
        .context("cannot start the HTTP runtime")?;
    let served = runtime.block_on(serve(app, args, signals.clone()));
    // A task still waiting on a stopped search must not hold the exit.
    runtime.shutdown_background();
    served.map(|()| Outcome::Ok)
}

/// Listens, prints the URL, and serves until a signal, then shuts down within
/// [`SHUTDOWN`].
async fn serve(app: Arc<App>, args: &ServeArgs, signals: Signals) -> anyhow::Result<()> {
    let listener = tokio::net::TcpListener::bind(&args.addr)
        .await
        .with_context(|| format!("--addr {}: cannot listen there", args.addr))?;
    let addr = listener.local_addr().context("--addr: no local address")?;
    // A reader that went away does not stop the server: the URL is only news.
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "c4solver: serving http://{addr}/ (Ctrl-C to stop)");
    let _ = stdout.flush();
    drop(stdout);
    let router = routes::app(app.clone(), !args.quiet);
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(Duration::from_secs(args.header_timeout));
    let graceful = GracefulShutdown::new();
    let stopped = async {
        while !signals.stop_flag().is_stopped() {
            tokio::time::sleep(SIGNAL_POLL).await;
        }
    };
    let mut stopped = std::pin::pin!(stopped);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut stopped => break,
        };
        let Ok((stream, _)) = accepted else {
            tokio::time::sleep(ACCEPT_RETRY).await;
            continue;
        };
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(router.clone());
        let connection = graceful.watch(http.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            // A connection's errors (a reset, a header timeout) are its own.
            let _ = connection.await;
        });
    }
    let seen = Instant::now();
    watchdog(seen + SHUTDOWN, signals.exit_code().unwrap_or(0));
    drop(listener);
    let mut drained = std::pin::pin!(graceful.shutdown());
    if tokio::time::timeout(GRACE, &mut drained).await.is_err() {
        // The requests still in flight are answered 503 as their searches stop.
        app.pool.stop_all();
        let left = (seen + DRAIN).saturating_duration_since(Instant::now());
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
