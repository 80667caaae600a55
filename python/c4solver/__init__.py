"""c4solver: an exact Connect Four solver.

Positions are written as the columns played from the empty board, 1-based
("4453"). Scores are from the side to move: positive for a win (22 - the stones
the winner has played at the end), 0 for a draw, negative for a loss.

>>> import c4solver
>>> solver = c4solver.Solver()
>>> solver.solve("4455")
18
>>> solver.analyze("33772344")      # each column's score (None: a full column)
[17, 16, 16, 16, 17, 16, 16]
>>> solver.best_move("4455"), solver.principal_variation("4455")
(3, '342')
>>> c4solver.solve_many(["4455", "44455554221"])   # on every core
[18, -15]
"""

from ._c4solver import Position, Solver, solve_many

__all__ = ["Position", "Solver", "solve_many"]
