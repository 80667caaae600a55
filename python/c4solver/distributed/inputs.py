"""Reading and checking the positions to label: text lines or Parquet rows.

A text line is read as ``c4solver solve`` reads it (crates/c4solver/src/input.rs):
``moves [expected-score]``, spaces or tabs around the fields and a trailing \\r
ignored, an empty line the starting position; the messages are the command
line's. A Parquet row's ``moves`` value is the move string alone. A finished game
is refused, as the command line refuses it.
"""

import hashlib
import os
import re
from dataclasses import dataclass
from typing import Iterator, List, Optional, Tuple

from .._c4solver import Position

# The longest line the command line keeps in full (input.rs's MAX_LINE).
MAX_LINE = 4096
# How many characters of a field a message repeats (input.rs's SHOWN).
SHOWN = 40
CELLS = 42
MAX_SCORE = 18
_BLANKS = re.compile(r"[ \t]+")
_NUMBER = re.compile(r"[-+]?[0-9]+")


class InputError(Exception):
    """An input that cannot be read at all (missing file, no ``moves`` column)."""


@dataclass
class Reject:
    """A position refused: where (``line N`` or ``row N``) and why."""

    where: str
    reason: str

    def __str__(self) -> str:
        return f"{self.where}: {self.reason}"


def _quoted(text: str) -> str:
    """The field as the command line quotes it, cut after SHOWN characters."""
    if len(text) <= SHOWN:
        return '"' + text + '"'
    return f'"{text[:SHOWN]}"... ({len(text.encode())} bytes)'


def _excerpt(text: str) -> str:
    if len(text) <= SHOWN:
        return text
    return f"{text[:SHOWN]}... ({len(text.encode())} bytes)"


def check_moves(moves: str) -> None:
    """Raises ValueError with the command line's message if `moves` is not a
    position that can be solved (bad move string, or a game already won)."""
    position = Position(moves)
    if position.is_won():
        raise ValueError(f"move {len(moves)} makes four in a row: the game is already over")


def parse_line(raw: bytes) -> str:
    """The move string of one text line (without its \\n), or ValueError with
    the command line's message."""
    truncated = len(raw) > MAX_LINE
    if truncated:
        raw = raw[:MAX_LINE]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        if not (truncated and e.reason == "unexpected end of data"):
            raise ValueError(f"invalid UTF-8 at byte {e.start}") from None
        text = raw[: e.start].decode("utf-8")
    if text.endswith("\r"):
        text = text[:-1]
    fields = [f for f in _BLANKS.split(text) if f]
    moves = fields[0] if fields else ""
    check_moves(moves)
    if len(fields) > 2:
        raise ValueError(f"expected `moves [score]`, found {len(fields)} fields")
    if len(fields) == 2:
        _check_score(fields[1], len(moves))
    if truncated:
        raise ValueError(f"line is longer than {MAX_LINE} bytes")
    return moves


def _check_score(field: str, stones: int) -> None:
    """The optional expected score: a whole number the position can have, or 0."""
    if not _NUMBER.fullmatch(field):
        raise ValueError(f"expected score {_quoted(field)} is not a number")
    low = max(-((CELLS - stones) // 2), -MAX_SCORE)
    high = min((CELLS + 1 - stones) // 2, MAX_SCORE)
    value = int(field)
    if value != 0 and not low <= value <= high:
        raise ValueError(f"expected score {_excerpt(field)} is out of range ({low}..={high})")


class Source:
    """The positions of INPUT: a text file, or a Parquet file or folder.

    ``records()`` yields ``(where, moves or None, reason or None)`` in input
    order, streaming (a batch of rows at a time for Parquet), so reading holds
    little memory whatever the input's size.
    """

    def __init__(self, path: str):
        self.path = path
        if not os.path.exists(path):
            raise InputError(f"{path}: no such file or folder")
        self.files = _parquet_files(path)
        self.parquet = bool(self.files)
        if not self.parquet:
            self.files = [path]

    def digest(self) -> str:
        """SHA-256 of the input's bytes (and, for a folder, its files' names)."""
        h = hashlib.sha256()
        for f in self.files:
            h.update(os.path.relpath(f, self.path).encode() + b"\0")
            with open(f, "rb") as fh:
                for block in iter(lambda: fh.read(1 << 20), b""):
                    h.update(block)
        return h.hexdigest()

    def records(self) -> Iterator[Tuple[str, Optional[str], Optional[str]]]:
        """Every position: (where, moves, None) if good, (where, None, reason) if not."""
        if self.parquet:
            yield from self._rows()
        else:
            yield from self._lines()

    def _lines(self):
        with open(self.path, "rb") as fh:
            for number, raw in enumerate(fh, 1):
                raw = raw[:-1] if raw.endswith(b"\n") else raw
                try:
                    yield f"line {number}", parse_line(raw), None
                except ValueError as e:
                    yield f"line {number}", None, str(e)

    def _rows(self):
        import pyarrow as pa

        number = 0
        for f in self.files:
            try:
                for value in _moves_values(f):
                    number += 1
                    yield from _row(number, value)
            except (pa.ArrowException, OSError) as e:
                raise InputError(f"{f}: not a readable Parquet file ({e})") from None


def _moves_values(f: str) -> Iterator[object]:
    """The `moves` values of the Parquet file `f`, a batch of rows at a time."""
    import pyarrow.parquet as pq

    pf = pq.ParquetFile(f)
    if "moves" not in pf.schema_arrow.names:
        raise InputError(f"{f}: no `moves` column (columns: {', '.join(pf.schema_arrow.names)})")
    for batch in pf.iter_batches(columns=["moves"], batch_size=65536):
        yield from batch.column(0).to_pylist()


def _row(number: int, value) -> Iterator[Tuple[str, Optional[str], Optional[str]]]:
    where = f"row {number}"
    if not isinstance(value, str):
        yield where, None, f"moves is {'null' if value is None else type(value).__name__}, not a string"
        return
    try:
        check_moves(value)
        yield where, value, None
    except ValueError as e:
        yield where, None, str(e)


def _parquet_files(path: str) -> List[str]:
    """The Parquet files of a folder (sorted, skipping names starting with _ or
    .), or [path] for a Parquet file (its magic bytes); [] for anything else."""
    if os.path.isdir(path):
        found = []
        for root, dirs, names in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith(("_", ".")))
            found += [
                os.path.join(root, n)
                for n in sorted(names)
                if n.endswith(".parquet") and not n.startswith(("_", "."))
            ]
        if not found:
            raise InputError(f"{path}: a folder without .parquet files")
        return found
    with open(path, "rb") as fh:
        return [path] if fh.read(4) == b"PAR1" else []
