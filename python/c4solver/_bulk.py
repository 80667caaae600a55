"""Labels in bulk, as numpy arrays: solve_many, analyze_many and legal_mask.

They take a list (or any iterable) of Positions or move strings, or a stacked
``(N, 6, 7)`` array of boards drawn as Position.from_array reads them (row 0 the
top; 0 empty, 1 and 2 the players, or 1 and -1; the player with more stones
moved first, player 1 with as many each). The extension solves them on every
core without the GIL and hands back bytes, which become int8 arrays here.
"""

import sys
from typing import Iterable, Optional, Union

import numpy as np

from . import _c4solver
from ._c4solver import FULL_COLUMN, Position

try:
    from tqdm import tqdm as _tqdm
except ImportError:  # progress bars are optional
    _tqdm = None

PositionsLike = Union[Iterable[Union[Position, str]], np.ndarray]

WIDTH = 7


def _stacked_boards(a: np.ndarray) -> bytes:
    """The int8 bytes of a checked (N, 6, 7) array of cells."""
    if a.ndim != 3 or a.shape[1:] != (6, 7):
        hint = " (for one board: a[None])" if a.shape == (6, 7) else ""
        raise ValueError(f"a stack of boards has shape (N, 6, 7), not {a.shape}{hint}")
    if a.dtype.kind not in "biuf":
        raise ValueError(f"cells are numbers (0, 1, 2 or -1), not {a.dtype}")
    ok = (a == 0) | (a == 1) | (a == 2) | (a == -1)
    if not ok.all():
        i, r, c = (int(x) for x in np.argwhere(~ok)[0])
        raise ValueError(
            f"item {i}: bad value {a[i, r, c].item()!r} at [{r}, {c}]: "
            "cells are 0 (empty), 1 and 2 (or 1 and -1)"
        )
    return np.ascontiguousarray(a, dtype=np.int8).tobytes()


def _prepared(positions):
    """What the extension takes (a list, or the bytes of stacked boards) and how many."""
    if isinstance(positions, (bytes, bytearray, memoryview)):
        raise TypeError(
            "positions must be a list (or any iterable) of Positions or move strings, "
            f"or an array of shape (N, 6, 7), not {type(positions).__name__}"
        )
    if isinstance(positions, np.ndarray):
        return _stacked_boards(positions), len(positions)
    if isinstance(positions, str) or not hasattr(positions, "__iter__"):
        return positions, 0  # the extension raises TypeError with its reason
    if not isinstance(positions, (list, tuple)):
        positions = list(positions)
    return positions, len(positions)


def _run(function, positions, weak, threads, table_mb, book, progress, desc):
    """Calls the extension's batch `function` with a tqdm bar if asked and installed."""
    items, total = _prepared(positions)
    bar = None
    if progress and _tqdm is not None and total > 0:
        # Hidden when stderr is not a terminal (disable=None: logs stay clean),
        # except in a notebook, whose stderr is not one; and for batches shorter
        # than half a second (delay).
        shown = False if "ipykernel" in sys.modules else None
        bar = _tqdm(total=total, desc=desc, unit="pos", disable=shown, delay=0.5)
    try:
        tick = None if bar is None else (lambda done: bar.update(done - bar.n))
        data = function(items, weak, threads, table_mb, book, tick)
        if bar is not None:
            bar.update(total - bar.n)
        return np.frombuffer(data, dtype=np.int8).copy()
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
    stacked (N, 6, 7) array of boards (as Position.from_array reads them).
    progress=True shows a tqdm bar when tqdm is installed and stderr is a
    terminal or the call runs in a notebook (after half a second);
    progress=False never.

    Raises ValueError naming the first bad item, 0-based ("item 2: column 8 is
    out of range (1..=7) at move 3", "item 0: a stone floats at [3, 2] ..."),
    a finished game among them, or TypeError for an item that is not a position
    (and for a str given as the positions), before solving anything; ValueError
    for threads outside 1..=1024; MemoryError if the threads or tables cannot be
    had. Ctrl-C stops the batch (KeyboardInterrupt).
    """
    return _run(
        _c4solver._solve_many, positions, weak, threads, table_mb, book, progress, "solve_many"
    )


def analyze_many(
    positions: PositionsLike,
    weak: bool = False,
    threads: Optional[int] = None,
    table_mb: int = 16,
    book: bool = True,
    progress: bool = True,
) -> np.ndarray:
    """Every move's score of many positions, in order: an int8 array of shape (N, 7).

    >>> c4solver.analyze_many(["4455", "4444441"])   # column 4 is full in the second
    array([[  -4,   -3,   18,    2,    2,   18,   -3],
           [  -2,    1,   -2, -128,   -2,   -1,   -3]], dtype=int8)

    Row i is Solver.analyze of position i, columns left to right: the score of
    the position after that move from the side to move's view (a move that makes
    four at once scores (43 - stones) // 2), the signs only with weak=True, and
    FULL_COLUMN (-128, below every score, so that an argmax never picks it) for a
    full column: ``legal_mask(positions)``, or ``scores != FULL_COLUMN``, is the
    mask of the columns that can be played. The row's maximum is the position's
    score. The same numbers as `c4solver analyze` prints (there -1000 for a full
    column).

    Takes the same arguments as solve_many, runs the same way (every core,
    without the GIL, a tqdm bar unless progress=False) and raises the same errors.
    """
    flat = _run(
        _c4solver._analyze_many,
        positions,
        weak,
        threads,
        table_mb,
        book,
        progress,
        "analyze_many",
    )
    return flat.reshape(-1, WIDTH)


def legal_mask(positions: PositionsLike) -> np.ndarray:
    """Which columns can be played: a bool array of shape (N, 7), in order.

    Row i is True where position i's column is not full (all False once the game
    is won). On analyze_many's scores of the same positions it equals
    ``scores != FULL_COLUMN``. Takes positions as solve_many does; a finished
    game is allowed here.
    """
    items, _ = _prepared(positions)
    flat = np.frombuffer(_c4solver._legal_mask(items), dtype=np.uint8)
    return flat.reshape(-1, WIDTH).astype(bool)


__all__ = ["FULL_COLUMN", "analyze_many", "legal_mask", "solve_many"]
