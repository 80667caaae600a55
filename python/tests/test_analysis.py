"""Solver.analyze, best_moves, best_move and principal_variation: agreement with
the command line's `c4solver analyze` and with Pascal Pons' scores, best moves
among the top-scoring columns, lines of play that end as their score says; and
Solver.analysis, the answer of `c4solver analyze --json` (docs/answer.md)."""

import json

import pytest

from c4solver import Position, Solver
from conftest import pons_set

FULL_DRAW = "357764656655524426657442143123337712" + "732111"


def sample():
    """A few positions of each Pons set, from late to early in the game (leaving
    out the 4-stone second line of Test_L1_R1: its analysis takes seconds)."""
    return (
        pons_set("Test_L3_R1")[:25]
        + pons_set("Test_L2_R1")[:25]
        + pons_set("Test_L2_R2")[:10]
        + pons_set("Test_L1_R1")[2:6]
    )


def sign(v):
    return (v > 0) - (v < 0)


def test_analyze_agrees_with_the_command_line_and_pons(cli):
    pairs = sample()
    s = Solver()
    for weak in (False, True):
        out = cli(["analyze", "--weak"] if weak else ["analyze"], "".join(m + "\n" for m, _ in pairs))
        assert out.returncode == 0, out.stderr
        lines = out.stdout.splitlines()
        assert len(lines) == len(pairs)
        for (moves, score), line in zip(pairs, lines):
            fields = line.split()
            assert fields[0] == moves
            want = [None if int(f) == -1000 else int(f) for f in fields[1:]]
            got = s.analyze(moves, weak=weak)
            assert got == want, moves
            assert len(got) == 7
            assert max(v for v in got if v is not None) == (sign(score) if weak else score), moves


def test_analyze_marks_full_columns_and_scores_wins_at_once():
    s = Solver()
    # Columns 4, 5 and 6 are full; column 7 draws, the others lose (analysis.rs).
    assert s.analyze("357764656655524426657442143123337712") == [-3, -3, -3, None, None, None, 0]
    # Columns 1 and 5 complete four at once with the 9th stone: (43 - 9) // 2 = 17.
    scores = s.analyze("33772344")
    assert scores[0] == scores[4] == 17
    assert s.analyze(FULL_DRAW) == [None] * 7


def test_best_moves_and_best_move_are_the_top_scoring_columns():
    s = Solver()
    centre_first = [4, 3, 5, 2, 6, 1, 7]
    for moves, _ in sample()[::3]:
        for weak in (False, True):
            scores = s.analyze(moves, weak=weak)
            top = max(v for v in scores if v is not None)
            tops = [c + 1 for c, v in enumerate(scores) if v == top]
            assert s.best_moves(moves, weak=weak) == tops, moves
            best = s.best_move(Position(moves), weak=weak)
            assert best in tops
            assert best == next(c for c in centre_first if c in tops), "the one nearest the centre"
    assert s.best_move("33772344") == 5
    assert s.best_moves(FULL_DRAW) == []


def play_out(moves, line):
    """The position after `line` from `moves`, each move checked by Position."""
    p = Position(moves)
    for ch in line:
        assert not p.is_won(), "the line goes on after a win"
        p = p.play(int(ch))
    return p


@pytest.mark.parametrize("weak", [False, True])
def test_principal_variations_end_as_their_scores_say(weak):
    s = Solver()
    for moves, score in sample()[::2] + [("44455554221", -15), ("4455", 18)]:
        line = s.principal_variation(moves, weak=weak)
        if len(Position(moves)) > 12:
            # Deeper than the built-in book (12 stones), the line is searched.
            assert s.nodes >= 1
        end = play_out(moves, line)
        want = sign(score) if weak else score
        if want == 0:
            assert end.is_full() and not end.is_won(), (moves, line)
            continue
        assert end.is_won(), (moves, line)
        # The side to move wins if the score is positive: it plays the odd moves.
        assert len(line) % 2 == (1 if want > 0 else 0), (moves, line)
        winner_stones = (len(end) + 1) // 2
        if not weak:
            assert winner_stones == 22 - abs(score), (moves, line)
        assert line[0] == str(s.best_move(moves, weak=weak)), (moves, line)
    assert s.principal_variation("44455554221") == "43"
    assert s.principal_variation(FULL_DRAW) == ""


@pytest.mark.parametrize("method", ["solve", "analyze", "best_moves", "best_move", "principal_variation"])
def test_every_method_refuses_bad_input_as_the_command_line(cli, method):
    s = Solver()
    call = getattr(s, method)
    for moves in ["4480", "44a5", "1111111", "12121213", "1212121"]:
        out = cli(["analyze"], moves + "\n")
        assert out.returncode == 1
        with pytest.raises(ValueError) as e:
            call(moves)
        assert out.stderr == f"c4solver: line 1: {e.value}\n", moves
    with pytest.raises(ValueError, match=r"^move 7 makes four in a row: the game is already over$"):
        call(Position("1212121"))
    with pytest.raises(TypeError):
        call(42)


def test_best_move_refuses_a_full_board():
    with pytest.raises(ValueError, match="full"):
        Solver().best_move(FULL_DRAW)
    assert Solver().solve(FULL_DRAW) == 0


# The positions tests/integration/answer.rs gives every surface: the empty board,
# book positions (one with a full column), a win at once within the book's depth,
# the 17 stones of issue 58 (two full columns), three full columns, a win at once
# past the book.
SURFACES = [
    "",
    "4455",
    "111111",
    "121212",
    "77777766666633442",
    "357764656655524426657442143123337712",
    "4455661122112211",
]

ANSWER_KEYS = ["moves", "score", "scores", "best", "book", "nodes", "time_us"]


def test_analysis_is_the_command_lines_answer(cli):
    s = Solver(threads=1)
    for weak in (False, True):
        args = ["analyze", "--json", "--pv", "--threads", "1"] + (["--weak"] if weak else [])
        out = cli(args, "".join(m + "\n" for m in SURFACES))
        assert out.returncode == 0, out.stderr
        lines = [json.loads(line) for line in out.stdout.splitlines()]
        assert len(lines) == len(SURFACES)
        for moves, want in zip(SURFACES, lines):
            got = s.analysis(moves, weak=weak, pv=True)
            assert list(got) == ANSWER_KEYS + ["pv"], got
            for key in ["moves", "score", "scores", "best", "book", "pv"]:
                assert got[key] == want[key], (moves, key)
            assert got["nodes"] == s.nodes and got["time_us"] >= 0
            # The same scores as analyze, None for a full column.
            assert got["scores"] == s.analyze(moves, weak=weak)


def test_analysis_fields():
    s = Solver()
    a = s.analysis("4455")
    assert list(a) == ANSWER_KEYS, "pv only when asked for"
    assert (a["score"], a["best"], a["book"], a["nodes"]) == (18, [3, 6], True, 0)
    # A Position gives its own moves; a transposition, its own.
    assert s.analysis(Position("5544"))["moves"] == "5544"
    # A win at once is the rules', not the book's; 17 stones are searched.
    assert s.analysis("121212")["book"] is False
    deep = s.analysis("77777766666633442")
    assert deep["book"] is False and deep["scores"][5:] == [None, None]
    with pytest.raises(ValueError, match=r"^column 8 is out of range \(1..=7\) at move 3$"):
        s.analysis("448")
