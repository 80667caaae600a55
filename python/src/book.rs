//! `_book_positions`: the positions of one layer of a book with their exact
//! scores (the library's `Book::rows`, as `c4solver book export` prints them),
//! for data sets.

use std::path::PathBuf;

use c4solver::BookError;

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// The standard board's book, the one these functions read.
type Book7x6 = c4solver::sized::Book<7, 6>;

/// `_book_positions(stones, mirrors, file=None) -> (bytes, bytes)`: the moves
/// of the positions of `stones` stones, `stones` ASCII digits each, one after
/// the other, and their int8 scores, in the same order (see
/// `c4solver.book_positions`). The book is `file`'s, else the built-in one.
#[pyfunction(name = "_book_positions")]
#[pyo3(signature = (stones, mirrors, file = None))]
pub fn book_positions(
    py: Python<'_>,
    stones: i64,
    mirrors: bool,
    file: Option<PathBuf>,
) -> PyResult<(Py<PyBytes>, Py<PyBytes>)> {
    let (name, book) = match &file {
        Some(path) => (
            path.display().to_string(),
            Book7x6::read_any(path).map_err(|e| match e {
                BookError::Io { .. } => PyOSError::new_err(e.to_string()),
                e => PyValueError::new_err(format!("{}: {e}", path.display())),
            })?,
        ),
        None => (
            "the built-in book".to_string(),
            Book7x6::builtin()
                .ok_or_else(|| PyValueError::new_err("the built-in book does not check out"))?,
        ),
    };
    let (lowest, depth) = (book.header().lowest as i64, book.depth() as i64);
    if !(lowest..=depth).contains(&stones) {
        return Err(PyValueError::new_err(format!(
            "{name} holds positions of {lowest} to {depth} stones, not {stones}"
        )));
    }
    let rows = py.detach(|| {
        let mut moves = Vec::new();
        let mut scores = Vec::new();
        for row in book.rows(stones as usize, mirrors) {
            let (m, s) = row?;
            moves.extend_from_slice(m.as_bytes());
            scores.push(s as i8 as u8);
        }
        Ok::<_, c4solver::book::Unreachable>((moves, scores))
    });
    let (moves, scores) = rows.map_err(|e| PyValueError::new_err(format!("{name}: {e}")))?;
    Ok((
        PyBytes::new(py, &moves).unbind(),
        PyBytes::new(py, &scores).unbind(),
    ))
}
