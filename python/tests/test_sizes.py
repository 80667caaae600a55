"""Every board size: Position, Solver, the batches and parse_line on boards other
than 7x6, compared with the command line built with every size
(`cargo build --features all-sizes --profile all-sizes`, as C4SOLVER_BIN)."""

import json
import random

import numpy as np
import pytest

import c4solver
from c4solver import Position, Solver

# (size, stones of the positions checked): deep enough that each solves in a
# moment (28 empty cells on the boards of 56 cells and more).
SIZES = [("8x8", 36), ("10x6", 32), ("8x7", 28), ("6x7", 12), ("5x4", 0), ("7x6", 14)]


def dims(size):
    width, height = map(int, size.split("x"))
    return width, height


def games(size, stones, n, seed):
    """`n` different positions of `stones` stones (and up to 3 more) on the
    `size` board, reached by seeded random moves with no four in a row."""
    rng = random.Random(seed)
    found = {}
    while len(found) < n:
        p = Position(size=size)
        target = stones + rng.randrange(4)
        while len(p) < target:
            moves = [c for c in p.legal_moves() if not p.play(c).is_won()]
            if not moves:
                break
            p = p.play(rng.choice(moves))
        if len(p) == target:
            found.setdefault(p, p.moves)
    return list(found.values())


def run(cli, args, lines):
    out = cli(args, "".join(m + "\n" for m in lines))
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()


@pytest.mark.parametrize("size, stones", SIZES)
def test_the_solver_answers_as_the_command_line(cli, size, stones):
    moves = games(size, stones, 6, seed=len(size) + stones)
    s = Solver(size=size, threads=1, table_mb=16)
    assert s.size == size and s.book == (size == "7x6")
    width, _ = dims(size)
    for weak in (False, True):
        flags = ["--size", size, "--threads", "1"] + (["--weak"] if weak else [])
        answers = [json.loads(a) for a in run(cli, ["analyze", "--json", "--pv", *flags], moves)]
        solved = run(cli, ["solve", *flags], moves)
        for m, want, line in zip(moves, answers, solved, strict=True):
            got = s.analysis(m, weak=weak, pv=True)
            for key in ["moves", "score", "scores", "best", "book", "pv"]:
                assert got[key] == want[key], (size, m, key)
            assert s.analyze(m, weak=weak) == want["scores"] and len(want["scores"]) == width
            assert s.solve(m, weak=weak) == want["score"] == int(line.split(" ")[1]), (size, m)
            assert s.best_moves(m, weak=weak) == want["best"]
            assert s.best_move(m, weak=weak) in want["best"]
            if not weak:
                assert s.principal_variation(m) == want["pv"]


@pytest.mark.parametrize("size, stones", SIZES)
def test_the_batches_answer_as_the_command_line(cli, size, stones):
    moves = games(size, stones, 8, seed=stones + 1)
    flags = ["--size", size, "--threads", "1"]
    answers = [json.loads(a) for a in run(cli, ["analyze", "--json", *flags], moves)]
    want = np.array(
        [[c4solver.FULL_COLUMN if v is None else v for v in a["scores"]] for a in answers],
        dtype=np.int8,
    )
    scores = c4solver.analyze_many(moves, size=size, threads=2, progress=False)
    np.testing.assert_array_equal(scores, want)
    stacked = np.stack([Position(m, size=size).to_array() for m in moves])
    width, height = dims(size)
    assert stacked.shape == (len(moves), height, width)
    np.testing.assert_array_equal(c4solver.analyze_many(stacked, progress=False), want)
    solved = c4solver.solve_many(stacked, size=size, progress=False)
    np.testing.assert_array_equal(solved, [a["score"] for a in answers])
    mask = c4solver.legal_mask(moves, size=size)
    np.testing.assert_array_equal(mask, want != c4solver.FULL_COLUMN)
    np.testing.assert_array_equal(c4solver.legal_mask(stacked), mask)


@pytest.mark.parametrize("size, stones", SIZES)
def test_positions_on_every_size(size, stones):
    width, height = dims(size)
    for m in games(size, max(stones, 6), 5, seed=3):
        p = Position(m, size=size)
        assert (p.size, p.moves, len(p)) == (size, m, len(m))
        same = Position(m, size=(width, height))
        assert same == p and hash(same) == hash(p)
        assert repr(p) == (f"Position('{m}')" if size == "7x6" else f"Position('{m}', size='{size}')")
        a = p.to_array()
        assert a.shape == (height, width) and a.dtype == np.int8
        assert Position.from_array(a) == p and Position.from_array(a.tolist(), size=size) == p
        assert Position.from_planes(p.to_planes()) == p
        assert p.to_planes().shape == (height, width, 2)
        assert p.mirror().mirror() == p
        assert p.mirror().to_array().tolist() == a[:, ::-1].tolist()
        # The key: the side to move's stones plus the occupied cells, H + 1 bits a column.
        key = 0
        first_to_move = len(p) % 2 == 0
        for r in range(height):
            for c in range(width):
                bit = 1 << (c * (height + 1) + (height - 1 - r))
                if a[r, c]:
                    key += bit
                    key += bit if (a[r, c] == 1) == first_to_move else 0
        assert p.key == key
        assert p.legal_moves() == [c + 1 for c in range(width) if a[0, c] == 0]
    # The board's drawing is the command line's (`play` prints it after the moves).
    assert str(Position("", size=size)).splitlines()[-1] == "123456789abc"[:width]


def test_keys_past_64_bits_and_wide_columns():
    # Column 8 of 8x8 holds bits 63 to 71: seven stones there go past 64 bits.
    p = Position("8888888", size="8x8")
    assert p.key >= 1 << 64
    assert Position.from_array(p.to_array()).key == p.key
    # Columns 10 on 10x6 are written "a" (either case).
    q = Position("a1A", size="10x6")
    assert q.moves == "a1A" and q.play(10).moves == "a1Aa"
    assert q.to_array()[-1].tolist() == [2, 0, 0, 0, 0, 0, 0, 0, 0, 1] and q.to_array()[-2, 9] == 1
    assert q.mirror() == Position("1a1", size="10x6")
    assert Position("1a1", size="10x6").is_won() is False
    won = Position("1212121", size="10x6")
    assert won.is_won() and won.legal_moves() == []


@pytest.mark.parametrize(
    "size, message",
    [
        ("9x9", "board size 9x9 (90 bits) is not one of the sizes over 64 bits that the `all-sizes` build holds"),
        ("3x5", "board size 3x5 is too small: width and height must be at least 4"),
        ("20x20", "board size 20x20 is too large: width * (height + 1) = 420 bits, more than the 128"),
        ("8 by 8", 'bad board size "8 by 8": expected WIDTHxHEIGHT, for example 7x6'),
        ((4, 3), "board size 4x3 is too small: width and height must be at least 4"),
    ],
)
def test_bad_sizes_are_refused_with_the_librarys_message(cli, size, message):
    for make in (
        lambda: Position(size=size),
        lambda: Solver(size=size),
        lambda: c4solver.solve_many(["4"], size=size, progress=False),
        lambda: c4solver.parse_line("4", size),
    ):
        with pytest.raises(ValueError) as e:
            make()
        assert str(e.value).startswith(message)
    if isinstance(size, str) and " " not in size:
        out = cli(["solve", "--size", size], "4\n")
        assert out.returncode == 2 and message in out.stderr


def test_bad_moves_and_arrays_are_refused_with_the_command_lines_message(cli):
    cases = [
        ("5x4", "11111"),  # a column past its height
        ("5x4", "6"),  # a column past the width
        ("5x4", "4455 12"),  # a score past the board's range
        ("8x8", "9"),
        ("10x6", "b"),
        ("8x8", "1" * 9),
        ("6x7", "1212121"),  # a finished game
        ("8x8", "4455 1 2"),
    ]
    for size, line in cases:
        out = cli(["solve", "--size", size], line + "\n")
        assert out.returncode == 1, (size, line)
        with pytest.raises(ValueError) as e:
            c4solver.parse_line(line, size)
        assert out.stderr == f"c4solver: line 1: {e.value}\n", (size, line)
        moves = line.split()[0]
        if " " not in line and moves != "1212121":
            with pytest.raises(ValueError) as e:
                Position(moves, size=size)
            assert out.stderr == f"c4solver: line 1: {e.value}\n"
            with pytest.raises(ValueError) as e:
                Solver(size=size, threads=1, table_mb=1).solve(moves)
            assert out.stderr == f"c4solver: line 1: {e.value}\n"
    assert c4solver.parse_line(b"4455 -2\r", "5x4") == ("4455", -2)
    assert c4solver.parse_line("", "8x8") == ("", None)
    with pytest.raises(ValueError, match=r"^column 6 is out of range \(1\.\.=5\) at move 1$"):
        Position(size="5x4").play(6)
    with pytest.raises(ValueError, match=r"^a position of the 8x8 board given to a solver of the 7x6 board$"):
        Solver(threads=1).solve(Position("44", size="8x8"))
    with pytest.raises(ValueError, match=r"^item 1: a position of the 5x4 board given to a solver of the 8x8 board$"):
        c4solver.solve_many([Position(size="8x8"), Position(size="5x4")], size="8x8", progress=False)
    with pytest.raises(ValueError, match=r"^an array of shape \(6, 7\) is a board of size 7x6, not the size 8x8 given$"):
        Position.from_array(np.zeros((6, 7)), size="8x8")
    with pytest.raises(ValueError, match=r"^board size 7x3 is too small"):
        Position.from_array(np.zeros((3, 7)))
    with pytest.raises(ValueError, match=r"^a stack of boards of shape \(2, 6, 7\) holds 7x6 boards, not the size 5x4 given$"):
        c4solver.analyze_many(np.zeros((2, 6, 7)), size="5x4", progress=False)
    with pytest.raises(TypeError, match=r"^size is a str such as '8x8' or a tuple \(width, height\), not int$"):
        Position(size=8)
    # A lone surrogate: the moves before it are checked on the position's own board.
    with pytest.raises(ValueError, match=r"^column 5 is out of range \(1\.\.=4\) at move 1$"):
        Position("5\ud800", size="4x4")
    with pytest.raises(ValueError, match=r"^bad character '\\u\{d800\}' at move 2$"):
        Solver(size="4x4", threads=1, table_mb=1).solve("4\ud800")
    assert Position("4", size="10x6").play(np.int64(10)).moves == "4a"
    with pytest.raises(TypeError, match=r"^column must be an int \(1 to 5\), not bool$"):
        Position(size="5x4").play(True)
