"""The label job: every position of INPUT with its scores, as a Parquet dataset.

The driver checks the whole input first (nothing is written if a position is
bad, unless skip_bad), locks OUTPUT and claims it with the job's manifest, then streams the
input as partitions of `partition_size` positions: each one not already in
OUTPUT becomes one Dask task that labels it with analyze_many on one thread and
writes part-NNNNN.parquet atomically. Tasks are submitted a few at a time, so
the driver holds at most slots() partitions and a worker one.
"""

import os
import sys
from typing import Iterator, List, Optional

import numpy as np

from . import cluster, parts
from .inputs import Reject, Source

REJECTED = "_rejected.txt"
# How many bad positions the error message lists (then only their count).
SHOWN_REJECTS = 10


class BadInput(Exception):
    """The input holds bad positions (and skip_bad is off)."""


def label_partition(folder: str, index: int, moves: List[str], weak: bool) -> int:
    """Labels one partition and writes it as part-NNNNN.parquet: runs on a worker."""
    import pyarrow as pa

    from .._bulk import FULL_COLUMN, analyze_many

    scores = analyze_many(moves, weak=weak, threads=1, progress=False).reshape(-1, 7)
    # The position's score is its best move's; a full board (no move) is a draw.
    best = scores.max(axis=1) if len(moves) else np.zeros(0, np.int8)
    best = np.where(best == FULL_COLUMN, 0, best).astype(np.int8)
    offsets = pa.array(np.arange(0, scores.size + 1, 7, dtype=np.int32))
    table = pa.table(
        {
            "moves": pa.array(moves, pa.string()),
            "score": pa.array(best, pa.int8()),
            "scores": pa.ListArray.from_arrays(offsets, pa.array(scores.ravel(), pa.int8())),
        }
    )
    parts.write_table(folder, index, table)
    return len(moves)


def check(source: Source) -> "tuple[int, int, List[Reject]]":
    """Reads the whole input once: (good positions, bad ones, the first bad ones)."""
    good = bad = 0
    first: List[Reject] = []
    for where, moves, reason in source.records():
        if moves is None:
            bad += 1
            if len(first) < SHOWN_REJECTS:
                first.append(Reject(where, reason))
        else:
            good += 1
    return good, bad, first


def _partitions(source: Source, size: int, rejected) -> Iterator[List[str]]:
    """The good positions in input order, `size` at a time; the bad ones go to `rejected`."""
    chunk: List[str] = []
    for where, moves, reason in source.records():
        if moves is None:
            rejected.write(f"{where}: {reason}\n")
            continue
        chunk.append(moves)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def default_partition_size(positions: int) -> int:
    """Positions a partition when none is given: about 100 partitions, of 100 to
    10,000 positions each, so that a small input still spreads over every worker
    and a large one makes tasks of a few minutes. It depends on the input alone,
    so a rerun with the same arguments resumes."""
    return min(10_000, max(100, -(-positions // 100)))


def label(
    input: str,
    output: str,
    scheduler: Optional[str] = None,
    workers: Optional[int] = None,
    weak: bool = False,
    partition_size: Optional[int] = None,
    skip_bad: bool = False,
) -> int:
    """Runs the label job (see the module's doc); returns the positions in OUTPUT.

    Raises BadInput (the first bad positions, with their line or row number),
    parts.JobMismatch, parts.Busy (another driver works in OUTPUT),
    inputs.InputError, or KeyboardInterrupt on Ctrl-C (the
    tasks in flight cancelled, the cluster closed; run again to resume).
    """
    if partition_size is not None and partition_size < 1:
        raise ValueError("--partition-size must be at least 1")
    source = Source(input)
    output = os.path.abspath(output)  # the same folder for workers elsewhere
    good, bad, first = check(source)
    if bad and not skip_bad:
        more = f"\n(and {bad - len(first)} more)" if bad > len(first) else ""
        listed = "\n".join(f"{input}: {r}" for r in first)
        raise BadInput(
            f"{listed}{more}\n{bad} bad position(s): nothing written (--skip-bad writes them to {REJECTED} and goes on)"
        )
    if partition_size is None:
        partition_size = default_partition_size(good)
    job = {
        "command": "label",
        "input_sha256": source.digest(),
        "weak": weak,
        "partition_size": partition_size,
        "skip_bad": skip_bad,
        "positions": good,
        "partitions": -(-good // partition_size),
        "version": 1,
    }
    with parts.locked(output):
        parts.claim(output, job)
        _run(source, output, job, scheduler, workers, bad)
    return good


def _run(
    source: Source,
    output: str,
    job: dict,
    scheduler: Optional[str],
    workers: Optional[int],
    bad: int,
) -> None:
    """Labels the partitions of `job` not yet in `output` (claimed and locked),
    then writes or removes the list of bad positions."""
    good, partition_size, weak = job["positions"], job["partition_size"], job["weak"]
    # Task keys name this job and folder: two jobs on one cluster never share a task.
    prefix = f"label-{parts.job_key(job, output)}"
    present = {n for n in os.listdir(output) if n.startswith("part-")}
    done = sum(
        min(partition_size, good - i * partition_size)
        for i in range(job["partitions"])
        if parts.part_name(i) in present
    )
    rejected_path = os.path.join(output, f".{REJECTED}.tmp")
    with open(rejected_path, "w") as rejected:
        tasks = (
            (
                f"{prefix}-{i}",
                label_partition,
                (output, i, chunk, weak),
                len(chunk),
            )
            for i, chunk in enumerate(_partitions(source, partition_size, rejected))
            if parts.part_name(i) not in present
        )
        with cluster.client(scheduler, workers) as c:
            cluster.run(c, tasks, good, done, "pos")
    if bad:
        os.replace(rejected_path, os.path.join(output, REJECTED))
        print(
            f"c4solver.distributed: {bad} bad position(s) skipped, listed in {os.path.join(output, REJECTED)}",
            file=sys.stderr,
        )
    else:
        os.remove(rejected_path)
