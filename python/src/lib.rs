//! Python bindings of c4solver (the `c4solver._c4solver` extension module).
//!
//! Thin wrappers: every rule lives in the `c4solver` crate. Columns are 1-based, as
//! in the move notation. The batches hand their numbers back as bytes, which the
//! package's Python side (`c4solver/_bulk.py`) wraps in numpy arrays. A bad move string raises `ValueError` with the same
//! message as the command line; searches release the GIL and stop on Ctrl-C
//! ([`interrupt`]).

mod arrays;
mod batch;
mod book;
mod interrupt;
mod position;
mod random;
mod solver;

use c4solver::TableError;
use c4solver::{Mode, SolveError};
use pyo3::exceptions::{PyKeyboardInterrupt, PyMemoryError, PyValueError};
use pyo3::prelude::*;

/// A ValueError with `e`'s message.
fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A finished game is a ValueError; a stopped search, KeyboardInterrupt (the
/// signal handler has raised already unless it chose not to).
fn solve_error(e: SolveError) -> PyErr {
    match e {
        SolveError::Stopped => PyKeyboardInterrupt::new_err(e.to_string()),
        _ => value_error(e),
    }
}

/// Memory or threads that cannot be had are a MemoryError; a size the table
/// cannot take, a ValueError.
fn table_error(e: TableError) -> PyErr {
    match e {
        TableError::Alloc { .. } | TableError::OutOfMemory { .. } | TableError::Threads { .. } => {
            PyMemoryError::new_err(e.to_string())
        }
        _ => value_error(e),
    }
}

/// Strong (exact scores) or weak (their signs).
fn mode(weak: bool) -> Mode {
    if weak { Mode::Weak } else { Mode::Strong }
}

/// parse_line(line, size="7x6") -> tuple[str, int | None]
///
/// One line of `c4solver solve` input (str or bytes, without its newline) read
/// as the command line reads it on the `size` board: `moves [expected-score]`,
/// spaces or tabs around the fields and a trailing carriage return ignored, an
/// empty line the starting position. Returns the move string and the expected
/// score (None if the line gives none). Raises ValueError with the command
/// line's message for a line it refuses ("column 8 is out of range (1..=7) at
/// move 2", "expected score 19 is out of range (-18..=18)", a finished game,
/// a line longer than 4096 bytes) and for a bad size.
#[pyfunction]
#[pyo3(signature = (line, size = None))]
fn parse_line(
    line: &Bound<'_, PyAny>,
    size: Option<&Bound<'_, PyAny>>,
) -> PyResult<(String, Option<i32>)> {
    let size = position::size_arg(size)?;
    let bytes: Vec<u8> = match line.cast::<pyo3::types::PyString>() {
        Ok(text) => text.to_string_lossy().into_owned().into_bytes(),
        Err(_) => line.extract::<Vec<u8>>().map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(format!(
                "a line is a str or bytes, not {}",
                position::type_name(line)
            ))
        })?,
    };
    // The command line's reader keeps MAX_LINE bytes of a line and says it was cut.
    let truncated = bytes.len() > c4solver::lines::MAX_LINE;
    let kept = &bytes[..bytes.len().min(c4solver::lines::MAX_LINE)];
    let parsed = c4solver::Line::parse(size, kept, truncated).map_err(value_error)?;
    Ok((parsed.moves.to_string(), parsed.expected))
}

/// `_check_moves(moves, size)`: None if `moves` is a game still going on the
/// `size` board, else ValueError with the command line's message (a finished
/// game too): how the label job checks a Parquet row's move string.
#[pyfunction(name = "_check_moves")]
fn check_moves(moves: &str, size: &Bound<'_, PyAny>) -> PyResult<()> {
    let size = position::size_arg(Some(size))?;
    c4solver::Position::parse(size, moves)
        .map(drop)
        .map_err(value_error)
}

/// c4solver: an exact Connect Four solver.
#[pymodule]
fn _c4solver(m: &Bound<'_, PyModule>) -> PyResult<()> {
    if let Some(why) = c4solver::unsupported_cpu() {
        return Err(pyo3::exceptions::PyImportError::new_err(why));
    }
    m.add_class::<position::Position>()?;
    m.add_class::<solver::Solver>()?;
    m.add_function(wrap_pyfunction!(batch::solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(batch::analyze_many, m)?)?;
    m.add_function(wrap_pyfunction!(batch::legal_mask, m)?)?;
    m.add_function(wrap_pyfunction!(random::random_positions, m)?)?;
    m.add_function(wrap_pyfunction!(book::book_positions, m)?)?;
    m.add_function(wrap_pyfunction!(parse_line, m)?)?;
    m.add_function(wrap_pyfunction!(check_moves, m)?)?;
    m.add("FULL_COLUMN", batch::FULL_COLUMN)?;
    Ok(())
}
