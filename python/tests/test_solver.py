"""Solver and solve_many: exact scores, weak signs, errors, and agreement with the
command line and with Pascal Pons' sets."""

import pytest

import c4solver
from c4solver import Position, Solver, solve_many
from conftest import pons_set


def test_the_readme_examples():
    s = Solver()
    assert s.solve("4455") == 18
    assert s.solve(Position("44455554221")) == -15
    assert s.solve("44455554221", weak=True) == -1
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


def test_a_too_small_table_is_refused():
    with pytest.raises(MemoryError, match="too small"):
        Solver(table_mb=0)


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
    assert solve_many(moves) == want
    assert solve_many(moves, threads=1) == want
    assert solve_many([Position(m) for m in moves], threads=3) == want
    assert solve_many(moves, weak=True) == [(s > 0) - (s < 0) for s in want]
    assert solve_many([]) == []


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
    assert cli_scores == solve_many(moves)
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
