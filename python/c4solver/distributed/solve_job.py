"""The solve job: one position's exact (or weak) score over a Dask cluster.

The driver keeps the top of the tree, every position up to `split_depth`
stones below the root, and asks null-window questions of it: "is the root's
score at least b?". Such a question is an AND/OR evaluation over the top tree:
a position's score is at least b if one of its moves leads to a child whose
score is at most -b, that is, if the child's question "at least 1 - b?" is
false. The leaves of the top tree are Dask tasks, the library's null-window
search of the leaf (``Solver.solve_window(leaf, b - 1, b)``), each run on a
worker by the Python extension with a Solver of its own cached in the worker
process (its table kept from task to task). A task is keyed by the leaf's
canonical key (the smaller of its key and its mirror's) and b, so that
transpositions and mirror images are asked once; its fail-soft answer is a
bound that later questions reuse.

Each question has an expected answer (MTD(f)'s: "yes" at its guess, "no"
above it), and each position below the root the opposite of its parent's. A
position expected to fail needs every move's answer: they are all asked at
once. One expected to hold needs one move: its first undecided move is asked,
and its younger brothers only once the first has failed to cut, and while a
worker would idle otherwise (young brothers wait). After every answer the
driver evaluates the top tree again; a task whose answer can no longer matter
(a move already proved the position, or the question changed) is cancelled. A
task still running after `task_seconds` is abandoned and its leaf split one
stone deeper.

The exact score comes from successive null windows, as MTD(f) does: each
answer is a bound, the next question is asked at it; the weak score asks "at
least 1?" then "at least 0?".

Every finished task is appended as one JSON line to STATE/answers.jsonl as it
comes (its position, window, answer, nodes and seconds); STATE/_job.json names
the job (size, moves, weak). A rerun reads the answers back and asks only what
they do not answer.
"""

import contextlib
import json
import os
import signal
import socket
import sys
import threading
import time
import uuid
from dataclasses import dataclass
from typing import Dict, List, Optional, Set, Tuple

from .._c4solver import Position, Solver, parse_line
from . import cluster, parts

ANSWERS = "answers.jsonl"
# Seconds between two progress lines on stderr.
PROGRESS_EVERY = 10.0
# The longest the driver waits for an answer before it looks at Ctrl-C again.
WAKE_EVERY = 0.25


class Terminated(KeyboardInterrupt):
    """The driver got SIGTERM (`kill PID`, as for a run in the background,
    which Ctrl-C does not reach): stopped as Ctrl-C stops it."""


class TaskError(Exception):
    """A task failed on its worker (not a time limit: an error, such as a table
    that cannot be had)."""


# One question about one position: (its canonical key, b) for "score >= b?".
Question = Tuple[int, int]

# The worker's solvers, one per (size, table, threads, thread): a Solver is used
# by one thread at a time, and its table is kept from one task to the next.
_SOLVERS: Dict[tuple, Solver] = {}


def ask(size: str, moves: str, beta: int, table_mb: int, threads: int, timeout: float) -> dict:
    """Runs on a worker: is the score of `moves` at least `beta`? The answer of
    solve_window(moves, beta - 1, beta) (fail-soft: >= beta is a lower bound,
    < beta an upper bound), or None if the search took more than `timeout`
    seconds; with the nodes, seconds and the worker that answered."""
    key = (size, table_mb, threads, threading.get_ident())
    solver = _SOLVERS.get(key)
    if solver is None:
        solver = Solver(table_mb=table_mb, threads=threads, size=size, keep_table=True)
        _SOLVERS[key] = solver
    start = time.perf_counter()
    try:
        result: Optional[int] = solver.solve_window(moves, beta - 1, beta, timeout=timeout)
        nodes = solver.nodes
    except TimeoutError:
        result, nodes = None, 0
    return {
        "result": result,
        "nodes": nodes,
        "seconds": round(time.perf_counter() - start, 6),
        "worker": f"{socket.gethostname()}:{os.getpid()}",
    }


def canonical(pos: Position) -> int:
    """The key shared by a position and its mirror image (they score alike)."""
    return min(pos.key, pos.mirror().key)


@dataclass
class Node:
    """A position of the top tree, as the driver needs it."""

    pos: Position
    stones: int
    lo: int  # the score is at least lo ...
    hi: int  # ... and at most hi
    children: Optional[List[Position]] = None  # centre first; None until needed


@dataclass
class Stats:
    """What the progress lines and the result report."""

    done: int = 0  # tasks answered in this run
    reused: int = 0  # answers read back from the state
    cancelled: int = 0
    timeouts: int = 0
    nodes: int = 0  # over every answer of this job, read back ones too
    busy: float = 0.0  # seconds the tasks answered in this run searched


def centre_first(width: int) -> List[int]:
    """The 1-based columns, centre first (as the library orders moves)."""
    order = []
    for i in range(width):
        step = (i + 1) // 2
        order.append(width // 2 + step if i % 2 == 0 else width // 2 - step)
    return [c + 1 for c in order]


class Search:
    """The driver's top tree, the answers known, and the tasks in flight."""

    def __init__(self, root: Position, split_depth: int):
        self.root = root
        self.width, self.height = map(int, root.size.split("x"))
        self.cells = self.width * self.height
        self.leaf_stones = len(root) + split_depth
        self.order = centre_first(self.width)
        self.nodes: Dict[int, Node] = {}
        self.split: Set[int] = set()  # leaves whose task took too long
        self.pending: Dict[Question, object] = {}  # question -> future
        self.workers = 1
        self.limit = 2
        self.expect = True  # the answer expected to the root's question (MTD(f)'s guess)

    # -- the tree --------------------------------------------------------------

    def node(self, pos: Position) -> Tuple[int, Node]:
        """The node of `pos` (made on first sight) with its canonical key."""
        k = canonical(pos)
        n = self.nodes.get(k)
        if n is None:
            stones = len(pos)
            win = (self.cells + 1 - stones) // 2
            if stones == self.cells:
                n = Node(pos, stones, 0, 0)
            elif any(pos.play(c).is_won() for c in pos.legal_moves()):
                n = Node(pos, stones, win, win)  # wins at once
            else:
                # No win now: at best with its next stone; at worst a loss at the
                # opponent's next stone.
                n = Node(pos, stones, -((self.cells - stones) // 2), win - 1)
            self.nodes[k] = n
        return k, n

    def is_leaf(self, k: int, n: Node) -> bool:
        """Whether the node is asked of the workers: at the split depth, unless
        its task took too long (then its children are)."""
        return n.stones >= self.leaf_stones and k not in self.split

    def children(self, n: Node) -> List[Position]:
        """The positions after each legal move, centre first."""
        if n.children is None:
            legal = set(n.pos.legal_moves())
            n.children = [n.pos.play(c) for c in self.order if c in legal]
        return n.children

    def learn(self, k: int, beta: int, result: int) -> None:
        """A fail-soft answer to "score(k) >= beta?": a bound on its side."""
        n = self.nodes[k]
        if result >= beta:
            n.lo = max(n.lo, result)
        else:
            n.hi = min(n.hi, result)

    # -- one evaluation of the top tree ------------------------------------------

    def evaluate(
        self, beta: int
    ) -> Tuple[Optional[bool], List[Tuple[Question, Position]], Set[Question]]:
        """Whether the root's score is at least `beta` (None: not known yet), the
        leaf questions to submit now, and every leaf question still relevant."""
        want: Dict[Question, Position] = {}
        relevant: Set[Question] = set()
        memo: Dict[Question, Tuple[Optional[bool], bool]] = {}

        def room(speculative: bool) -> bool:
            busy = len(self.pending) + len(want)
            return busy < (self.workers if speculative else self.limit)

        def walk(pos: Position, b: int, submit: bool, expect: bool) -> Optional[bool]:
            k, n = self.node(pos)
            if n.lo >= b:
                return True
            if n.hi < b:
                return False
            q = (k, b)
            seen = memo.get(q)
            if seen is not None and (seen[1] or not submit or seen[0] is not None):
                return seen[0]
            memo[q] = (None, submit)
            if self.is_leaf(k, n):
                relevant.add(q)
                if submit and q not in self.pending and q not in want and room(False):
                    want[q] = pos
                return None
            status: Optional[bool] = False
            first_open = True
            eldest_done = False  # the first child is proved without a cutoff
            best = None
            for i, child in enumerate(self.children(n)):
                # score(pos) >= b iff a child scores at most -b: "child >= 1 - b" false.
                # A node expected to fail needs every child: all are asked at once.
                # One expected to hold needs one: its younger brothers wait until
                # the first has failed to cut (then likely all are needed).
                ahead = not expect or (eldest_done and room(True))
                s = walk(child, 1 - b, submit and (first_open or ahead), not expect)
                if s is False:
                    status = True
                    best = child
                    break
                if s is None:
                    status = None
                    first_open = False
                elif i == 0:
                    eldest_done = True
            if status is True:
                _, c = self.node(best)
                n.lo = max(n.lo, -c.hi)
            elif status is False:
                n.hi = min(n.hi, max(-self.node(c)[1].lo for c in self.children(n)))
            memo[q] = (status, submit)
            return status

        status = walk(self.root, beta, True, self.expect)
        return status, list(want.items()), relevant

    def best_move(self, score: int, weak: bool) -> Optional[int]:
        """A move (1-based column) proved to reach `score` (a sign if weak): a
        win at once, or a child proved to score at most -score; None if no
        answer proves one (every move then loses: any is best)."""
        n = self.node(self.root)[1]
        legal = set(n.pos.legal_moves())
        win = (self.cells + 1 - n.stones) // 2
        for c in self.order:
            if c not in legal:
                continue
            child = n.pos.play(c)
            if child.is_won():
                if score == (1 if weak else win):
                    return c
                continue
            if self.node(child)[1].hi <= -score:
                return c
        return None


def read_answers(path: str) -> List[dict]:
    """The answers recorded in `path`; a last line cut short by a killed
    driver is skipped (the rest of the file is whole: lines are appended)."""
    if not os.path.exists(path):
        return []
    found = []
    with open(path) as fh:
        for line in fh:
            try:
                found.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return found


class Log:
    """STATE/answers.jsonl, appended to and flushed after every answer."""

    def __init__(self, path: str):
        self.path = path
        ends_cut = False
        if os.path.exists(path) and os.path.getsize(path):
            with open(path, "rb") as fh:
                fh.seek(-1, os.SEEK_END)
                ends_cut = fh.read(1) != b"\n"
        self.fh = open(path, "a")
        if ends_cut:
            self.fh.write("\n")  # after a line cut short, start a new one

    def write(self, record: dict) -> None:
        self.fh.write(json.dumps(record, separators=(", ", ": ")) + "\n")
        self.fh.flush()
        os.fsync(self.fh.fileno())

    def close(self) -> None:
        self.fh.close()


@dataclass
class Settings:
    """How the job runs (none of it changes the answer, so none of it is in the job file)."""

    split_depth: int = 3
    task_seconds: float = 300.0
    table_mb: int = 64
    threads_per_worker: int = 1


class Driver:
    """Runs a Search on a Dask client: submits, cancels, records, reports."""

    def __init__(self, c, size: str, moves: str, settings: Settings, log: Log, prefix: str):
        self.c, self.size, self.settings, self.log, self.prefix = c, size, settings, log, prefix
        self.stats = Stats()
        self.start = time.monotonic()
        self.last_report = self.start
        self.futures: Dict[object, Tuple[Question, str, float]] = {}
        self.search = Search(Position(moves, size=size), settings.split_depth)
        self.serial = 0
        self.interrupted = 0  # the signal that came (SIGINT, SIGTERM), or 0
        self.asked = 0  # root questions answered in this run

    @contextlib.contextmanager
    def ctrl_c_deferred(self):
        """Ctrl-C only sets a flag, which the driver's loop turns into
        KeyboardInterrupt between two waits. Raised where the signal lands, the
        exception could be swallowed (inside a garbage collector callback of
        distributed, say, which only logs it), while the workers, which got the
        signal too, die: the driver would then wait for their tasks for ever."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return

        def note(signum, frame):
            self.interrupted = signum

        olds = {}
        for sig in (signal.SIGINT, signal.SIGTERM):
            old = signal.getsignal(sig)
            if old is signal.SIG_IGN:  # ignored by whoever started us: not ours
                continue
            olds[sig] = old
            signal.signal(sig, note)
        try:
            yield
        finally:
            for sig, old in olds.items():
                signal.signal(sig, old)

    def stop(self) -> KeyboardInterrupt:
        """What the driver raises once a signal came: Terminated for SIGTERM."""
        return Terminated() if self.interrupted == signal.SIGTERM else KeyboardInterrupt()

    def replay(self, answers: List[dict]) -> None:
        """Learns every recorded answer (a timeout: the leaf is split)."""
        for a in answers:
            if a.get("type") != "answer":
                continue
            k, _ = self.search.node(Position(a["moves"], size=self.size))
            self.stats.nodes += a["nodes"]
            self.stats.reused += 1
            if a["result"] is None:
                self.search.split.add(k)
            else:
                self.search.learn(k, a["beta"], a["result"])

    def workers(self) -> int:
        """The cluster's threads now (a killed worker's are gone)."""
        return max(1, sum(self.c.nthreads().values()))

    def question(self, beta: int) -> bool:
        """Whether the root's score is at least `beta`, asking the cluster."""
        from distributed import wait

        s = self.search
        while True:
            if self.interrupted:
                raise self.stop()
            s.workers = self.workers()
            s.limit = max(2, 2 * s.workers)
            status, want, relevant = s.evaluate(beta)
            cancelled = False
            for q, fut in list(s.pending.items()):
                if q not in relevant:
                    fut.cancel()
                    del s.pending[q]
                    del self.futures[fut]
                    self.stats.cancelled += 1
                    cancelled = True
            if status is not None:
                self.asked += 1
                return status
            if cancelled and not want:
                continue  # the cancelled tasks' room is free: evaluate again
            for q, pos in want:
                self.submit(q, pos)
            if not s.pending:
                raise RuntimeError("the search has no question to ask and no answer: a bug")
            try:
                done, _ = wait(
                    list(self.futures), timeout=WAKE_EVERY, return_when="FIRST_COMPLETED"
                )
            except TimeoutError:  # distributed's wait says "none yet" so
                done = set()
            if self.interrupted:
                raise self.stop()
            for fut in done:
                self.finish(fut)
            self.report(beta)

    def submit(self, q: Question, pos: Position) -> None:
        """Sends the question about `pos` to the cluster (a key of its own each time)."""
        self.serial += 1
        st = self.settings
        fut = self.c.submit(
            ask,
            self.size,
            pos.moves,
            q[1],
            st.table_mb,
            st.threads_per_worker,
            st.task_seconds,
            key=f"{self.prefix}-{q[0]}-{q[1]}-{self.serial}",
            pure=False,
        )
        self.search.pending[q] = fut
        self.futures[fut] = (q, pos.moves, time.monotonic() - self.start)

    def finish(self, fut) -> None:
        """Records a finished task and learns its answer."""
        q, moves, submitted = self.futures.pop(fut)
        del self.search.pending[q]
        while True:
            # A task whose worker died is run again: its result is waited for in
            # steps, so that Ctrl-C (which may have ended every worker) still stops.
            if self.interrupted:
                raise self.stop()
            try:
                answer = fut.result(timeout=WAKE_EVERY)
                break
            except Exception as e:  # a task's error stops the job, with what it said
                if isinstance(e, TimeoutError) and fut.status not in ("error", "cancelled"):
                    continue
                raise TaskError(
                    f"the task on {moves!r} (score >= {q[1]}?) failed: {type(e).__name__}: {e}"
                ) from e
        fut.release()
        k, beta = q
        record = {
            "type": "answer",
            "moves": moves,
            "key": k,
            "alpha": beta - 1,
            "beta": beta,
            "result": answer["result"],
            "nodes": answer["nodes"],
            "seconds": answer["seconds"],
            "worker": answer["worker"],
            "submitted": round(submitted, 3),
            "finished": round(time.monotonic() - self.start, 3),
        }
        self.log.write(record)
        self.stats.done += 1
        self.stats.nodes += answer["nodes"]
        self.stats.busy += answer["seconds"]
        if answer["result"] is None:
            self.stats.timeouts += 1
            self.search.split.add(k)
        else:
            self.search.learn(k, beta, answer["result"])

    def report(self, beta: int, force: bool = False) -> None:
        """A progress line on stderr, at most every PROGRESS_EVERY seconds unless forced."""
        now = time.monotonic()
        if not force and now - self.last_report < PROGRESS_EVERY:
            return
        self.last_report = now
        _, root = self.search.node(self.search.root)
        st = self.stats
        rate = st.done / max(now - self.start, 1e-9)
        left = questions_left(root.lo, root.hi)
        # The questions so far took this long each, on average (the first ones, with
        # the tables empty, cost the most: an upper bound, roughly).
        each = (now - self.start) / max(self.asked, 1)
        eta = f", about {left * each:.0f} s at {each:.0f} s each" if self.asked else ""
        print(
            f"c4solver.distributed: score in [{root.lo}, {root.hi}], asking >= {beta}; "
            f"tasks {st.done} done ({st.reused} reused, {st.timeouts} split, {st.cancelled} cancelled), "
            f"{len(self.search.pending)} running, {rate:.1f}/s; "
            f"about {left} question(s) left{eta}; {now - self.start:.0f} s",
            file=sys.stderr,
            flush=True,
        )


def questions_left(lo: int, hi: int) -> int:
    """Null-window questions that bisection would still need on [lo, hi]: an
    estimate of the work left (MTD(f) usually needs fewer)."""
    return max(0, (hi - lo).bit_length())


def mtdf(driver: Driver, weak: bool) -> int:
    """The root's score (its sign if weak) by successive null windows."""
    s = driver.search
    _, root = s.node(s.root)
    if weak:
        if root.lo >= 1 or (root.hi >= 1 and driver.question(1)):
            return 1
        return 0 if root.lo >= 0 or (root.hi >= 0 and driver.question(0)) else -1
    guess = 0
    while root.lo < root.hi:
        beta = min(max(guess, root.lo + 1), root.hi)
        s.expect = beta <= guess  # at the guess: "yes"; above it: "no"
        driver.question(beta)
        driver.report(beta, force=True)
        # The fail-soft bound just learnt is the next guess.
        guess = root.lo if root.lo >= beta else root.hi
    return root.lo


def solve(
    moves: str,
    size: str,
    weak: bool = False,
    scheduler: Optional[str] = None,
    workers: Optional[int] = None,
    state: Optional[str] = None,
    settings: Optional[Settings] = None,
) -> Tuple[str, int, int, int, Optional[int]]:
    """Solves `moves` on the `size` board over the cluster; returns (moves,
    score, nodes over every task of the job, microseconds of this run, best
    move or None). Raises ValueError for a bad position or size (the command
    line's message), parts.JobMismatch or parts.Busy for the state folder,
    KeyboardInterrupt on Ctrl-C (the answers so far kept)."""
    settings = settings or Settings()
    if settings.split_depth < 1:
        raise ValueError("--split-depth must be at least 1")
    if not settings.task_seconds > 0:
        raise ValueError("--task-seconds must be a positive number")
    start = time.perf_counter()
    moves, _ = parse_line(moves, size=size)
    size = Position(size=size).size
    state = os.path.abspath(state or default_state(size, moves, weak))
    job = {"command": "solve", "size": size, "moves": moves, "weak": weak, "version": 1}
    with parts.locked(state):
        parts.claim(state, job)
        print(
            f"c4solver.distributed: answers kept in {os.path.join(state, ANSWERS)}", file=sys.stderr
        )
        answers = read_answers(os.path.join(state, ANSWERS))
        log = Log(os.path.join(state, ANSWERS))
        try:
            with cluster.client(scheduler, workers) as c:
                prefix = f"solve-{parts.job_key(job, state)}-{uuid.uuid4().hex[:8]}"
                driver = Driver(c, size, moves, settings, log, prefix)
                driver.replay(answers)
                with driver.ctrl_c_deferred():
                    score = mtdf(driver, weak)
                best = driver.search.best_move(score, weak)
                st = driver.stats
                room = driver.workers() * (time.monotonic() - driver.start)
                print(
                    f"c4solver.distributed: {st.done} task(s) run, {st.reused} answer(s) reused, "
                    f"{st.cancelled} cancelled, {st.timeouts} split; the workers searched "
                    f"{100 * st.busy / room if room else 0:.0f}% of the time",
                    file=sys.stderr,
                )
                for fut in list(driver.futures):
                    fut.cancel()
        finally:
            log.close()
    us = int((time.perf_counter() - start) * 1e6)
    return moves, score, driver.stats.nodes, us, best


def default_state(size: str, moves: str, weak: bool) -> str:
    """The state folder when none is given: in the current folder, named by the job."""
    return f"c4solver-solve-{size}-{moves or 'empty'}{'-weak' if weak else ''}"
