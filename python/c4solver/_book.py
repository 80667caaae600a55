"""Data sets from the opening book: book_positions."""

import os
from typing import Optional, Tuple, Union

import numpy as np

from . import _c4solver


def book_positions(
    stones: int,
    mirrors: bool = False,
    file: Optional[Union[str, "os.PathLike[str]"]] = None,
) -> Tuple[np.ndarray, np.ndarray]:
    """Every position of `stones` stones in the book, with its exact score.

    >>> moves, scores = c4solver.book_positions(2)
    >>> moves[:3], scores[:3]
    (array(['11', '12', '21'], dtype='<U2'), array([ 1, -2,  2], dtype=int8))

    Returns (moves, scores): `moves` a str array of shape (N,), each the
    columns played from the empty board (1-based, as Position takes them;
    Position(m).to_array() draws one), `scores` an int8 array of shape (N,),
    each the position's exact score from the side to move (Solver.solve's).
    One position per mirror pair (the one with the smaller key), in ascending
    key order; with mirrors=True both, each mirror image right after its
    position (a symmetric position once). The same rows as ``c4solver book
    export --stones K [--mirrors]`` prints, in its order. stones=0 is the empty
    board alone, moves ``""`` (which that command cannot print).

    The book is the built-in one (0 to 12 stones), or the book file `file`
    (one that `c4solver book generate` or `c4solver.distributed book` wrote).
    12 stones (5.8 million positions, one per mirror pair) take about 10 s and, as str,
    280 MB (both mirrors: twice that).

    Raises ValueError for stones outside the book's layers or a file that is
    not a 7x6 book, OSError for a file that cannot be read.
    """
    path = None if file is None else os.fspath(file)
    moves, scores = _c4solver._book_positions(stones, mirrors, path)
    scores = np.frombuffer(scores, dtype=np.int8).copy()
    if stones == 0:
        return np.full(len(scores), "", dtype="<U1"), scores
    moves = np.frombuffer(moves, dtype=f"S{stones}").astype(f"<U{stones}")
    return moves, scores


__all__ = ["book_positions"]
