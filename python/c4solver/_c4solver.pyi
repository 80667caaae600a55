"""Type stubs of the c4solver extension module (the API is re-exported by c4solver;
solve_many, analyze_many and legal_mask are c4solver._bulk's, over the private
batch functions declared at the end)."""

from typing import Any, Callable, Iterable, Optional, Sequence, SupportsIndex, Tuple, Union

import numpy as np

Size = Union[str, Tuple[int, int], None]
"""A board size: "WxH" (width x height, as the command line's --size) or a
tuple (W, H); None for the standard 7x6. Every size of the command line's
all-sizes build: W and H from 4 with W * (H + 1) <= 64, and 5x12, 5x13, 6x10,
6x11, 6x12, 7x9, 7x10, 8x8, 9x7, 10x6 and 11x5. A bad size is a ValueError
with the library's message."""

FULL_COLUMN: int
"""analyze_many's value for a full column: -128, below every score."""

class Position:
    """A Connect Four position on a board of any size (7 columns and 6 rows by
    default) and the moves that led to it.

    Positions are immutable values of the board: two move orders that reach the
    same board (and so the same side to move) compare equal and hash alike;
    `moves` stays the string each was built from.
    """

    def __init__(self, moves: str = "", size: Size = None) -> None:
        """The position after `moves` (1-based columns, "4453"; on boards wider
        than 9, "a" is column 10, "b" 11, ...) on the `size` board.

        Raises ValueError for a bad move string, with the command line's message
        ("column 8 is out of range (1..=7) at move 3"). A string whose last move
        makes four in a row is a finished game: is_won() is True.
        """
    def play(self, column: SupportsIndex) -> "Position":
        """The position after playing `column` (1-based); self is unchanged.

        `column` is an int or any integer with __index__ (a numpy integer, as
        numpy.argmax returns). Raises ValueError for a column out of range or
        full, or a move after the game was won; TypeError for anything else
        (True and False too).
        """
    @staticmethod
    def from_array(a: Any, to_move: Optional[int] = None, size: Size = None) -> "Position":
        """The position drawn in `a`, an (H, W) array (or nested lists) of cells,
        row 0 the top as numpy prints a board: 0 empty, 1 and 2 the players (or 1
        and -1). The shape gives the board ((6, 7): 7x6); `size`, if given, must
        agree. The player with more stones moved first; with as many stones each,
        `to_move` (1, 2 or -1 as written in `a`; default 1) is to move. The moves
        are a game that reaches the board.

        Raises ValueError saying why the array cannot be a board of a game: its
        shape (or a size that does not fit it), a bad value, a floating stone, counts that differ by more than
        one (or a to_move that does not fit them), two fours, or stones that
        cannot have been played in turn. One four made last is a finished game.
        """
    @staticmethod
    def from_planes(obs: Any, size: Size = None) -> "Position":
        """The position of PettingZoo's connect_four_v3 observation: an (H, W, 2) array
        of 0 and 1, obs[..., 0] the side to move's stones, obs[..., 1] the other
        side's, row 0 the top. Raises ValueError as from_array does (and for a
        cell set in both planes)."""
    def to_array(self) -> np.ndarray:
        """The board as an (H, W) int8 array, row 0 the top: 1 the first player's
        stones, 2 the second's, 0 empty. Position.from_array(p.to_array()) == p."""
    def to_planes(self) -> np.ndarray:
        """The board as PettingZoo's (H, W, 2) int8 planes: [..., 0] the side to
        move's stones, [..., 1] the other side's."""
    @property
    def moves(self) -> str:
        """The moves played, as a string of 1-based columns (the ones this
        position was built from; an equal position may have others)."""
    @property
    def size(self) -> str:
        """The board size, "WxH" ("7x6")."""
    def legal_moves(self) -> list[int]:
        """The columns (1-based) that can be played (none once the game is won)."""
    def is_won(self) -> bool:
        """Whether the last move made four in a row."""
    def is_full(self) -> bool:
        """Whether the board is full."""
    @property
    def key(self) -> int:
        """The position's unique key: current player's stones + occupied cells,
        H + 1 bits per column (past 64 bits on boards with W * (H + 1) > 64)."""
    def mirror(self) -> "Position":
        """The mirror image (columns reversed)."""
    def __len__(self) -> int:
        """The number of stones on the board."""
    def __eq__(self, other: object) -> bool:
        """Whether `other` is a Position with the same board (size, stones and
        side to move), whatever the moves that reached it."""
    def __hash__(self) -> int:
        """The hash of the board: transpositions hash alike."""
    def __str__(self) -> str:
        """The board, top row first: x first player, o second player, . empty."""
    def __repr__(self) -> str:
        """Position('4453'), or Position('4453', size='8x8') on another board."""

PositionLike = Union[Position, str]

class Solver:
    """The exact solver of one board size: the tuned search with its
    transposition table, the built-in opening book (7x6 only) and threads.

    Positions are Position objects or move strings ("4453"). Scores are from the
    side to move: positive for a win ((W * H + 1 - n) // 2, n the stones on the
    board before the winning move: 22 - the winner's stones on 7x6), 0 for a
    draw, negative for a loss; with weak=True only their sign. Every method raises ValueError for a bad
    move string (the command line's message), a Position of another size than
    the solver's, or a finished game ("move 7 makes four in a row: the game is already
    over"). Searches release the GIL; from the main thread, Ctrl-C
    (KeyboardInterrupt) stops the search of a position with fewer than 20 stones
    within a twentieth of a second. A Solver is used by one thread at a time.
    """

    def __init__(
        self,
        table_mb: int = 64,
        book: bool = True,
        threads: Optional[int] = None,
        size: Size = None,
        keep_table: bool = False,
    ) -> None:
        """A solver of the `size` board (7x6 by default) with a table of
        `table_mb` megabytes (at least 1; below 63 the table takes 8-byte
        entries), cleared before each position, or kept from one search to the
        next with keep_table=True (its bounds stay true; node counts then depend
        on the searches before).

        With book=True, on 7x6 (the only size with a built-in book), a position with at most the built-in book's depth stones
        is answered from it with no search (0 nodes). Each position is searched
        on `threads` threads sharing the table (default: every core; same scores,
        node counts that vary with more than one). Raises ValueError for a size
        the table cannot take or threads outside 1..=1024, MemoryError if the
        memory or the threads cannot be had (no thread is left behind).
        """
    def solve(self, position: PositionLike, weak: bool = False) -> int:
        """The score of the position for the side to move (its sign with weak=True)."""
    def solve_window(
        self, position: PositionLike, alpha: int, beta: int, timeout: Optional[float] = None
    ) -> int:
        """The score within the window alpha < beta: exact strictly inside it; an
        answer <= alpha is an upper bound, one >= beta a lower bound. A null
        window (beta = alpha + 1) asks "is the score at least beta?". With
        `timeout` seconds, a longer search is stopped and TimeoutError raised.
        ValueError as solve, and for alpha >= beta or a timeout <= 0."""
    def analyze(self, position: PositionLike, weak: bool = False) -> list[Optional[int]]:
        """The score of each column (W of them), left to right, from the side to
        move (None for a full column); a move that makes four at once scores
        (W * H + 1 - stones) // 2, stones counted before it. The position's score is the
        best of them; the same numbers as `c4solver analyze` prints.
        """
    def analysis(self, position: PositionLike, weak: bool = False, pv: bool = False) -> dict[str, Any]:
        """The whole analysis as a dict, the answer of `c4solver analyze --json`,
        of the server's /analyze and of the page (docs/answer.md), in this order:
        "moves" (the move string), "score" (the position's), "scores" (one per
        column, None for a full column), "best" (the 1-based columns with the
        top score), "book" (every score read from the opening book, no search),
        "nodes", "time_us", and with pv=True "pv" (a line of best play, as
        principal_variation gives it). With weak=True the scores are signs.
        """
    def best_moves(self, position: PositionLike, weak: bool = False) -> list[int]:
        """Every column (1-based, left to right) with the top score, searching only
        what that takes; [] on a full board."""
    def best_move(self, position: PositionLike, weak: bool = False) -> int:
        """One best move (1-based column): the one nearest the centre of the
        columns with the top score (of two equally near, the left one on an odd
        width, the right one on an even width). Raises
        ValueError on a full board."""
    def principal_variation(self, position: PositionLike, weak: bool = False) -> str:
        """A line of best play for both sides to the end of the game, as a move
        string; played out, the game ends as its score says (on 7x6 the winner
        completes four with their stone number 22 - |score|), and a score of 0
        fills the board. "" on a full board."""
    @property
    def nodes(self) -> int:
        """The number of positions the last call explored (0 from the book)."""
    @property
    def threads(self) -> int:
        """The threads that search each position."""
    @property
    def book(self) -> bool:
        """Whether the solver answers from the built-in opening book."""
    @property
    def size(self) -> str:
        """The board size the solver solves, "WxH"."""
    def __repr__(self) -> str:
        """Solver(table_mb=64, book=True, threads=2), and size='8x8' on another
        board, keep_table=True if so."""

def random_positions(
    n: int, stones: Tuple[int, int] = (1, 41), seed: Optional[int] = None
) -> list[Position]:
    """`n` different positions, each with a number of stones drawn uniformly from
    `stones` (lo, hi) and reached by uniformly random legal moves, as `c4solver
    generate` draws its candidates (a game won early, the empty board and a
    position drawn before are drawn again). The same seed gives the same
    positions; seed=None a random one. Raises ValueError for n < 0, a range
    outside 0 <= lo <= hi <= 42 or with no position to draw, and a range that
    runs out of positions."""

def parse_line(line: Union[str, bytes], size: Size = None) -> Tuple[str, Optional[int]]:
    """One line of `c4solver solve` input read as the command line reads it on
    the `size` board: `moves [expected-score]`, blanks around the fields and a
    trailing \\r ignored. Returns (moves, expected score or None); raises
    ValueError with the command line's message for a line it refuses."""

PositionsArg = Union[Iterable[PositionLike], bytes]
Progress = Optional[Callable[[int], Any]]

def _solve_many(
    positions: PositionsArg,
    weak: bool,
    threads: Optional[int],
    table_mb: int,
    book: bool,
    progress: Progress = None,
    size: Size = None,
) -> bytes: ...
def _analyze_many(
    positions: PositionsArg,
    weak: bool,
    threads: Optional[int],
    table_mb: int,
    book: bool,
    progress: Progress = None,
    size: Size = None,
) -> bytes: ...
def _legal_mask(positions: PositionsArg, size: Size = None) -> bytes: ...
def _check_moves(moves: str, size: Size) -> None: ...
def _book_positions(stones: int, mirrors: bool, file: Optional[str] = None) -> Tuple[bytes, bytes]: ...
