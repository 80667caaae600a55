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
    m.add("FULL_COLUMN", batch::FULL_COLUMN)?;
    Ok(())
}
