"""The label job: every position of INPUT with its scores, as a Parquet dataset.

The driver lists INPUT's pieces (byte ranges of a text file, row groups of
Parquet files) and reads none of it: its memory and time do not grow with the
input. First every piece is checked by a Dask task on the workers, which counts
its good and bad positions and hashes it; nothing is written if a position is
bad, unless skip_bad. Then the driver locks OUTPUT, claims it with the job's manifest and
cuts the good positions into partitions of `partition_size`: each one not
already in OUTPUT becomes one task that reads its positions from the pieces,
labels them with analyze_many on one thread and writes part-NNNNN.parquet
atomically. Tasks are submitted a few at a time (cluster.run).
"""

import hashlib
import os
import shutil
import sys
import uuid
from typing import Iterator, List, Optional, Tuple

import numpy as np

from .._c4solver import Position
from . import cluster, inputs, parts
from .inputs import Reject, Source, Unit

REJECTED = "_rejected.txt"
# How many bad positions the error message lists (then only their count).
SHOWN_REJECTS = 10
# A text piece's check notes the first byte of every STRIDE-th good line, so
# that a partition's task starts reading near its first position.
STRIDE = 1000

# A partition's positions: (unit, good positions to skip in it, good positions to take).
Segment = Tuple[Unit, int, int]


class BadInput(Exception):
    """The input holds bad positions (and skip_bad is off)."""


def check_unit(unit: Unit, size: str, stride: int) -> dict:
    """Reads one piece of the input: its positions (lines or rows), good and
    bad ones, the first bad ones (numbered within the piece, from 1), where
    every `stride`-th good line starts (text; the piece's start for the first)
    and its hash. Runs on a worker."""
    items = good = 0
    first: List[Tuple[int, str]] = []
    marks: List[int] = []
    for where, moves, reason in inputs.records(unit, size):
        items += 1
        if moves is not None:
            if good % stride == 0 and where >= 0:
                marks.append(where if good else unit[2])
            good += 1
        elif len(first) < SHOWN_REJECTS:
            first.append((items, reason))
    return {
        "items": items,
        "good": good,
        "first": first,
        "marks": marks,
        "stride": stride,
        "sha256": inputs.digest(unit),
    }


def write_rejects(folder: str, index: int, unit: Unit, number: int, size: str, kind: str) -> int:
    """Writes the bad positions of one piece, numbered from `number` + 1, as
    .rejected-NNNNN.txt in `folder`. Runs on a worker."""

    def write(tmp: str) -> None:
        with open(tmp, "w") as out:
            for i, (_, moves, reason) in enumerate(inputs.records(unit, size), number + 1):
                if moves is None:
                    out.write(f"{kind} {i}: {reason}\n")

    parts.write_atomic(folder, f".rejected-{index:05d}.txt", write)
    return 1


def label_partition(
    folder: str, index: int, segments: List[Segment], size: str, weak: bool
) -> int:
    """Reads one partition's good positions from its segments, labels them and
    writes part-NNNNN.parquet: runs on a worker."""
    import pyarrow as pa

    from .._bulk import FULL_COLUMN, analyze_many

    moves: List[str] = []
    for unit, skip, take in segments:
        taken = 0
        for _, m, _ in inputs.records(unit, size):
            if m is None:
                continue
            if skip:
                skip -= 1
                continue
            moves.append(m)
            taken += 1
            if taken == take:
                break
    scores = analyze_many(moves, weak=weak, threads=1, progress=False, size=size)
    width = scores.shape[1]
    # The position's score is its best move's; a full board (no move) is a draw.
    best = scores.max(axis=1) if len(moves) else np.zeros(0, np.int8)
    best = np.where(best == FULL_COLUMN, 0, best).astype(np.int8)
    offsets = pa.array(np.arange(0, scores.size + 1, width, dtype=np.int32))
    table = pa.table(
        {
            "moves": pa.array(moves, pa.string()),
            "score": pa.array(best, pa.int8()),
            "scores": pa.ListArray.from_arrays(offsets, pa.array(scores.ravel(), pa.int8())),
        }
    )
    parts.write_table(folder, index, table)
    return len(moves)


def segments(checked: List[Tuple[Unit, dict]], size: int) -> Iterator[List[Segment]]:
    """The partitions of `size` good positions, in input order, over the units
    with their checks (good counts, and marks: a text segment starts at the
    last marked line before its first position)."""
    part: List[Segment] = []
    room = size
    for unit, check in checked:
        good, marks, skip = check["good"], check["marks"], 0
        while good - skip > 0:
            take = min(room, good - skip)
            if marks:
                mark = skip // check["stride"]
                start = (unit[0], unit[1], marks[mark], unit[3])
                part.append((start, skip - mark * check["stride"], take))
            else:
                part.append((unit, skip, take))
            skip += take
            room -= take
            if room == 0:
                yield part
                part, room = [], size
    if part:
        yield part


def default_partition_size(positions: int) -> int:
    """Positions a partition when none is given: about 100 partitions, of 100 to
    10,000 positions each, so that a small input still spreads over every worker
    and a large one makes tasks of a few minutes. It depends on the input alone,
    so a rerun with the same arguments resumes."""
    return min(10_000, max(100, -(-positions // 100)))


def _checked(c, source: Source, units: List[Unit], size: str, prefix: str) -> List[dict]:
    """Every unit's check_unit, in input order, run on the cluster."""
    found: List[Optional[dict]] = [None] * len(units)
    tasks = (
        (f"{prefix}-check-{i}", check_unit, (unit, size, STRIDE), 1)
        for i, unit in enumerate(units)
    )

    def keep(key: str, result: dict) -> None:
        found[int(key.rsplit("-", 1)[1])] = result

    cluster.run(c, tasks, len(units), 0, "pieces", keep)
    return found  # type: ignore[return-value]


def _refusal(input: str, source: Source, checks: List[dict], bad: int) -> str:
    """The message of BadInput: the first bad positions with their numbers."""
    kind = "row" if source.parquet else "line"
    listed, number = [], 0
    for check in checks:
        for i, reason in check["first"]:
            if len(listed) < SHOWN_REJECTS:
                listed.append(f"{input}: {Reject(f'{kind} {number + i}', reason)}")
        number += check["items"]
    more = f"\n(and {bad - len(listed)} more)" if bad > len(listed) else ""
    return (
        "\n".join(listed)
        + f"{more}\n{bad} bad position(s): nothing written (--skip-bad writes them to {REJECTED} and goes on)"
    )
def label(
    input: str,
    output: str,
    scheduler: Optional[str] = None,
    workers: Optional[int] = None,
    weak: bool = False,
    partition_size: Optional[int] = None,
    skip_bad: bool = False,
    size: str = "7x6",
) -> int:
    """Runs the label job (see the module's doc) on the `size` board ("WxH");
    returns the positions in OUTPUT.

    Raises BadInput (the first bad positions, with their line or row number),
    parts.JobMismatch, parts.Busy (another driver works in OUTPUT),
    inputs.InputError, ValueError for a bad size, or
    KeyboardInterrupt on Ctrl-C (the tasks in flight cancelled, the cluster
    closed; run again to resume).
    """
    if partition_size is not None and partition_size < 1:
        raise ValueError("--partition-size must be at least 1")
    size = Position(size=size).size  # "WxH", or the library's ValueError
    source = Source(input)
    units = source.units()
    output = os.path.abspath(output)  # the same folder for workers elsewhere
    with cluster.client(scheduler, workers) as c:
        checks = _checked(c, source, units, size, f"label-{uuid.uuid4().hex[:16]}")
        good = sum(check["good"] for check in checks)
        bad = sum(check["items"] for check in checks) - good
        if bad and not skip_bad:
            raise BadInput(_refusal(input, source, checks, bad))
        if partition_size is None:
            partition_size = default_partition_size(good)
        digest = hashlib.sha256()
        for unit, check in zip(units, checks):
            digest.update(f"{source.name(unit)}\0{check['sha256']}\0".encode())
        job = {
            "command": "label",
            "input_sha256": digest.hexdigest(),
            "size": size,
            "weak": weak,
            "partition_size": partition_size,
            "skip_bad": skip_bad,
            "positions": good,
            "partitions": -(-good // partition_size),
            "version": 2,
        }
        with parts.locked(output):
            parts.claim(output, job)
            if bad:
                _write_rejects(c, output, source, units, checks, size)
            # Task keys name this job and folder: two jobs on one cluster never share a task.
            prefix = f"label-{parts.job_key(job, output)}"
            present = {n for n in os.listdir(output) if n.startswith("part-")}
            done = sum(
                min(partition_size, good - i * partition_size)
                for i in range(job["partitions"])
                if parts.part_name(i) in present
            )
            counted = list(zip(units, checks))
            tasks = (
                (
                    f"{prefix}-{i}",
                    label_partition,
                    (output, i, part, size, weak),
                    sum(take for _, _, take in part),
                )
                for i, part in enumerate(segments(counted, partition_size))
                if parts.part_name(i) not in present
            )
            cluster.run(c, tasks, good, done, "pos")
    if bad:
        print(
            f"c4solver.distributed: {bad} bad position(s) skipped, listed in {os.path.join(output, REJECTED)}",
            file=sys.stderr,
        )
    return good


def _write_rejects(c, output: str, source: Source, units, checks, size: str) -> None:
    """OUTPUT/_rejected.txt: every bad position with its line or row number,
    each piece's written by a task, then joined here block by block."""
    kind = "row" if source.parquet else "line"
    numbers, number = [], 0
    for check in checks:
        numbers.append(number)
        number += check["items"]
    with_bad = [i for i, check in enumerate(checks) if check["items"] > check["good"]]
    key = f"label-rejects-{uuid.uuid4().hex[:16]}"
    tasks = (
        (f"{key}-{i}", write_rejects, (output, i, units[i], numbers[i], size, kind), 1)
        for i in with_bad
    )
    cluster.run(c, tasks, len(with_bad), 0, "pieces")

    def join(tmp: str) -> None:
        with open(tmp, "wb") as out:
            for i in with_bad:
                with open(os.path.join(output, f".rejected-{i:05d}.txt"), "rb") as piece:
                    shutil.copyfileobj(piece, out)

    parts.write_atomic(output, REJECTED, join)
    for i in with_bad:
        os.remove(os.path.join(output, f".rejected-{i:05d}.txt"))
