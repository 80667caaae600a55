//! `Position`: a board and the moves that led to it, parsed and played as the
//! command line does (same checks, same messages); and `PositionArg`, what the
//! solver's methods accept for a position.

use c4solver::{MoveError, Position7x6 as Board};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString};

use crate::arrays;
use crate::value_error;

/// A Connect Four position (7 columns, 6 rows) and the moves that led to it.
/// Equal and hashed by the board alone (its stones and so the side to move): two
/// move orders that reach the same board are one position.
#[pyclass(module = "c4solver", eq, hash, frozen, from_py_object)]
#[derive(Clone)]
pub struct Position {
    board: Board,
    moves: String,
    /// The 1-based index of the move that made four in a row, if any.
    won_at: Option<usize>,
}

/// The board decides: `won_at` follows from it (moves after a four are refused,
/// so a four is the last move's) and `moves` is one of the games that reach it.
impl PartialEq for Position {
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board
    }
}

impl Eq for Position {}

impl std::hash::Hash for Position {
    fn hash<S: std::hash::Hasher>(&self, state: &mut S) {
        self.board.key().hash(state);
    }
}

impl Position {
    /// Plays `moves` from the empty board; a move that makes four in a row ends the
    /// game (any further move is an error).
    pub fn parse(moves: &str) -> Result<Self, MoveError> {
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

    /// The board, which may hold four in a row (see [`Position::won_at`]).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The 1-based index of the move that made four in a row, if any.
    pub fn won_at(&self) -> Option<usize> {
        self.won_at
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
    #[pyo3(signature = (moves = MoveText::default()), text_signature = "(moves='')")]
    fn new(moves: MoveText) -> PyResult<Self> {
        Position::parse(&moves.0).map_err(value_error)
    }

    /// The position after playing `column` (1-based). Positions are immutable:
    /// the original is unchanged. Raises ValueError for a column out of range or
    /// full, or a move after the game was won.
    ///
    /// The column is an int or any integer with `__index__` (a numpy integer,
    /// such as numpy.argmax returns); TypeError for anything else (True and
    /// False too: they are not columns).
    fn play(&self, column: &Bound<'_, PyAny>) -> PyResult<Self> {
        let column = column_int(column)?;
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

    /// Position.from_array(a, to_move=None) -> Position
    ///
    /// The position drawn in `a`, a 6x7 array (or nested lists) of cells, row 0
    /// the top as numpy prints a board: 0 empty, 1 and 2 the two players (or 1
    /// and -1). The player with more stones moved first; with as many stones
    /// each, `to_move` says who is to move (1, 2 or -1 as written in `a`;
    /// default 1). The moves are a game that reaches the board (any one: the
    /// book and the search need only the position).
    ///
    /// >>> Position.from_array([[0] * 7] * 5 + [[0, 0, 0, 1, 2, 0, 0]]).moves
    /// '45'
    ///
    /// Raises ValueError saying why an array cannot be a board of a game: its
    /// shape, a bad value, a floating stone, counts that differ by more than one
    /// (or a to_move that does not fit them), two fours, or stones that cannot
    /// have been played in turn. An array with one four made last is a finished
    /// game (is_won() is True).
    #[staticmethod]
    #[pyo3(signature = (a, to_move = None))]
    fn from_array(a: &Bound<'_, PyAny>, to_move: Option<i64>) -> PyResult<Self> {
        let values = arrays::read_cells(a, &[arrays::ROWS, arrays::COLS])?;
        arrays::from_grid(&arrays::grid(&values), to_move).map_err(PyValueError::new_err)
    }

    /// Position.from_planes(obs) -> Position
    ///
    /// The position of `obs`, a 6x7x2 array of 0 and 1 as PettingZoo's
    /// `connect_four_v3` observes it: obs[..., 0] the stones of the side to
    /// move, obs[..., 1] the other side's, row 0 the top. Raises ValueError as
    /// from_array does (and for a cell set in both planes).
    #[staticmethod]
    fn from_planes(obs: &Bound<'_, PyAny>) -> PyResult<Self> {
        let values = arrays::read_cells(obs, &[arrays::ROWS, arrays::COLS, 2])?;
        arrays::from_planes(&values).map_err(PyValueError::new_err)
    }

    /// to_array() -> numpy.ndarray
    ///
    /// The board as a 6x7 int8 array, row 0 the top: 1 for the first player's
    /// stones, 2 for the second's, 0 empty. Position.from_array(p.to_array())
    /// == p (positions compare by their boards).
    fn to_array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        arrays::numpy_int8(py, arrays::to_grid(&self.board).map(Vec::from).to_vec())
    }

    /// to_planes() -> numpy.ndarray
    ///
    /// The board as PettingZoo's 6x7x2 int8 planes: [..., 0] the stones of the
    /// side to move, [..., 1] the other side's, row 0 the top.
    fn to_planes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let first_to_move = self.board.moves_played().is_multiple_of(2);
        let (mine, theirs) = if first_to_move { (1, 2) } else { (2, 1) };
        let planes: Vec<Vec<[i8; 2]>> = arrays::to_grid(&self.board)
            .iter()
            .map(|row| {
                row.iter()
                    .map(|&v| [i8::from(v == mine), i8::from(v == theirs)])
                    .collect()
            })
            .collect();
        arrays::numpy_int8(py, planes)
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
        if let Ok(s) = obj.cast::<PyString>() {
            return Ok(PositionArg::Moves(move_text(&s)?));
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

/// A str argument taken as a move string (see [`move_text`]).
#[derive(Default)]
pub struct MoveText(String);

impl<'a, 'py> FromPyObject<'a, 'py> for MoveText {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let s = obj.cast::<PyString>().map_err(|_| {
            PyTypeError::new_err(format!(
                "moves must be a str such as '4453', not {}",
                type_name(&obj)
            ))
        })?;
        Ok(MoveText(move_text(&s)?))
    }
}

/// The text of a move string. A lone surrogate (`"\ud800"`, which no UTF-8
/// string holds) is a ValueError as the command line words a bad character, at
/// its move, unless a move before it is refused first.
fn move_text(s: &Bound<'_, PyString>) -> PyResult<String> {
    let error = match s.to_cow() {
        Ok(text) => return Ok(text.into_owned()),
        Err(e) => e,
    };
    let mut before = String::new();
    for (i, ch) in s.try_iter()?.enumerate() {
        let ch = ch?;
        if let Ok(c) = ch.extract::<char>() {
            before.push(c);
            continue;
        }
        Position::parse(&before).map_err(value_error)?;
        let code: u32 = s
            .py()
            .import("builtins")?
            .call_method1("ord", (ch,))?
            .extract()?;
        return Err(PyValueError::new_err(format!(
            "bad character '\\u{{{code:x}}}' at move {}",
            i + 1
        )));
    }
    Err(error) // not reached: a string that is not UTF-8 holds a surrogate
}

/// `column` as a Python int: an int or any integer with `__index__` (numpy's),
/// not a bool; a TypeError in plain words for anything else.
fn column_int<'py>(column: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let index = if column.is_instance_of::<PyBool>() {
        None
    } else {
        let operator = column.py().import("operator")?;
        operator.call_method1("index", (column,)).ok()
    };
    index.ok_or_else(|| {
        PyTypeError::new_err(format!(
            "column must be an int (1 to {}), not {}",
            Board::WIDTH,
            type_name(column)
        ))
    })
}

/// The name of `obj`'s type, for messages (`NoneType`, `int`).
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .qualname()
        .map_or_else(|_| "an object".to_string(), |n| n.to_string())
}

impl PositionArg {
    /// The move string: as given, or the Position's.
    pub fn moves(&self) -> String {
        match self {
            PositionArg::Moves(m) => m.clone(),
            PositionArg::Position(p) => p.moves.clone(),
        }
    }

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
