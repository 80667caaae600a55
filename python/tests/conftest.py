"""Shared fixtures: Pascal Pons' test sets and the command-line binary."""

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def pons_set(name):
    """(moves, score) pairs of a Pons set; fails if the sets are missing."""
    folder = pathlib.Path(os.environ.get("C4_PONS_DIR", ROOT.parent / "shared" / "pons-testsets"))
    path = folder / name
    assert path.is_file(), f"Pascal Pons' test sets are missing: expected {path}"
    pairs = []
    for line in path.read_text().splitlines():
        if line.strip():
            moves, score = line.split()
            pairs.append((moves, int(score)))
    return pairs


@pytest.fixture(scope="session")
def cli():
    """Runs the c4solver binary (C4SOLVER_BIN, else target/release/c4solver)."""
    binary = os.environ.get("C4SOLVER_BIN", str(ROOT / "target" / "release" / "c4solver"))
    assert os.path.exists(binary), f"the c4solver binary is missing: {binary} (cargo build --release)"

    def run(args, stdin):
        return subprocess.run([binary, *args], input=stdin, capture_output=True, text=True)

    return run
