"""Label positions, build opening books and solve one position on a Dask cluster (local by default).

Three commands, run as ``python -m c4solver.distributed``:

* ``label INPUT OUTPUT``: every position of INPUT (a text file of one position
  a line, or Parquet with a ``moves`` column) with its exact score and every
  move's score, written as a Parquet dataset, one file per partition;
* ``book --depth N --out FILE``: the shards of ``c4solver book generate`` as
  Dask tasks, then merged into the book;
* ``solve [MOVES] --size WxH``: one position's exact score, the top of its tree
  searched by the driver and its leaves' null-window questions by the workers
  (solve_job.py), every answer kept in a state folder.

All three run on a LocalCluster of single-threaded worker processes unless given
``--scheduler tcp://HOST:PORT``, and all resume where they stopped when run
again with the same arguments. Needs the extra: ``pip install
"c4solver[distributed]"`` (dask[distributed], pyarrow, tqdm). See
docs/distributed.md.
"""

from .book_job import book
from .label_job import label

__all__ = ["book", "label"]
