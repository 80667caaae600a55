//! `Position`: a board and the moves that led to it, parsed and played as the
//! command line does (same checks, same messages); and `PositionArg`, what the
//! solver's methods accept for a position.

use c4solver::{MoveError, Position as Board};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};

use crate::value_error;

/// A Connect Four position (7 columns, 6 rows) and the moves that led to it.
#[pyclass(module = "c4solver", eq, hash, frozen, from_py_object)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    moves: String,
    /// The 1-based index of the move that made four in a row, if any.
    won_at: Option<usize>,
}

impl Position {
    /// Plays `moves` from the empty board; a move that makes four in a row ends the
    /// game (any further move is an error).
    fn parse(moves: &str) -> Result<Self, MoveError> {
        let mut p = Position {
            board: Board::new(),
            moves: String::new(),
            won_at: None,
        };
        for (i, ch) in moves.chars().enumerate() {
            p = p.played(ch, i + 1)?;
        }
        Ok(p)
    }

    /// The position after the move written `ch`, the `index`-th of the game.
    fn played(&self, ch: char, index: usize) -> Result<Self, MoveError> {
        let digit = ch
            .to_digit(10)
            .ok_or(MoveError::BadCharacter { index, ch })?;
        if digit == 0 || digit as usize > Board::WIDTH {
            return Err(MoveError::ColumnOutOfRange {
                index,
                column: digit,
                width: Board::WIDTH,
            });
        }
        if let Some(won_at) = self.won_at {
            return Err(MoveError::MoveAfterWin { index, won_at });
        }
        let col = digit as usize - 1;
        if !self.board.can_play(col) {
            return Err(MoveError::ColumnFull {
                index,
                column: digit as usize,
            });
        }
        let mut next = self.clone();
        if next.board.is_winning_move(col) {
            next.won_at = Some(index);
        }
        next.board.play_col(col);
        next.moves.push(ch);
        Ok(next)
    }
}

#[pymethods]
impl Position {
    /// Position(moves="") -> Position
    ///
    /// The position after `moves`, the 1-based columns played from the empty
    /// board ("4453"). Raises ValueError for a bad move string, with the command
    /// line's message ("column 8 is out of range (1..=7) at move 3"). A string
    /// whose last move makes four in a row is a finished game: is_won() is True.
    #[new]
    #[pyo3(signature = (moves = ""))]
    fn new(moves: &str) -> PyResult<Self> {
        Position::parse(moves).map_err(value_error)
    }

    /// The position after playing `column` (1-based). Positions are immutable:
    /// the original is unchanged. Raises ValueError for a column out of range or
    /// full, or a move after the game was won.
    ///
    /// Raises TypeError for anything but an int (True and False too: they are
    /// not columns).
    fn play(&self, column: &Bound<'_, PyAny>) -> PyResult<Self> {
        if column.is_instance_of::<PyBool>() || !column.is_instance_of::<PyInt>() {
            return Err(PyTypeError::new_err(format!(
                "column must be an int (1 to {}), not {}",
                Board::WIDTH,
                type_name(column)
            )));
        }
        let index = self.moves.chars().count() + 1;
        let ch = column
            .extract::<u32>()
            .ok()
            .filter(|&c| c <= 9)
            .and_then(|c| char::from_digit(c, 10));
        match ch {
            Some(ch) => self.played(ch, index).map_err(value_error),
            None => Err(PyValueError::new_err(format!(
                "column {} is out of range (1..={}) at move {index}",
                column.str()?,
                Board::WIDTH
            ))),
        }
    }

    /// The moves played, as a string of 1-based columns.
    #[getter]
    fn moves(&self) -> &str {
        &self.moves
    }

    /// The columns (1-based) that can be played: not full, and the game not won.
    fn legal_moves(&self) -> Vec<usize> {
        if self.won_at.is_some() {
            return Vec::new();
        }
        (0..Board::WIDTH)
            .filter(|&c| self.board.can_play(c))
            .map(|c| c + 1)
            .collect()
    }

    /// Whether the last move made four in a row (the game is over).
    fn is_won(&self) -> bool {
        self.won_at.is_some()
    }

    /// Whether the board is full.
    fn is_full(&self) -> bool {
        self.board.is_full()
    }

    /// The unique key of the position: current player's stones + occupied cells,
    /// (HEIGHT + 1) bits per column.
    #[getter]
    fn key(&self) -> u64 {
        self.board.key()
    }

    /// The mirror image (columns reversed).
    fn mirror(&self) -> Self {
        let moves: String = self
            .moves
            .chars()
            .map(|c| {
                let d = c.to_digit(10).expect("valid moves") as usize;
                char::from_digit((Board::WIDTH + 1 - d) as u32, 10).expect("a column digit")
            })
            .collect();
        Position::parse(&moves).expect("the mirror of a valid game is valid")
    }

    /// The number of stones on the board.
    fn __len__(&self) -> usize {
        self.board.moves_played()
    }

    /// `Position('4453')`: the expression that builds this position.
    fn __repr__(&self) -> String {
        format!("Position('{}')", self.moves)
    }

    /// The board, top row first: `x` for the first player, `o` for the second,
    /// `.` for empty cells, then the column numbers.
    fn __str__(&self) -> String {
        self.board.to_string()
    }
}

/// What `Solver` and `solve_many` accept for a position: a `Position`, or a move
/// string.
pub enum PositionArg {
    /// A Position object.
    Position(Position),
    /// A move string, parsed as the command line parses it.
    Moves(String),
}

impl<'a, 'py> FromPyObject<'a, 'py> for PositionArg {
    type Error = PyErr;

    /// A TypeError in plain words for anything else.
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_instance_of::<PyString>() {
            return Ok(PositionArg::Moves(obj.extract::<String>()?));
        }
        if let Ok(p) = obj.extract::<Position>() {
            return Ok(PositionArg::Position(p));
        }
        Err(PyTypeError::new_err(format!(
            "a position is a Position or a move string such as '4453', not {}",
            type_name(&obj)
        )))
    }
}

/// The name of `obj`'s type, for messages (`NoneType`, `int`).
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .qualname()
        .map_or_else(|_| "an object".to_string(), |n| n.to_string())
}

impl PositionArg {
    /// The board to solve, or the command line's error.
    pub fn board(&self) -> PyResult<Board> {
        match self {
            PositionArg::Moves(m) => Board::parse(m).map_err(value_error),
            PositionArg::Position(p) => match p.won_at {
                Some(index) => Err(value_error(MoveError::GameOver { index })),
                None => Ok(p.board),
            },
        }
    }
}
