"""The positions to label, read in pieces: text lines or Parquet rows.

The driver only lists the input's pieces (``units``): byte ranges of a text
file, row groups of Parquet files, from the files' sizes and footers. The
workers read them. A text line is read by the library's parser, as
``c4solver solve`` reads it (``c4solver.parse_line``: ``moves
[expected-score]``, the command line's messages); a Parquet row's ``moves``
value is the move string alone. A finished game is refused, as the command line
refuses it.
"""

import hashlib
import os
from dataclasses import dataclass
from typing import Iterator, List, Optional, Tuple

from .._c4solver import _check_moves, parse_line

# The longest line the command line keeps in full (input.rs's MAX_LINE).
MAX_LINE = 4096
# Bytes of a text file per unit: a check task reads one unit.
UNIT_BYTES = 16 << 20
# The UTF-8 byte-order mark, skipped at the very start of a text file.
BOM = b"\xef\xbb\xbf"


class InputError(Exception):
    """An input that cannot be read at all (missing file, no ``moves`` column)."""


@dataclass
class Reject:
    """A position refused: where (``line N`` or ``row N``) and why."""

    where: str
    reason: str

    def __str__(self) -> str:
        return f"{self.where}: {self.reason}"


# One piece of the input: ("text", path, start, end) for the lines that start
# in the byte range [start, end), or ("parquet", path, row_group, rows).
Unit = Tuple[str, str, int, int]


class Source:
    """The positions of INPUT: a text file, or a Parquet file or folder."""

    def __init__(self, path: str):
        self.path = os.path.abspath(path)  # the same file for workers elsewhere
        if not os.path.exists(path):
            raise InputError(f"{path}: no such file or folder")
        self.files = _parquet_files(self.path)
        self.parquet = bool(self.files)
        if not self.parquet:
            self.files = [self.path]

    def units(self) -> List[Unit]:
        """The input's pieces, in input order, from sizes and footers alone."""
        if not self.parquet:
            size = os.path.getsize(self.path)
            starts = range(0, max(size, 1), UNIT_BYTES)
            return [("text", self.path, s, min(s + UNIT_BYTES, size)) for s in starts]
        units = []
        for f in self.files:
            units += _row_groups(f)
        return units

    def name(self, unit: Unit) -> str:
        """The unit's file relative to INPUT, for the input's digest."""
        return os.path.relpath(unit[1], self.path) if self.parquet else ""


def _row_groups(f: str) -> List[Unit]:
    """The row groups of the Parquet file `f`, from its footer."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        pf = pq.ParquetFile(f)
        meta = pf.metadata
        names = pf.schema_arrow.names
    except (pa.ArrowException, OSError) as e:
        raise InputError(f"{f}: not a readable Parquet file ({e})") from None
    if "moves" not in names:
        raise InputError(f"{f}: no `moves` column (columns: {', '.join(names)})")
    return [("parquet", f, g, meta.row_group(g).num_rows) for g in range(meta.num_row_groups)]


def records(unit: Unit, size: str) -> Iterator[Tuple[int, Optional[str], Optional[str]]]:
    """The unit's positions in order: (where, moves, None) if good, (where,
    None, reason) if not; `where` is the line's first byte in the file (text)
    or -1 (Parquet)."""
    if unit[0] == "text":
        for offset, raw in _lines(unit):
            try:
                yield offset, parse_line(raw, size)[0], None
            except ValueError as e:
                yield offset, None, str(e)
    else:
        for value in _row_values(unit):
            yield (-1, *_row(value, size))


def digest(unit: Unit) -> str:
    """SHA-256 of the unit's bytes (a text range) or of its move strings (a row group)."""
    h = hashlib.sha256()
    if unit[0] == "text":
        _, path, start, end = unit
        with open(path, "rb") as fh:
            fh.seek(start)
            left = end - start
            while left > 0:
                block = fh.read(min(left, 1 << 20))
                if not block:
                    break
                h.update(block)
                left -= len(block)
    else:
        for value in _row_values(unit):
            h.update(repr(value).encode("utf-8", "backslashreplace") + b"\0")
    return h.hexdigest()


def _lines(unit: Unit) -> Iterator[Tuple[int, bytes]]:
    """The lines that start in the unit's byte range, with their first byte's
    offset in the file, without their \\n: each
    cut after MAX_LINE + 1 bytes (the rest is skipped, so that no line makes
    memory grow; the parser refuses a line longer than MAX_LINE)."""
    _, path, start, end = unit
    with open(path, "rb") as fh:
        if start > 0:
            fh.seek(start - 1)
            if fh.read(1) != b"\n":
                _skip_line(fh)  # the line under way belongs to the unit before
        elif fh.read(len(BOM)) != BOM:
            fh.seek(0)
        while fh.tell() < end:
            offset = fh.tell()
            kept = fh.readline(MAX_LINE + 1)
            if kept.endswith(b"\n"):
                yield offset, kept[:-1]
            else:
                if len(kept) > MAX_LINE:
                    _skip_line(fh)
                yield offset, kept


def _skip_line(fh) -> None:
    """Reads up to the next \\n (or the end of the file)."""
    while True:
        block = fh.readline(1 << 16)
        if not block or block.endswith(b"\n"):
            return


def _row_values(unit: Unit) -> Iterator[object]:
    import pyarrow.parquet as pq

    _, path, group, _ = unit
    pf = pq.ParquetFile(path)
    for batch in pf.iter_batches(columns=["moves"], row_groups=[group], batch_size=65536):
        yield from batch.column(0).to_pylist()


def _row(value, size: str) -> Tuple[Optional[str], Optional[str]]:
    if not isinstance(value, str):
        return None, f"moves is {'null' if value is None else type(value).__name__}, not a string"
    try:
        _check_moves(value, size)
        return value, None
    except ValueError as e:
        return None, str(e)


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
