"""Solver and solve_many: exact scores, weak signs, errors, and agreement with the
command line and with Pascal Pons' sets."""

import os
import subprocess
import sys

import pytest

import c4solver
from c4solver import Position, Solver, analyze_many, solve_many
from conftest import pons_set


def solve_list(*args, **kwargs):
    """solve_many's scores (a numpy array) as a list, to compare with lists."""
    return solve_many(*args, **kwargs).tolist()


def test_the_readme_examples():
    s = Solver()
    assert s.solve("4455") == 18
    assert s.solve(Position("44455554221")) == -15
    assert s.solve("44455554221", weak=True) == -1
    assert s.nodes == 0  # 11 stones: the built-in book's answer (12 stones deep)
    assert s.solve("1616621455211") == 6  # 13 stones (Begin-Medium): searched
    assert s.nodes >= 1


def test_finished_games_and_bad_strings_raise_value_error():
    s = Solver()
    with pytest.raises(ValueError) as e:
        s.solve("1212121")
    assert str(e.value) == "move 7 makes four in a row: the game is already over"
    with pytest.raises(ValueError) as e:
        s.solve(Position("1212121"))
    assert str(e.value) == "move 7 makes four in a row: the game is already over"
    with pytest.raises(ValueError) as e:
        s.solve("4480")
    assert str(e.value) == "column 8 is out of range (1..=7) at move 3"


def test_lone_surrogates_are_bad_characters():
    # Regression: a str Python holds but UTF-8 cannot ("\ud800") raised UnicodeEncodeError.
    s = Solver(threads=1)
    for moves, message in (
        ("\ud800", "bad character '\\u{d800}' at move 1"),
        ("44\udfff1", "bad character '\\u{dfff}' at move 3"),
        ("48\ud800", "column 8 is out of range (1..=7) at move 2"),  # the first error wins
    ):
        for call in (s.solve, s.analyze, Position):
            with pytest.raises(ValueError) as e:
                call(moves)
            assert str(e.value) == message
    with pytest.raises(ValueError) as e:
        solve_many(["44", "4\ud800"])
    assert str(e.value) == "item 1: bad character '\\u{d800}' at move 2"


def test_bad_settings_are_refused():
    with pytest.raises(ValueError, match=r"^table size of 0 MB is too small \(at least 1 MB\)$"):
        Solver(table_mb=0)
    # Threads as the command line takes them: 1 to 1024.
    for threads in (0, 1025, 100000):
        with pytest.raises(ValueError, match=rf"^threads must be from 1 to 1024, not {threads}$"):
            Solver(threads=threads)
        with pytest.raises(ValueError, match=rf"^threads must be from 1 to 1024, not {threads}$"):
            solve_many(["4455"], threads=threads)
    # Regression: a negative number raised OverflowError, where a ValueError is documented.
    for threads in (-1, -(2**40)):
        with pytest.raises(ValueError, match=rf"^threads must be from 1 to 1024, not {threads}$"):
            Solver(threads=threads)
        with pytest.raises(ValueError, match=rf"^threads must be from 1 to 1024, not {threads}$"):
            analyze_many(["4455"], threads=threads)
    for table_mb in (-1, -5):
        message = rf"^table size of {table_mb} MB is too small \(at least 1 MB\)$"
        with pytest.raises(ValueError, match=message):
            Solver(table_mb=table_mb)
        with pytest.raises(ValueError, match=message):
            solve_many(["4455"], table_mb=table_mb)
    # Regression: Solver(threads=100000) raised PanicException and left tens of
    # thousands of threads behind, so that every later Solver failed too.
    assert Solver(threads=2).solve("4455") == 18


def test_threads_and_memory_that_cannot_be_had_raise_memory_error():
    # Under an address-space limit a few hundred MB above what the interpreter
    # holds: 1023 helper threads' stacks do not fit, nor a 100000 MB table.
    script = (
        "import os, resource, time, c4solver\n"
        "def alive():\n"
        "    # A thread just joined may stay listed for a moment while it exits.\n"
        "    for _ in range(200):\n"
        "        n = len(os.listdir('/proc/self/task'))\n"
        "        if n == before: break\n"
        "        time.sleep(0.01)\n"
        "    return n\n"
        "size = int(open('/proc/self/statm').read().split()[0]) * os.sysconf('SC_PAGE_SIZE')\n"
        "limit = size + 600 * 2**20\n"
        "resource.setrlimit(resource.RLIMIT_AS, (limit, limit))\n"
        "before = len(os.listdir('/proc/self/task'))\n"
        "for make in (lambda: c4solver.Solver(threads=1024, table_mb=1),\n"
        "             lambda: c4solver.solve_many(['4455', '4'] * 5, threads=10, table_mb=400),\n"
        "             lambda: c4solver.Solver(table_mb=100000)):\n"
        "    try:\n"
        "        make()\n"
        "        print('no error')\n"
        "    except MemoryError as e:\n"
        "        print('MemoryError:', e)\n"
        "    print('threads left:', alive() - before)\n"
        "print(c4solver.Solver(threads=2, table_mb=16).solve('4455'))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("MemoryError: cannot start 1023 search thread(s): "), lines
    # Either the first worker's table cannot be had (an error), or it is and the
    # later ones that cannot be had leave the positions to it (the pool goes on
    # with the workers it has): which depends on what the first case left mapped.
    assert lines[2] in ("no error", "MemoryError: cannot allocate a table of 400 MB: not enough memory"), lines
    assert lines[4] == "MemoryError: cannot allocate a table of 100000 MB: not enough memory", lines
    assert lines[1] == lines[3] == lines[5] == "threads left: 0", lines
    assert lines[6] == "18", lines
    assert "panic" not in out.stderr.lower(), out.stderr


def test_non_positions_are_type_errors_in_plain_words():
    s = Solver(threads=1)
    for bad, name in ((None, "NoneType"), (44, "int"), (["4455"], "list")):
        with pytest.raises(TypeError) as e:
            s.solve(bad)
        assert str(e.value) == f"a position is a Position or a move string such as '4453', not {name}"
    with pytest.raises(TypeError, match=r"^positions must be a list \(or any iterable\) of positions, not a str"):
        solve_many("4455")
    with pytest.raises(
        TypeError,
        match=r"^positions must be a list \(or any iterable\) of Positions or move strings, or an array of shape \(N, H, W\), not int$",
    ):
        solve_many(4455)
    with pytest.raises(TypeError, match=r"^item 1: a position is a Position or a move string such as '4453', not NoneType$"):
        solve_many(["4455", None])
    # Any iterable of positions, generators too.
    assert solve_list(m for m in ("4455", Position("4455"))) == [18, 18]


def test_settings_are_kept():
    s = Solver(table_mb=16, book=False, threads=2)
    assert (s.book, s.threads) == (False, 2)
    assert repr(s) == "Solver(table_mb=16, book=False, threads=2)"
    assert Solver(threads=1).book and Solver(threads=1).threads == 1


def test_a_small_table_solves():
    # Below 63 MB the compact table takes 8-byte entries holding the whole key.
    s = Solver(table_mb=1)
    assert s.solve("44455554221") == -15


@pytest.mark.parametrize(
    "name, count",
    [("Test_L3_R1", 200), ("Test_L2_R1", 100), ("Test_L2_R2", 30), ("Test_L1_R1", 30), ("Test_L1_R2", 3)],
)
def test_pons_samples_strong_and_weak(name, count):
    pairs = pons_set(name)[:count]
    s = Solver()
    for moves, score in pairs:
        assert s.solve(moves) == score, moves
        assert s.solve(moves, weak=True) == (score > 0) - (score < 0), moves


def test_solve_many_keeps_the_order_and_matches_solve():
    pairs = pons_set("Test_L2_R2")[:40] + pons_set("Test_L3_R1")[:40]
    moves = [m for m, _ in pairs]
    want = [s for _, s in pairs]
    assert solve_list(moves) == want
    assert solve_list(moves, threads=1) == want
    assert solve_list([Position(m) for m in moves], threads=3) == want
    assert solve_list(moves, weak=True) == [(s > 0) - (s < 0) for s in want]
    assert solve_list([]) == []


def test_solve_many_default_table_searches_exactly():
    # solve_many's default table (16 MB: 8-byte entries holding the whole key) is
    # not Solver's (64 MB of 4-byte entries): both must give the set's scores on
    # positions that need real searches, one thread and two, strong and weak.
    pairs = pons_set("Test_L1_R2")[:12]
    moves = [m for m, _ in pairs]
    want = [s for _, s in pairs]
    signs = [(s > 0) - (s < 0) for s in want]
    for threads in (1, 2):
        assert solve_list(moves, threads=threads, book=False) == want
        assert solve_list(moves, threads=threads, book=False, weak=True) == signs
    assert solve_list(moves, threads=1, book=False, table_mb=64) == want


def test_solve_many_names_the_bad_item():
    with pytest.raises(ValueError) as e:
        solve_many(["4455", "44", "4480"])
    assert str(e.value) == "item 2: column 8 is out of range (1..=7) at move 3"


def test_agreement_with_the_command_line(cli):
    pairs = pons_set("Test_L2_R1")[:50] + pons_set("Test_L1_R1")[:20]
    moves = [m for m, _ in pairs]
    out = cli(["solve"], "".join(m + "\n" for m in moves))
    assert out.returncode == 0, out.stderr
    cli_scores = [int(line.split()[1]) for line in out.stdout.splitlines()]
    assert cli_scores == solve_list(moves)
    # The same bad line gets the same message.
    out = cli(["solve"], "4480\n")
    assert out.returncode == 1
    with pytest.raises(ValueError) as e:
        Solver().solve("4480")
    assert out.stderr == f"c4solver: line 1: {e.value}\n"


def test_the_module_documents_itself():
    assert "Connect Four" in c4solver.__doc__
    assert Solver.solve.__doc__
    assert solve_many.__doc__


def test_the_book_answers_the_first_moves_without_a_search():
    # The empty board's analysis, known since Allis and Tromp (and Pons' tutorial):
    # the book holds every position of up to its depth stones.
    s = Solver()
    assert s.solve("") == 1
    assert s.nodes == 0
    assert s.analyze("") == [-2, -1, 0, 1, 0, -1, -2]
    assert s.nodes == 0
    assert s.best_move("") == 4
    assert s.solve("44", weak=True) == 1


def test_book_on_and_off_give_the_same_scores():
    pairs = pons_set("Test_L1_R1")[:15] + pons_set("Test_L2_R2")[:15]
    moves = [m for m, _ in pairs]
    on, off = Solver(book=True, threads=1), Solver(book=False, threads=1)
    for m, score in pairs:
        assert on.solve(m) == off.solve(m) == score, m
    for m, _ in pairs[2:6] + pairs[15:20]:
        assert on.analyze(m) == off.analyze(m), m
    assert solve_list(moves, book=False) == solve_list(moves, book=True) == [s for _, s in pairs]


@pytest.mark.skipif(not os.environ.get("C4_SLOW"), reason="about 15 s: C4_SLOW=1 pytest python/tests -k book_free")
def test_the_book_agrees_with_a_book_free_search():
    on, off = Solver(book=True, threads=1), Solver(book=False, threads=1)
    for m in ["44", "41", "4"]:
        assert on.solve(m) == off.solve(m), m


def test_several_threads_give_the_same_scores():
    pairs = pons_set("Test_L1_R2")[:4] + pons_set("Test_L1_R1")[:10] + pons_set("Test_L2_R2")[:10]
    one, two = Solver(threads=1), Solver(threads=2)
    for m, score in pairs:
        assert two.solve(m) == one.solve(m) == score, m
        assert two.solve(m, weak=True) == (score > 0) - (score < 0), m
    for m, _ in pairs[6:10]:
        assert two.analyze(m) == one.analyze(m), m
        assert two.principal_variation(m) == one.principal_variation(m), m


def test_solve_many_equals_solve_one_by_one():
    pairs = pons_set("Test_L1_R1")[:20]
    moves = [m for m, _ in pairs]
    s = Solver(threads=1)
    for weak in (False, True):
        assert solve_list(moves, weak=weak, threads=2, table_mb=8) == [s.solve(m, weak=weak) for m in moves]


def test_solve_many_joins_the_last_searches_and_stays_exact():
    # Fewer positions than threads: the idle thread joins at once (after 1 ms).
    # Then a batch whose hardest positions come last: idle threads join them once
    # they have run 100 ms. Begin-Hard positions take tenths of a second each.
    hard = pons_set("Test_L1_R3")[:3]
    easy = pons_set("Test_L3_R1")[:40]
    for batch in (hard[:1], easy + hard):
        moves = [m for m, _ in batch]
        want = [s for _, s in batch]
        assert solve_list(moves, threads=2, book=False) == want
        assert solve_list(moves, threads=3, weak=True, book=False) == [(s > 0) - (s < 0) for s in want]


# Positions of several sizes with their exact scores (from solve), for the windows.
WINDOW_CASES = [
    ("4x4", ""),
    ("5x4", ""),
    ("5x4", "33"),
    ("6x4", "3443"),
    ("7x6", "44455554221"),
    ("7x6", "1616621455211"),
    ("7x6", "4455"),
]


@pytest.mark.parametrize("size, moves", WINDOW_CASES)
def test_solve_window_lands_on_the_right_side_of_every_window(size, moves):
    exact = Solver(size=size, book=False, threads=1).solve(moves)
    for keep in (False, True):
        s = Solver(size=size, book=False, threads=1, keep_table=keep)
        w, h = map(int, size.split("x"))
        top = (w * h + 1) // 2
        for alpha in range(-top, top):
            # A null window: is the score at least alpha + 1?
            got = s.solve_window(moves, alpha, alpha + 1)
            assert (got > alpha) == (exact > alpha), (alpha, got, exact)
            assert got >= exact if got <= alpha else got <= exact
            # A wide window around alpha: exact inside, a bound on the side outside.
            lo, hi = alpha - 2, alpha + 3
            got = s.solve_window(Position(moves, size=size), lo, hi)
            if lo < exact < hi:
                assert got == exact
            elif exact <= lo:
                assert exact <= got <= lo
            else:
                assert hi <= got <= exact


def test_solve_window_counts_nodes_and_refuses_bad_windows():
    s = Solver(book=False, threads=1)
    assert s.solve_window("1616621455211", 5, 6) >= 6  # the score is 6
    assert s.nodes >= 1
    with pytest.raises(ValueError, match=r"^the window \(2, 2\) is empty: alpha must be below beta$"):
        s.solve_window("4455", 2, 2)
    with pytest.raises(ValueError, match="already over"):
        s.solve_window("1212121", 0, 1)
    for bad in (0, -1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="timeout must be a positive number of seconds"):
            s.solve_window("4455", 0, 1, timeout=bad)
    weak = Solver(size="5x4", book=False, threads=1)
    assert weak.solve_window("", 0, 1) <= 0 and weak.solve_window("", -1, 0) >= 0  # a draw


def test_solve_window_timeout_stops_a_long_search_and_the_solver_goes_on():
    s = Solver(book=False, threads=1)
    s.solve_window("4455", 17, 18)
    nodes = s.nodes
    # The 7x6 empty board takes seconds to minutes without the book.
    with pytest.raises(TimeoutError, match=r"^the search took more than 0.05 s$"):
        s.solve_window("", 0, 1, timeout=0.05)
    assert s.nodes == nodes  # unchanged: the stopped search's are not known
    assert s.solve_window("4455", 17, 19, timeout=60) == 18


def test_keep_table_is_shown():
    s = Solver(table_mb=16, book=False, threads=1, keep_table=True)
    assert repr(s) == "Solver(table_mb=16, book=False, threads=1, keep_table=True)"
