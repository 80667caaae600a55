"""The distributed solve's total nodes against the single search's, by split depth.

    python python/benchmarks/distributed_solve.py WORKERS SIZES DEPTHS
    python python/benchmarks/distributed_solve.py 1 6x6,7x5 1,2,3,4

Solves each empty board of SIZES at each split depth of DEPTHS with
``c4solver.distributed.solve_job.solve`` on a fresh LocalCluster of WORKERS
single-threaded processes (a fresh one each time: the workers keep their tables
from task to task, which would help the next run), its state in
st-SIZE-dDEPTH-wWORKERS/ of the current folder (kept, for
``python -m c4solver.distributed.simulate``). Prints one JSON line a run: the
score, the nodes over all tasks, the tasks, their seconds in all and the wall
time. The single search's nodes to compare with: ``echo | c4solver --size SIZE
--threads 1 solve``. docs/distributed.md#solve has the figures.
"""

import json
import logging
import os
import sys
import time

from distributed import LocalCluster

from c4solver.distributed import solve_job


def main() -> None:
    workers = int(sys.argv[1])
    boards = sys.argv[2].split(",")
    depths = [int(d) for d in sys.argv[3].split(",")]
    for size in boards:
        for depth in depths:
            with LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                host="127.0.0.1",
                dashboard_address=None,
                scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                silence_logs=logging.ERROR,
            ) as cluster:
                state = f"st-{size}-d{depth}-w{workers}"
                start = time.perf_counter()
                settings = solve_job.Settings(split_depth=depth)
                _, score, nodes, _, _ = solve_job.solve(
                    "", size, False, cluster.scheduler_address, None, state, settings
                )
                wall = time.perf_counter() - start
                answers = solve_job.read_answers(os.path.join(state, solve_job.ANSWERS))
                print(
                    json.dumps(
                        {
                            "size": size,
                            "depth": depth,
                            "workers": workers,
                            "score": score,
                            "nodes": nodes,
                            "tasks": len(answers),
                            "task_seconds": round(sum(a["seconds"] for a in answers), 2),
                            "wall": round(wall, 2),
                        }
                    ),
                    flush=True,
                )


if __name__ == "__main__":
    main()
