"""The Dask side shared by both jobs: the client, bounded submission with a
progress bar, and a clean stop on Ctrl-C."""

import contextlib
import logging
import os
import sys
import time
from typing import Callable, Iterable, Iterator, Optional, Tuple

# One task to run: its key, the function, its arguments, and its weight on the
# progress bar (positions or shards).
Task = Tuple[str, Callable, tuple, int]

# The embedded cluster's housekeeping, made rarer: at Dask's defaults an idle
# LocalCluster of 2 workers takes about 18% of a core (stack samples every 10 ms
# for a dashboard that is off, a 20 ms event-loop tick, system and memory
# monitors twice and ten times a second), which on a small machine comes out of
# the workers' time. A cluster given by address keeps its own settings.
LOCAL_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "500ms",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "1s",
}


@contextlib.contextmanager
def client(scheduler: Optional[str], workers: Optional[int]) -> Iterator["object"]:
    """A dask.distributed Client: of the cluster at `scheduler`, or of a
    LocalCluster of `workers` single-threaded worker processes (default: one
    per core), closed on the way out."""
    import dask
    from distributed import Client, LocalCluster

    if scheduler:
        with Client(scheduler) as c:
            yield c
        return
    n = workers or os.cpu_count() or 1
    # The nannies set variables in this process's environment for the workers
    # they spawn (OMP_NUM_THREADS, MALLOC_TRIM_THRESHOLD_, ...): put it back after.
    saved = dict(os.environ)
    try:
        with dask.config.set(LOCAL_CONFIG):
            cluster = LocalCluster(
                n_workers=n,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                # The scheduler serves HTTP (health, metrics) even without a
                # dashboard, by default on port 8787 (a warning if it is taken):
                # on loopback, at a port the system picks.
                scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                silence_logs=logging.ERROR,
            )
            try:
                with Client(cluster) as c:
                    interrupted = False
                    try:
                        yield c
                    except KeyboardInterrupt:
                        interrupted = True
                        raise
                    finally:
                        if not interrupted:
                            _quiet_heartbeats(c)
            finally:
                cluster.close()
    finally:
        os.environ.clear()
        os.environ.update(saved)


# What a worker logs, with a 30-line traceback, when it closes while its
# heartbeat to the scheduler is in flight (the pool of its connections closed).
HEARTBEAT_FAILED = "Failed to communicate with scheduler during heartbeat"


class _DropHeartbeatFailure(logging.Filter):
    """Drops the log record of a heartbeat cut short by the worker's close."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith(HEARTBEAT_FAILED)


def stop_heartbeat(dask_worker) -> None:
    """On a worker about to be closed: no heartbeat starts any more, and one in
    flight, cut short by the close, is not logged."""
    dask_worker.periodic_callbacks["heartbeat"].stop()
    logging.getLogger("distributed.worker").addFilter(_DropHeartbeatFailure())


def _quiet_heartbeats(c) -> None:
    """Stops the LocalCluster's heartbeats before it closes, so that a clean end
    prints nothing (best effort: a worker that cannot be reached is skipped)."""
    try:
        c.run(stop_heartbeat)
    except Exception:
        pass


def slots(c) -> int:
    """Tasks to keep in flight: twice the cluster's threads (at least 2), so
    that no worker waits for the driver and the driver holds little."""
    threads = sum(c.nthreads().values())
    return max(2, 2 * threads)


def run(
    c,
    tasks: Iterable[Task],
    total: int,
    done: int,
    unit: str,
    on_result: Optional[Callable[[str, object], None]] = None,
) -> None:
    """Runs `tasks` on the cluster, at most slots(c) at a time, with a progress
    bar from `done` of `total`; `on_result(key, result)` gets each task's
    result. A task that fails stops the run (its error is raised); Ctrl-C
    cancels the tasks in flight and raises KeyboardInterrupt."""
    from distributed import as_completed

    limit = slots(c)
    bar = Progress(total, done, unit)
    pending = as_completed()
    weights = {}
    try:
        it = iter(tasks)
        for key, fn, args, weight in it:
            future = c.submit(fn, *args, key=key, pure=False, retries=2)
            weights[future.key] = weight
            pending.add(future)
            if pending.count() >= limit:
                _finish(next(pending), weights, bar, on_result)
        for future in pending:
            _finish(future, weights, bar, on_result)
    except BaseException:
        for future in list(pending.futures):
            future.cancel()
        raise
    finally:
        bar.close()


def _finish(future, weights, bar, on_result) -> None:
    result = future.result()  # raises the task's error
    if on_result is not None:
        on_result(future.key, result)
    bar.update(weights.pop(future.key))
    future.release()


class Progress:
    """positions done, per second, time left: tqdm on a terminal, else a line
    on stderr every 30 s (logs stay short)."""

    def __init__(self, total: int, done: int, unit: str):
        self.total, self.done, self.unit = total, done, unit
        self.start, self.last = time.monotonic(), 0.0
        self.first = done
        self.bar = None
        if sys.stderr.isatty():
            try:
                from tqdm import tqdm

                self.bar = tqdm(total=total, initial=done, unit=unit, smoothing=0.1)
            except ImportError:
                pass

    def update(self, n: int) -> None:
        self.done += n
        if self.bar is not None:
            self.bar.update(n)
            return
        now = time.monotonic()
        if now - self.last >= 30 or self.done == self.total:
            self.last = now
            print(f"c4solver.distributed: {self.line(now)}", file=sys.stderr, flush=True)

    def line(self, now: float) -> str:
        rate = (self.done - self.first) / max(now - self.start, 1e-9)
        left = (self.total - self.done) / rate if rate > 0 else float("inf")
        eta = f"{left:.0f} s left" if left != float("inf") else "time left unknown"
        return f"{self.done:,} of {self.total:,} {self.unit}, {rate:,.1f} {self.unit}/s, {eta}"

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
