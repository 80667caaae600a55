"""Position: moves, legality, wins, keys, mirror images, equality, drawing."""

import numpy as np
import pytest

from c4solver import Position


def test_moves_and_play_are_one_based_and_immutable():
    p = Position("4453")
    assert p.moves == "4453"
    assert len(p) == 4
    q = p.play(3)
    assert q.moves == "44533"
    assert p.moves == "4453", "play returns a new position"
    assert Position() == Position("")
    assert len(Position()) == 0


def test_the_key_is_current_plus_mask():
    # The worked example of position.rs: after 4453, key bits 14, 23 and 29.
    assert Position("4453").key == (1 << 14) | (1 << 23) | (1 << 29)
    assert Position().key == 0


def test_legal_moves_leave_out_full_columns_and_finished_games():
    assert Position().legal_moves() == [1, 2, 3, 4, 5, 6, 7]
    assert Position("111111").legal_moves() == [2, 3, 4, 5, 6, 7]
    won = Position("1212121")
    assert won.is_won()
    assert won.legal_moves() == []
    assert not Position("121212").is_won()


def test_a_win_ends_the_game():
    p = Position("121212").play(1)
    assert p.is_won()
    with pytest.raises(ValueError, match=r"^move 8 is played after the game was won at move 7$"):
        p.play(3)


def test_mirror_equality_and_hashing():
    p = Position("4453")
    assert p.mirror() == Position("4435")
    assert p.mirror().mirror() == p
    assert p != p.mirror()
    seen = {p, Position("4453"), Position("4435")}
    assert len(seen) == 2
    # The same position by another move order is the same position.
    assert Position("4453").key == Position("5344").key


def test_positions_are_values_of_the_board():
    a, b = Position("4455"), Position("5544")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    # Each keeps the moves it was built from.
    assert (a.moves, b.moves) == ("4455", "5544")
    assert repr(b) == "Position('5544')"
    # Another board, or the same stones with the other side to move, differ.
    assert Position("4455") != Position("4454")
    assert Position("") != Position("4")
    assert Position("4453").play(3) == Position("5344").play(3)
    # A finished game equals its transposition too, and stays finished.
    won, other = Position("1122334"), Position("2211334")
    assert won.is_won() and other.is_won() and won == other
    # Deduplicating a training set by position.
    seen = {Position(m) for m in ["4455", "5544", "4453", "5344", "4545", "44", "4"]}
    assert len(seen) == 5, "4545 stacks its stones: another board"
    assert Position("4455") != "4455"


def test_str_draws_the_board():
    assert str(Position("4453")) == ".......\n.......\n.......\n.......\n...o...\n..oxx..\n1234567"
    assert repr(Position("12")) == "Position('12')"


@pytest.mark.parametrize(
    "moves, message",
    [
        ("44a5", "bad character 'a' at move 3"),
        ("4480", "column 8 is out of range (1..=7) at move 3"),
        ("1111111", "column 1 is already full at move 7"),
        ("12121213", "move 8 is played after the game was won at move 7"),
    ],
)
def test_bad_move_strings_raise_the_command_lines_message(moves, message):
    with pytest.raises(ValueError) as e:
        Position(moves)
    assert str(e.value) == message


def test_bad_columns_in_play():
    with pytest.raises(ValueError, match=r"^column 8 is out of range \(1\.\.=7\) at move 1$"):
        Position().play(8)
    with pytest.raises(ValueError, match=r"^column 0 is out of range \(1\.\.=7\) at move 3$"):
        Position("44").play(0)
    with pytest.raises(ValueError, match=r"^column -1 is out of range"):
        Position().play(-1)
    with pytest.raises(ValueError, match=r"^column 4 is already full at move 7$"):
        Position("444444").play(4)
    with pytest.raises(ValueError, match=r"^column 1180591620717411303424 is out of range \(1\.\.=7\) at move 1$"):
        Position().play(2**70)


def test_only_ints_are_columns():
    # Regression: Position('4').play(True) played column 1 (True is an int to Python).
    for bad, name in ((True, "bool"), (False, "bool"), ("4", "str"), (4.0, "float"), (None, "NoneType")):
        with pytest.raises(TypeError) as e:
            Position("4").play(bad)
        assert str(e.value) == f"column must be an int (1 to 7), not {name}"


def test_numpy_integers_are_columns():
    # Regression: play(np.int64(3)) raised TypeError, so an argmax could not be played.
    p = Position("44")
    for column in (np.int64(3), np.int8(3), np.uint16(3), np.intp(3)):
        assert p.play(column) == Position("443")
    scores = np.array([0, 0, 0, 0, 0, 5, 0])
    assert p.play(np.argmax(scores) + 1).moves == "446"
    with pytest.raises(ValueError, match=r"^column 9 is out of range \(1\.\.=7\) at move 3$"):
        p.play(np.int64(9))
    for bad, name in ((np.bool_(True), "bool"), (np.float64(3), "float64")):
        with pytest.raises(TypeError) as e:
            p.play(bad)
        assert str(e.value) == f"column must be an int (1 to 7), not {name}"
