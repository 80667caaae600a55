//! `solve_many`: the scores of many positions on every core, for labelling data
//! sets.

use c4solver::pool::{self, FromIter, Worker};
use c4solver::{Position as Board, SolveError, Solver7x6, StopFlag};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::position::PositionArg;
use crate::solver::{new_joinable_solver, new_solver, thread_count};
use crate::{interrupt, mode, solve_error};

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
/// range (1..=7) at move 3"), before solving anything; Ctrl-C stops the whole
/// batch (KeyboardInterrupt).
#[pyfunction]
#[pyo3(signature = (positions, weak = false, threads = None, table_mb = 16, book = true))]
pub fn solve_many(
    py: Python<'_>,
    positions: Vec<PositionArg>,
    weak: bool,
    threads: Option<usize>,
    table_mb: usize,
    book: bool,
) -> PyResult<Vec<i32>> {
    let boards = positions
        .iter()
        .enumerate()
        .map(|(i, p)| {
            p.board()
                .map_err(|e| PyValueError::new_err(format!("item {i}: {}", e.value(py))))
        })
        .collect::<PyResult<Vec<Board>>>()?;
    let threads = thread_count(threads)?.min(boards.len().max(1));
    let stop = StopFlag::new();
    let workers = (0..threads)
        .map(|_| {
            // Alone, nobody joins: the one-thread solver of Solver(threads=1).
            let mut state = if threads == 1 {
                new_solver(table_mb, book, 1)?
            } else {
                new_joinable_solver(table_mb, book)?
            };
            state.set_stop_flag(stop.clone());
            let helper = state.helper();
            Ok(Worker { state, helper })
        })
        .collect::<PyResult<Vec<_>>>()?;
    let n = boards.len();
    let scores = interrupt::run(py, &stop, || {
        let mut scores = Vec::with_capacity(n);
        let mut error = None;
        pool::run(
            workers,
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
        match error {
            Some(e) => Err(e),
            None if scores.len() < n => Err(SolveError::Stopped),
            None => Ok(scores),
        }
    })?;
    scores.map_err(solve_error)
}
