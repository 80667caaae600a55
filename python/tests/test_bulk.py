"""analyze_many, solve_many and legal_mask as numpy arrays, and random_positions:
against the command line (`c4solver analyze --json`, `c4solver generate`), against
one position at a time, and their progress bars."""

import json
import sys
import threading

import numpy as np
import pytest

import c4solver
from c4solver import FULL_COLUMN, Position, Solver, analyze_many, legal_mask, solve_many
from c4solver import _bulk
from conftest import pons_set


def cli_analyze(cli, moves, weak=False):
    """The command line's rows of `analyze --json` (None for a full column)."""
    args = ["analyze", "--json"] + (["--weak"] if weak else [])
    out = cli(args, "".join(m + "\n" for m in moves))
    assert out.returncode == 0, out.stderr
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(rows) == len(moves)
    return rows


def as_row(scores):
    """The command line's scores as analyze_many writes them."""
    return [FULL_COLUMN if s is None or s == -1000 else s for s in scores]


def test_analyze_many_equals_the_command_line_on_a_few_hundred_positions(cli):
    moves = (
        [m for m, _ in pons_set("Test_L3_R1")[:150]]
        + [m for m, _ in pons_set("Test_L2_R1")[:100]]
        + [m for m, _ in pons_set("Test_L1_R1")[:40]]
        + [p.moves for p in c4solver.random_positions(30, stones=(1, 8), seed=3)]
        + ["4444441", "1234567"]
    )
    got = analyze_many(moves, progress=False)
    assert got.shape == (len(moves), 7) and got.dtype == np.int8
    rows = cli_analyze(cli, moves)
    want = [as_row(r["scores"]) for r in rows]
    assert got.tolist() == want
    # Each row's best is the position's score, as solve_many finds it.
    assert got.max(axis=1).tolist() == solve_many(moves, progress=False).tolist()
    assert np.array_equal(legal_mask(moves), got != FULL_COLUMN)


def test_weak_rows_are_the_signs_and_equal_the_command_line(cli):
    moves = [m for m, _ in pons_set("Test_L2_R1")[:60]]
    strong = analyze_many(moves, progress=False)
    weak = analyze_many(moves, weak=True, threads=1, progress=False)
    assert np.array_equal(weak, np.where(strong == FULL_COLUMN, FULL_COLUMN, np.sign(strong)))
    assert weak.tolist() == [as_row(r["scores"]) for r in cli_analyze(cli, moves, weak=True)]


def test_lists_positions_and_arrays_give_the_same_rows():
    positions = c4solver.random_positions(50, stones=(18, 34), seed=11)
    moves = [p.moves for p in positions]
    by_moves = analyze_many(moves, progress=False)
    assert np.array_equal(analyze_many(positions, threads=1, progress=False), by_moves)
    assert np.array_equal(analyze_many(iter(moves), threads=3, book=False, progress=False), by_moves)
    stacked = np.stack([p.to_array() for p in positions])
    assert np.array_equal(analyze_many(stacked, progress=False), by_moves)
    assert np.array_equal(analyze_many(stacked.astype(np.float32), progress=False), by_moves)
    solver = Solver()
    for m, row in zip(moves[:10], by_moves):
        assert [FULL_COLUMN if s is None else s for s in solver.analyze(m)] == row.tolist()


def test_empty_batches_have_their_shapes():
    assert analyze_many([], progress=False).shape == (0, 7)
    assert solve_many([], progress=False).shape == (0,)
    assert legal_mask([]).shape == (0, 7)
    assert analyze_many(np.zeros((0, 6, 7)), progress=False).shape == (0, 7)


def test_bad_batches_raise_before_solving():
    with pytest.raises(ValueError, match=r"^item 1: column 8 is out of range \(1..=7\) at move 3$"):
        analyze_many(["44", "448"], progress=False)
    with pytest.raises(ValueError, match=r"^item 0: move 7 makes four in a row: the game is already over$"):
        analyze_many(["1212121"], progress=False)
    with pytest.raises(TypeError, match=r"^item 1: a position is a Position or a move string"):
        analyze_many(["44", 44], progress=False)
    with pytest.raises(TypeError, match="not a str"):
        analyze_many("4455", progress=False)
    with pytest.raises(TypeError, match="not bytes"):
        analyze_many(b"4455", progress=False)
    with pytest.raises(ValueError, match=r"^threads must be from 1 to 1024, not 0$"):
        analyze_many(["44"], threads=0, progress=False)
    with pytest.raises(ValueError, match=r"^cells are numbers \(0, 1, 2 or -1\), not <U1$"):
        analyze_many(np.full((1, 6, 7), "a"), progress=False)
    # A finished game has no move: the mask says so.
    assert legal_mask(["1212121", Position("4444441")]).tolist() == [[False] * 7, [True] * 3 + [False] + [True] * 3]


class FakeBar:
    """Records what a tqdm bar is told."""

    made = []

    def __init__(self, total, **kwargs):
        self.total, self.n, self.updates, self.closed = total, 0, [], False
        FakeBar.made.append(self)

    def update(self, k):
        self.updates.append(k)
        self.n += k

    def close(self):
        self.closed = True


def test_the_progress_bar_counts_every_position(monkeypatch):
    monkeypatch.setattr(_bulk, "_tqdm", FakeBar)
    FakeBar.made.clear()
    moves = [m for m, _ in pons_set("Test_L1_R1")[:15]]
    analyze_many(moves, book=False, threads=1)
    (bar,) = FakeBar.made
    assert bar.total == 15 and bar.n == 15 and bar.closed
    assert all(k >= 0 for k in bar.updates)
    solve_many(moves, progress=False)
    assert len(FakeBar.made) == 1, "progress=False makes no bar"
    # Without tqdm, no bar and no error.
    monkeypatch.setattr(_bulk, "_tqdm", None)
    assert solve_many(["4455"]).tolist() == [18]


def test_a_real_tqdm_bar_takes_the_arguments_given(monkeypatch):
    tqdm = pytest.importorskip("tqdm")
    assert _bulk._tqdm is tqdm.tqdm
    moves = [m for m, _ in pons_set("Test_L2_R1")[:20]]
    want = solve_many(moves, progress=False)
    assert np.array_equal(solve_many(moves), want)
    # In a notebook the bar is shown whatever stderr is.
    monkeypatch.setitem(sys.modules, "ipykernel", sys)
    assert np.array_equal(solve_many(moves, book=False, threads=1), want)


def test_batches_release_the_gil():
    # While a batch runs, another Python thread keeps running.
    moves = [m for m, _ in pons_set("Test_L1_R2")[:6]]
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(1)
            done.wait(0.001)

    t = threading.Thread(target=count)
    t.start()
    try:
        analyze_many(moves, book=False, threads=1, progress=False)
    finally:
        done.set()
        t.join()
    assert len(ticks) > 10


def test_random_positions_follow_the_seed_and_the_range():
    a = c4solver.random_positions(200, stones=(5, 12), seed=9)
    assert [p.moves for p in a] == [p.moves for p in c4solver.random_positions(200, stones=(5, 12), seed=9)]
    assert [p.moves for p in a] != [p.moves for p in c4solver.random_positions(200, stones=(5, 12), seed=10)]
    assert all(5 <= len(p) <= 12 and not p.is_won() for p in a)
    assert len({p.key for p in a}) == 200
    assert len(c4solver.random_positions(5)) == 5
    # One stone: seven positions, and no more.
    assert sorted(p.moves for p in c4solver.random_positions(7, stones=(1, 1), seed=1)) == list("1234567")
    with pytest.raises(ValueError, match="^only 7 different positions with 1 to 1 stones"):
        c4solver.random_positions(8, stones=(1, 1), seed=1)
    with pytest.raises(ValueError, match=r"^stones must be \(lo, hi\) with 0 <= lo <= hi <= 42, not \(5, 3\)$"):
        c4solver.random_positions(1, stones=(5, 3))
    with pytest.raises(ValueError, match="^no position to draw with 0 to 0 stones"):
        c4solver.random_positions(1, stones=(0, 0))
    with pytest.raises(ValueError, match="^n must be 0 or more, not -1$"):
        c4solver.random_positions(-1)


@pytest.mark.parametrize("seed", [5, 2026])
def test_random_positions_draw_what_generate_draws(cli, seed):
    # Every End position is Easy: `generate` keeps each candidate it draws, so
    # its output is the draws themselves, in order.
    out = cli(
        ["generate", "--stage", "end", "--difficulty", "easy", "--count", "40", "--seed", str(seed)],
        "",
    )
    assert out.returncode == 0, out.stderr
    generated = [line.split()[0] for line in out.stdout.splitlines()]
    assert len(generated) == 40
    assert [p.moves for p in c4solver.random_positions(40, stones=(29, 42), seed=seed)] == generated
