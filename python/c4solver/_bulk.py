"""Labels in bulk, as numpy arrays: solve_many, analyze_many and legal_mask.

They take a list (or any iterable) of Positions or move strings, or a stacked
``(N, H, W)`` array of boards drawn as Position.from_array reads them (row 0 the
top; 0 empty, 1 and 2 the players, or 1 and -1; the player with more stones
moved first, player 1 with as many each), on one board size: ``size`` ("WxH"
or (W, H), 7x6 by default), which an array's shape gives. The extension solves
them on every core without the GIL and hands back bytes, which become int8
arrays here, one column per column of the board.
"""

import sys
from typing import Iterable, Optional, Tuple, Union

import numpy as np

from . import _c4solver
from ._c4solver import FULL_COLUMN, Position

try:
    from tqdm import tqdm as _tqdm
except ImportError:  # progress bars are optional
    _tqdm = None

PositionsLike = Union[Iterable[Union[Position, str]], np.ndarray]
SizeLike = Union[str, Tuple[int, int], None]


def _board_size(size: SizeLike) -> Tuple[int, int]:
    """(width, height) of a size argument, checked by the extension."""
    width, height = Position(size=size).size.split("x")
    return int(width), int(height)


def _stacked_boards(a: np.ndarray, size: SizeLike) -> Tuple[bytes, Tuple[int, int]]:
    """The int8 bytes of a checked (N, H, W) array of cells, and its (W, H)."""
    if a.ndim != 3:
        hint = " (for one board: a[None])" if a.ndim == 2 else ""
        raise ValueError(f"a stack of boards has shape (N, H, W), not {a.shape}{hint}")
    board = (a.shape[2], a.shape[1])
    if size is not None and _board_size(size) != board:
        width, height = _board_size(size)
        raise ValueError(
            f"a stack of boards of shape {a.shape} holds {board[0]}x{board[1]} boards, "
            f"not the size {width}x{height} given"
        )
    _board_size(board)  # a size this build holds, or ValueError
    if a.dtype.kind not in "biuf":
        raise ValueError(f"cells are numbers (0, 1, 2 or -1), not {a.dtype}")
    ok = (a == 0) | (a == 1) | (a == 2) | (a == -1)
    if not ok.all():
        i, r, c = (int(x) for x in np.argwhere(~ok)[0])
        raise ValueError(
            f"item {i}: bad value {a[i, r, c].item()!r} at [{r}, {c}]: "
            "cells are 0 (empty), 1 and 2 (or 1 and -1)"
        )
    return np.ascontiguousarray(a, dtype=np.int8).tobytes(), board


def _prepared(positions, size: SizeLike):
    """What the extension takes (a list, or the bytes of stacked boards), how
    many, and the board's "WxH"."""
    if isinstance(positions, (bytes, bytearray, memoryview)):
        raise TypeError(
            "positions must be a list (or any iterable) of Positions or move strings, "
            f"or an array of shape (N, H, W), not {type(positions).__name__}"
        )
    if isinstance(positions, np.ndarray):
        data, (width, height) = _stacked_boards(positions, size)
        return data, len(positions), f"{width}x{height}"
    width, height = _board_size(size)
    board = f"{width}x{height}"
    if isinstance(positions, str) or not hasattr(positions, "__iter__"):
        return positions, 0, board  # the extension raises TypeError with its reason
    if not isinstance(positions, (list, tuple)):
        positions = list(positions)
    return positions, len(positions), board


def _run(function, positions, weak, threads, table_mb, book, progress, desc, size):
    """Calls the extension's batch `function` with a tqdm bar if asked and
    installed; the flat int8 answers and the board's width."""
    items, total, board = _prepared(positions, size)
    bar = None
    if progress and _tqdm is not None and total > 0:
        # Hidden when stderr is not a terminal (disable=None: logs stay clean),
        # except in a notebook, whose stderr is not one; and for batches shorter
        # than half a second (delay).
        shown = False if "ipykernel" in sys.modules else None
        bar = _tqdm(total=total, desc=desc, unit="pos", disable=shown, delay=0.5)
    try:
        tick = None if bar is None else (lambda done: bar.update(done - bar.n))
        data = function(items, weak, threads, table_mb, book, tick, board)
        if bar is not None:
            bar.update(total - bar.n)
        return np.frombuffer(data, dtype=np.int8).copy(), int(board.split("x")[0])
    finally:
        if bar is not None:
            bar.close()


def solve_many(
    positions: PositionsLike,
    weak: bool = False,
    threads: Optional[int] = None,
    table_mb: int = 16,
    book: bool = True,
    progress: bool = True,
    size: SizeLike = None,
) -> np.ndarray:
    """The scores of many positions, in order: an int8 array of shape (N,).

    >>> c4solver.solve_many(["4455", "44455554221"])
    array([ 18, -15], dtype=int8)

    Each score is Solver.solve's (from the side to move; its sign with
    weak=True). Solved in parallel on `threads` threads (default: every core),
    one position per thread, each thread with its own table of `table_mb`
    megabytes, without the GIL; at the end of the batch, a thread with nothing
    left joins the searches still running. With book=True, positions with at
    most the built-in book's depth stones are answered from it. The default
    table is smaller than Solver's (16 MB, not 64): a batch's searches are mostly
    small, and run faster when each thread's table stays near the cache.

    `positions`: a list (or any iterable) of Positions or move strings, or a
    stacked (N, H, W) array of boards (as Position.from_array reads them), all
    on the board of `size` ("WxH" or (W, H); 7x6 by default; an array's shape
    gives it, and a size given must agree). Only 7x6 has a built-in book.
    progress=True shows a tqdm bar when tqdm is installed and stderr is a
    terminal or the call runs in a notebook (after half a second);
    progress=False never.

    Raises ValueError naming the first bad item, 0-based ("item 2: column 8 is
    out of range (1..=7) at move 3", "item 0: a stone floats at [3, 2] ..."),
    a finished game among them, a Position of another size, a bad size, or
    TypeError for an item that is not a position
    (and for a str given as the positions), before solving anything; ValueError
    for threads outside 1..=1024; MemoryError if the threads or tables cannot be
    had. Ctrl-C stops the batch (KeyboardInterrupt).
    """
    scores, _ = _run(
        _c4solver._solve_many,
        positions,
        weak,
        threads,
        table_mb,
        book,
        progress,
        "solve_many",
        size,
    )
    return scores


def analyze_many(
    positions: PositionsLike,
    weak: bool = False,
    threads: Optional[int] = None,
    table_mb: int = 16,
    book: bool = True,
    progress: bool = True,
    size: SizeLike = None,
) -> np.ndarray:
    """Every move's score of many positions, in order: an int8 array of shape
    (N, W), W the board's width (7 on 7x6).

    >>> c4solver.analyze_many(["4455", "4444441"])   # column 4 is full in the second
    array([[  -4,   -3,   18,    2,    2,   18,   -3],
           [  -2,    1,   -2, -128,   -2,   -1,   -3]], dtype=int8)

    Row i is Solver.analyze of position i, columns left to right: the score of
    the position after that move from the side to move's view (a move that makes
    four at once scores (W * H + 1 - stones) // 2, stones counted before it),
    the signs only with weak=True, and
    FULL_COLUMN (-128, below every score, so that an argmax never picks it) for a
    full column: ``legal_mask(positions)``, or ``scores != FULL_COLUMN``, is the
    mask of the columns that can be played. The row's maximum is the position's
    score. The same numbers as `c4solver analyze` prints (there -1000 for a full
    column).

    Takes the same arguments as solve_many, runs the same way (every core,
    without the GIL, a tqdm bar unless progress=False) and raises the same errors.
    """
    flat, width = _run(
        _c4solver._analyze_many,
        positions,
        weak,
        threads,
        table_mb,
        book,
        progress,
        "analyze_many",
        size,
    )
    return flat.reshape(-1, width)


def legal_mask(positions: PositionsLike, size: SizeLike = None) -> np.ndarray:
    """Which columns can be played: a bool array of shape (N, W), in order.

    Row i is True where position i's column is not full (all False once the game
    is won). On analyze_many's scores of the same positions it equals
    ``scores != FULL_COLUMN``. Takes positions as solve_many does; a finished
    game is allowed here.
    """
    items, _, board = _prepared(positions, size)
    flat = np.frombuffer(_c4solver._legal_mask(items, board), dtype=np.uint8)
    return flat.reshape(-1, int(board.split("x")[0])).astype(bool)


__all__ = ["FULL_COLUMN", "analyze_many", "legal_mask", "solve_many"]
