"""c4solver's solve_many side by side with BitBully in one Python process.

    pip install ./python bitbully
    python python/benchmarks/versus_bitbully.py [SET] [N] [ROUNDS]

SET defaults to ../shared/pons-testsets/Test_L1_R2 (from the repository root), N to
100 positions, ROUNDS to 3. Both solvers run without an opening book and with their
table cleared before every position (BitBully: reset_transposition_table; c4solver:
each solve clears its table), one thread; c4solver also runs on every core. The
rounds alternate (BitBully, c4solver one thread, c4solver every core, ...) so that
both see the same machine; the table gives each one's median positions per second.
Every score is checked against the set's.
"""

import os
import statistics
import sys
import time

import c4solver
from bitbully import BitBully, Board


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "../shared/pons-testsets/Test_L1_R2"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    pairs = []
    for line in open(path).read().splitlines()[:n]:
        moves, score = line.split()
        pairs.append((moves, int(score)))
    moves = [m for m, _ in pairs]
    want = [s for _, s in pairs]

    agent = BitBully(opening_book=None)

    def bitbully():
        scores = []
        for m in moves:
            agent.reset_transposition_table()
            scores.append(agent.mtdf(Board.from_moves([int(c) - 1 for c in m])))
        return scores

    def ours_one():
        return c4solver.solve_many(moves, threads=1, book=False)

    def ours_all():
        return c4solver.solve_many(moves, book=False)

    runs = {"BitBully 0.0.79 (mtdf)": (bitbully, []), "c4solver, 1 thread": (ours_one, []),
            f"c4solver, {os.cpu_count()} threads": (ours_all, [])}
    for _ in range(rounds):
        for name, (f, times) in runs.items():
            start = time.perf_counter()
            scores = f()
            times.append(time.perf_counter() - start)
            assert scores == want, f"{name}: wrong scores"
    base = len(moves) / statistics.median(runs["BitBully 0.0.79 (mtdf)"][1])
    print(f"{len(moves)} positions of {os.path.basename(path)}, {rounds} rounds, medians")
    print()
    print("|solver|positions/s|vs BitBully|")
    print("|---|---:|---:|")
    for name, (_, times) in runs.items():
        rate = len(moves) / statistics.median(times)
        print(f"|{name}|{rate:.1f}|{rate / base:.2f}|")


if __name__ == "__main__":
    main()
