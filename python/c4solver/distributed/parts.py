"""The output folder: partition files written atomically, and the job manifest.

A partition is ``part-00012.parquet``, written under a temporary name in the
same folder and renamed, so a file with that name is always complete. The
manifest ``_job.json`` names the job (its input's hash and options); a folder
holding another job is refused, never mixed.
"""

import hashlib
import json
import os
import uuid
from typing import Any, Dict

MANIFEST = "_job.json"


class JobMismatch(Exception):
    """OUTPUT already holds the output of another job."""


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
