"""c4solver.distributed: the label and book jobs on small inputs, on a
LocalCluster of 2 processes and on a cluster of 2 workers started here (loopback
only), with a worker and the driver killed midway. Needs dask[distributed] and
pyarrow (the `distributed` extra)."""

import json
import os
import pathlib
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

pytest.importorskip("distributed", reason="pip install 'c4solver[distributed]'")
import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

import c4solver  # noqa: E402
from c4solver.distributed import label  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
# The longest any step of a test may take before it fails (never a timing check).
LIMIT = 300


def command(*args, **kw):
    """Runs `python -m c4solver.distributed ARGS` to its end."""
    return subprocess.run(
        [sys.executable, "-m", "c4solver.distributed", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=LIMIT,
        **kw,
    )


def start(*args):
    """Starts `python -m c4solver.distributed ARGS` in the background."""
    return subprocess.Popen(
        [sys.executable, "-m", "c4solver.distributed", *map(str, args)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def positions(n, seed, stones=(10, 30)):
    return [p.moves for p in c4solver.random_positions(n, stones=stones, seed=seed)]


def expected(moves, weak=False):
    """The single-process analysis: (score, scores) as the output should hold them."""
    scores = c4solver.analyze_many(moves, weak=weak, progress=False)
    return scores.max(axis=1), scores


def read(folder, width=7):
    """(moves, score, scores) of a label output, partitions in order; checks that
    the partitions are numbered 0.. without a gap and that no temporary file is left."""
    names = sorted(n for n in os.listdir(folder) if n.startswith("part-"))
    assert names == [f"part-{i:05d}.parquet" for i in range(len(names))]
    assert not [n for n in os.listdir(folder) if n.endswith(".tmp")]
    tables = [pq.read_table(os.path.join(folder, n)) for n in names]
    table = pa.concat_tables(tables)
    assert table.schema.field("score").type == pa.int8()
    assert table.schema.field("scores").type == pa.list_(pa.int8())
    assert table.schema.field("moves").type == pa.string()
    scores = np.array(table.column("scores").to_pylist(), dtype=np.int8).reshape(-1, width)
    return table.column("moves").to_pylist(), table.column("score").to_numpy(), scores


def assert_exact(folder, moves, weak=False):
    got_moves, got_score, got_scores = read(folder)
    assert got_moves == moves  # every position once, in input order
    score, scores = expected(moves, weak)
    np.testing.assert_array_equal(got_scores, scores)
    np.testing.assert_array_equal(got_score, score)


def write_text(path, moves):
    path.write_text("".join(m + "\n" for m in moves))
    return path


def test_default_partitions_spread_a_small_input(tmp_path):
    from c4solver.distributed.label_job import default_partition_size

    sizes = [default_partition_size(n) for n in (1, 250, 7_000, 50_000, 10**6, 10**8)]
    assert sizes == [100, 100, 100, 500, 10_000, 10_000]
    # 250 positions without --partition-size: 3 partitions, so 2 workers share them.
    moves = positions(250, seed=7)
    src = write_text(tmp_path / "in.txt", moves)
    assert command("label", src, tmp_path / "out", "--workers", 1).returncode == 0
    assert_exact(tmp_path / "out", moves)
    assert len(os.listdir(tmp_path / "out")) == 1 + 3  # the manifest and 3 parts


def test_label_local_cluster_matches_analyze_many(tmp_path):
    moves = positions(300, seed=1) + ["", "4444441"]  # the empty board, a full column
    src = write_text(tmp_path / "in.txt", moves)
    env = dict(os.environ)
    n = label(str(src), str(tmp_path / "out"), workers=2, partition_size=40)
    assert n == len(moves)
    assert dict(os.environ) == env  # the cluster's variables do not outlive it
    assert_exact(tmp_path / "out", moves)
    assert len(os.listdir(tmp_path / "out")) == 1 + 8  # the manifest and ceil(302 / 40) parts
    _, _, scores = read(tmp_path / "out")
    assert (scores[-1] == c4solver.FULL_COLUMN).sum() == 1  # column 4 full


def test_label_weak_and_parquet_input(tmp_path):
    moves = positions(120, seed=2)
    folder = tmp_path / "in"
    folder.mkdir()
    pq.write_table(pa.table({"moves": moves[:70], "other": list(range(70))}), folder / "a.parquet")
    pq.write_table(pa.table({"moves": moves[70:]}), folder / "b.parquet")
    done = command(
        "label", folder, tmp_path / "out", "--workers", 2, "--weak", "--partition-size", 25
    )
    assert done.returncode == 0, done.stderr
    assert_exact(tmp_path / "out", moves, weak=True)
    # One Parquet file as the input, the same positions.
    done = command("label", folder / "a.parquet", tmp_path / "out-a", "--workers", 2, "--weak")
    assert done.returncode == 0, done.stderr
    assert_exact(tmp_path / "out-a", moves[:70], weak=True)


def test_bad_input_refused_with_line_numbers_and_nothing_written(tmp_path, cli):
    lines = ["4453", "48", "4x", "4444444", "4455 18", "4455 zz", " 44", "", "1212121", "4455 1 2"]
    src = tmp_path / "bad.txt"
    src.write_text("\n".join(lines) + "\n")
    done = command("label", src, tmp_path / "out", "--workers", 1)
    assert done.returncode == 1
    assert not (tmp_path / "out").exists()
    ours = [
        l.split(": ", 1)[1]
        for l in done.stderr.splitlines()
        if l.startswith(("c4solver.distributed: " + str(src), str(src)))
    ]
    theirs = [l.split(": ", 2)[2] for l in cli(["solve", str(src)], None).stderr.splitlines()]
    # The same lines refused, with the command line's messages.
    assert [l.split(": ", 1)[1] if l.startswith(str(src)) else l for l in ours] == theirs
    assert "line 2: column 8 is out of range (1..=7) at move 2" in done.stderr
    assert "line 9: move 7 makes four in a row: the game is already over" in done.stderr

    done = command("label", src, tmp_path / "out", "--workers", 1, "--skip-bad")
    assert done.returncode == 0, done.stderr
    assert_exact(tmp_path / "out", ["4453", "4455", "44", ""])
    rejected = (tmp_path / "out" / "_rejected.txt").read_text().splitlines()
    assert [r.split(":")[0] for r in rejected] == [
        "line 2",
        "line 3",
        "line 4",
        "line 6",
        "line 9",
        "line 10",
    ]


def cli_scores(cli, size, moves):
    """(score, scores) of `c4solver analyze --size SIZE` for `moves`, -128 for a full column."""
    out = cli(["analyze", "--size", size, "--threads", "1"], "".join(m + "\n" for m in moves))
    assert out.returncode == 0, out.stderr
    rows = [[int(f) for f in line.split()[1:]] for line in out.stdout.splitlines()]
    scores = np.array([[-128 if v == -1000 else v for v in r] for r in rows], dtype=np.int8)
    return scores.max(axis=1), scores


@pytest.mark.parametrize("size, stones", [("5x4", 2), ("10x6", 40)])
def test_label_other_sizes_as_the_command_line(tmp_path, cli, monkeypatch, size, stones):
    from test_sizes import games

    from c4solver.distributed import inputs, label_job

    width = int(size.split("x")[0])
    moves = games(size, stones, 40, seed=5)
    bad = ["b" if width == 10 else "6", "1" * 30, "44 99", "x" * 5000]
    lines = moves[:10] + bad[:2] + [m + "\r" for m in moves[10:20]] + bad[2:] + moves[20:]
    src = tmp_path / "in.txt"
    src.write_text("".join(line + "\n" for line in lines))
    # Small pieces: lines cross the pieces' edges, each read once.
    monkeypatch.setattr(inputs, "UNIT_BYTES", 50 if width == 5 else 400)
    # A partition's task starts at the last marked line before its first position.
    monkeypatch.setattr(label_job, "STRIDE", 3)
    n = label(str(src), str(tmp_path / "out"), workers=2, partition_size=7, skip_bad=True, size=size)
    assert n == len(moves)
    got_moves, got_score, got_scores = read(tmp_path / "out", width)
    assert got_moves == moves
    score, scores = cli_scores(cli, size, moves)
    np.testing.assert_array_equal(got_scores, scores)
    np.testing.assert_array_equal(got_score, score)
    # The bad lines, numbered and worded as the command line's solve says.
    theirs = cli(["solve", "--size", size, "--threads", "1", str(src)], None).stderr.splitlines()
    rejected = (tmp_path / "out" / "_rejected.txt").read_text().splitlines()
    assert rejected == [line.split(": ", 2)[2] for line in theirs]
    assert len(rejected) == len(bad)
    job = json.loads((tmp_path / "out" / "_job.json").read_text())
    assert (job["size"], job["positions"], job["partitions"]) == (size, 40, 6)


def test_parquet_row_errors_and_missing_column(tmp_path):
    pq.write_table(pa.table({"moves": ["44", None, "9"]}), tmp_path / "in.parquet")
    done = command("label", tmp_path / "in.parquet", tmp_path / "out", "--workers", 1)
    assert done.returncode == 1
    assert "row 2: moves is null, not a string" in done.stderr
    assert "row 3: column 9 is out of range (1..=7) at move 1" in done.stderr
    pq.write_table(pa.table({"position": ["44"]}), tmp_path / "other.parquet")
    done = command("label", tmp_path / "other.parquet", tmp_path / "out", "--workers", 1)
    assert done.returncode == 2 and "no `moves` column" in done.stderr


def test_different_job_refused_and_resume_after_a_lost_partition(tmp_path):
    moves = positions(150, seed=3)
    src = write_text(tmp_path / "in.txt", moves)
    out = tmp_path / "out"
    assert command("label", src, out, "--workers", 2, "--partition-size", 30).returncode == 0
    before = {n: (out / n).read_bytes() for n in os.listdir(out)}
    # Other options, or another input, into the same folder: refused, nothing changed.
    for args in (["--partition-size", 31], ["--weak", "--partition-size", 30]):
        done = command("label", src, out, "--workers", 1, *args)
        assert done.returncode == 2 and "holds another job" in done.stderr
    write_text(tmp_path / "in.txt", moves[:-1])
    done = command("label", src, out, "--workers", 1, "--partition-size", 30)
    assert done.returncode == 2 and "input_sha256" in done.stderr
    assert {n: (out / n).read_bytes() for n in os.listdir(out)} == before
    write_text(tmp_path / "in.txt", moves)
    # A partition lost: the rerun writes it alone, the same rows.
    (out / "part-00002.parquet").unlink()
    mtime = (out / "part-00001.parquet").stat().st_mtime_ns
    done = command("label", src, out, "--workers", 2, "--partition-size", 30)
    assert done.returncode == 0, done.stderr
    assert (out / "part-00001.parquet").stat().st_mtime_ns == mtime
    assert_exact(out, moves)
    # A folder with other files and no manifest is refused too.
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    assert command("label", src, tmp_path / "full").returncode == 2


class Cluster:
    """A Dask scheduler and 2 single-threaded workers (no nanny: a worker killed
    stays dead) on 127.0.0.1, started by PID and stopped by PID."""

    def __init__(self, folder):
        dask = os.path.join(os.path.dirname(sys.executable), "dask")
        self.file = str(folder / "scheduler.json")
        quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.scheduler = subprocess.Popen(
            [
                dask,
                "scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--no-dashboard",
                "--scheduler-file",
                self.file,
            ],
            **quiet,
        )
        wait_for(lambda: os.path.exists(self.file), "the scheduler's file")
        self.address = json.load(open(self.file))["address"]
        self.workers = [
            subprocess.Popen(
                [
                    dask,
                    "worker",
                    self.address,
                    "--nthreads",
                    "1",
                    "--no-nanny",
                    "--host",
                    "127.0.0.1",
                    "--no-dashboard",
                    "--death-timeout",
                    "60",
                ],
                **quiet,
            )
            for _ in range(2)
        ]
        from distributed import Client

        with Client(self.address, timeout=LIMIT) as c:
            c.wait_for_workers(2, timeout=LIMIT)

    def stop(self):
        for p in [*self.workers, self.scheduler]:
            if p.poll() is None:
                p.kill()
            p.wait(timeout=LIMIT)


def wait_for(ready, what):
    deadline = time.monotonic() + LIMIT
    while not ready():
        assert time.monotonic() < deadline, f"waited {LIMIT} s for {what}"
        time.sleep(0.05)


def parts(folder):
    return [n for n in os.listdir(folder) if n.startswith("part-")] if os.path.isdir(folder) else []


@pytest.fixture
def cluster(tmp_path):
    c = Cluster(tmp_path)
    yield c
    c.stop()


def test_worker_killed_midway_costs_only_its_tasks(tmp_path, cluster):
    moves = positions(800, seed=4, stones=(12, 24))
    src = write_text(tmp_path / "in.txt", moves)
    out = tmp_path / "out"
    driver = start("label", src, out, "--scheduler", cluster.address, "--partition-size", 20)
    try:
        wait_for(lambda: len(parts(out)) >= 3 or driver.poll() is not None, "3 partitions")
        assert driver.poll() is None, "the job ended before a worker could be killed"
        cluster.workers[0].send_signal(signal.SIGKILL)
        assert driver.wait(timeout=LIMIT) == 0, driver.stderr.read()
    finally:
        if driver.poll() is None:
            driver.kill()
            driver.wait()
    assert cluster.workers[0].wait(timeout=LIMIT) == -signal.SIGKILL
    assert_exact(out, moves)


def kill_driver(driver, ready, what):
    """Kills the started `driver` (SIGKILL, no chance to clean up) once `ready()`
    (`what`), checking that the job had not ended before."""
    try:
        wait_for(lambda: ready() or driver.poll() is not None, what)
        assert driver.poll() is None, "the job ended before the driver could be killed"
        driver.send_signal(signal.SIGKILL)
        driver.wait(timeout=LIMIT)
    finally:
        if driver.poll() is None:
            driver.kill()
            driver.wait()


def test_driver_killed_and_run_again(tmp_path, cluster):
    moves = positions(800, seed=5, stones=(12, 24))
    src = write_text(tmp_path / "in.txt", moves)
    out = tmp_path / "out"
    args = ("label", src, out, "--scheduler", cluster.address, "--partition-size", 20)
    kill_driver(start(*args), lambda: len(parts(out)) >= 3, "3 partitions")
    assert len(parts(out)) < 40
    done = command(*args)
    assert done.returncode == 0, done.stderr
    assert_exact(out, moves)


def sizes_binary():
    """The c4solver command line, which must know other board sizes (built with
    --features all-sizes): a 7x6 book of even 4 stones takes minutes to solve."""
    binary = os.environ.get("C4SOLVER_BIN", str(ROOT / "target" / "release" / "c4solver"))
    assert os.path.exists(binary), f"the c4solver binary is missing: {binary}"
    probe = subprocess.run(
        [binary, "--size", "5x4", "solve"], input="", capture_output=True, text=True
    )
    assert (
        probe.returncode == 0
    ), f"{binary} knows 7x6 alone: build it with --features all-sizes ({probe.stderr})"
    return binary


def test_book_equals_the_single_machine_book(tmp_path):
    binary = sizes_binary()
    single = tmp_path / "single.bin"
    args = ["--size", "5x4", "--threads", "1"]
    done = subprocess.run(
        [binary, "book", "generate", "--depth", "6", "--out", single, *args],
        capture_output=True,
        text=True,
        timeout=LIMIT,
    )
    assert done.returncode == 0, done.stderr
    book = tmp_path / "dist.bin"
    run = [
        "book",
        "--depth",
        6,
        "--out",
        book,
        "--shards",
        5,
        "--workers",
        2,
        "--c4solver",
        binary,
        "--size",
        "5x4",
    ]
    done = command(*run)
    assert done.returncode == 0, done.stderr
    assert book.read_bytes() == single.read_bytes()

    def info(path):
        return subprocess.run(
            [binary, "book", "info", "--size", "5x4", path], capture_output=True, text=True
        ).stdout

    assert info(book).split("\n")[1:] == info(single).split("\n")[1:]
    verify = subprocess.run(
        [binary, "book", "verify", "--size", "5x4", book],
        capture_output=True,
        text=True,
        timeout=LIMIT,
    )
    assert verify.returncode == 0, verify.stderr
    # Resume: a shard lost is made again, the others kept; the same book.
    shards = pathlib.Path(str(book) + ".shards")
    kept = shards / "shard-0001-of-0005.bin"
    mtime = kept.stat().st_mtime_ns
    (shards / "shard-0003-of-0005.bin").unlink()
    book.unlink()
    done = command(*run)
    assert done.returncode == 0, done.stderr
    assert kept.stat().st_mtime_ns == mtime
    assert book.read_bytes() == single.read_bytes()
    # Another depth or shard count for the same file: refused.
    other = list(run)
    other[run.index("--depth") + 1] = 5
    other[run.index("--workers") + 1] = 1
    done = command(*other)
    assert done.returncode == 2 and "holds another job" in done.stderr


def interrupt(args, ready, what, term=False):
    """Starts `python -m c4solver.distributed ARGS` in a session of its own, waits
    until `ready()` (`what`), sends Ctrl-C to its whole group as a terminal does
    (or with `term` SIGTERM to the driver alone, as `kill PID` does), and checks
    that it exits 130 (143) saying how to resume, and that the LocalCluster's
    worker processes are gone with it."""
    driver = subprocess.Popen(
        [sys.executable, "-m", "c4solver.distributed", *map(str, args)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # As in a terminal, Ctrl-C's default action: a test run started in the
        # background (`cmd &` in a script) would pass SIGINT down ignored.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        wait_for(lambda: ready() or driver.poll() is not None, what)
        assert driver.poll() is None, "the job ended before Ctrl-C"
        if term:
            os.kill(driver.pid, signal.SIGTERM)
            assert driver.wait(timeout=LIMIT) == 143
            said = "stopped by SIGTERM; run the same command again"
        else:
            os.killpg(driver.pid, signal.SIGINT)
            assert driver.wait(timeout=LIMIT) == 130
            said = "interrupted; run the same command again"
        assert said in driver.stderr.read()
    finally:
        if driver.poll() is None:
            os.killpg(driver.pid, signal.SIGKILL)
            driver.wait()
    wait_for(
        lambda: subprocess.run(["pgrep", "-g", str(driver.pid)], capture_output=True).returncode
        == 1,
        "the worker processes to end",
    )


def test_ctrl_c_stops_cleanly_and_the_rerun_completes(tmp_path):
    moves = positions(600, seed=6, stones=(12, 24))
    src = write_text(tmp_path / "in.txt", moves)
    out = tmp_path / "out"
    args = ("label", src, out, "--workers", 2, "--partition-size", 20)
    interrupt(args, lambda: len(parts(out)) >= 2, "2 partitions")
    done = command(*args)
    assert done.returncode == 0, done.stderr
    assert_exact(out, moves)


def test_a_second_driver_on_the_same_output_is_refused(tmp_path):
    # Regression: two drivers on one OUTPUT both ran; one ended with "[Errno 2]
    # No such file or directory: '.../._rejected.txt.tmp'" after labelling everything.
    moves = positions(600, seed=8, stones=(12, 24))
    src = write_text(tmp_path / "in.txt", moves)
    out = tmp_path / "out"
    args = ("label", src, out, "--workers", 1, "--partition-size", 20)
    first = start(*args)
    try:
        wait_for(lambda: (out / ".lock").exists() or first.poll() is not None, "the lock")
        assert first.poll() is None, "the first driver ended before the second started"
        second = command(*args)
        assert second.returncode == 2
        assert f"is in use by another driver (PID {first.pid} on " in second.stderr
        assert first.wait(timeout=LIMIT) == 0, first.stderr.read()
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    assert not (out / ".lock").exists()  # released at the end
    assert_exact(out, moves)


def test_the_lock_of_a_dead_driver_is_taken_over(tmp_path):
    import socket

    from c4solver.distributed import parts

    folder = tmp_path / "out"
    folder.mkdir()
    lock = folder / ".lock"
    host = socket.gethostname()
    # A live process's lock: refused, and left as it is.
    lock.write_text(f"{os.getpid()} {host}\n")
    with pytest.raises(parts.Busy, match=f"in use by another driver \\(PID {os.getpid()} on "):
        with parts.locked(str(folder)):
            pass
    assert lock.read_text() == f"{os.getpid()} {host}\n"
    # A driver killed with its lock held (a PID that has ended): taken over, then released.
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    lock.write_text(f"{dead.pid} {host}\n")
    with parts.locked(str(folder)):
        assert lock.read_text() == f"{os.getpid()} {host}\n"
    assert not lock.exists()
    # Released when the job fails too.
    with pytest.raises(RuntimeError):
        with parts.locked(str(folder)):
            raise RuntimeError("a task failed")
    assert not lock.exists()
    # Through the command line: a dead driver's lock does not stop the job.
    moves = positions(30, seed=9)
    src = write_text(tmp_path / "in.txt", moves)
    lock.write_text(f"{dead.pid} {host}\n")
    done = command("label", src, folder, "--workers", 1)
    assert done.returncode == 0, done.stderr
    assert not lock.exists()
    assert_exact(folder, moves)


def test_a_broken_parquet_file_is_named(tmp_path):
    # Regression: pyarrow's message alone ("Parquet magic bytes not found..."), no file named.
    folder = tmp_path / "in"
    folder.mkdir()
    pq.write_table(pa.table({"moves": ["44", "4455"]}), folder / "a.parquet")
    whole = (folder / "a.parquet").read_bytes()
    (folder / "b.parquet").write_bytes(whole[: len(whole) // 2])  # cut short
    done = command("label", folder, tmp_path / "out", "--workers", 1)
    assert done.returncode == 2
    assert (
        f"c4solver.distributed: {folder / 'b.parquet'}: not a readable Parquet file ("
        in done.stderr
    )
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()
    # One file that starts as Parquet does and is not.
    (tmp_path / "c.parquet").write_bytes(b"PAR1 not really")
    done = command("label", tmp_path / "c.parquet", tmp_path / "out", "--workers", 1)
    assert done.returncode == 2
    assert f"{tmp_path / 'c.parquet'}: not a readable Parquet file (" in done.stderr


QUIET_RUNS = """
import sys
from c4solver.distributed import cluster

if __name__ == "__main__":  # the workers are spawned: they import this file
    for _ in range(int(sys.argv[1])):
        with cluster.client(None, 2) as c:
            assert sum(c.gather(c.map(abs, range(-20, 0)))) == 210
    print("done")
"""


def test_local_clusters_start_and_close_quietly(tmp_path):
    # Regressions: now and then a worker logged a 30-line traceback ("Failed to
    # communicate with scheduler during heartbeat") as the cluster closed; and
    # with port 8787 taken, "Port 8787 is already in use" (the scheduler's HTTP
    # server, started without a dashboard).
    import socket

    taken = socket.socket()
    try:
        try:
            taken.bind(("127.0.0.1", 8787))
            taken.listen()
        except OSError:
            pass  # in use already, which is the case to test
        script = tmp_path / "quiet.py"
        script.write_text(QUIET_RUNS)
        done = subprocess.run(
            [sys.executable, str(script), "6"], capture_output=True, text=True, timeout=LIMIT
        )
    finally:
        taken.close()
    assert done.returncode == 0, done.stderr
    assert done.stdout == "done\n"
    assert done.stderr == ""


def test_stop_heartbeat_stops_the_callback_and_drops_only_its_message():
    import logging

    from c4solver.distributed import cluster

    class Callback:
        running = True

        def stop(self):
            self.running = False

    class Worker:
        periodic_callbacks = {"heartbeat": Callback()}

    logger = logging.getLogger("distributed.worker")
    before = list(logger.filters)
    try:
        worker = Worker()
        cluster.stop_heartbeat(worker)
        assert not worker.periodic_callbacks["heartbeat"].running
        (added,) = [f for f in logger.filters if f not in before]

        def record(message):
            return logging.LogRecord("distributed.worker", logging.ERROR, "", 0, message, (), None)

        assert not added.filter(record(cluster.HEARTBEAT_FAILED + "."))
        assert added.filter(record("Compute Failed"))
    finally:
        logger.filters[:] = before
