//! Searches that Ctrl-C can stop.
//!
//! Python runs its signal handlers only on the main thread, between bytecodes:
//! a search that holds the calling thread would let Ctrl-C wait until it ends.
//! So the search runs on a thread of its own, without the GIL, while the calling
//! thread waits for it in slices of [`POLL`] and asks Python between two slices
//! whether a signal came ([`Python::check_signals`]). If the handler raised (the
//! default one raises `KeyboardInterrupt`), the search's [`StopFlag`] is set: it
//! stops within a fraction of a millisecond, and the exception goes up to the
//! caller. Off the main thread Python reports no signal, and the search runs to
//! its end.
//!
//! Starting that thread costs tens of microseconds, more than a whole search of
//! a position late in the game: a position with at least [`WATCHED_FROM`] stones
//! is searched on the calling thread (still without the GIL), where Ctrl-C waits
//! for the search to end.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use c4solver::StopFlag;
use c4solver::batch as threads;
use pyo3::prelude::*;

/// Stones from which a position is searched on the calling thread: the longest
/// search of such a position in Pascal Pons' Middle sets (15-28 stones) took 9 ms
/// (`c4solver solve --json --threads 1 --no-book`), the longest with
/// fewer 65 ms.
pub const WATCHED_FROM: usize = 20;

/// How long the calling thread waits between two checks for a signal.
pub const POLL: Duration = Duration::from_millis(50);

/// [`run`] if `watch`, else `search` on the calling thread without the GIL.
pub fn run_if<T: Send>(
    watch: bool,
    py: Python<'_>,
    stop: &StopFlag,
    search: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    if watch {
        run(py, stop, |_| Ok(()), search)
    } else {
        Ok(py.detach(search))
    }
}

/// Runs `search` on another thread, without the GIL, and returns its answer; if a
/// signal handler raises meanwhile, sets `stop` (which `search` must poll), waits
/// for `search` to return, clears `stop` and raises the handler's exception.
/// `tick` runs with the GIL every [`POLL`] while the search runs (a progress
/// bar); an error from it stops the search the same way. A thread that cannot
/// start is a MemoryError.
pub fn run<T: Send>(
    py: Python<'_>,
    stop: &StopFlag,
    mut tick: impl FnMut(Python<'_>) -> PyResult<()>,
    search: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let (tx, mut rx) = mpsc::sync_channel(1);
        // Returns once the thread runs.
        threads::spawn_scoped(scope, "c4solver-search".into(), move || {
            // The receiver is gone only once the caller has left with an error.
            let _ = tx.send(search());
        })
        .map_err(|e| {
            pyo3::exceptions::PyMemoryError::new_err(format!("cannot start the search thread: {e}"))
        })?;
        loop {
            let (back, answer) = py.detach(move || wait(rx, Some(POLL)));
            rx = back;
            match answer {
                Ok(t) => return Ok(t),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = tick(py).and_then(|()| py.check_signals()) {
                        stop.stop();
                        // The search sees the flag within a fraction of a millisecond.
                        let _ = py.detach(move || wait(rx, None));
                        stop.reset();
                        return Err(e);
                    }
                }
                // The search panicked: the scope's end raises its panic.
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(pyo3::exceptions::PyRuntimeError::new_err(
                        "the search thread failed",
                    ));
                }
            }
        }
    })
}

/// Waits up to `timeout` (or without end) for the answer; hands the receiver back.
fn wait<T>(
    rx: Receiver<T>,
    timeout: Option<Duration>,
) -> (Receiver<T>, Result<T, RecvTimeoutError>) {
    let answer = match timeout {
        Some(t) => rx.recv_timeout(t),
        None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
    };
    (rx, answer)
}
