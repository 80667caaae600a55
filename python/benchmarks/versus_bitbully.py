"""c4solver's solve_many side by side with BitBully in one Python process.

    pip install ./python bitbully
    python python/benchmarks/versus_bitbully.py [SET] [N] [ROUNDS]

SET defaults to ../shared/pons-testsets/Test_L1_R2 (from the repository root), N to
the first 100 positions, ROUNDS to 2. Every position is solved strong (exact
score), one at a time, with the table cleared before it (BitBully:
reset_transposition_table before each mtdf; c4solver: each solve clears its table)
and every score is checked against the set's.

Two comparisons:

* without opening books, one thread each (BitBully(opening_book=None) against
  solve_many(threads=1, book=False)), and c4solver on every core;
* as each comes by default: BitBully() loads its 12-ply book with distances
  ("12-ply-dist", which its search consults at 12 stones), c4solver its built-in
  book (whatever depth this build carries: `c4solver book info`).

BitBully is also run with its table kept from one position to the next (its
reset_transposition_table clears a large table: tens of milliseconds), and
c4solver on one thread with Solver's 64 MB table instead of solve_many's default
16 MB (see solve_many's docstring). The rounds alternate the runs so that all see the same machine; the table gives each run's
median positions per second and its ratios to BitBully with the same book setting.
"""

import os
import statistics
import sys
import time

import bitbully
import c4solver
from bitbully import BitBully, Board


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "../shared/pons-testsets/Test_L1_R2"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    pairs = []
    for line in open(path).read().splitlines()[:n]:
        moves, score = line.split()
        pairs.append((moves, int(score)))
    moves = [m for m, _ in pairs]
    want = [s for _, s in pairs]
    boards = [Board.from_moves([int(c) - 1 for c in m]) for m in moves]
    cores = os.cpu_count()

    def bitbully_run(agent, clear):
        def run():
            scores = []
            for b in boards:
                if clear:
                    agent.reset_transposition_table()
                scores.append(agent.mtdf(b))
            return scores

        return run

    def ours(threads, book, **table_mb):  # no table_mb: solve_many's default
        return lambda: c4solver.solve_many(moves, threads=threads, book=book, **table_mb)

    bb = f"BitBully {bitbully.__version__} (mtdf)"
    nobook, book = BitBully(opening_book=None), BitBully()
    runs = {
        # name: (function, book setting)
        f"{bb}, no book, table cleared": (bitbully_run(nobook, True), "no book"),
        f"{bb}, no book, table kept": (bitbully_run(nobook, False), "no book"),
        "c4solver solve_many, 1 thread, no book": (ours(1, False), "no book"),
        "c4solver solve_many, 1 thread, no book, 64 MB table": (ours(1, False, table_mb=64), "no book"),
        f"c4solver solve_many, {cores} threads, no book": (ours(None, False), "no book"),
        f"{bb}, default book (12-ply-dist), table cleared": (bitbully_run(book, True), "book"),
        f"{bb}, default book (12-ply-dist), table kept": (bitbully_run(book, False), "book"),
        "c4solver solve_many, 1 thread, built-in book": (ours(1, True), "book"),
    }
    times = {name: [] for name in runs}
    for _ in range(rounds):
        for name, (f, _) in runs.items():
            start = time.perf_counter()
            scores = f()
            times[name].append(time.perf_counter() - start)
            assert list(scores) == want, f"{name}: wrong scores"
    rate = {name: len(moves) / statistics.median(t) for name, t in times.items()}

    def base(setting, kept):
        return next(
            rate[n] for n, (_, s) in runs.items() if n.startswith(bb) and s == setting and n.endswith(kept)
        )

    print(f"{len(moves)} positions of {os.path.basename(path)}, {rounds} rounds, medians, {cores} cores")
    print()
    print("| run | positions/s | vs BitBully, table cleared | vs BitBully, table kept |")
    print("|---|---:|---:|---:|")
    for name, (_, setting) in runs.items():
        cleared = rate[name] / base(setting, "cleared")
        kept = rate[name] / base(setting, "kept")
        print(f"| {name} | {rate[name]:.1f} | {cleared:.2f} | {kept:.2f} |")

if __name__ == "__main__":
    main()
