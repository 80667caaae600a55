"""Label positions and build opening books on a Dask cluster (local by default).

Two commands, run as ``python -m c4solver.distributed``:

* ``label INPUT OUTPUT``: every position of INPUT (a text file of one position
  a line, or Parquet with a ``moves`` column) with its exact score and every
  move's score, written as a Parquet dataset, one file per partition;
* ``book --depth N --out FILE``: the shards of ``c4solver book generate`` as
  Dask tasks, then merged into the book.

Both run on a LocalCluster of single-threaded worker processes unless given
``--scheduler tcp://HOST:PORT``, and both resume where they stopped when run
again with the same arguments. Needs the extra: ``pip install
"c4solver[distributed]"`` (dask[distributed], pyarrow, tqdm). See
docs/distributed.md.
"""

from .book_job import book
from .label_job import label

__all__ = ["book", "label"]
