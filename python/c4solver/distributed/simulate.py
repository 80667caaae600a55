"""The schedule of a solve job on more workers than this machine has, simulated.

``python -m c4solver.distributed.simulate STATE [--workers 1,16,64,256,1024]``

Replays the driver of the solve job in STATE (its _job.json) with N virtual
workers and a simulated clock: the same top tree, the same questions, the same
order, the same cancellations (solve_job.Search and solve_job.mtdf themselves),
so the dependencies between tasks are the real ones. A task takes the seconds
recorded for its question in STATE/answers.jsonl and gets the recorded answer;
a question the recorded run never asked (more workers ask more of them ahead)
is solved here with the extension, one thread and a fresh table, and timed (the
"filled" count: those times are a fresh table's, the recorded ones a kept
table's). `--latency` adds the seconds a task spends getting to a worker and
back. `--record OTHER` adds the answers of another run of the same job (say,
the same board on another number of workers) before any question is solved
here. Prints first the recorded run itself (its workers, the time to its last
answer, the seconds its tasks searched, and its idle share: the rest of the
workers' time, which a cancelled task's search counts in, since its time is not
recorded), then for each N: the time to the answer, the work done (useful and
cancelled), the workers' idle share, and the speedup over one worker.
"""

import argparse
import heapq
import json
import os
import sys
import time
from typing import Dict, List, Optional, Tuple

from .._c4solver import Position, Solver
from . import solve_job
from .solve_job import Question, Search


class Oracle:
    """The recorded answers and times, and the questions solved here."""

    def __init__(self, size: str, answers: List[dict], task_seconds: float):
        self.size = size
        self.known: Dict[Question, Tuple[Optional[int], float]] = {}
        for a in answers:
            q = (a["key"], a["beta"])
            if q not in self.known or self.known[q][0] is None:
                self.known[q] = (a["result"], a["seconds"])
        self.task_seconds = task_seconds
        self.filled = 0
        self.solver: Optional[Solver] = None

    def answer(self, q: Question, moves: str) -> Tuple[Optional[int], float]:
        """The answer to "score(moves) >= beta" and the seconds it takes."""
        got = self.known.get(q)
        if got is None:
            if self.solver is None:
                self.solver = Solver(size=self.size, threads=1)
            start = time.perf_counter()
            result = self.solver.solve_window(moves, q[1] - 1, q[1])
            got = (result, time.perf_counter() - start)
            self.known[q] = got
            self.filled += 1
        return got


class SimDriver:
    """solve_job.Driver's question loop on a simulated clock and N workers."""

    def __init__(
        self, root: Position, split_depth: int, workers: int, oracle: Oracle, latency: float
    ):
        self.search = Search(root, split_depth)
        self.search.workers, self.search.limit = workers, max(2, 2 * workers)
        self.oracle, self.latency, self.free = oracle, latency, workers
        self.clock = 0.0
        self.queued: List[Question] = []  # submitted, waiting for a worker
        self.running: List[Tuple[float, int, Question]] = []  # (finish, serial, question)
        self.started: Dict[Question, float] = {}
        self.moves: Dict[Question, str] = {}
        self.serial = 0
        self.useful = self.wasted = 0.0
        self.tasks = self.cancelled = 0

    def report(self, beta: int, force: bool = False) -> None:
        pass

    def question(self, beta: int) -> bool:
        s = self.search
        while True:
            status, want, relevant = s.evaluate(beta)
            stale = [q for q in s.pending if q not in relevant]
            for q in stale:
                self.cancel(q)
            if status is not None:
                return status
            if stale and not want:
                continue  # the cancelled tasks' room is free: evaluate again
            for q, pos in want:
                s.pending[q] = True
                self.moves[q] = pos.moves
                self.queued.append(q)
            self.dispatch()
            if not self.running:
                raise RuntimeError("the simulated search has nothing to wait for: a bug")
            finish, _, q = heapq.heappop(self.running)
            self.clock = finish
            self.free += 1
            self.useful += finish - self.started.pop(q)
            self.tasks += 1
            del s.pending[q]
            k, b = q
            result, _ = self.oracle.answer(q, self.moves[q])
            if result is None:
                s.split.add(k)
            else:
                s.learn(k, b, result)

    def dispatch(self) -> None:
        while self.free and self.queued:
            q = self.queued.pop(0)
            result, seconds = self.oracle.answer(q, self.moves[q])
            if result is None:
                seconds = self.oracle.task_seconds
            self.serial += 1
            self.started[q] = self.clock
            heapq.heappush(self.running, (self.clock + self.latency + seconds, self.serial, q))
            self.free -= 1

    def cancel(self, q: Question) -> None:
        del self.search.pending[q]
        self.cancelled += 1
        if q in self.queued:
            self.queued.remove(q)
            return
        for i, (_, _, r) in enumerate(self.running):
            if r == q:
                self.running.pop(i)
                heapq.heapify(self.running)
                self.wasted += self.clock - self.started.pop(q)
                self.free += 1
                return


def idle_share(busy: float, workers: int, seconds: float) -> float:
    """The share of `workers` x `seconds` not spent on the `busy` seconds."""
    return 1 - busy / (workers * seconds) if seconds else 0.0


def recorded(answers: List[dict]) -> dict:
    """The figures of the recorded run (one run of the driver: `finished` counts
    from its start): workers, seconds to its last answer, busy seconds, idle share."""
    workers = len({a["worker"] for a in answers})
    wall = max((a["finished"] for a in answers), default=0.0)
    busy = sum(a["seconds"] for a in answers)
    return {
        "workers": workers,
        "tasks": len(answers),
        "seconds": wall,
        "busy_seconds": busy,
        "idle_share": idle_share(busy, workers, wall),
    }


def simulate(state: str, workers: int, split_depth: int, latency: float, oracle: Oracle) -> dict:
    """One simulated run of the job in `state` on `workers` workers."""
    with open(os.path.join(state, "_job.json")) as fh:
        job = json.load(fh)
    root = Position(job["moves"], size=job["size"])
    d = SimDriver(root, split_depth, workers, oracle, latency)
    score = solve_job.mtdf(d, job["weak"])
    busy = d.useful + d.wasted
    return {
        "workers": workers,
        "score": score,
        "seconds": d.clock,
        "tasks": d.tasks,
        "cancelled": d.cancelled,
        "useful_seconds": d.useful,
        "cancelled_seconds": d.wasted,
        "idle_share": idle_share(busy, workers, d.clock),
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m c4solver.distributed.simulate",
        description="Simulate the schedule of a solve job's tasks (recorded in STATE) on more workers.",
    )
    p.add_argument("state", metavar="STATE")
    p.add_argument("--workers", default="1,16,64,256,1024", metavar="N,N,...")
    p.add_argument("--split-depth", type=int, default=3, metavar="D")
    p.add_argument(
        "--latency",
        type=float,
        default=0.005,
        metavar="S",
        help="seconds added to each task (scheduling and transfer; default 0.005)",
    )
    p.add_argument(
        "--record",
        action="append",
        default=[],
        metavar="OTHER",
        help="the state folder of another run of the same job, whose answers are used too",
    )
    p.add_argument(
        "--task-seconds",
        type=float,
        default=300.0,
        metavar="S",
        help="the time a task recorded as too long ran (default 300)",
    )
    args = p.parse_args(argv)
    answers = solve_job.read_answers(os.path.join(args.state, solve_job.ANSWERS))
    with open(os.path.join(args.state, "_job.json")) as fh:
        job = json.load(fh)
    others = []
    for other in args.record:
        with open(os.path.join(other, "_job.json")) as fh:
            if json.load(fh) != job:
                print(f"{other} holds another job than {args.state}", file=sys.stderr)
                return 2
        others += solve_job.read_answers(os.path.join(other, solve_job.ANSWERS))
    r = recorded(answers)
    print(
        f"recorded: {r['workers']} worker(s), {r['seconds']:.3f} s to the last answer, "
        f"{r['tasks']} tasks searching {r['busy_seconds']:.2f} s, idle {100 * r['idle_share']:.0f}%",
        flush=True,
    )
    oracle = Oracle(job["size"], answers + others, args.task_seconds)
    base = None
    for n in (int(w) for w in args.workers.split(",")):
        r = simulate(args.state, n, args.split_depth, args.latency, oracle)
        base = base or r["seconds"]
        print(
            f"{n:5d} workers: {r['seconds']:9.3f} s, speedup {base / r['seconds']:6.2f}, "
            f"{r['tasks']} tasks ({r['cancelled']} cancelled), work {r['useful_seconds']:.2f} s "
            f"+ {r['cancelled_seconds']:.2f} s cancelled, idle {100 * r['idle_share']:.0f}%; "
            f"score {r['score']}",
            flush=True,
        )
    print(f"questions solved here (not in the record): {oracle.filled}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
