"""Positions from arrays and back: from_array, from_planes, to_array, to_planes;
round trips on 10,000 random positions, a brute-force oracle of which small
arrays a game reaches, and every reason an array is refused."""

import itertools

import numpy as np
import pytest

import c4solver
from c4solver import Position

ROWS, COLS = 6, 7


def swapped(a):
    """The array with the labels 1 and 2 exchanged."""
    return np.where(a == 0, 0, 3 - a)


def test_round_trips_on_10000_random_positions():
    positions = c4solver.random_positions(10_000, stones=(1, 41), seed=2026)
    assert len({p.key for p in positions}) == 10_000
    for p in positions:
        a = p.to_array()
        assert a.shape == (ROWS, COLS) and a.dtype == np.int8
        q = Position.from_array(a)
        # Another game may reach the same board: the moves can differ, the
        # board cannot, and the moves found replay to it.
        assert q.key == p.key and len(q) == len(p), p
        assert q == p and hash(q) == hash(p), p
        assert Position(q.moves).key == p.key
        assert np.array_equal(q.to_array(), a)
        planes = p.to_planes()
        assert planes.shape == (ROWS, COLS, 2) and planes.dtype == np.int8
        assert Position.from_planes(planes).key == p.key
        assert Position.from_planes(planes) == p
        # The other conventions: -1 for the second player, and labels swapped
        # (with as many stones each, to_move says who moved first).
        assert Position.from_array(np.where(a == 2, -1, a)).key == p.key
        to_move = 2 if len(p) % 2 == 0 else None
        assert Position.from_array(swapped(a), to_move=to_move).key == p.key


def test_the_conventions_of_the_docstrings():
    # Row 0 is the top: the stones lie in the last row.
    board = [[0] * COLS for _ in range(5)] + [[0, 0, 0, 1, 2, 0, 0]]
    assert Position.from_array(board).moves == "45"
    p = Position("4453")
    assert p.to_array().tolist() == [[0] * 7] * 4 + [[0, 0, 0, 2, 0, 0, 0], [0, 0, 2, 1, 1, 0, 0]]
    # The first player (x) is to move after 4 stones: plane 0 holds x's stones.
    planes = p.to_planes()
    assert planes[5, :, 0].tolist() == [0, 0, 0, 1, 1, 0, 0]
    assert planes[5, :, 1].tolist() == [0, 0, 1, 0, 0, 0, 0]
    assert planes[4, 3].tolist() == [0, 1]
    # After 3 stones the second player is to move: plane 0 is theirs.
    q = Position("445")
    assert q.to_planes()[5, 3].tolist() == [0, 1] and q.to_planes()[4, 3].tolist() == [1, 0]
    # One stone more for a player: that player moved first, whatever its label.
    one = np.zeros((ROWS, COLS), dtype=np.int64)
    one[5, 3] = 2
    assert Position.from_array(one).moves == "4"
    assert Position.from_array(one.tolist(), to_move=1).moves == "4"
    # Lists, bools and floats with integer values are read too.
    assert Position.from_array(one.astype(float)).key == Position("4").key
    assert Position.from_planes((Position("4").to_planes() == 1)).key == Position("4").key


def test_a_finished_game_is_a_won_position():
    p = Position("1212121")
    q = Position.from_array(p.to_array())
    assert q.is_won() and q.key == p.key and q.legal_moves() == []
    assert Position.from_planes(p.to_planes()).is_won()


def games(plies):
    """The boards (as tuples of 42 cells, row 0 the top) of every game of at most
    `plies` moves, by brute force: nobody can win before the 7th stone."""
    seen = set()
    frontier = {((0,) * 42, (0,) * COLS)}  # cells, heights
    for ply in range(plies + 1):
        seen |= {cells for cells, _ in frontier}
        if ply == plies:
            break
        nxt = set()
        for cells, heights in frontier:
            for c in range(COLS):
                if heights[c] < ROWS:
                    cell = list(cells)
                    cell[(ROWS - 1 - heights[c]) * COLS + c] = 1 + ply % 2
                    h = list(heights)
                    h[c] += 1
                    nxt.add((tuple(cell), tuple(h)))
        frontier = nxt
    return seen


def test_which_small_arrays_a_game_reaches_against_brute_force():
    reachable = games(6)
    rng = np.random.default_rng(47)
    accepted = refused = 0
    for _ in range(4000):
        # Random columns of stones (no floating stone), at most 6 in all.
        a = np.zeros((ROWS, COLS), dtype=np.int64)
        for c in rng.permutation(COLS):
            h = rng.integers(0, 4)
            if (a != 0).sum() + h > 6:
                continue
            for r in range(h):
                a[ROWS - 1 - r, c] = rng.integers(1, 3)
        n1, n2 = (a == 1).sum(), (a == 2).sum()
        if n2 > n1:  # the oracle's games start with player 1
            continue
        if tuple(a.flatten()) in reachable:
            assert Position.from_array(a).to_array().tolist() == a.tolist()
            accepted += 1
        else:
            with pytest.raises(ValueError):
                Position.from_array(a, to_move=1 if n1 == n2 else 2)
            refused += 1
    assert accepted > 500 and refused > 500, (accepted, refused)


def refused(a, message, **kwargs):
    with pytest.raises(ValueError) as e:
        Position.from_array(a, **kwargs)
    assert str(e.value) == message


def board(*columns):
    """A 6x7 array from columns listed bottom first ([] for an empty one)."""
    a = np.zeros((ROWS, COLS), dtype=np.int64)
    for c, stones in enumerate(columns):
        for r, v in enumerate(stones):
            a[ROWS - 1 - r, c] = v
    return a


def test_every_malformed_array_says_why():
    floating = board([], [], [])
    floating[3, 2] = 1
    refused(floating, "a stone floats at [3, 2] (column 3): the cell under it is empty")
    refused(
        board([1], [1], [1]),
        "player 1 has 3 stones and player 2 0: counts differ by more than one",
    )
    refused(board([1, 1, 1, 1], [2, 2, 2, 2]), "both players have four in a row")
    refused(
        board([1, 1, 1, 1], [2, 2, 2], [2]),
        "player 1 has four in a row, but player 2 moved after it",
    )
    refused(
        board([1, 1, 1, 1], [2, 2], [2, 2], [], [2], [2, 2], [1, 1, 1, 1]),
        "two fours in a row that no single last stone made (a game ends at its first four)",
    )
    # Player 1 moved first, but its only stone lies on player 2's.
    refused(board([2, 1]), "no game reaches this board: its stones cannot have been played in turn")
    refused(board([3]), "bad value 3 at [5, 0]: cells are 0 (empty), 1 and 2 (or 1 and -1)")
    refused(board([2], [-1]), "cells hold both 2 and -1: the players are 1 and 2, or 1 and -1")
    refused(board([1]), "player 1 cannot be the one to move: it has 1 stones and player 2 0", to_move=1)
    refused(board([1]), "to_move is a player as written in the array (1 or 2), not 3", to_move=3)
    # The shape gives the board: (6, 6) is 6x6, (7, 6) 6x7, five rows of 7 the 7x5 board.
    assert Position.from_array(np.zeros((6, 6))).size == "6x6"
    assert Position.from_array(np.zeros((7, 6))).size == "6x7"
    assert Position.from_array([[0] * 7] * 5).size == "7x5"
    refused(np.zeros((6, 7, 1)), "expected an array of shape (H, W) (a board of H rows and W columns), not (6, 7, 1)")
    refused(np.zeros((6, 6)), "an array of shape (6, 6) is a board of size 6x6, not the size 7x6 given", size="7x6")
    refused([[0] * 7] * 5, "an array of shape (5, 7) is a board of size 7x5, not the size 7x6 given", size="7x6")
    refused([[0] * 7] * 5 + [[0] * 6], "expected an array of shape (6, 7): [5] has 6 items, not 7")
    refused([[0] * 7] * 5 + [[0] * 6 + [0.5]], "bad value 0.5 at [5, 6]: cells are integers")
    refused("4453", "expected an array of shape (6, 7): the array is a str")
    refused(np.full((6, 7), np.nan), "bad value nan at [0, 0]: cells are integers")


def test_every_malformed_plane_pair_says_why():
    def planes_refused(obs, message):
        with pytest.raises(ValueError) as e:
            Position.from_planes(obs)
        assert str(e.value) == message

    obs = np.zeros((ROWS, COLS, 2), dtype=np.int8)
    obs[5, 3] = [1, 1]
    planes_refused(obs, "the cell [5, 3] is set in both planes")
    obs = np.zeros((ROWS, COLS, 2), dtype=np.int8)
    obs[5, 3, 0] = 1
    planes_refused(
        obs,
        "the side to move has 1 stones and the other side 0: it has as many as the other side or one fewer",
    )
    obs[5, 3, 0] = 2
    planes_refused(obs, "bad value 2 at [5, 3, 0]: planes hold 0 or 1")
    planes_refused(
        np.zeros((ROWS, COLS)),
        "expected an array of shape (H, W, 2) (a board of H rows and W columns), not (6, 7)",
    )
    # The side to move (the first player, 4 stones each) has four: impossible.
    obs = np.zeros((ROWS, COLS, 2), dtype=np.int8)
    obs[2:, 0, 0] = 1
    obs[3:, 1, 1] = 1
    obs[5, 2, 1] = 1
    planes_refused(
        obs,
        "the side to move (plane 0) has four in a row, but the other side (plane 1) moved after it",
    )


def test_arrays_stack_into_the_batches():
    positions = c4solver.random_positions(60, stones=(20, 30), seed=4)
    stacked = np.stack([p.to_array() for p in positions])
    assert stacked.shape == (60, ROWS, COLS)
    by_moves = c4solver.solve_many([p.moves for p in positions], progress=False)
    assert np.array_equal(c4solver.solve_many(stacked, progress=False), by_moves)
    assert np.array_equal(c4solver.solve_many(np.where(stacked == 2, -1, stacked), progress=False), by_moves)
    with pytest.raises(ValueError) as e:
        c4solver.solve_many(np.stack([stacked[0], board([2, 1])]), progress=False)
    assert str(e.value) == "item 1: no game reaches this board: its stones cannot have been played in turn"
    bad = stacked.copy()
    bad[7, 0, 0] = 5
    with pytest.raises(ValueError) as e:
        c4solver.analyze_many(bad, progress=False)
    assert str(e.value) == "item 7: bad value 5 at [0, 0]: cells are 0 (empty), 1 and 2 (or 1 and -1)"
    with pytest.raises(ValueError) as e:
        c4solver.analyze_many(stacked[0], progress=False)
    assert str(e.value) == "a stack of boards has shape (N, H, W), not (6, 7) (for one board: a[None])"
    won = Position("1212121").to_array()[None]
    with pytest.raises(ValueError) as e:
        c4solver.analyze_many(won, progress=False)
    assert str(e.value) == "item 0: the board holds four in a row: the game is over"
    assert c4solver.legal_mask(won).tolist() == [[False] * 7]
