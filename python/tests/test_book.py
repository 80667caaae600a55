"""c4solver.book_positions: a layer of the book as numpy arrays, the same rows as
`c4solver book export` prints."""

import struct
import zlib

import numpy as np
import pytest

import c4solver


@pytest.mark.parametrize("mirrors", [False, True])
def test_book_positions_equal_the_command_lines_export(cli, mirrors):
    stones = 6
    moves, scores = c4solver.book_positions(stones, mirrors=mirrors)
    assert moves.dtype == np.dtype("<U6") and scores.dtype == np.int8
    assert moves.shape == scores.shape and len(moves) > 1000
    args = ["book", "export", "--stones", str(stones)] + (["--mirrors"] if mirrors else [])
    r = cli(args, "")
    assert r.returncode == 0, r.stderr
    rows = [f"{m} {s}" for m, s in zip(moves.tolist(), scores.tolist())]
    assert rows == r.stdout.splitlines()  # the same set, in the same order
    assert len({c4solver.Position(m) for m in moves.tolist()}) == len(moves)
    # The scores are the solver's (here from the book).
    some = moves[:: len(moves) // 50]
    assert (c4solver.solve_many(some.tolist(), progress=False) == scores[:: len(moves) // 50]).all()


def test_mirrors_add_each_positions_mirror_image():
    pairs, pair_scores = c4solver.book_positions(4)
    both, both_scores = c4solver.book_positions(4, mirrors=True)
    assert len(pairs) < len(both) <= 2 * len(pairs)
    images = {c4solver.Position(m): s for m, s in zip(both.tolist(), both_scores.tolist())}
    assert len(images) == len(both)
    for m, s in zip(pairs.tolist(), pair_scores.tolist()):
        p = c4solver.Position(m)
        assert images[p] == s and images[p.mirror()] == s


def test_the_empty_board_is_its_own_layer():
    moves, scores = c4solver.book_positions(0, mirrors=True)
    assert moves.tolist() == [""] and scores.tolist() == [1]


def shard(path, moves, score):
    """Writes a version-1 shard of one 7x6 entry (the book format of
    crates/c4solver/src/books/mod.rs): `moves`' canonical key and `score`."""
    p = c4solver.Position(moves)
    key = min(p.key, p.mirror().key)
    stones = len(p)
    entry = ((key << 6) | (score + 18)).to_bytes(7, "little")
    header = b"c4book\n\0" + struct.pack("<HBBBBHHBB", 1, 7, 6, stones, stones, 1, 2, 7, 6)
    body = header + b"\0\0\0\0" + struct.pack("<Q", 1) + entry
    crc = zlib.crc32(body)
    path.write_bytes(body[:20] + struct.pack("<I", crc) + body[24:])


def test_a_book_file_a_shard_too(tmp_path):
    path = tmp_path / "one.c4book"
    shard(path, "1123", -2)
    moves, scores = c4solver.book_positions(4, mirrors=True, file=path)
    assert scores.tolist() == [-2, -2]
    a, b = (c4solver.Position(m) for m in moves.tolist())
    assert a.mirror() == b and c4solver.Position("1123") in (a, b)
    with pytest.raises(ValueError, match="holds positions of 4 to 4 stones, not 3"):
        c4solver.book_positions(3, file=str(path))


def test_bad_arguments_raise():
    with pytest.raises(ValueError, match="the built-in book holds positions of 0 to 12 stones, not 13"):
        c4solver.book_positions(13)
    with pytest.raises(ValueError, match="not -1"):
        c4solver.book_positions(-1)
    with pytest.raises(OSError, match="no-such-book"):
        c4solver.book_positions(1, file="/nonexistent/no-such-book")
