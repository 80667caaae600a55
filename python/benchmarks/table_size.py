"""solve_many's positions per second with 64 MB and 16 MB tables, side by side.

    pip install ./python
    python python/benchmarks/table_size.py [ROUNDS]

From the repository root (Pascal Pons' sets in ../shared/pons-testsets). Each
sample is solved without the book, the two sizes alternating, ROUNDS times
(default 3), every answer checked against the set; the table gives the median
positions per second of each size and their ratio. The last row is the empty
board (one position, seconds). Why solve_many's default is 16 MB: its docstring.
"""

import statistics
import sys
import time

import c4solver

SETS = "../shared/pons-testsets/"
SIZES = (64, 16)
# (set, first N positions, threads, weak)
SAMPLES = [
    ("Test_L1_R2", 100, 1, False),
    ("Test_L1_R2", 100, 2, False),
    ("Test_L1_R2", 300, 1, True),
    ("Test_L1_R3", 20, 1, False),
    ("Test_L2_R2", 1000, 1, False),
    ("Test_L1_R1", 1000, 1, False),
]


def sign(s):
    return (s > 0) - (s < 0)


def timed(moves, threads, weak, mb):
    start = time.perf_counter()
    scores = c4solver.solve_many(moves, weak=weak, threads=threads, book=False, table_mb=mb).tolist()
    return scores, time.perf_counter() - start


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    print(f"{rounds} rounds, medians, no book")
    print()
    print("| sample | 64 MB | 16 MB | 16 MB / 64 MB |")
    print("|---|---:|---:|---:|")
    for name, n, threads, weak in SAMPLES:
        pairs = [line.split() for line in open(SETS + name).read().splitlines()[:n]]
        moves = [m for m, _ in pairs]
        want = [sign(int(s)) if weak else int(s) for _, s in pairs]
        rate = {mb: [] for mb in SIZES}
        for _ in range(rounds):
            for mb in SIZES:
                scores, secs = timed(moves, threads, weak, mb)
                assert scores == want, f"{name} {mb} MB: wrong scores"
                rate[mb].append(n / secs)
        a, b = (statistics.median(rate[mb]) for mb in SIZES)
        mode = "weak" if weak else "strong"
        label = f"{name}, first {n}, {mode}, {threads} thread{'s' if threads > 1 else ''}"
        print(f"| {label} (positions/s) | {a:.1f} | {b:.1f} | {b / a:.3f} |")
    secs = {mb: [] for mb in SIZES}
    for _ in range(2):
        for mb in SIZES:
            scores, t = timed([""], 1, False, mb)
            assert scores == [1]
            secs[mb].append(t)
    a, b = (statistics.median(secs[mb]) for mb in SIZES)
    print(f"| the empty board, strong, 1 thread (s) | {a:.2f} | {b:.2f} | {b / a:.3f} |")


if __name__ == "__main__":
    main()
