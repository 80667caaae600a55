"""Type stubs of the c4solver extension module (the API is re-exported by c4solver)."""

from typing import Optional, Sequence, Union

class Position:
    """A Connect Four position (7 columns, 6 rows) and the moves that led to it.

    Positions are immutable and hashable; equal positions reached by the same
    moves compare equal.
    """

    def __init__(self, moves: str = "") -> None:
        """The position after `moves` (1-based columns, "4453").

        Raises ValueError for a bad move string, with the command line's message
        ("column 8 is out of range (1..=7) at move 3"). A string whose last move
        makes four in a row is a finished game: is_won() is True.
        """
    def play(self, column: int) -> "Position":
        """The position after playing `column` (1-based); self is unchanged.

        Raises ValueError for a column out of range or full, or a move after the
        game was won.
        """
    @property
    def moves(self) -> str:
        """The moves played, as a string of 1-based columns."""
    def legal_moves(self) -> list[int]:
        """The columns (1-based) that can be played (none once the game is won)."""
    def is_won(self) -> bool:
        """Whether the last move made four in a row."""
    def is_full(self) -> bool:
        """Whether the board is full."""
    @property
    def key(self) -> int:
        """The position's unique key: current player's stones + occupied cells."""
    def mirror(self) -> "Position":
        """The mirror image (columns reversed)."""
    def __len__(self) -> int:
        """The number of stones on the board."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def __str__(self) -> str:
        """The board, top row first: x first player, o second player, . empty."""

PositionLike = Union[Position, str]

class Solver:
    """The exact solver (the tuned search with its transposition table)."""

    def __init__(self, table_mb: int = 64) -> None:
        """A solver with a transposition table of `table_mb` megabytes (at least 1)."""
    def solve(self, position: PositionLike, weak: bool = False) -> int:
        """The score for the side to move: positive win (22 - the winner's stones
        at the end), 0 draw, negative loss; with weak=True only its sign.

        Raises ValueError for a bad move string or a finished game.
        """
    @property
    def nodes(self) -> int:
        """The number of positions the last call explored."""

def solve_many(
    positions: Sequence[PositionLike],
    weak: bool = False,
    threads: Optional[int] = None,
    table_mb: int = 64,
) -> list[int]:
    """The scores of many positions, in order, solved in parallel on `threads`
    threads (default: every core) without the GIL.

    Raises ValueError naming the first bad item ("item 3: column 8 is out of range
    (1..=7) at move 3").
    """
