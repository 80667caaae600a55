"""c4solver: an exact Connect Four solver.

Positions are written as the columns played from the empty board, 1-based
("4453"). Scores are from the side to move: positive for a win (22 - the stones
the winner has played at the end), 0 for a draw, negative for a loss.

>>> import c4solver
>>> c4solver.Solver().solve("4455")
18
"""

from ._c4solver import Position, Solver, solve_many

__all__ = ["Position", "Solver", "solve_many"]
