"""The output folder: partition files written atomically, and the job manifest.

A partition is ``part-00012.parquet``, written under a temporary name in the
same folder and renamed, so a file with that name is always complete. The
manifest ``_job.json`` names the job (its input's hash and options); a folder
holding another job is refused, never mixed. One driver at a time works in a
folder: it holds ``.lock`` (its PID and host) from the claim to the end.
"""

import contextlib
import hashlib
import json
import os
import socket
import uuid
from typing import Any, Dict, Iterator

MANIFEST = "_job.json"
# The driver's lock: "PID HOST", created exclusively, removed when the job ends.
LOCK = ".lock"


class JobMismatch(Exception):
    """OUTPUT already holds the output of another job."""


class Busy(Exception):
    """Another driver, still running, holds the folder's lock."""


def part_name(index: int) -> str:
    """The file name of partition `index` (0-based)."""
    return f"part-{index:05d}.parquet"


def job_key(job: Dict[str, Any], folder: str) -> str:
    """A short hash of the job and its folder, for its tasks' keys."""
    text = json.dumps([job, folder], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def write_atomic(folder: str, name: str, write) -> None:
    """Calls ``write(tmp_path)``, then renames tmp_path to folder/name (a file
    of that name is therefore always whole). Two writers of the same partition
    each use their own temporary name."""
    tmp = os.path.join(folder, f".{name}.{uuid.uuid4().hex}.tmp")
    try:
        write(tmp)
        os.replace(tmp, os.path.join(folder, name))
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def write_table(folder: str, index: int, table) -> None:
    """Writes a pyarrow table as partition `index`, atomically."""
    import pyarrow.parquet as pq

    write_atomic(folder, part_name(index), lambda tmp: pq.write_table(table, tmp))


def claim(folder: str, job: Dict[str, Any]) -> None:
    """Makes `folder` this job's: creates it with the manifest, or checks that
    the manifest there is this job's. Raises JobMismatch otherwise (another
    job, or a folder with other files and no manifest)."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, MANIFEST)
    if os.path.exists(path):
        with open(path) as fh:
            found = json.load(fh)
        if found != job:
            changed = sorted(k for k in set(found) | set(job) if found.get(k) != job.get(k))
            raise JobMismatch(
                f"{folder} holds another job (different {', '.join(changed)}): "
                "refusing to mix them; give a new folder, or remove this one"
            )
        return
    others = [n for n in os.listdir(folder) if not n.startswith(".")]
    if others:
        raise JobMismatch(
            f"{folder} is not empty and holds no {MANIFEST}: refusing to write into it"
        )
    text = json.dumps(job, indent=2, sort_keys=True) + "\n"

    def write(tmp: str) -> None:
        with open(tmp, "w") as fh:
            fh.write(text)

    write_atomic(folder, MANIFEST, write)


@contextlib.contextmanager
def locked(folder: str) -> Iterator[None]:
    """Holds `folder`'s lock (creating the folder) while the block runs. Raises
    Busy if a live driver holds it; the lock of a driver that died (its PID gone
    on this host) is taken over."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, LOCK)
    mine = f"{os.getpid()} {socket.gethostname()}\n"
    while not _create(path, mine):
        holder = _read(path)
        if holder is None:
            continue  # released meanwhile: try again
        if _alive(holder):
            raise Busy(
                f"{folder} is in use by another driver ({_describe(holder)}, in {path}): "
                f"wait for it to end, or remove {path} if no driver runs"
            )
        if _read(path) == holder:  # still the dead driver's lock: take it over
            with contextlib.suppress(FileNotFoundError):
                os.remove(path)
    try:
        yield
    finally:
        if _read(path) == mine:
            os.remove(path)


def _create(path: str, text: str) -> bool:
    """Creates `path` holding `text` if no such file exists; whether it did."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        return False
    with os.fdopen(fd, "w") as fh:
        fh.write(text)
    return True


def _read(path: str):
    """The lock's text, or None if there is no lock."""
    try:
        with open(path) as fh:
            return fh.read()
    except FileNotFoundError:
        return None


def _alive(holder: str) -> bool:
    """Whether the driver of a lock's text may still run: its PID lives on this
    host, or it is on another host (which cannot be checked from here)."""
    fields = holder.split()
    if len(fields) != 2 or not fields[0].isdigit():
        return True  # not a lock this module wrote: leave it to the user
    pid, host = int(fields[0]), fields[1]
    if host != socket.gethostname():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # another user's process
    return True


def _describe(holder: str) -> str:
    fields = holder.split()
    if len(fields) == 2:
        return f"PID {fields[0]} on {fields[1]}"
    return f"lock text {holder.strip()!r}"
