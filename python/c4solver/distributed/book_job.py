"""The book job: the K shards of ``c4solver book generate --shard I/K`` as Dask
tasks, then ``c4solver book merge`` into the book.

The Python extension does not generate books: each task runs the ``c4solver``
command line (on the worker's PATH, or the path given), with one thread. The
shards go into the folder FILE.shards/ with the job's manifest; a shard file
there is complete (the command line writes it under a temporary name and
renames it), and a shard stopped midway goes on from its checkpoint
(``SHARD.ckpt``) when its task runs again, on any worker that sees the folder.
"""

import os
import shutil
import signal
import subprocess
import sys
from typing import List, Optional

from . import cluster, parts


class ToolError(Exception):
    """The c4solver command line is missing or failed."""


def shard_name(index: int, count: int) -> str:
    """The file of shard `index` (1-based) of `count`."""
    return f"shard-{index:04d}-of-{count:04d}.bin"


def _die_with_parent() -> None:
    """In the child: be killed when the worker that started it dies (Linux), so a
    killed worker leaves no search writing its checkpoint beside the retry."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _command(tool: str, args: List[str]) -> None:
    """Runs ``tool args``; ToolError with its last lines of stderr if it fails."""
    try:
        done = subprocess.run(
            [tool, *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
        )
    except FileNotFoundError:
        raise ToolError(
            f"{tool}: not found (install the c4solver command line, or give --c4solver PATH)"
        ) from None
    if done.returncode != 0:
        tail = "\n".join(done.stderr.decode(errors="replace").strip().splitlines()[-5:])
        raise ToolError(f"{tool} {' '.join(args)} failed (exit {done.returncode}):\n{tail}")


def book_shard(
    tool: str, folder: str, depth: int, index: int, count: int, options: List[str]
) -> int:
    """Generates shard `index` of `count` (unless its file is there): runs on a worker."""
    out = os.path.join(folder, shard_name(index, count))
    if not os.path.exists(out):
        args = ["book", "generate", "--depth", str(depth), "--shard", f"{index}/{count}"]
        _command(tool, args + ["--out", out, "--threads", "1", *options])
    return 1


def book(
    depth: int,
    out: str,
    shards: int = 64,
    scheduler: Optional[str] = None,
    workers: Optional[int] = None,
    tool: str = "c4solver",
    size: Optional[str] = None,
    table_mb: Optional[int] = None,
) -> str:
    """Generates the book of `depth` into `out` (see the module's doc); returns
    the shards' folder, kept so that a rerun is quick (remove it when done).

    Raises ToolError, parts.JobMismatch, parts.Busy (another driver works on
    the same FILE), or KeyboardInterrupt on Ctrl-C (the tasks in flight
    cancelled; run again to resume).
    """
    if not 1 <= shards <= 65535:
        raise ValueError("--shards must be 1 to 65535")
    found = shutil.which(tool)
    if found is None:
        raise ToolError(
            f"{tool}: not found (install the c4solver command line, or give --c4solver PATH)"
        )
    options = (["--size", size] if size else []) + (
        ["--table-mb", str(table_mb)] if table_mb else []
    )
    folder = os.path.abspath(out) + ".shards"
    job = {"command": "book", "depth": depth, "shards": shards, "size": size or "7x6", "version": 1}
    with parts.locked(folder):
        parts.claim(folder, job)
        _run(folder, job, depth, shards, scheduler, workers, tool, options)
        files = [os.path.join(folder, shard_name(i, shards)) for i in range(1, shards + 1)]
        _command(found, ["book", "merge", "--out", out, *files, *options])
    return folder


def _run(
    folder: str,
    job: dict,
    depth: int,
    shards: int,
    scheduler: Optional[str],
    workers: Optional[int],
    tool: str,
    options: List[str],
) -> None:
    """Generates the shards of `job` not yet in `folder` (claimed and locked),
    each task running `tool` as the worker finds it."""
    present = set(os.listdir(folder))
    missing = [i for i in range(1, shards + 1) if shard_name(i, shards) not in present]
    tasks = (
        (
            f"book-{parts.job_key(job, folder)}-{i}",
            book_shard,
            (tool, folder, depth, i, shards, options),
            1,
        )
        for i in missing
    )
    if missing:
        with cluster.client(scheduler, workers) as c:
            cluster.run(c, tasks, shards, shards - len(missing), "shards")
