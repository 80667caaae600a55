#!/usr/bin/env python3
"""John Tromp's table of solved board sizes, with c4solver's results.

    python3 scripts/sizes-table.py [docs/sizes.tsv] [--projection]
    python3 scripts/sizes-table.py --write README.md docs/sizes.md

Reads the results that `cargo run --release --example tromp` appends to
docs/sizes.tsv (one tab-separated line per size: size, mode, score, nodes,
seconds, table MB; score `?` for a search stopped at its time limit) and prints a
markdown table laid out like Tromp's: width across, height down, one cell per
size of his table with our exact score of the empty board (and its sign as
Tromp writes it: + first player wins, = draw, - second player wins), the nodes
and the time. A result whose sign differs from Tromp's is marked; a size not yet
solved shows how long it ran. With --projection, the table of the sizes out of
reach instead: their cost projected from the growth of nodes with the number of
cells among the solved sizes. With --write, the blocks between
`<!-- sizes-table -->` (or `<!-- sizes-projection -->`) and `<!-- end sizes -->`
in the given markdown files are rewritten with docs/sizes.tsv's tables.
"""

import math
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Tromp's published results (http://tromp.github.io/c4/c4.html): the reference
# we check against, not our answers.
TROMP = {
    11: {4: "="},
    10: {4: "=", 5: "="},
    9: {4: "=", 5: "=", 6: "+"},
    8: {4: "=", 5: "=", 6: "-", 7: "+"},
    7: {4: "=", 5: "=", 6: "+", 7: "=", 8: "+"},
    6: {4: "=", 5: "=", 6: "-", 7: "+", 8: "-", 9: "-"},
    5: {4: "=", 5: "=", 6: "=", 7: "=", 8: "+", 9: "+", 10: "+"},
    4: {4: "=", 5: "=", 6: "-", 7: "=", 8: "-", 9: "-", 10: "-", 11: "-"},
}
WIDTHS = range(4, 12)


def read(path):
    """The last strong result of each size: {(w, h): (score|None, nodes|None, secs)}."""
    results = {}
    for line in open(path):
        if line.startswith("#") or line.startswith("size") or not line.strip():
            continue
        size, mode, score, nodes, secs, _mb = line.rstrip("\n").split("\t")[:6]
        if mode != "strong":
            continue
        w, h = (int(x) for x in size.split("x"))
        solved = score != "?"
        old = results.get((w, h))
        # A solved result beats a stopped one; a longer limit beats a shorter one.
        if old is None or solved or (old[0] is None and float(secs) > old[2]):
            if old is not None and old[0] is not None and not solved:
                continue
            results[(w, h)] = (
                int(score) if solved else None,
                int(nodes) if solved else None,
                float(secs),
            )
    return results


def sign(score):
    return "+" if score > 0 else "-" if score < 0 else "="


def score_text(score):
    return f"+{score}" if score > 0 else str(score)


def nodes_text(n):
    for unit, div in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= div:
            return f"{n / div:.3g} {unit}"
    return str(n)


def time_text(s):
    if s >= 3600:
        return f"{s / 3600:.3g} h"
    if s >= 60:
        return f"{s / 60:.3g} min"
    if s >= 1:
        return f"{s:.3g} s"
    return f"{s * 1000:.3g} ms"


def table(results):
    out = ["| height \\ width | " + " | ".join(str(w) for w in WIDTHS) + " |"]
    out.append("|---|" + "---|" * len(WIDTHS))
    for h in sorted(TROMP, reverse=True):
        cells = []
        for w in WIDTHS:
            tromp = TROMP[h].get(w)
            if tromp is None:
                cells.append("")
                continue
            r = results.get((w, h))
            if r is None:
                cells.append(f"{tromp} (not run)")
            elif r[0] is None:
                cells.append(f"{tromp} (> {time_text(r[2])})")
            else:
                score, nodes, secs = r
                mark = "" if sign(score) == tromp else f" **≠ Tromp's {tromp}**"
                cells.append(f"**{score_text(score)}** {sign(score)}{mark}<br>{nodes_text(nodes)}<br>{time_text(secs)}")
        out.append(f"| {h} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def fit(points):
    """Least squares of y against (1, cells, width): the coefficients."""
    # Normal equations of a 3-parameter linear model, solved by Gaussian elimination.
    rows = [(1.0, float(c), float(w)) for c, w, _ in points]
    ys = [y for _, _, y in points]
    a = [[sum(r[i] * r[j] for r in rows) for j in range(3)] for i in range(3)]
    b = [sum(r[i] * y for r, y in zip(rows, ys)) for i in range(3)]
    for i in range(3):
        p = max(range(i, 3), key=lambda k: abs(a[k][i]))
        a[i], a[p], b[i], b[p] = a[p], a[i], b[p], b[i]
        for k in range(i + 1, 3):
            f = a[k][i] / a[i][i]
            a[k] = [x - f * y for x, y in zip(a[k], a[i])]
            b[k] -= f * b[i]
    x = [0.0] * 3
    for i in reversed(range(3)):
        x[i] = (b[i] - sum(a[i][j] * x[j] for j in range(i + 1, 3))) / a[i][i]
    return x


def projection(results):
    big = [
        (w * h, w, r[1], r[2])
        for (w, h), r in results.items()
        if r[0] is not None and w * h >= 30
    ]
    if len(big) < 4:
        return "Not enough solved sizes of 30 cells or more to project from."
    a, per_cell, per_col = fit([(c, w, math.log10(n)) for c, w, n, _ in big])
    rate = sum(n for _, _, n, _ in big) / sum(s for _, _, _, s in big)
    out = [
        f"Fitted on the {len(big)} solved sizes of 30 cells or more, log10(nodes) = "
        f"{a:.2f} + {per_cell:.3f} x cells + {per_col:.3f} x width: nodes grow "
        f"{10 ** per_cell:.2f}x per cell at a fixed width and {10 ** per_col:.2f}x "
        f"more per column at a fixed number of cells; times at the {rate / 1e6:.2f} M "
        "nodes/s these searches averaged on one core of this machine.",
        "",
        "A size stopped here ran at least its time at about that rate: the last "
        "column's lower bound, which says where the fit is too hopeful.",
        "",
        "| size | cells | Tromp | projected nodes | projected time, one core | ran here: at least |",
        "|---|---|---|---|---|---|",
    ]
    for h in sorted(TROMP, reverse=True):
        for w in WIDTHS:
            tromp = TROMP[h].get(w)
            r = results.get((w, h))
            if tromp is None or (r is not None and r[0] is not None):
                continue
            cells = w * h
            nodes = 10 ** (a + per_cell * cells + per_col * w)
            ran = (
                "not run"
                if r is None
                else f"stopped after {time_text(r[2])}: {nodes_text(rate * r[2])}"
            )
            out.append(
                f"| {w}x{h} | {cells} | {tromp} | {nodes_text(nodes)} "
                f"| {time_text(nodes / rate)} | {ran} |"
            )
    return "\n".join(out)


def write(files, results):
    """Rewrites the table blocks of `files` in place."""
    blocks = {"sizes-table": table(results), "sizes-projection": projection(results)}
    for name in files:
        path = pathlib.Path(name)
        text = path.read_text()
        for key, body in blocks.items():
            text = re.sub(
                rf"(<!-- {key} -->\n).*?(<!-- end sizes -->)",
                lambda m, body=body: m.group(1) + body + "\n" + m.group(2),
                text,
                flags=re.S,
            )
        path.write_text(text)


def main():
    if "--write" in sys.argv:
        write([a for a in sys.argv[1:] if a != "--write"], read(ROOT / "docs" / "sizes.tsv"))
        return
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    path = pathlib.Path(args[0]) if args else ROOT / "docs" / "sizes.tsv"
    results = read(path)
    print(projection(results) if "--projection" in sys.argv else table(results))


if __name__ == "__main__":
    main()
