"""c4solver: an exact Connect Four solver.

Positions are written as the columns played from the empty board, 1-based
("4453"), or drawn as arrays (Position.from_array, Position.from_planes). Scores
are from the side to move: positive for a win (22 - the stones the winner has
played at the end), 0 for a draw, negative for a loss.

>>> import c4solver
>>> solver = c4solver.Solver()
>>> solver.solve("4455")
18
>>> solver.analyze("33772344")      # each column's score (None: a full column)
[17, 16, 16, 16, 17, 16, 16]
>>> solver.best_move("4455"), solver.principal_variation("4455")
(3, '342')
>>> c4solver.solve_many(["4455", "44455554221"])   # on every core, numpy out
array([ 18, -15], dtype=int8)
>>> positions = c4solver.random_positions(100, stones=(20, 30), seed=1)
>>> scores = c4solver.analyze_many(positions)     # shape (100, 7), int8
>>> moves, scores = c4solver.book_positions(8)    # the book's 8-stone layer
>>> c4solver.Solver(size="5x4").solve("")       # every board size: 5x4 is a draw
0
"""

from ._book import book_positions
from ._bulk import FULL_COLUMN, analyze_many, legal_mask, solve_many
from ._c4solver import Position, Solver, parse_line, random_positions

__all__ = [
    "FULL_COLUMN",
    "Position",
    "Solver",
    "analyze_many",
    "book_positions",
    "legal_mask",
    "parse_line",
    "random_positions",
    "solve_many",
]
