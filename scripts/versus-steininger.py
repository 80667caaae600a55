#!/usr/bin/env python3
"""c4solver and Christophe Steininger's c4 side by side on the same positions of one
board size, one thread each: the rounds alternate (c4solver, then the anchor, then
again), every score is checked equal between the two (and to the file's, when it
gives one), and the medians and their ratios are printed as a markdown row: the
wall time and the CPU time (user + system, of the process and its children).

    python3 scripts/versus-steininger.py W H POSITIONS ANCHOR [--c4solver BIN]
        [--limit N] [--rounds R] [--table-mb MB] [--one-based]

POSITIONS: lines "MOVES [SCORE]" with MOVES in 0-based column digits, as that
project's test files (tst/data/WxH/*.txt) write them, or with --one-based in
c4solver's column symbols (`c4solver generate`'s files). ANCHOR: the binary that
scripts/anchor-steininger builds for W x H. BIN: a c4solver built with the
all-sizes feature (default target/all-sizes/c4solver, from `cargo build
--features all-sizes --profile all-sizes`), run without its book (the
anchor has none). Run it on a quiet machine.
"""

import argparse
import pathlib
import resource
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
DIGITS = "123456789abcdefghijklmnopqrstuvwxyz"


def read(path, limit):
    """(0-based moves, expected score or None) of the first `limit` lines."""
    rows = []
    for line in pathlib.Path(path).read_text().splitlines():
        fields = line.split()
        if fields:
            rows.append((fields[0], int(fields[1]) if len(fields) > 1 else None))
    return rows[:limit] if limit else rows


def cpu_seconds():
    """User + system seconds of the children waited for so far."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(command, text):
    """(scores, nodes, wall seconds, CPU seconds) of one run over `text`."""
    start, cpu = time.perf_counter(), cpu_seconds()
    out = subprocess.run(command, input=text, capture_output=True, text=True)
    took = time.perf_counter() - start
    cpu = cpu_seconds() - cpu
    if out.returncode != 0:
        sys.exit(f"{command[0]} failed ({out.returncode}): {out.stderr.strip()}")
    rows = [line.split() for line in out.stdout.splitlines() if line.strip()]
    return [int(r[1]) for r in rows], sum(int(r[2]) for r in rows), took, cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("width", type=int)
    ap.add_argument("height", type=int)
    ap.add_argument("positions")
    ap.add_argument("anchor")
    ap.add_argument("--c4solver", default=str(ROOT / "target/all-sizes/c4solver"))
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--table-mb", type=int, default=64)
    ap.add_argument("--one-based", action="store_true", help="POSITIONS in c4solver's column symbols")
    a = ap.parse_args()
    rows = read(a.positions, a.limit)
    if a.one_based:
        rows = [("".join(str(DIGITS.index(c)) for c in m), e) for m, e in rows]
    ours = "".join("".join(DIGITS[int(c)] for c in m) + "\n" for m, _ in rows)
    theirs = "".join(m + "\n" for m, _ in rows)
    c4solver = [a.c4solver, "--size", f"{a.width}x{a.height}", "--threads", "1", "--no-book", "--table-mb", str(a.table_mb)]
    times = {"c4solver": [], "anchor": []}
    cpus = {"c4solver": [], "anchor": []}
    nodes = {}
    for _ in range(a.rounds):
        s1, nodes["c4solver"], t1, c1 = run(c4solver, ours)
        s2, nodes["anchor"], t2, c2 = run([a.anchor], theirs)
        times["c4solver"].append(t1)
        times["anchor"].append(t2)
        cpus["c4solver"].append(c1)
        cpus["anchor"].append(c2)
        if s1 != s2 or len(s1) != len(rows):
            sys.exit("the scores differ: " + str([(m, x, y) for (m, _), x, y in zip(rows, s1, s2) if x != y][:5]))
        wrong = [(m, e, x) for (m, e), x in zip(rows, s1) if e is not None and e != x]
        if wrong:
            sys.exit(f"scores differ from the file's: {wrong[:5]}")
    ours_t, theirs_t = statistics.median(times["c4solver"]), statistics.median(times["anchor"])
    ours_c, theirs_c = statistics.median(cpus["c4solver"]), statistics.median(cpus["anchor"])
    print(
        "| board | positions | c4solver s (CPU s) | nodes | Steininger's c4 s (CPU s) | nodes "
        "| nodes ratio | wall ratio | CPU ratio |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    print(
        f"| {a.width}x{a.height} | {pathlib.Path(a.positions).name} ({len(rows)}) "
        f"| {ours_t:.2f} ({ours_c:.2f}) | {nodes['c4solver']:,} | {theirs_t:.2f} ({theirs_c:.2f}) "
        f"| {nodes['anchor']:,} | {nodes['c4solver'] / nodes['anchor']:.3f} "
        f"| {ours_t / theirs_t:.2f}x | {ours_c / theirs_c:.2f}x |"
    )


if __name__ == "__main__":
    main()
