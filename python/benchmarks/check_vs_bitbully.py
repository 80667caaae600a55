"""An exactness check, not a timing: c4solver's scores of random positions of 9
to 12 stones against BitBully's, an independent solver with its own 12-ply book
(Markus Thill's, with distances).

    pip install ./python bitbully      # or the wheel
    python python/benchmarks/check_vs_bitbully.py [PER_LAYER] [SEED]

PER_LAYER (default 1000) distinct positions of each of 9, 10, 11 and 12 stones,
one per mirror pair, are drawn from random games (seeded by SEED, default 2026)
in which no move makes four: every position can arise in a game and none is over.
For each, c4solver as it comes by default (solve_many and analyze_many, the
built-in book, every core) must give BitBully's mtdf score and, for every
column, BitBully's score_all_moves value. Prints one line per layer and exits 1
at the first difference, naming the position.
"""

import random
import sys
from importlib.metadata import version

import bitbully
import c4solver
import numpy as np
from bitbully import BitBully, Board


def draw(stones, count, rng):
    """`count` distinct move strings of `stones` moves, no four made on the way."""
    seen, out = set(), []
    while len(out) < count:
        board, moves = Board(), []
        while len(moves) < stones:
            safe = [c for c in board.legal_moves() if not board.can_win_next(c)]
            if not safe:
                break
            c = rng.choice(safe)
            board.play(c)
            moves.append(c)
        if len(moves) < stones:
            continue
        key = min(board.uid(), board.mirror().uid())
        if key not in seen:
            seen.add(key)
            out.append("".join(str(c + 1) for c in moves))
    return out


def main():
    per_layer = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 2026
    rng = random.Random(seed)
    agent = BitBully()
    print(f"c4solver {version('c4solver')} against BitBully {bitbully.__version__} "
          f"(book loaded: {agent.is_book_loaded()})")
    total = 0
    for stones in (9, 10, 11, 12):
        moves = draw(stones, per_layer, rng)
        ours = c4solver.solve_many(moves, progress=False)
        rows = c4solver.analyze_many(moves, progress=False)
        for i, m in enumerate(moves):
            board = Board.from_moves([int(c) - 1 for c in m])
            theirs = agent.mtdf(board)
            if int(ours[i]) != theirs:
                sys.exit(f"{m}: c4solver {ours[i]}, BitBully {theirs}")
            every = agent.score_all_moves(board)
            want = np.array([every.get(c, c4solver.FULL_COLUMN) for c in range(7)], dtype=np.int8)
            if not np.array_equal(rows[i], want):
                sys.exit(f"{m}: c4solver analyze {rows[i].tolist()}, BitBully {want.tolist()}")
        total += len(moves)
        print(f"{stones} stones: {len(moves)} positions, every score and every move's score equal")
    print(f"all {total} positions agree")


if __name__ == "__main__":
    main()
