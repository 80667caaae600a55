"""python -m c4solver.distributed solve: exact and weak scores equal to the
single search's on small boards and 7x6 positions, on a LocalCluster of 2
processes and on a scheduler with 2 workers (one killed midway); a rerun and a
driver killed and rerun lose and redo nothing; bad input exits with 2. Loopback
only; every process started here is stopped by its PID."""

import json
import logging
import os
import re
import signal
import subprocess
import sys

import pytest

pytest.importorskip("distributed", reason="pip install 'c4solver[distributed]'")

import c4solver  # noqa: E402
from c4solver.distributed import solve_job  # noqa: E402
from conftest import pons_set  # noqa: E402
from test_distributed import (  # noqa: E402
    LIMIT,
    Cluster,
    command,
    interrupt,
    kill_driver,
    wait_for,
)


@pytest.fixture(scope="module")
def local():
    """A LocalCluster of 2 single-threaded processes on loopback, for the module."""
    from distributed import LocalCluster

    # The nannies set variables in this process's environment for the workers
    # (MALLOC_TRIM_THRESHOLD_, OMP_NUM_THREADS, ...): the later tests' subprocesses
    # must not inherit them.
    saved = dict(os.environ)
    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},  # never port 8787
        silence_logs=logging.ERROR,
    ) as cluster:
        os.environ.clear()
        os.environ.update(saved)
        yield cluster.scheduler_address


def run(local, moves, size, folder, weak=False, split_depth=2, task_seconds=300.0):
    """solve_job.solve on the module's cluster: (score, nodes, best move)."""
    settings = solve_job.Settings(split_depth=split_depth, task_seconds=task_seconds)
    got = solve_job.solve(moves, size, weak, local, None, str(folder), settings)
    assert got[0] == moves
    return got[1], got[2], got[4]


def answers(folder):
    return [json.loads(line) for line in open(os.path.join(folder, solve_job.ANSWERS))]


def assert_best(size, moves, weak, score, best):
    """`best` is a move of the position's score (None only when every move loses)."""
    scores = c4solver.Solver(size=size, threads=1).analyze(moves, weak=weak)
    if best is None:
        assert max(s for s in scores if s is not None) == score
        assert score < 0
    else:
        assert scores[best - 1] == score


@pytest.mark.parametrize("size", ["4x4", "5x4", "6x4", "4x5", "5x5"])
def test_empty_boards_strong_and_weak_at_every_split(local, tmp_path, size):
    single = c4solver.Solver(size=size, threads=1)
    for weak in (False, True):
        expected = single.solve("", weak=weak)
        for depth in (1, 2, 3):
            folder = tmp_path / f"{weak}-{depth}"
            score, nodes, best = run(local, "", size, folder, weak, depth)
            assert score == expected, (weak, depth)
            assert nodes == sum(a["nodes"] for a in answers(folder)) > 0
            assert_best(size, "", weak, score, best)


def test_positions_of_7x6_match_pons_scores(local, tmp_path):
    # Pascal Pons' Middle-Easy set: 14 to 28 stones, past the built-in book.
    for i, (moves, expected) in enumerate(pons_set("Test_L2_R1")[:6]):
        score, _, best = run(local, moves, "7x6", tmp_path / f"s{i}", split_depth=2)
        assert score == expected, moves
        assert_best("7x6", moves, False, score, best)
        weak, _, _ = run(local, moves, "7x6", tmp_path / f"w{i}", weak=True, split_depth=2)
        assert weak == (expected > 0) - (expected < 0), moves


# Random positions of the large boards (seeded playouts, none in any test set), a
# few hundred thousand nodes at most for the single search.
LARGE = [
    ("8x8", "532576572288662828715633722237315115"),
    ("8x8", "325288874281771854261111747148"),
    ("10x6", "3a2528887428177a1854a26111"),
    ("10x6", "aa2a9987837798128a32932758152643"),
]


@pytest.mark.parametrize("size, moves", LARGE)
def test_positions_of_8x8_and_10x6(local, tmp_path, size, moves):
    single = c4solver.Solver(size=size, threads=1)
    for weak in (False, True):
        score, _, best = run(local, moves, size, tmp_path / f"{weak}", weak, split_depth=2)
        assert score == single.solve(moves, weak=weak)
        assert_best(size, moves, weak, score, best)


def test_won_at_once_full_and_one_move_left(local, tmp_path):
    # The side to move wins at once: no task at all.
    score, nodes, best = run(local, "445566", "7x6", tmp_path / "a")
    assert (score, nodes, best) == (18, 0, 3)  # 3 and 7 win: 3 is nearer the centre
    assert answers(tmp_path / "a") == []
    # One move from a full 4x4 board (the last stone draws).
    full = "432131114423423"  # 15 stones, no four
    p = c4solver.Position(full, size="4x4")
    assert not p.is_won() and len(p.legal_moves()) == 1
    expected = c4solver.Solver(size="4x4", threads=1).solve(full)
    assert run(local, full, "4x4", tmp_path / "b")[0] == expected


def test_a_rerun_reuses_every_answer(local, tmp_path):
    folder = tmp_path / "state"
    first = run(local, "", "6x5", folder, split_depth=3)
    before = open(folder / solve_job.ANSWERS).read()
    assert first[0] == c4solver.Solver(size="6x5", threads=1).solve("")
    again = run(local, "", "6x5", folder, split_depth=3)
    assert again == first  # the same score, nodes and best move
    assert open(folder / solve_job.ANSWERS).read() == before  # no new task
    record = answers(folder)[0]
    assert set(record) >= {"moves", "alpha", "beta", "result", "nodes", "seconds", "worker"}
    assert record["beta"] == record["alpha"] + 1
    job = json.load(open(folder / "_job.json"))
    assert job == {"command": "solve", "size": "6x5", "moves": "", "weak": False, "version": 1}


def test_a_rerun_at_another_split_depth_reuses_the_answers(local, tmp_path):
    folder = tmp_path / "state"
    expected = c4solver.Solver(size="5x5", threads=1).solve("")
    assert run(local, "", "5x5", folder, split_depth=2)[0] == expected
    first = len(answers(folder))
    # The depth is no part of the job. Deeper, the recorded leaves are inner
    # positions whose bounds answer every question: no new task.
    assert run(local, "", "5x5", folder, split_depth=3)[0] == expected
    assert len(answers(folder)) == first
    # Shallower, the leaves are new questions, answered exactly.
    assert run(local, "", "5x5", folder, split_depth=1)[0] == expected


def test_a_task_too_long_is_split_deeper(local, tmp_path):
    folder = tmp_path / "state"
    score, nodes, _ = run(local, "", "6x6", folder, split_depth=1, task_seconds=0.05)
    assert score == c4solver.Solver(size="6x6", threads=1, table_mb=16).solve("")
    found = answers(folder)
    split = [a for a in found if a["result"] is None]
    assert split, "no task took more than 0.05 s"
    # A split leaf's children were asked: positions one stone deeper.
    assert max(len(a["moves"]) for a in found) > 1
    assert nodes == sum(a["nodes"] for a in found)


def test_the_command_prints_what_c4solver_solve_prints(cli, tmp_path):
    for size, moves, weak in (("5x4", "", False), ("7x6", "52753311433677442422121", True)):
        extra = ["--weak"] if weak else []
        done = command(
            "solve", moves, "--size", size, "--workers", 2, "--state", tmp_path / size, *extra
        )
        assert done.returncode == 0, done.stderr
        fields = done.stdout.split(" ")
        single = cli(["--size", size, "solve", *extra], moves + "\n")
        assert single.returncode == 0, single.stderr
        want = single.stdout.split(" ")
        assert len(fields) == len(want) == 4
        assert fields[:2] == want[:2]  # the moves and the score
        assert int(fields[2]) > 0 and int(fields[3]) > 0
        assert "best move" in done.stderr
        searched = re.search(r"the workers searched (\d+)% of the time", done.stderr)
        # A share of the run, 0% where every task is a book look-up (7x6).
        assert searched and 0 <= int(searched.group(1)) <= 100, done.stderr


def test_bad_input_exits_2_with_the_message(tmp_path, local):
    cases = [
        (["4480"], "column 8 is out of range (1..=7) at move 3"),
        (["1212121"], "move 7 makes four in a row: the game is already over"),
        (["", "--size", "20x20"], "board size 20x20 is too large"),
        (["", "--size", "3x3"], "board size 3x3 is too small"),
        (["", "--task-seconds", "0"], "--task-seconds must be a positive number"),
    ]
    for args, message in cases:
        done = command("solve", *args, "--state", tmp_path / "bad")
        assert done.returncode == 2
        assert message in done.stderr
        assert done.stdout == ""
    assert not (tmp_path / "bad").exists()
    # A state folder of another job.
    run(local, "", "4x4", tmp_path / "job")
    done = command("solve", "12", "--size", "4x4", "--state", tmp_path / "job")
    assert done.returncode == 2
    assert "holds another job (different moves)" in done.stderr


@pytest.fixture
def cluster(tmp_path):
    c = Cluster(tmp_path)
    yield c
    c.stop()


def start(*args):
    """The solve command in the background, its stdout kept."""
    return subprocess.Popen(
        [sys.executable, "-m", "c4solver.distributed", "solve", *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def lines(path):
    return sum(1 for _ in open(path)) if os.path.exists(path) else 0


# A job of about 170 tasks and a few seconds on 2 workers: long enough to kill midway.
LONG = ("", "--size", "6x6", "--split-depth", 5)


def test_a_worker_killed_midway_costs_only_its_task(tmp_path, cluster):
    state = tmp_path / "state"
    driver = start(*LONG, "--scheduler", cluster.address, "--state", state)
    try:
        wait_for(
            lambda: lines(state / solve_job.ANSWERS) >= 20 or driver.poll() is not None,
            "20 answers",
        )
        assert driver.poll() is None, "the job ended before a worker could be killed"
        cluster.workers[0].send_signal(signal.SIGKILL)
        out, err = driver.communicate(timeout=LIMIT)
        assert driver.returncode == 0, err
    finally:
        if driver.poll() is None:
            driver.kill()
            driver.wait()
    assert cluster.workers[0].wait(timeout=LIMIT) == -signal.SIGKILL
    assert out.split(" ")[:2] == ["", "-1"]  # 6x6: the second player wins by a stone


def test_a_driver_killed_loses_nothing_finished(tmp_path, cluster):
    state = tmp_path / "state"
    path = state / solve_job.ANSWERS
    args = (*LONG, "--scheduler", cluster.address, "--state", state)
    kill_driver(start(*args), lambda: lines(path) >= 20, "20 answers")
    kept = [json.loads(line) for line in open(path) if line.endswith("\n")]
    done = command(*["solve", *args])
    assert done.returncode == 0, done.stderr
    assert done.stdout.split(" ")[:2] == ["", "-1"]
    after = answers(state)
    assert after[: len(kept)] == kept  # what was finished is still there
    # No question answered before the kill was asked again.
    asked = [(a["key"], a["beta"]) for a in after]
    assert len(set(asked)) == len(asked)
    assert f"{len(kept)} answer(s) reused" in done.stderr
    assert int(done.stdout.split(" ")[2]) == sum(a["nodes"] for a in after)


@pytest.mark.parametrize("term", [False, True], ids=["ctrl-c", "sigterm"])
def test_ctrl_c_leaves_no_process_and_the_rerun_completes(tmp_path, term):
    state = tmp_path / "state"
    args = (*LONG, "--workers", 2, "--state", state)
    ready = lambda: lines(state / solve_job.ANSWERS) >= 10  # noqa: E731
    interrupt(("solve", *args), ready, "10 answers", term)
    kept = lines(state / solve_job.ANSWERS)
    done = command("solve", *args)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split(" ")[:2] == ["", "-1"]
    assert f"{kept} answer(s) reused" in done.stderr


def test_the_schedule_simulator_replays_a_recorded_job(local, tmp_path):
    from c4solver.distributed import simulate

    folder = tmp_path / "state"
    score, _, _ = run(local, "", "5x5", folder, split_depth=2)
    found = answers(folder)
    oracle = simulate.Oracle("5x5", found, 300.0)
    one = simulate.simulate(str(folder), 1, 2, 0.0, oracle)
    assert one["score"] == score
    assert one["idle_share"] == pytest.approx(0.0, abs=1e-9)  # one worker never waits
    assert one["seconds"] == pytest.approx(one["useful_seconds"] + one["cancelled_seconds"])
    many = simulate.simulate(str(folder), 8, 2, 0.01, oracle)
    assert many["score"] == score
    assert many["seconds"] >= 0.01  # at least one task's latency
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "c4solver.distributed.simulate",
            str(folder),
            "--split-depth",
            "2",
            "--workers",
            "1,4",
        ],
        capture_output=True,
        text=True,
        timeout=LIMIT,
    )
    assert done.returncode == 0, done.stderr
    head, *rows = done.stdout.splitlines()
    run_figures = simulate.recorded(found)
    assert run_figures["tasks"] == len(found) and run_figures["workers"] >= 1
    assert head.startswith(f"recorded: {run_figures['workers']} worker(s)"), head
    assert f"{len(found)} tasks" in head
    assert [line.split()[0] for line in rows] == ["1", "4"]
    # Another run's answers fill the oracle only if it is the same job.
    other = tmp_path / "other"
    run(local, "", "5x4", other, split_depth=2)
    refused = subprocess.run(
        [sys.executable, "-m", "c4solver.distributed.simulate", str(folder), "--record", str(other)],
        capture_output=True,
        text=True,
        timeout=LIMIT,
    )
    assert refused.returncode == 2 and "another job" in refused.stderr, refused.stderr


def test_a_task_that_fails_stops_the_job_with_its_error(tmp_path):
    done = command(
        "solve",
        "",
        "--size",
        "5x4",
        "--workers",
        1,
        "--table-mb",
        10_000_000,
        "--state",
        tmp_path / "state",
    )
    assert done.returncode == 1
    assert (
        "failed: MemoryError: cannot allocate a table of 10000000 MB: not enough memory"
        in done.stderr
    )
    assert done.stdout == ""


def test_a_position_expected_to_fail_asks_every_move_at_once():
    # The empty 5x4 board, split at 2 stones, 4 workers (room for 8 tasks).
    for expect in (True, False):
        search = solve_job.Search(c4solver.Position("", size="5x4"), 2)
        search.workers, search.limit, search.expect = 4, 8, expect
        status, want, _ = search.evaluate(1)
        assert status is None
        asked = [pos.moves for _, pos in want]
        if expect:
            # Expected to hold: the first move alone, which is expected to fail
            # and so asks all its replies (mirrors once: 3, 2 or 4, 1 or 5).
            assert asked == ["33", "32", "31"]
        else:
            # Expected to fail: every move is needed, each expected to hold and
            # so asking its first reply alone.
            assert asked == ["33", "23", "13"]
