//! `Position`: a board of any size and the moves that led to it, parsed and
//! played as the command line does (same checks, same messages); `PositionArg`,
//! what the solver's methods accept for a position; and `size_arg`, how a
//! board size is given (`"8x8"` or `(8, 8)`).

use c4solver::{MoveError, Position as Board, PositionError, Size};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString, PyTuple};

use crate::arrays;
use crate::value_error;

/// A Connect Four position, on a board of any size (7 columns and 6 rows by
/// default), and the moves that led to it. Equal and hashed by the board alone
/// (its size, its stones and so the side to move): two move orders that reach
/// the same board are one position.
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
        self.board.hash(state);
    }
}

/// The board size of a `size` argument: `"WxH"` (as the command line's
/// `--size`), a `(W, H)` tuple, or 7x6 for `None`; a ValueError with the
/// library's message for a bad or unbuilt size.
pub fn size_arg(size: Option<&Bound<'_, PyAny>>) -> PyResult<Size> {
    let Some(obj) = size.filter(|s| !s.is_none()) else {
        return Ok(Size::STANDARD);
    };
    let size = if let Ok(text) = obj.cast::<PyString>() {
        text.to_string_lossy()
            .parse::<Size>()
            .map_err(value_error)?
    } else if let Some((w, h)) = obj
        .cast::<PyTuple>()
        .ok()
        .and_then(|t| t.extract::<(usize, usize)>().ok())
    {
        Size::new(w, h).map_err(value_error)?
    } else {
        return Err(PyTypeError::new_err(format!(
            "size is a str such as '8x8' or a tuple (width, height), not {}",
            type_name(obj)
        )));
    };
    size.built().map_err(value_error)
}

/// The 0-based column of the move symbol `ch` on a board `width` wide
/// (`'1'`..`'9'`, then `'a'`, `'b'`, ... in either case).
fn column_of(ch: char, width: usize) -> Option<usize> {
    (0..width).find(|&c| Board::column_symbol(c) == ch.to_ascii_lowercase())
}

impl Position {
    /// Plays `moves` from the empty `size` board; a last move that makes four in
    /// a row ends the game (any further move is an error).
    pub fn parse(size: Size, moves: &str) -> Result<Self, PositionError> {
        let (board, won_at) = match Board::parse(size, moves) {
            Ok(board) => (board, None),
            Err(PositionError::Move(MoveError::GameOver { index })) => {
                // Every move but the last is a game still going: play the last.
                let (cut, last) = moves.char_indices().last().expect("a move made four");
                let mut board = Board::parse(size, &moves[..cut])?;
                let col = column_of(last, size.width).expect("a move the board played");
                board.play(col)?;
                (board, Some(index))
            }
            Err(e) => return Err(e),
        };
        Ok(Position {
            board,
            moves: moves.to_string(),
            won_at,
        })
    }

    /// The board, which may hold four in a row (see [`Position::won_at`]).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The 1-based index of the move that made four in a row, if any.
    pub fn won_at(&self) -> Option<usize> {
        self.won_at
    }

    /// The board size.
    pub fn size(&self) -> Size {
        self.board.size()
    }
}

#[pymethods]
impl Position {
    /// Position(moves="", size="7x6") -> Position
    ///
    /// The position after `moves`, the 1-based columns played from the empty
    /// board ("4453"; on boards wider than 9, "a" is column 10, "b" 11, ...), on
    /// a board of `size`: "WxH" (width x height, as the command line's --size)
    /// or a tuple (W, H); 7x6 by default. Raises ValueError for a bad move
    /// string, with the command line's message ("column 8 is out of range
    /// (1..=7) at move 3"), and for a bad size. A string whose last move makes
    /// four in a row is a finished game: is_won() is True.
    #[new]
    #[pyo3(
        signature = (moves = MoveText::default(), size = None),
        text_signature = "(moves='', size=None)"
    )]
    fn new(moves: MoveText, size: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let size = size_arg(size)?;
        Position::parse(size, moves.checked(size)?).map_err(value_error)
    }

    /// The position after playing `column` (1-based). Positions are immutable:
    /// the original is unchanged. Raises ValueError for a column out of range or
    /// full, or a move after the game was won.
    ///
    /// The column is an int or any integer with `__index__` (a numpy integer,
    /// such as numpy.argmax returns); TypeError for anything else (True and
    /// False too: they are not columns).
    fn play(&self, column: &Bound<'_, PyAny>) -> PyResult<Self> {
        let width = self.size().width;
        let column = column_int(column, width)?;
        let index = self.board.moves_played() + 1;
        let Some(col) = column
            .extract::<usize>()
            .ok()
            .filter(|c| (1..=width).contains(c))
        else {
            return Err(PyValueError::new_err(format!(
                "column {} is out of range (1..={width}) at move {index}",
                column.str()?
            )));
        };
        let mut next = self.clone();
        next.board.play(col - 1).map_err(value_error)?;
        next.moves.push(Board::column_symbol(col - 1));
        if next.board.has_four() {
            next.won_at = Some(index);
        }
        Ok(next)
    }

    /// Position.from_array(a, to_move=None, size=None) -> Position
    ///
    /// The position drawn in `a`, an (H, W) array (or nested lists) of cells, row
    /// 0 the top as numpy prints a board: 0 empty, 1 and 2 the two players (or 1
    /// and -1). The shape gives the board: (6, 7) is the 7x6 board; `size`, if
    /// given, must agree. The player with more stones moved first; with as many
    /// stones each, `to_move` says who is to move (1, 2 or -1 as written in `a`;
    /// default 1). The moves are a game that reaches the board (any one: the
    /// book and the search need only the position).
    ///
    /// >>> Position.from_array([[0] * 7] * 5 + [[0, 0, 0, 1, 2, 0, 0]]).moves
    /// '45'
    ///
    /// Raises ValueError saying why an array cannot be a board of a game: its
    /// shape (or a size that does not fit it), a bad value, a floating stone,
    /// counts that differ by more than one (or a to_move that does not fit them),
    /// two fours, or stones that cannot have been played in turn. An array with
    /// one four made last is a finished game (is_won() is True).
    #[staticmethod]
    #[pyo3(signature = (a, to_move = None, size = None))]
    fn from_array(
        a: &Bound<'_, PyAny>,
        to_move: Option<i64>,
        size: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let given = size
            .filter(|s| !s.is_none())
            .map(|s| size_arg(Some(s)))
            .transpose()?;
        let size = arrays::board_size(a, given, false)?;
        let cells = arrays::read_cells(a, &[size.height, size.width])?;
        let grid = arrays::Grid { size, cells };
        arrays::from_grid(&grid, to_move).map_err(PyValueError::new_err)
    }

    /// Position.from_planes(obs, size=None) -> Position
    ///
    /// The position of `obs`, an (H, W, 2) array of 0 and 1 as PettingZoo's
    /// `connect_four_v3` observes it ((6, 7, 2) on the 7x6 board): obs[..., 0]
    /// the stones of the side to move, obs[..., 1] the other side's, row 0 the
    /// top. Raises ValueError as from_array does (and for a cell set in both
    /// planes).
    #[staticmethod]
    #[pyo3(signature = (obs, size = None))]
    fn from_planes(obs: &Bound<'_, PyAny>, size: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let given = size
            .filter(|s| !s.is_none())
            .map(|s| size_arg(Some(s)))
            .transpose()?;
        let size = arrays::board_size(obs, given, true)?;
        let values = arrays::read_cells(obs, &[size.height, size.width, 2])?;
        arrays::from_planes(size, &values).map_err(PyValueError::new_err)
    }

    /// to_array() -> numpy.ndarray
    ///
    /// The board as an (H, W) int8 array ((6, 7) on the 7x6 board), row 0 the
    /// top: 1 for the first player's stones, 2 for the second's, 0 empty.
    /// Position.from_array(p.to_array()) == p (positions compare by their
    /// boards).
    fn to_array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        arrays::numpy_int8(py, arrays::to_grid(&self.board))
    }

    /// to_planes() -> numpy.ndarray
    ///
    /// The board as PettingZoo's (H, W, 2) int8 planes: [..., 0] the stones of
    /// the side to move, [..., 1] the other side's, row 0 the top.
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

    /// The board size, "WxH" ("7x6": 7 columns, 6 rows).
    #[getter(size)]
    fn size_text(&self) -> String {
        self.size().to_string()
    }

    /// The columns (1-based) that can be played: not full, and the game not won.
    fn legal_moves(&self) -> Vec<usize> {
        if self.won_at.is_some() {
            return Vec::new();
        }
        (0..self.size().width)
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
    /// (H + 1) bits per column; past 64 bits on the boards with W * (H + 1) > 64.
    #[getter]
    fn key(&self) -> u128 {
        self.board.key()
    }

    /// The mirror image (columns reversed).
    fn mirror(&self) -> Self {
        let width = self.size().width;
        let moves: String = self
            .moves
            .chars()
            .map(|ch| {
                let col = column_of(ch, width).expect("valid moves");
                Board::column_symbol(width - 1 - col)
            })
            .collect();
        Position::parse(self.size(), &moves).expect("the mirror of a valid game is valid")
    }

    /// The number of stones on the board.
    fn __len__(&self) -> usize {
        self.board.moves_played()
    }

    /// `Position('4453')`, `Position('4453', size='8x8')`: the expression that
    /// builds this position.
    fn __repr__(&self) -> String {
        if self.size() == Size::STANDARD {
            format!("Position('{}')", self.moves)
        } else {
            format!("Position('{}', size='{}')", self.moves, self.size())
        }
    }

    /// The board, top row first: `x` for the first player, `o` for the second,
    /// `.` for empty cells, then the column symbols.
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
    Moves(MoveText),
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

/// A str argument taken as a move string (see [`move_text`]): its text, or
/// the text before a lone surrogate (`"\ud800"`, which no UTF-8 string holds),
/// with that character's move (1-based) and code.
#[derive(Default)]
pub struct MoveText {
    text: String,
    surrogate: Option<(usize, u32)>,
}

impl MoveText {
    /// The move string, or for one holding a lone surrogate a ValueError as
    /// the command line words a bad character, at its move, unless a move
    /// before it is refused first on the `size` board.
    pub fn checked(&self, size: Size) -> PyResult<&str> {
        let Some((index, code)) = self.surrogate else {
            return Ok(&self.text);
        };
        Board::parse(size, &self.text).map_err(value_error)?;
        Err(PyValueError::new_err(format!(
            "bad character '\\u{{{code:x}}}' at move {index}"
        )))
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for MoveText {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let s = obj.cast::<PyString>().map_err(|_| {
            PyTypeError::new_err(format!(
                "moves must be a str such as '4453', not {}",
                type_name(&obj)
            ))
        })?;
        move_text(&s)
    }
}

/// The text of a move string, up to a lone surrogate if it holds one (see
/// [`MoveText::checked`]).
fn move_text(s: &Bound<'_, PyString>) -> PyResult<MoveText> {
    let error = match s.to_cow() {
        Ok(text) => {
            return Ok(MoveText {
                text: text.into_owned(),
                surrogate: None,
            });
        }
        Err(e) => e,
    };
    let mut text = String::new();
    for (i, ch) in s.try_iter()?.enumerate() {
        let ch = ch?;
        if let Ok(c) = ch.extract::<char>() {
            text.push(c);
            continue;
        }
        let code: u32 = s
            .py()
            .import("builtins")?
            .call_method1("ord", (ch,))?
            .extract()?;
        return Ok(MoveText {
            text,
            surrogate: Some((i + 1, code)),
        });
    }
    Err(error) // not reached: a string that is not UTF-8 holds a surrogate
}

/// `column` as a Python int: an int or any integer with `__index__` (numpy's),
/// not a bool; a TypeError in plain words for anything else.
fn column_int<'py>(column: &Bound<'py, PyAny>, width: usize) -> PyResult<Bound<'py, PyAny>> {
    let index = if column.is_instance_of::<PyBool>() {
        None
    } else {
        let operator = column.py().import("operator")?;
        operator.call_method1("index", (column,)).ok()
    };
    index.ok_or_else(|| {
        PyTypeError::new_err(format!(
            "column must be an int (1 to {width}), not {}",
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
            PositionArg::Moves(m) => m.text.clone(),
            PositionArg::Position(p) => p.moves.clone(),
        }
    }

    /// The board to solve on a solver of `size`, or the command line's error
    /// (and the library's for a Position of another size).
    pub fn board(&self, size: Size) -> PyResult<Board> {
        match self {
            PositionArg::Moves(m) => Board::parse(size, m.checked(size)?).map_err(value_error),
            PositionArg::Position(p) if p.size() != size => {
                Err(value_error(c4solver::SolveError::WrongSize {
                    solver: size,
                    position: p.size(),
                }))
            }
            PositionArg::Position(p) => match p.won_at {
                Some(index) => Err(value_error(MoveError::GameOver { index })),
                None => Ok(p.board),
            },
        }
    }
}
