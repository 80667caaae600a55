#!/usr/bin/env python3
"""John Tromp's table of solved board sizes, with c4solver's results.

    python3 scripts/sizes-table.py [docs/sizes.tsv] [--projection]
    python3 scripts/sizes-table.py --write docs/sizes.md

Reads the results that `cargo run --release --example tromp` appends to
docs/sizes.tsv (one tab-separated line per size: size, mode, score, nodes,
seconds, table MB; score `?` for a search stopped at its time limit) and prints a
markdown table laid out like Tromp's: width across, height down, one cell per
size of his table with our exact score of the empty board (and its sign as
Tromp writes it: + first player wins, = draw, - second player wins), the nodes
and the time. A result whose sign differs from Tromp's is marked; a size not yet
solved shows how long it ran. With --projection, the table of the sizes out of
reach instead: their cost projected from the growth of nodes with size among
the solved sizes (a fit over all of them, and the growth from the nearest two in
the same column and in the same row). With --write, the blocks between
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
    """The last strong result of each size: {(w, h): (score|None, nodes|None,
    secs, workers|None)}. A `distributed` line (a 7th field: its workers) is a
    `python -m c4solver.distributed solve` run: shown in the table where no
    single search solved the size, never used to project (its nodes are summed
    over tasks with tables of their own, its seconds a cluster's)."""
    results = {}
    for line in open(path):
        if line.startswith("#") or line.startswith("size") or not line.strip():
            continue
        fields = line.rstrip("\n").split("\t")
        size, mode, score, nodes, secs, _mb = fields[:6]
        if mode not in ("strong", "distributed"):
            continue
        w, h = (int(x) for x in size.split("x"))
        if mode == "distributed":
            old = results.get((w, h))
            if score != "?" and (old is None or old[0] is None):
                results[(w, h)] = (int(score), int(nodes), float(secs), int(fields[6]))
            continue
        solved = score != "?"
        old = results.get((w, h))
        if old is not None and old[3] is not None and not solved:
            continue
        # A solved result beats a stopped one; a longer limit beats a shorter one.
        if old is None or solved or (old[0] is None and float(secs) > old[2]):
            if old is not None and old[0] is not None and not solved:
                continue
            results[(w, h)] = (
                int(score) if solved else None,
                int(nodes) if solved else None,
                float(secs),
                None,
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
                score, nodes, secs, workers = r
                mark = "" if sign(score) == tromp else f" **≠ Tromp's {tromp}**"
                on = "" if workers is None else f" on {workers} workers"
                cells.append(f"**{score_text(score)}** {sign(score)}{mark}<br>{nodes_text(nodes)}<br>{time_text(secs)}{on}")
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


def neighbours(results, w, h):
    """Extrapolations from the two nearest solved sizes in the same column (one
    row more: nodes(W, H-1)^2 / nodes(W, H-2)) and in the same row (one column
    more); each only where both are solved."""
    def nodes(size):
        r = results.get(size)
        return r[1] if r is not None and r[0] is not None and r[3] is None else None

    out = {}
    for name, a, b in (
        ("column", (w, h - 1), (w, h - 2)),
        ("row", (w - 1, h), (w - 2, h)),
    ):
        n1, n2 = nodes(a), nodes(b)
        if n1 is not None and n2 is not None:
            out[name] = n1 * n1 / n2
    return out


def projection(results):
    big = [
        (w * h, w, r[1], r[2])
        for (w, h), r in results.items()
        if r[0] is not None and r[3] is None and w * h >= 30
    ]
    if len(big) < 4:
        return "Not enough solved sizes of 30 cells or more to project from."
    a, per_cell, per_col = fit([(c, w, math.log10(n)) for c, w, n, _ in big])

    def fitted(cells, w):
        return 10 ** (a + per_cell * cells + per_col * w)

    large = [(n, s) for _, _, n, s in big if n >= 1e9] or [(n, s) for _, _, n, s in big]
    rate = sum(n for n, _ in large) / sum(s for _, s in large)
    # How far off the fit is on the largest solved sizes (actual / fitted).
    errors = sorted(
        n / fitted(c, w) for c, w, n, _ in big if c >= 45
    ) or [1.0]
    out = [
        "Three estimates of each size's nodes, none of them a bound: **fit**, a "
        f"least-squares fit over the {len(big)} solved sizes of 30 cells or more, "
        f"log10(nodes) = {a:.2f} + {per_cell:.3f} x cells + {per_col:.3f} x width "
        f"({10 ** per_cell:.2f}x per cell at a fixed width, {10 ** per_col:.2f}x more "
        "per column at a fixed number of cells); **column**, the growth from the "
        "two sizes below it in its column carried one row further "
        "(`nodes(W,H-1)^2 / nodes(W,H-2)`); **row**, the same along its row. The "
        "projection is the largest of them (on the solved sizes of 45 cells or more "
        f"the fit is off by a factor {errors[0]:.2f} to {errors[-1]:.2f}), its time at the {rate / 1e6:.2f} M nodes/s of the searches "
        "of a billion nodes or more here. A size stopped at its limit ran at least "
        "that long at about that rate: the last column.",
        "",
        "| size | cells | Tromp | fit | column | row | projected time, one core | ran here: at least |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for h in sorted(TROMP, reverse=True):
        for w in WIDTHS:
            tromp = TROMP[h].get(w)
            r = results.get((w, h))
            if tromp is None or (r is not None and r[0] is not None):
                continue
            fit_nodes = fitted(w * h, w)
            near = neighbours(results, w, h)
            worst = max([fit_nodes, *near.values()])
            ran = (
                "not run"
                if r is None
                else f"stopped after {time_text(r[2])}: {nodes_text(rate * r[2])}"
            )
            col = nodes_text(near["column"]) if "column" in near else "-"
            row = nodes_text(near["row"]) if "row" in near else "-"
            out.append(
                f"| {w}x{h} | {w * h} | {tromp} | {nodes_text(fit_nodes)} | {col} | {row} "
                f"| {time_text(worst / rate)} | {ran} |"
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
