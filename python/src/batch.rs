//! `solve_many`: the scores of many positions on every core, for labelling data
//! sets.

use c4solver::pool::{self, FromIter, PoolError, Worker};
use c4solver::table::TableError;
use c4solver::{Position as Board, SolveError, Solver7x6, StopFlag};
use pyo3::exceptions::{PyMemoryError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::position::{PositionArg, type_name};
use crate::solver::{new_joinable_solver, new_solver, thread_count};
use crate::{interrupt, mode, solve_error, table_error};

/// Results a worker may finish ahead of one still being solved, per worker: the
/// scores are collected in order, so this only bounds the pool's reordering.
const AHEAD_PER_WORKER: usize = 64;

/// solve_many(positions, weak=False, threads=None, table_mb=16, book=True) -> list[int]
///
/// The scores of many positions (Positions or move strings), in order, as
/// Solver.solve gives them: solved in parallel on `threads` threads (default:
/// every core), each with its own table of `table_mb` megabytes and one position
/// at a time, without the GIL. The default table is smaller than Solver's (16
/// MB, not 64): each thread has one, and a batch's searches are mostly small, so
/// they run faster when the tables stay near the processor's cache
/// (`python/benchmarks/table_size.py`; the figures are in python/README.md). At
/// the end of the batch, a thread with nothing left joins the searches still
/// running (sharing their table), so that the last hard positions do not leave
/// cores idle. With book=True, positions with
/// at most the built-in book's depth stones are answered from it. Raises
/// ValueError naming the first bad item, 0-based ("item 2: column 8 is out of
/// range (1..=7) at move 3"), or TypeError for an item that is not a position
/// (and for a str given as the positions), before solving anything; ValueError
/// for threads outside 1..=1024; MemoryError if the threads or tables cannot be
/// had. Ctrl-C stops the whole batch (KeyboardInterrupt).
#[pyfunction]
#[pyo3(signature = (positions, weak = false, threads = None, table_mb = 16, book = true))]
pub fn solve_many(
    py: Python<'_>,
    positions: &Bound<'_, PyAny>,
    weak: bool,
    threads: Option<usize>,
    table_mb: usize,
    book: bool,
) -> PyResult<Vec<i32>> {
    let boards = boards(py, positions)?;
    let threads = thread_count(threads)?.min(boards.len().max(1));
    let stop = StopFlag::new();
    let make = |_| {
        // Alone, nobody joins: the one-thread solver of Solver(threads=1).
        let mut state = if threads == 1 {
            new_solver(table_mb, book, 1)?
        } else {
            new_joinable_solver(table_mb, book)?
        };
        state.set_stop_flag(stop.clone());
        let helper = state.helper();
        Ok::<_, TableError>(Worker { state, helper })
    };
    let n = boards.len();
    let scores = interrupt::run(py, &stop, || {
        let mut scores = Vec::with_capacity(n);
        let mut error = None;
        let ran = pool::run(
            threads,
            make,
            FromIter(boards.into_iter()),
            threads * AHEAD_PER_WORKER,
            &stop,
            |solver: &mut Solver7x6, _, board| match solver.solve(&board, mode(weak)) {
                // Stopped: the pool ends this worker.
                Err(SolveError::Stopped) => None,
                result => Some(result.map(|s| s.score)),
            },
            |_, result| match result {
                Ok(score) => {
                    scores.push(score);
                    true
                }
                Err(e) => {
                    error = Some(e);
                    false
                }
            },
        );
        (ran, error, scores)
    })?;
    match scores {
        (Err(PoolError::Worker(e)), _, _) => Err(table_error(e)),
        (Err(e), _, _) => Err(PyMemoryError::new_err(e.to_string())),
        (Ok(()), Some(e), _) => Err(solve_error(e)),
        (Ok(()), None, scores) if scores.len() < n => Err(solve_error(SolveError::Stopped)),
        (Ok(()), None, scores) => Ok(scores),
    }
}

/// The boards of `positions`, an iterable of Positions or move strings (not a
/// string itself); a TypeError or ValueError naming the first bad item, 0-based.
fn boards(py: Python<'_>, positions: &Bound<'_, PyAny>) -> PyResult<Vec<Board>> {
    if positions.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "positions must be a list (or any iterable) of positions, not a str: \
             solve_many(['4455']) for one, or Solver().solve('4455')",
        ));
    }
    let items = positions.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "positions must be a list (or any iterable) of Positions or move strings, not {}",
            type_name(positions)
        ))
    })?;
    let mut boards = Vec::new();
    for (i, item) in items.enumerate() {
        let item = item?;
        let board = item
            .extract::<PositionArg>()
            .and_then(|p| p.board())
            .map_err(|e| {
                let message = format!("item {i}: {}", e.value(py));
                if e.is_instance_of::<PyTypeError>(py) {
                    PyTypeError::new_err(message)
                } else {
                    PyValueError::new_err(message)
                }
            })?;
        boards.push(board);
    }
    Ok(boards)
}
