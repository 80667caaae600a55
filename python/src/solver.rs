//! `Solver`: the library's solver with its table, opening book and threads;
//! `solve`, `analyze`, `best_moves`, `best_move` and `principal_variation`, each
//! recording the nodes it explored.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use c4solver::StopFlag;
use c4solver::{Book, Config, Position as Board, Size, SolveError, Solver as Core, SolverError};
use pyo3::exceptions::{PyTimeoutError, PyValueError};
use pyo3::prelude::*;

use crate::position::{PositionArg, size_arg};
use crate::{interrupt, mode, solve_error, table_error, value_error};

/// Every core the process may use (1 if the system does not say).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The most threads a solver or `solve_many` takes, as the command line's
/// `--threads`.
pub const MAX_THREADS: usize = 1024;

/// `threads`, or every core for `None` (at most [`MAX_THREADS`]); outside
/// 1..=1024 (a negative number too) is a ValueError, as the command line says.
pub fn thread_count(threads: Option<i64>) -> PyResult<usize> {
    let Some(n) = threads else {
        return Ok(cores().min(MAX_THREADS));
    };
    usize::try_from(n)
        .ok()
        .filter(|t| (1..=MAX_THREADS).contains(t))
        .ok_or_else(|| {
            PyValueError::new_err(format!("threads must be from 1 to {MAX_THREADS}, not {n}"))
        })
}

/// `table_mb` as a size; a negative one is a ValueError in the library's words
/// for 0.
pub fn table_size(table_mb: i64) -> PyResult<usize> {
    usize::try_from(table_mb).map_err(|_| {
        PyValueError::new_err(format!(
            "table size of {table_mb} MB is too small (at least 1 MB)"
        ))
    })
}

/// The configuration of a solver of `table_mb` megabytes on `threads` threads
/// (its table cleared before each position unless `keep_table`).
fn config(table_mb: usize, threads: usize, keep_table: bool) -> Config {
    Config {
        table_mb,
        threads,
        keep_table,
        ..Config::default()
    }
}

/// `solver` with the built-in book of its size (7x6's; the other sizes have
/// none) beside its search if `book`.
fn with_book(mut solver: Core, book: bool) -> Core {
    if book {
        solver.set_book(Book::builtin(solver.size()).as_ref());
    }
    solver
}

/// A solver's error: a size not built is a ValueError, a table as
/// [`table_error`] says.
pub fn solver_error(e: SolverError) -> PyErr {
    match e {
        SolverError::Table(e) => table_error(e),
        e => value_error(e),
    }
}

/// A solver of the `size` board with a table of `table_mb` megabytes, with or
/// without the built-in book, that searches each position on `threads` threads.
pub fn new_solver(
    size: Size,
    table_mb: usize,
    book: bool,
    threads: usize,
) -> Result<Core, SolverError> {
    Ok(with_book(
        Core::new(size, config(table_mb, threads, false))?,
        book,
    ))
}

/// A one-thread solver of the `size` board with a table of `table_mb`
/// megabytes, with or without the built-in book, whose searches other threads
/// can join ([`Core::new_joinable`]): one worker of `solve_many`.
pub fn new_joinable_solver(size: Size, table_mb: usize, book: bool) -> Result<Core, SolverError> {
    Ok(with_book(
        Core::new_joinable(size, config(table_mb, 1, false))?,
        book,
    ))
}

/// Solver(table_mb=64, book=True, threads=None, size="7x6", keep_table=False) -> Solver
///
/// The exact solver of the `size` board ("WxH" or a tuple (W, H), as
/// Position takes it; 7x6 by default): the tuned search with a transposition
/// table of `table_mb` megabytes (at least 1; below 63 the table takes 8-byte
/// entries), cleared before each position, or with keep_table=True kept from
/// one search to the next (its entries are bounds that stay true: successive
/// windows on one position, or positions that share subtrees, reuse them; the
/// node counts then depend on what was searched before). With book=True, on the 7x6 board
/// (the only one with a built-in book), a position with at most the built-in
/// opening book's depth stones is answered from the book, with no search (0
/// nodes). Each position is searched on `threads` threads sharing the table
/// (default: every core; the scores are the same, the node counts vary from run
/// to run with more than one).
///
/// Raises ValueError for a table size it cannot take or threads outside
/// 1..=1024 (as the command line's --threads), MemoryError if the memory or the
/// threads cannot be had (no thread is left behind).
///
/// Positions are Position objects or move strings ("4453"); anything else is a
/// TypeError, and a Position of another size a ValueError. Scores are from the
/// side to move: positive for a win ((W * H + 1 - n) // 2, n the stones on the
/// board before the winning move: 22 - the winner's stones on 7x6), 0 for a
/// draw, negative for a loss; with weak=True only their sign.
/// Every search releases the GIL. Called from the main thread, Ctrl-C
/// (KeyboardInterrupt) stops the search of a position with fewer than 20 stones
/// within a twentieth of a second; later positions take milliseconds and are not
/// interrupted. A Solver is used by one thread at a time.
#[pyclass(module = "c4solver")]
pub struct Solver {
    inner: Mutex<Core>,
    size: Size,
    stop: StopFlag,
    nodes: u64,
}

impl Solver {
    /// The board size the solver solves.
    fn size(&self) -> Size {
        self.size
    }

    /// Runs `job` on the solver for `board` (interruptibly, if the board has few
    /// stones: see [`interrupt`]) and records the nodes it reports.
    fn search<T: Send>(
        &mut self,
        py: Python<'_>,
        board: &Board,
        job: impl FnOnce(&mut Core) -> Result<(T, u64), SolveError> + Send,
    ) -> PyResult<T> {
        let solver = self.inner.get_mut().expect("never poisoned");
        let watch = board.moves_played() < interrupt::WATCHED_FROM;
        let (t, nodes) =
            interrupt::run_if(watch, py, &self.stop, || job(solver))?.map_err(solve_error)?;
        self.nodes = nodes;
        Ok(t)
    }
}

#[pymethods]
impl Solver {
    #[new]
    #[pyo3(signature = (table_mb = 64, book = true, threads = None, size = None, keep_table = false))]
    fn new(
        table_mb: i64,
        book: bool,
        threads: Option<i64>,
        size: Option<&Bound<'_, PyAny>>,
        keep_table: bool,
    ) -> PyResult<Self> {
        let size = size_arg(size)?;
        let config = config(table_size(table_mb)?, thread_count(threads)?, keep_table);
        let mut inner = Core::new(size, config)
            .map(|s| with_book(s, book))
            .map_err(solver_error)?;
        let stop = StopFlag::new();
        inner.set_stop_flag(stop.clone());
        Ok(Solver {
            inner: Mutex::new(inner),
            size,
            stop,
            nodes: 0,
        })
    }

    /// solve(position, weak=False) -> int
    ///
    /// The score of the position for the side to move (its sign with weak=True).
    /// Raises ValueError for a bad move string (the command line's message) or a
    /// finished game ("move 7 makes four in a row: the game is already over").
    #[pyo3(signature = (position, weak = false))]
    fn solve(&mut self, py: Python<'_>, position: PositionArg, weak: bool) -> PyResult<i32> {
        let board = position.board(self.size())?;
        self.search(py, &board, |s| {
            s.solve(&board, mode(weak))
                .map(|sol| (sol.score, sol.nodes))
        })
    }

    /// solve_window(position, alpha, beta, timeout=None) -> int
    ///
    /// The score of the position within the window alpha < beta: the exact score
    /// if it lies strictly between them, else a bound on the window's side: an
    /// answer <= alpha says the score is at most that answer, an answer >= beta
    /// that it is at least that answer. With beta = alpha + 1 (a null window) it
    /// answers "is the score at least beta?" with the least work; the weak score's
    /// questions are the windows (-1, 0) and (0, 1). `nodes` is then that search's.
    /// With `timeout` (seconds, > 0) a search still running after it is stopped
    /// (within a twentieth of a second) and TimeoutError is raised, `nodes`
    /// unchanged. Raises ValueError as solve does, and for alpha >= beta
    /// (the library's message) or a timeout that is not a positive number.
    #[pyo3(signature = (position, alpha, beta, timeout = None))]
    fn solve_window(
        &mut self,
        py: Python<'_>,
        position: PositionArg,
        alpha: i32,
        beta: i32,
        timeout: Option<f64>,
    ) -> PyResult<i32> {
        let board = position.board(self.size())?;
        let Some(seconds) = timeout else {
            return self.search(py, &board, |s| {
                s.solve_window(&board, alpha, beta)
                    .map(|sol| (sol.score, sol.nodes))
            });
        };
        let limit = Duration::try_from_secs_f64(seconds)
            .ok()
            .filter(|d| !d.is_zero())
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "timeout must be a positive number of seconds, not {seconds}"
                ))
            })?;
        let deadline = Instant::now() + limit;
        // Checked every interrupt::POLL, with Ctrl-C, while the search runs on its own thread.
        let tick = |_: Python<'_>| {
            if Instant::now() >= deadline {
                Err(PyTimeoutError::new_err(format!(
                    "the search took more than {seconds} s"
                )))
            } else {
                Ok(())
            }
        };
        let solver = self.inner.get_mut().expect("never poisoned");
        let (score, nodes) = interrupt::run(py, &self.stop, tick, || {
            solver
                .solve_window(&board, alpha, beta)
                .map(|sol| (sol.score, sol.nodes))
        })?
        .map_err(solve_error)?;
        self.nodes = nodes;
        Ok(score)
    }

    /// analyze(position, weak=False) -> list[int | None]
    ///
    /// The score of each column (7 on 7x6), left to right, from the side to move:
    /// the score of the position after that move, or for a move that makes four
    /// at once, its win ((W * H + 1 - stones) // 2, stones counted before the
    /// move); None
    /// for a full column. With weak=True only the signs. The position's score is
    /// the best of them. The same numbers as `c4solver analyze` prints (there
    /// -1000 for a full column). Raises ValueError as solve does.
    #[pyo3(signature = (position, weak = false))]
    fn analyze(
        &mut self,
        py: Python<'_>,
        position: PositionArg,
        weak: bool,
    ) -> PyResult<Vec<Option<i32>>> {
        let board = position.board(self.size())?;
        self.search(py, &board, |s| {
            s.analyze(&board, mode(weak))
                .map(|a| (a.scores().to_vec(), a.nodes()))
        })
    }

    /// analysis(position, weak=False, pv=False) -> dict
    ///
    /// The whole analysis as a dict, the answer of `c4solver analyze --json`,
    /// of the server's /analyze and of the page's WebAssembly engine (the
    /// library's Answer, python/README.md and docs/answer.md): "moves" (the
    /// move string), "score" (the position's), "scores" (one per column, None
    /// for a full column), "best" (the 1-based columns with the top score),
    /// "book" (every score read from the opening book, no search), "nodes",
    /// "time_us", and with pv=True "pv" (a line of best play, as
    /// principal_variation gives it). With weak=True the scores are signs.
    /// Raises ValueError as solve does.
    #[pyo3(signature = (position, weak = false, pv = false))]
    fn analysis<'py>(
        &mut self,
        py: Python<'py>,
        position: PositionArg,
        weak: bool,
        pv: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let board = position.board(self.size())?;
        let moves = position.moves();
        let answer = self.search(py, &board, |s| {
            let a = s.answer(&moves, &board, mode(weak), pv)?;
            let nodes = a.nodes;
            Ok((a, nodes))
        })?;
        Ok(pythonize::pythonize(py, &answer)?)
    }

    /// best_moves(position, weak=False) -> list[int]
    ///
    /// Every column (1-based, left to right) with the top score, searching only
    /// what that takes (cheaper than analyze); [] on a full board. Raises
    /// ValueError as solve does.
    #[pyo3(signature = (position, weak = false))]
    fn best_moves(
        &mut self,
        py: Python<'_>,
        position: PositionArg,
        weak: bool,
    ) -> PyResult<Vec<usize>> {
        let board = position.board(self.size())?;
        let columns = self.search(py, &board, |s| {
            s.best_moves(&board, mode(weak))
                .map(|c| (c.columns, c.nodes))
        })?;
        Ok(columns.into_iter().map(|c| c + 1).collect())
    }

    /// best_move(position, weak=False) -> int
    ///
    /// One best move (1-based column): of the columns with the top score, the
    /// one nearest the centre, the left one of two equally near. Raises
    /// ValueError as solve does, and on a full board (no move left).
    #[pyo3(signature = (position, weak = false))]
    fn best_move(&mut self, py: Python<'_>, position: PositionArg, weak: bool) -> PyResult<usize> {
        let board = full_board_refused(position.board(self.size())?)?;
        let columns = self.search(py, &board, |s| {
            s.best_moves(&board, mode(weak))
                .map(|c| (c.columns, c.nodes))
        })?;
        let best = center_first(self.size.width)
            .find(|c| columns.contains(c))
            .expect("a board with a free cell has a best move");
        Ok(best + 1)
    }

    /// principal_variation(position, weak=False) -> str
    ///
    /// A line of best play for both sides to the end of the game, as a move
    /// string ("342"): every move is the best move nearest the centre of the side
    /// that plays it. Played from the position, the game ends as its score says:
    /// on 7x6 the winner completes four with their stone number 22 - |score|, and a
    /// score of 0 fills the board with no four (with weak=True, the side the sign
    /// names wins, not necessarily at once). "" on a full board. Raises
    /// ValueError as solve does.
    #[pyo3(signature = (position, weak = false))]
    fn principal_variation(
        &mut self,
        py: Python<'_>,
        position: PositionArg,
        weak: bool,
    ) -> PyResult<String> {
        let board = position.board(self.size())?;
        self.search(py, &board, |s| {
            s.principal_variation(&board, mode(weak))
                .map(|v| (v.to_string(), v.nodes()))
        })
    }

    /// The number of positions the last call explored (0 for an answer from the
    /// book; with several threads, the sum over the threads).
    #[getter]
    fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The threads that search each position.
    #[getter]
    fn threads(&mut self) -> usize {
        self.inner.get_mut().expect("never poisoned").threads()
    }

    /// Whether the solver answers from the built-in opening book.
    #[getter]
    fn book(&mut self) -> bool {
        self.inner
            .get_mut()
            .expect("never poisoned")
            .book_depth()
            .is_some()
    }

    /// `Solver(table_mb=64, book=True, threads=2)` (and `size='8x8'` on another
    /// board, `keep_table=True` if so): the expression that builds an equal solver.
    fn __repr__(&mut self) -> String {
        let size = self.size;
        let s = self.inner.get_mut().expect("never poisoned");
        let c = s.config();
        let book = if s.book_depth().is_some() {
            "True"
        } else {
            "False"
        };
        let size = if size == Size::STANDARD {
            String::new()
        } else {
            format!(", size='{size}'")
        };
        let keep = if c.keep_table {
            ", keep_table=True"
        } else {
            ""
        };
        format!(
            "Solver(table_mb={}, book={book}, threads={}{size}{keep})",
            c.table_mb,
            s.threads()
        )
    }

    /// The board size the solver solves, "WxH".
    #[getter(size)]
    fn size_text(&self) -> String {
        self.size.to_string()
    }
}

/// `board`, or a ValueError if it has no free cell.
fn full_board_refused(board: Board) -> PyResult<Board> {
    if board.is_full() {
        Err(PyValueError::new_err(
            "the board is full: there is no move to play",
        ))
    } else {
        Ok(board)
    }
}

/// Columns of a `width`-wide board, centre first, in the order of the
/// library's `center_first` (the tutorial's formula).
fn center_first(width: usize) -> impl Iterator<Item = usize> {
    (0..width).map(move |i| {
        let step = i.div_ceil(2);
        if i % 2 == 0 {
            width / 2 + step
        } else {
            width / 2 - step
        }
    })
}
