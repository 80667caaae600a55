//! `solve_many`: the scores of many positions on every core, for labelling data
//! sets.

use std::sync::Mutex;

use c4solver::{Position as Board, SolveError, StopFlag};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;

use crate::position::PositionArg;
use crate::solver::{new_solver, thread_count};
use crate::{interrupt, mode, solve_error};

/// solve_many(positions, weak=False, threads=None, table_mb=64, book=True) -> list[int]
///
/// The scores of many positions (Positions or move strings), in order, as
/// Solver.solve gives them: solved in parallel on `threads` threads (default:
/// every core), each with its own table of `table_mb` megabytes and one position
/// at a time, without the GIL. With book=True, positions with at most the
/// built-in book's depth stones are answered from it. Raises ValueError naming
/// the first bad item, 0-based ("item 2: column 8 is out of range (1..=7) at move
/// 3"), before solving anything; Ctrl-C stops the whole batch
/// (KeyboardInterrupt).
#[pyfunction]
#[pyo3(signature = (positions, weak = false, threads = None, table_mb = 64, book = true))]
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
    let solvers = (0..threads)
        .map(|_| {
            let mut s = new_solver(table_mb, book, 1)?;
            s.set_stop_flag(stop.clone());
            Ok(Mutex::new(s))
        })
        .collect::<PyResult<Vec<_>>>()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    let scores = interrupt::run(py, &stop, || {
        pool.install(|| {
            boards
                .par_iter()
                .map(|b| {
                    let i = rayon::current_thread_index().expect("on the pool");
                    let mut solver = solvers[i].lock().expect("never poisoned");
                    solver.solve(b, mode(weak)).map(|s| s.score)
                })
                .collect::<Result<Vec<i32>, SolveError>>()
        })
    })?;
    scores.map_err(solve_error)
}
