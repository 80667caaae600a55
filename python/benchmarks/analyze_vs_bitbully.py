"""c4solver's analyze_many side by side with BitBully's score_all_moves, every
move's score of each position, in one Python process.

    pip install ./python bitbully      # or the wheel
    python python/benchmarks/analyze_vs_bitbully.py [PONS_DIR] [ROUNDS]

PONS_DIR defaults to ../shared/pons-testsets (from the repository root), ROUNDS
to 3. Two samples: the first 1000 positions of Test_L2_R2 (Middle-Medium) and
the first 100 of Test_L1_R2 (Begin-Medium). BitBully scores one position at a
time with its default book (BitBully(): the 12-ply book with distances), its
table kept from one position to the next as a caller would (and on the short
sample, in another run, cleared before each); c4solver's analyze_many takes the whole list, as
it comes by default (its built-in book, every core) and on one thread.

Every value is checked: BitBully's row and c4solver's are equal, column by
column (a full column is missing from BitBully's dict and FULL_COLUMN in
c4solver's), and each row's best is the set's score. The rounds alternate the
runs so that all see the same machine; the table gives each run's median
positions per second and its ratio to BitBully with its table kept.
"""

import os
import statistics
import sys
import time

import bitbully
import c4solver
import numpy as np
from bitbully import BitBully, Board

# (set, positions, whether to run BitBully with its table cleared too: each
# reset_transposition_table takes tens of milliseconds, longer than a whole
# Middle position's scoring, so the long sample leaves that run out)
SAMPLES = [("Test_L2_R2", 1000, False), ("Test_L1_R2", 100, True)]


def load(path, n):
    pairs = [line.split() for line in open(path).read().splitlines()[:n]]
    return [m for m, _ in pairs], [int(s) for _, s in pairs]


def bitbully_rows(agent, boards, clear):
    rows = []
    for b in boards:
        if clear:
            agent.reset_transposition_table()
        scores = agent.score_all_moves(b)
        rows.append([scores.get(c, c4solver.FULL_COLUMN) for c in range(7)])
    return np.array(rows, dtype=np.int8)


def sample(folder, name, n, cleared, rounds):
    moves, want = load(os.path.join(folder, name), n)
    boards = [Board.from_moves([int(c) - 1 for c in m]) for m in moves]
    agent = BitBully()
    bb = f"BitBully {bitbully.__version__} score_all_moves, default book"
    runs = {
        f"{bb}, table kept": lambda: bitbully_rows(agent, boards, False),
        f"c4solver analyze_many, built-in book, {os.cpu_count()} threads": lambda: c4solver.analyze_many(
            moves, progress=False
        ),
        "c4solver analyze_many, built-in book, 1 thread": lambda: c4solver.analyze_many(
            moves, threads=1, progress=False
        ),
    }
    if cleared:
        runs[f"{bb}, table cleared"] = lambda: bitbully_rows(agent, boards, True)
    times = {name: [] for name in runs}
    reference = None
    for _ in range(rounds):
        for run, f in runs.items():
            start = time.perf_counter()
            rows = f()
            times[run].append(time.perf_counter() - start)
            assert rows.shape == (len(moves), 7), run
            assert rows.max(axis=1).tolist() == want, f"{run}: a row's best is not the set's score"
            if reference is None:
                reference = rows
            assert np.array_equal(rows, reference), f"{run}: rows differ from BitBully's"
    rate = {run: len(moves) / statistics.median(t) for run, t in times.items()}
    base = rate[f"{bb}, table kept"]
    print(f"{len(moves)} positions of {name}, {rounds} rounds, medians, {len(moves) * 7} values checked per run")
    print()
    print("| run | positions/s | vs BitBully (table kept) |")
    print("|---|---:|---:|")
    for run in runs:
        print(f"| {run} | {rate[run]:.1f} | {rate[run] / base:.2f} |")
    print()


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "../shared/pons-testsets"
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    for name, n, cleared in SAMPLES:
        sample(folder, name, n, cleared, rounds)


if __name__ == "__main__":
    main()
