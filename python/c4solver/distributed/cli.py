"""The command line: ``python -m c4solver.distributed label|book|solve ...``.

Exit codes: 0 done; 1 bad input, or a task or the c4solver command line
failed (solve: a task's error, such as a table that cannot be had); 2 usage, a missing or unreadable input, an OUTPUT holding another job,
or another driver running on it; 130 interrupted (Ctrl-C); 143 solve stopped by
SIGTERM (`kill PID`).
"""

import argparse
import sys
from typing import List, Optional

PROG = "python -m c4solver.distributed"


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def parser() -> argparse.ArgumentParser:
    """The argument parser (one sub-command per job)."""
    p = argparse.ArgumentParser(
        prog=PROG,
        description="Label positions, build books and solve one position on a Dask cluster (a local one by default).",
    )
    sub = p.add_subparsers(dest="command", required=True)

    def cluster_options(q):
        q.add_argument(
            "--scheduler",
            metavar="ADDRESS",
            help="a running Dask scheduler, tcp://HOST:PORT (default: a LocalCluster on this machine)",
        )
        q.add_argument(
            "--workers",
            type=_positive,
            metavar="N",
            help="LocalCluster worker processes, one thread each (default: one per core)",
        )

    q = sub.add_parser(
        "label",
        help="exact scores of every position of INPUT, as a Parquet dataset",
        description="Label every position of INPUT (text: one position a line, first field the moves, as `c4solver solve` reads; or Parquet, a file or a folder, with a `moves` column) into OUTPUT, a Parquet dataset folder: moves (string), score (int8), scores (list of int8, one per column, -128 for a full one). The workers read and check INPUT piece by piece. Resumable: run again with the same arguments.",
    )
    q.add_argument("input", metavar="INPUT")
    q.add_argument("output", metavar="OUTPUT")
    cluster_options(q)
    q.add_argument(
        "--weak", action="store_true", help="weak scores: only the sign (1 win, 0 draw, -1 loss)"
    )
    q.add_argument(
        "--size",
        default="7x6",
        metavar="WxH",
        help="board size, as `c4solver --size` (default: 7x6; the wheel holds every size)",
    )
    q.add_argument(
        "--partition-size",
        type=_positive,
        default=None,
        metavar="N",
        help="positions per task and per output file (default: the input's positions / 100, from 100 to 10000)",
    )
    q.add_argument(
        "--skip-bad",
        action="store_true",
        help="write bad positions to OUTPUT/_rejected.txt and go on, instead of stopping before anything is written",
    )

    b = sub.add_parser(
        "book",
        help="an opening book, its shards generated as Dask tasks",
        description="Generate the book of `c4solver book generate --depth N` as K shards (`--shard I/K`) run as Dask tasks, then merge them into FILE. The shards are kept in FILE.shards/ (resumable: run again with the same arguments). Runs the c4solver command line on the workers.",
    )
    b.add_argument(
        "--depth",
        type=int,
        required=True,
        metavar="N",
        help="the book's depth: the most stones of a stored position",
    )
    b.add_argument("--out", required=True, metavar="FILE", help="the book file to write")
    b.add_argument(
        "--shards",
        type=_positive,
        default=64,
        metavar="K",
        help="shards, one task each (default: 64)",
    )
    cluster_options(b)
    b.add_argument(
        "--c4solver",
        default="c4solver",
        metavar="PATH",
        help="the c4solver command line to run (default: c4solver on the PATH)",
    )
    b.add_argument(
        "--size",
        metavar="WxH",
        help="board size, as `c4solver --size` (needs a c4solver built with all-sizes)",
    )
    b.add_argument(
        "--table-mb",
        type=_positive,
        metavar="N",
        help="each shard's table, as `c4solver --table-mb`",
    )
    v = sub.add_parser(
        "solve",
        help="one position's exact score, its search spread over the cluster",
        description="Solve one position (MOVES; absent or empty: the empty board) over the cluster: the driver keeps the top SPLIT-DEPTH stones of the tree and asks the workers null-window questions of the leaves (the Python extension's Solver.solve_window). Prints `MOVES SCORE NODES MICROSECONDS` as `c4solver solve` does (NODES: over every task of the job, those of earlier runs too); progress and the best move on stderr. Every answer is appended to STATE/answers.jsonl: run the same command again to go on.",
    )
    v.add_argument("moves", nargs="?", default="", metavar="MOVES")
    v.add_argument("--size", default="7x6", metavar="WxH", help="board size (default: 7x6)")
    v.add_argument(
        "--weak", action="store_true", help="the weak score: 1 win, 0 draw, -1 loss"
    )
    cluster_options(v)
    v.add_argument(
        "--state",
        metavar="DIR",
        help="where the answers are kept (default: c4solver-solve-WxH-MOVES[-weak] in the current folder)",
    )
    v.add_argument(
        "--table-mb",
        type=_positive,
        default=64,
        metavar="N",
        help="each worker's table, kept from task to task (default: 64)",
    )
    v.add_argument(
        "--threads-per-worker",
        type=_positive,
        default=1,
        metavar="N",
        help="search threads of each task (default: 1)",
    )
    v.add_argument(
        "--split-depth",
        type=_positive,
        default=3,
        metavar="D",
        help="stones below the position where the tasks start (default: 3)",
    )
    v.add_argument(
        "--task-seconds",
        type=float,
        default=300.0,
        metavar="S",
        help="a task still running after S seconds is abandoned and its position split one stone deeper (default: 300)",
    )
    return p


def _solve(args) -> None:
    """The solve command: the result line on stdout, the best move on stderr."""
    from . import solve_job

    settings = solve_job.Settings(
        split_depth=args.split_depth,
        task_seconds=args.task_seconds,
        table_mb=args.table_mb,
        threads_per_worker=args.threads_per_worker,
    )
    moves, score, nodes, us, best = solve_job.solve(
        args.moves, args.size, args.weak, args.scheduler, args.workers, args.state, settings
    )
    print(f"{moves} {score} {nodes} {us}", flush=True)
    best_text = str(best) if best is not None else "none proved better than another (every move loses)"
    print(f"c4solver.distributed: best move {best_text}", file=sys.stderr)


def main(argv: Optional[List[str]] = None) -> int:
    """Runs the command; returns the exit code."""
    args = parser().parse_args(argv)
    from . import book_job, inputs, label_job, parts, solve_job

    try:
        if args.command == "solve":
            _solve(args)
        elif args.command == "label":
            n = label_job.label(
                args.input,
                args.output,
                args.scheduler,
                args.workers,
                args.weak,
                args.partition_size,
                args.skip_bad,
                args.size,
            )
            print(f"c4solver.distributed: {n} positions labelled in {args.output}", file=sys.stderr)
        else:
            folder = book_job.book(
                args.depth,
                args.out,
                args.shards,
                args.scheduler,
                args.workers,
                args.c4solver,
                args.size,
                args.table_mb,
            )
            print(
                f"c4solver.distributed: wrote {args.out} (its shards are kept in {folder})",
                file=sys.stderr,
            )
        return 0
    except solve_job.Terminated:
        print(
            "c4solver.distributed: stopped by SIGTERM; run the same command again to go on",
            file=sys.stderr,
        )
        return 143
    except KeyboardInterrupt:
        print(
            "c4solver.distributed: interrupted; run the same command again to go on",
            file=sys.stderr,
        )
        return 130
    except (inputs.InputError, parts.JobMismatch, parts.Busy, ValueError, OSError) as e:
        # An error with no words of its own (a bare TimeoutError) is named by its type.
        print(f"c4solver.distributed: {e or type(e).__name__}", file=sys.stderr)
        return 2
    except (label_job.BadInput, book_job.ToolError, solve_job.TaskError) as e:
        print(f"c4solver.distributed: {e}", file=sys.stderr)
        return 1
