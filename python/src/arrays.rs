//! Boards drawn as arrays, in and out, on any board size: an (H, W) grid of
//! cells (row 0 the top, as numpy prints a board; 0 empty, 1 and 2 the players,
//! or 1 and -1) and the (H, W, 2) planes of PettingZoo's `connect_four_v3` (the
//! side to move's stones first). The array's shape gives the board's size.
//! Reading takes any nested sequence, or anything with `tolist()` (numpy arrays,
//! tensors); writing makes numpy `int8` arrays.

use c4solver::{Position as Board, PositionError, Size, StonesError};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::position::Position;
use crate::value_error;

/// The cells of a grid, row-major, row 0 the top, on a board of `size`.
pub struct Grid {
    /// The board's size: `size.height` rows of `size.width` cells.
    pub size: Size,
    /// The cells, row-major.
    pub cells: Vec<i64>,
}

impl Grid {
    fn at(&self, row: usize, col: usize) -> i64 {
        self.cells[row * self.size.width + col]
    }
}

/// The bit of the cell at `row` (0 the top) and `col` (0-based) in the layout of
/// the board's key (`height + 1` bits per column, the bottom first).
fn bit(size: Size, row: usize, col: usize) -> u128 {
    1 << (col * (size.height + 1) + (size.height - 1 - row))
}

/// `(6, 7)`: a shape as numpy writes it.
fn shape_text(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => format!("{shape:?}").replace('[', "(").replace(']', ")"),
    }
}

/// The board size of the array `obj` of cells (`planes`: of (H, W, 2) planes):
/// its `shape`, or the lengths of a nested sequence; `size`, if given, must
/// agree. With no shape to read (a str, an empty list), `size` or 7x6, for
/// [`read_cells`] to say what is wrong.
pub fn board_size(obj: &Bound<'_, PyAny>, size: Option<Size>, planes: bool) -> PyResult<Size> {
    let rank = if planes { 3 } else { 2 };
    let shape: Option<Vec<usize>> = match obj.getattr("shape") {
        Ok(s) => Some(s.extract().unwrap_or_default()),
        Err(_) => nested_shape(obj),
    };
    let Some(shape) = shape else {
        return Ok(size.unwrap_or(Size::STANDARD));
    };
    if shape.len() != rank || planes && shape[2] != 2 {
        let wanted = if planes { "(H, W, 2)" } else { "(H, W)" };
        return Err(PyValueError::new_err(format!(
            "expected an array of shape {wanted} (a board of H rows and W columns), not {}",
            shape_text(&shape)
        )));
    }
    let found = Size::new(shape[1], shape[0])
        .and_then(Size::built)
        .map_err(value_error)?;
    match size {
        Some(given) if given != found => Err(PyValueError::new_err(format!(
            "an array of shape {} is a board of size {found}, not the size {given} given",
            shape_text(&shape)
        ))),
        _ => Ok(found),
    }
}

/// The lengths of `obj`'s first items, down to three levels: `None` for a
/// str, or anything that is not a non-empty sequence.
fn nested_shape(obj: &Bound<'_, PyAny>) -> Option<Vec<usize>> {
    let mut shape = Vec::new();
    let mut item = obj.clone();
    while shape.len() < 3 && !item.is_instance_of::<pyo3::types::PyString>() {
        let Ok(n) = item.len() else { break };
        shape.push(n);
        match item.get_item(0) {
            Ok(first) => item = first,
            Err(_) => break,
        }
    }
    (shape.len() >= 2).then_some(shape)
}

/// The integer values of `obj` (or of `obj.tolist()`), which must have `shape`:
/// row-major, with an error naming the axis or the cell that does not fit.
pub fn read_cells(obj: &Bound<'_, PyAny>, shape: &[usize]) -> PyResult<Vec<i64>> {
    let wanted = shape_text(shape);
    if let Ok(s) = obj.getattr("shape") {
        let s: Vec<usize> = s.extract().unwrap_or_default();
        if s != shape {
            return Err(PyValueError::new_err(format!(
                "expected an array of shape {wanted}, not {}",
                shape_text(&s)
            )));
        }
    }
    let list = if obj.hasattr("tolist")? {
        obj.call_method0("tolist")?
    } else {
        obj.clone()
    };
    let mut out = Vec::with_capacity(shape.iter().product());
    read_nested(&list, shape, &mut Vec::new(), &wanted, &mut out)?;
    Ok(out)
}

/// Appends the values of the nested sequence `obj` at index `at` to `out`.
fn read_nested(
    obj: &Bound<'_, PyAny>,
    shape: &[usize],
    at: &mut Vec<usize>,
    wanted: &str,
    out: &mut Vec<i64>,
) -> PyResult<()> {
    let Some((&n, rest)) = shape.split_first() else {
        return match cell_value(obj) {
            Some(v) => {
                out.push(v);
                Ok(())
            }
            None => Err(PyValueError::new_err(format!(
                "bad value {} at {at:?}: cells are integers",
                obj.repr()?
            ))),
        };
    };
    let where_ = if at.is_empty() {
        "the array".to_string()
    } else {
        format!("{at:?}")
    };
    if obj.is_instance_of::<pyo3::types::PyString>() {
        return Err(PyValueError::new_err(format!(
            "expected an array of shape {wanted}: {where_} is a str"
        )));
    }
    let len = obj.len().ok();
    if len != Some(n) {
        return Err(PyValueError::new_err(format!(
            "expected an array of shape {wanted}: {where_} has {} items, not {n}",
            len.map_or_else(|| "no".to_string(), |l| l.to_string())
        )));
    }
    for (i, item) in obj.try_iter()?.enumerate() {
        at.push(i);
        read_nested(&item?, rest, at, wanted, out)?;
        at.pop();
    }
    Ok(())
}

/// An int, a bool, or a float with an integer value.
fn cell_value(obj: &Bound<'_, PyAny>) -> Option<i64> {
    if let Ok(v) = obj.extract::<i64>() {
        return Some(v);
    }
    let f = obj.extract::<f64>().ok()?;
    (f.fract() == 0.0 && f.abs() < 1e9).then_some(f as i64)
}

/// The position of a grid, 1 and 2 (or 1 and -1) the players: the one with
/// more stones moved first; with as many stones each, the one named by
/// `to_move` (a cell value: 1, 2 or -1), player 1 by default.
pub fn from_grid(g: &Grid, to_move: Option<i64>) -> Result<Position, String> {
    let (rows, cols) = (g.size.height, g.size.width);
    let has = |v: i64| g.cells.contains(&v);
    for (i, &v) in g.cells.iter().enumerate() {
        if !matches!(v, -1..=2) {
            return Err(format!(
                "bad value {v} at [{}, {}]: cells are 0 (empty), 1 and 2 (or 1 and -1)",
                i / cols,
                i % cols
            ));
        }
    }
    if has(2) && has(-1) {
        return Err("cells hold both 2 and -1: the players are 1 and 2, or 1 and -1".into());
    }
    let other = if has(-1) { -1 } else { 2 };
    let stones = |v: i64| -> u128 {
        (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .filter(|&(r, c)| g.at(r, c) == v)
            .map(|(r, c)| bit(g.size, r, c))
            .sum()
    };
    let (ones, others) = (stones(1), stones(other));
    let (n1, n2) = (ones.count_ones(), others.count_ones());
    // Whether player 1 moved first: with as many stones each, the one to move
    // did; otherwise the one with more stones.
    let named_other = |v: i64| v == other || matches!(v, 2 | -1) && !has(2) && !has(-1);
    let one_first = match to_move {
        None => n1 >= n2,
        Some(1) => n1 == n2,
        Some(v) if named_other(v) => n1 != n2,
        Some(v) => {
            return Err(format!(
                "to_move is a player as written in the array (1 or {other}), not {v}"
            ));
        }
    };
    let (first_label, second_label) = if one_first { (1, other) } else { (other, 1) };
    let (first, second) = if one_first {
        (ones, others)
    } else {
        (others, ones)
    };
    let (nf, ns) = (first.count_ones(), second.count_ones());
    if nf != ns && nf != ns + 1 {
        return Err(match to_move {
            Some(v) if n1.abs_diff(n2) <= 1 => format!(
                "player {v} cannot be the one to move: it has {} stones and player {} {}",
                if v == 1 { n1 } else { n2 },
                if v == 1 { other } else { 1 },
                if v == 1 { n2 } else { n1 }
            ),
            _ => format!(
                "player 1 has {n1} stones and player {other} {n2}: counts differ by more than one"
            ),
        });
    }
    let names = [
        format!("player {first_label}"),
        format!("player {second_label}"),
    ];
    from_stones(g.size, first, second, &names)
}

/// The position of `planes` ((H, W, 2) of `size`, 0 or 1): plane 0 the side to
/// move's stones, plane 1 the other side's.
pub fn from_planes(size: Size, values: &[i64]) -> Result<Position, String> {
    let (mut mine, mut theirs) = (0u128, 0u128);
    for (i, pair) in values.chunks(2).enumerate() {
        let (r, c) = (i / size.width, i % size.width);
        for (plane, &v) in pair.iter().enumerate() {
            if !matches!(v, 0 | 1) {
                return Err(format!(
                    "bad value {v} at [{r}, {c}, {plane}]: planes hold 0 or 1"
                ));
            }
        }
        if pair == [1, 1] {
            return Err(format!("the cell [{r}, {c}] is set in both planes"));
        }
        if pair[0] == 1 {
            mine |= bit(size, r, c);
        }
        if pair[1] == 1 {
            theirs |= bit(size, r, c);
        }
    }
    let (n0, n1) = (mine.count_ones(), theirs.count_ones());
    let (me, other) = (
        "the side to move (plane 0)".to_string(),
        "the other side (plane 1)".to_string(),
    );
    if n0 == n1 {
        from_stones(size, mine, theirs, &[me, other])
    } else if n1 == n0 + 1 {
        from_stones(size, theirs, mine, &[other, me])
    } else {
        Err(format!(
            "the side to move has {n0} stones and the other side {n1}: it has as many as the other side or one fewer"
        ))
    }
}

/// The position of the first player's and the second player's stones, with a
/// game that reaches it as its moves; the error names the players `names`.
fn from_stones(
    size: Size,
    first: u128,
    second: u128,
    names: &[String; 2],
) -> Result<Position, String> {
    let order = Board::move_order(size, first, second).map_err(|e| match e {
        PositionError::Stones(e) => describe(e, size, names),
        e => e.to_string(),
    })?;
    let moves: String = order.iter().map(|&c| Board::column_symbol(c)).collect();
    Position::parse(size, &moves).map_err(|e| e.to_string())
}

/// The message of `e`, with the players named as the caller wrote them (first
/// player, second player).
fn describe(e: StonesError, size: Size, names: &[String; 2]) -> String {
    match e {
        StonesError::Floating { column, row } => format!(
            "a stone floats at [{}, {}] (column {column}): the cell under it is empty",
            size.height - row,
            column - 1
        ),
        StonesError::FourBeforeLastMove { first } => {
            let (four, mover) = if first {
                (&names[0], &names[1])
            } else {
                (&names[1], &names[0])
            };
            format!("{four} has four in a row, but {mover} moved after it")
        }
        StonesError::TwoFours => {
            "two fours in a row that no single last stone made (a game ends at its first four)"
                .into()
        }
        e => e.to_string(),
    }
}

/// The cells of `p`, row-major, row 0 the top: 1 for the first player's
/// stones, 2 for the second's, 0 empty.
pub fn to_grid(p: &Board) -> Vec<Vec<i8>> {
    let size = p.size();
    let first_to_move = p.moves_played().is_multiple_of(2);
    (0..size.height)
        .map(|r| {
            (0..size.width)
                .map(|c| match p.cell(c, size.height - 1 - r) {
                    None => 0,
                    Some(mine) if mine == first_to_move => 1,
                    Some(_) => 2,
                })
                .collect()
        })
        .collect()
}

/// A numpy `int8` array of `values` (nested lists).
pub fn numpy_int8<'py>(
    py: Python<'py>,
    values: impl IntoPyObject<'py>,
) -> PyResult<Bound<'py, PyAny>> {
    let np = py.import("numpy")?;
    let kwargs = pyo3::types::PyDict::new(py);
    kwargs.set_item("dtype", np.getattr("int8")?)?;
    np.call_method("array", (values,), Some(&kwargs))
}
