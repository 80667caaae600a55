//! `c4solver serve`: the board page and the HTTP API, on axum over tokio.
//!
//! Requests are parsed by the command line's own parser ([`solver::parse`]),
//! answered from the [`cache::Cache`] or queued for the solver threads
//! ([`pool::Pool`]), which run outside the async runtime. The first SIGINT or
//! SIGTERM stops accepting connections, lets the requests in flight finish for
//! at most [`GRACE`], then stops their searches and exits.

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
use std::time::Duration;

use anyhow::Context;

use super::Outcome;
use super::args::{EngineArgs, ServeArgs};
use super::engine;
use super::signals::Signals;
use answer::Parsed;
use cache::Cache;
use pool::Pool;

/// How long the requests in flight may go on after a stop signal.
pub const GRACE: Duration = Duration::from_millis(700);

/// How long the requests whose search was stopped then have to be answered (a
/// few milliseconds unless the machine is very loaded); the process exits after
/// at most `GRACE + ANSWER` in all.
pub const ANSWER: Duration = Duration::from_millis(1000);

/// How often the signal flag is looked at.
const SIGNAL_POLL: Duration = Duration::from_millis(20);

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
    runtime.shutdown_timeout(Duration::from_millis(100));
    served.map(|()| Outcome::Ok)
}

/// Listens, prints the URL, and serves until a signal, then shuts down within
/// [`GRACE`] and [`ANSWER`] at most.
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
    let (stopping, stopped) = tokio::sync::oneshot::channel::<()>();
    let signal = async move {
        while !signals.stop_flag().is_stopped() {
            tokio::time::sleep(SIGNAL_POLL).await;
        }
        let _ = stopping.send(());
    };
    let router = routes::app(app.clone(), !args.quiet);
    let server = axum::serve(listener, router).with_graceful_shutdown(signal);
    let mut server = std::pin::pin!(server.into_future());
    tokio::select! {
        done = &mut server => return done.context("the server failed"),
        _ = stopped => {}
    }
    if tokio::time::timeout(GRACE, &mut server).await.is_err() {
        // The requests still in flight are answered 503 as their searches stop.
        app.pool.stop_all();
        let _ = tokio::time::timeout(ANSWER, &mut server).await;
    }
    Ok(())
}
