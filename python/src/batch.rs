//! Batches for labelling data sets: the scores (`_solve_many`) or every move's
//! score (`_analyze_many`) of many positions on every core, and which columns
//! can be played (`_legal_mask`). Each returns its numbers as `bytes` of `int8`
//! that the package's `c4solver._bulk` wraps in numpy arrays (with the progress
//! bar, and the check of stacked arrays).

use std::sync::atomic::{AtomicUsize, Ordering};

use c4solver::StopFlag;
use c4solver::batch::{self as pool, PoolError, Worker};
use c4solver::{MoveError, Position as Board, Size, SolveError, Solver as Core, SolverError};
use pyo3::exceptions::{PyMemoryError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::arrays;
use crate::position::{Position, PositionArg, size_arg, type_name};
use crate::solver::{new_joinable_solver, new_solver, solver_error, table_size, thread_count};
use crate::{interrupt, mode, solve_error};

/// Results a worker may finish ahead of one still being solved, per worker: the
/// scores are collected in order, so this only bounds the pool's reordering.
const AHEAD_PER_WORKER: usize = 64;

/// What `_analyze_many` gives for a column that cannot be played (the package's
/// `FULL_COLUMN`): below every score, so that an argmax never picks it.
pub const FULL_COLUMN: i8 = i8::MIN;

/// `_solve_many(positions, weak, threads, table_mb, book, progress, size) ->
/// bytes`: one int8 score per position, in order (see `c4solver.solve_many`).
#[pyfunction(name = "_solve_many")]
#[pyo3(signature = (positions, weak, threads, table_mb, book, progress = None, size = None))]
#[allow(clippy::too_many_arguments)]
pub fn solve_many(
    py: Python<'_>,
    positions: &Bound<'_, PyAny>,
    weak: bool,
    threads: Option<i64>,
    table_mb: i64,
    book: bool,
    progress: Option<Bound<'_, PyAny>>,
    size: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyBytes>> {
    let size = size_arg(size)?;
    let boards = boards(py, positions, size)?;
    let batch = Batch {
        size,
        threads,
        table_mb: table_size(table_mb)?,
        book,
        progress,
    };
    let scores = batch.run(py, boards, |solver, board| {
        solver.solve(board, mode(weak)).map(|s| s.score as i8)
    })?;
    let bytes: Vec<u8> = scores.into_iter().map(|s| s as u8).collect();
    Ok(PyBytes::new(py, &bytes).unbind())
}

/// `_analyze_many(positions, weak, threads, table_mb, book, progress, size) ->
/// bytes`: one int8 score per column (the board's width) per position, in
/// order, [`FULL_COLUMN`] for a full column (see `c4solver.analyze_many`).
#[pyfunction(name = "_analyze_many")]
#[pyo3(signature = (positions, weak, threads, table_mb, book, progress = None, size = None))]
#[allow(clippy::too_many_arguments)]
pub fn analyze_many(
    py: Python<'_>,
    positions: &Bound<'_, PyAny>,
    weak: bool,
    threads: Option<i64>,
    table_mb: i64,
    book: bool,
    progress: Option<Bound<'_, PyAny>>,
    size: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyBytes>> {
    let size = size_arg(size)?;
    let boards = boards(py, positions, size)?;
    let batch = Batch {
        size,
        threads,
        table_mb: table_size(table_mb)?,
        book,
        progress,
    };
    let rows = batch.run(py, boards, |solver, board| {
        let a = solver.analyze(board, mode(weak))?;
        Ok(a.scores()
            .iter()
            .map(|s| s.map_or(FULL_COLUMN, |s| s as i8))
            .collect::<Vec<_>>())
    })?;
    let bytes: Vec<u8> = rows.into_iter().flatten().map(|s| s as u8).collect();
    Ok(PyBytes::new(py, &bytes).unbind())
}

/// `_legal_mask(positions, size) -> bytes`: one 0 or 1 per column (the
/// board's width) per position, 1 for a column that can be played (none once
/// the game is won).
#[pyfunction(name = "_legal_mask")]
#[pyo3(signature = (positions, size = None))]
pub fn legal_mask(
    py: Python<'_>,
    positions: &Bound<'_, PyAny>,
    size: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyBytes>> {
    let size = size_arg(size)?;
    let bytes: Vec<u8> = self::positions(py, positions, size)?
        .iter()
        .flat_map(|p| {
            (0..size.width).map(|c| u8::from(p.won_at().is_none() && p.board().can_play(c)))
        })
        .collect();
    Ok(PyBytes::new(py, &bytes).unbind())
}

/// How a batch runs: its threads, their tables, the book, and the progress
/// callback (called with the positions done so far, every twentieth of a second).
struct Batch<'py> {
    size: Size,
    threads: Option<i64>,
    table_mb: usize,
    book: bool,
    progress: Option<Bound<'py, PyAny>>,
}

impl Batch<'_> {
    /// `job`'s answers for `boards`, in order: solved in parallel, one position
    /// per thread, each thread with its own table, without the GIL. At the end of
    /// the batch, a thread with nothing left joins the searches still running,
    /// as the command line's workers do. Ctrl-C stops the batch
    /// (KeyboardInterrupt).
    fn run<R: Send>(
        &self,
        py: Python<'_>,
        boards: Vec<Board>,
        job: impl Fn(&mut Core, &Board) -> Result<R, SolveError> + Sync,
    ) -> PyResult<Vec<R>> {
        let threads = thread_count(self.threads)?.min(boards.len().max(1));
        let (size, table_mb, book) = (self.size, self.table_mb, self.book);
        let stop = StopFlag::new();
        let make = |_| {
            // Alone, nobody joins: the one-thread solver of Solver(threads=1).
            let mut state = if threads == 1 {
                new_solver(size, table_mb, book, 1)?
            } else {
                new_joinable_solver(size, table_mb, book)?
            };
            state.set_stop_flag(stop.clone());
            Ok::<_, SolverError>(Worker::joinable(state))
        };
        let n = boards.len();
        let done = AtomicUsize::new(0);
        let tick = |_: Python<'_>| match &self.progress {
            Some(f) => f.call1((done.load(Ordering::Relaxed),)).map(drop),
            None => Ok(()),
        };
        let answers = interrupt::run(py, &stop, tick, || {
            let mut answers = Vec::with_capacity(n);
            let mut error = None;
            let ran = pool::run(
                threads,
                make,
                boards,
                threads * AHEAD_PER_WORKER,
                &stop,
                |solver: &mut Core, _, board| match job(solver, &board) {
                    // Stopped: the pool ends this worker.
                    Err(SolveError::Stopped) => None,
                    result => Some(result),
                },
                |_, result| match result {
                    Ok(answer) => {
                        answers.push(answer);
                        done.fetch_add(1, Ordering::Relaxed);
                        true
                    }
                    Err(e) => {
                        error = Some(e);
                        false
                    }
                },
            );
            (ran, error, answers)
        })?;
        match answers {
            (Err(PoolError::Worker(e)), _, _) => Err(solver_error(e)),
            (Err(e), _, _) => Err(PyMemoryError::new_err(e.to_string())),
            (Ok(()), Some(e), _) => Err(solve_error(e)),
            (Ok(()), None, answers) if answers.len() < n => Err(solve_error(SolveError::Stopped)),
            (Ok(()), None, answers) => Ok(answers),
        }
    }
}

/// The boards to solve of `positions` (see [`positions`]), refusing a finished
/// game with the item's index.
fn boards(py: Python<'_>, positions: &Bound<'_, PyAny>, size: Size) -> PyResult<Vec<Board>> {
    let from_grids = positions.is_instance_of::<PyBytes>();
    self::positions(py, positions, size)?
        .into_iter()
        .enumerate()
        .map(|(i, p)| match p.won_at() {
            None => Ok(*p.board()),
            Some(_) if from_grids => Err(PyValueError::new_err(format!(
                "item {i}: the board holds four in a row: the game is over"
            ))),
            Some(index) => Err(PyValueError::new_err(format!(
                "item {i}: {}",
                MoveError::GameOver { index }
            ))),
        })
        .collect()
}

/// The positions of `positions` on the `size` board: an iterable of Positions
/// or move strings (not a string itself), or `bytes` of stacked (H, W) grids
/// of int8 cells (from a checked `(N, H, W)` array); a TypeError or ValueError
/// naming the first bad item, 0-based (a Position of another size too).
fn positions(py: Python<'_>, positions: &Bound<'_, PyAny>, size: Size) -> PyResult<Vec<Position>> {
    if let Ok(bytes) = positions.cast::<PyBytes>() {
        return grids(bytes.as_bytes(), size);
    }
    if positions.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "positions must be a list (or any iterable) of positions, not a str: \
             solve_many(['4455']) for one, or Solver().solve('4455')",
        ));
    }
    let items = positions.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "positions must be a list (or any iterable) of Positions or move strings, \
             or an array of shape (N, H, W), not {}",
            type_name(positions)
        ))
    })?;
    let mut out = Vec::new();
    for (i, item) in items.enumerate() {
        let p = item?
            .extract::<PositionArg>()
            .and_then(|p| match p {
                PositionArg::Position(p) if p.size() != size => {
                    Err(crate::value_error(SolveError::WrongSize {
                        solver: size,
                        position: p.size(),
                    }))
                }
                PositionArg::Position(p) => Ok(p),
                PositionArg::Moves(m) => {
                    Position::parse(size, m.checked(size)?).map_err(crate::value_error)
                }
            })
            .map_err(|e| {
                let message = format!("item {i}: {}", e.value(py));
                if e.is_instance_of::<PyTypeError>(py) {
                    PyTypeError::new_err(message)
                } else {
                    PyValueError::new_err(message)
                }
            })?;
        out.push(p);
    }
    Ok(out)
}

/// The positions of stacked (H, W) grids of int8 cells of the `size` board,
/// row-major.
fn grids(bytes: &[u8], size: Size) -> PyResult<Vec<Position>> {
    let cells = size.cells();
    if !bytes.len().is_multiple_of(cells) {
        return Err(PyValueError::new_err(format!(
            "stacked grids take {cells} bytes each, not {} in all",
            bytes.len()
        )));
    }
    bytes
        .chunks(cells)
        .enumerate()
        .map(|(i, g)| {
            let cells = g.iter().map(|&b| i64::from(b as i8)).collect();
            arrays::from_grid(&arrays::Grid { size, cells }, None)
                .map_err(|e| PyValueError::new_err(format!("item {i}: {e}")))
        })
        .collect()
}
