#!/usr/bin/env python3
"""`c4solver analyze` side by side with the tutorial's final program's `-a`.

    scripts/analysis-vs-tutorial.py TUTORIAL C4SOLVER ROUNDS FILE...

TUTORIAL is a build of Pascal Pons' final program (github.com/PascalPons/connect4)
whose main() resets the solver before each line (`solver.reset()`, as c4solver
clears its table) and appends to each output line the node count
(`solver.getNodeCount()`) and the microseconds of the analysis, the reset not
counted; it runs with `-a -b /nonexistent` (no opening book). C4SOLVER is a release
build of this repository, run with `--no-book` too and on one thread
(`--threads 1`, as the tutorial's program runs). Each FILE holds one position per
line (moves only: the tutorial's program reads nothing else).

For each file and round, the three programs run one after the other on the same
positions (tutorial -a, c4solver analyze, c4solver solve), so that they see the same
machine load; the script checks that the tutorial's scores and c4solver's are the
same line for line, and prints the mean nodes and the median over the rounds of the
mean time per position, with the ratios.
"""
import json
import statistics
import subprocess
import sys


def tutorial(prog, path):
    out = subprocess.run([prog, '-a', '-b', '/nonexistent'], stdin=open(path),
                         capture_output=True, text=True, check=True).stdout
    rows = [l.split() for l in out.splitlines()]
    scores = [' '.join(r[:8]) for r in rows]
    return scores, sum(int(r[8]) for r in rows) / len(rows), sum(int(r[9]) for r in rows) / len(rows)


def c4solver(prog, command, path):
    out = subprocess.run([prog, command, '--json', '--no-book', '--threads', '1'], stdin=open(path),
                         capture_output=True, text=True, check=True).stdout
    rows = [json.loads(l) for l in out.splitlines()]
    scores = [' '.join([r['moves']] + [str(-1000 if s is None else s) for s in r.get('scores', [])])
              for r in rows]
    return scores, sum(r['nodes'] for r in rows) / len(rows), sum(r['time_us'] for r in rows) / len(rows)


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    pons, c4, rounds, files = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    print('| positions | tutorial -a nodes | analyze nodes | nodes ratio | tutorial -a time '
          '| analyze time | time ratio | solve time | analyze / solve time |')
    print('|---|---:|---:|---:|---:|---:|---:|---:|---:|')
    for path in files:
        times = {'pons': [], 'analyze': [], 'solve': []}
        for _ in range(rounds):
            p_scores, p_nodes, p_time = tutorial(pons, path)
            a_scores, a_nodes, a_time = c4solver(c4, 'analyze', path)
            _, _, s_time = c4solver(c4, 'solve', path)
            if p_scores != a_scores:
                bad = next(i for i, (p, a) in enumerate(zip(p_scores, a_scores)) if p != a)
                sys.exit(f'{path}: line {bad + 1} differs: {p_scores[bad]!r} vs {a_scores[bad]!r}')
            times['pons'].append(p_time)
            times['analyze'].append(a_time)
            times['solve'].append(s_time)
        pt, at, st = (statistics.median(times[k]) for k in ('pons', 'analyze', 'solve'))
        print(f'| {path} ({len(p_scores)}) | {p_nodes:,.0f} | {a_nodes:,.0f} | {a_nodes / p_nodes:.3f} '
              f'| {pt / 1000:.2f} ms | {at / 1000:.2f} ms | {at / pt:.3f} | {st / 1000:.2f} ms | {at / st:.2f} |')


if __name__ == '__main__':
    main()
