"""The sdist that `scripts/python-dist` makes (its path in C4_SDIST; .ci/run
builds it): it holds what cargo needs to build the extension and nothing of the
command line's, pip builds and installs it into a fresh virtual environment
(Rust is needed, as for any sdist of an extension), and the installed package
answers as the command line does, with the built-in book inside. Skipped when
C4_SDIST is not set."""

import json
import os
import subprocess
import sys
import tarfile
import time
import tomllib

import pytest

SDIST = os.environ.get("C4_SDIST")

pytestmark = pytest.mark.skipif(not SDIST, reason="C4_SDIST names no sdist (.ci/run builds one)")


def test_the_sdist_holds_the_library_and_the_bindings_only():
    with tarfile.open(SDIST) as tar:
        names = tar.getnames()
        root = names[0].split("/")[0]
        manifest = tomllib.loads(tar.extractfile(f"{root}/Cargo.toml").read().decode())
        info = tar.extractfile(f"{root}/PKG-INFO").read().decode()
    assert root == "c4solver-0.1.0"
    files = {n.removeprefix(root + "/") for n in names}
    for need in ["pyproject.toml", "python/Cargo.toml", "python/Cargo.lock", "python/src/lib.rs",
                 "crates/c4solver/Cargo.toml", "crates/c4solver/books/7x6.c4book",
                 "c4solver/__init__.py", "c4solver/py.typed", "LICENSE", "README.md"]:
        assert need in files, need
    assert not any(f.startswith(("src/", "tests/", "python/tests/", "docs/", "web/")) for f in files)
    # The repository's root manifest became the library's bare workspace.
    assert manifest == {"workspace": {"members": ["crates/c4solver"], "resolver": "3"}}
    fields = [line.split(": ", 1) for line in info.split("\n\n")[0].splitlines() if ": " in line]
    assert ["Name", "c4solver"] in fields and ["License-Expression", "MIT"] in fields
    assert ["Requires-Dist", "numpy>=1.21"] in fields


@pytest.fixture(scope="module")
def python(tmp_path_factory):
    """A fresh virtual environment where pip built and installed the sdist."""
    root = tmp_path_factory.mktemp("sdist") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(root)], check=True)
    start = time.monotonic()
    pip = [str(root / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    out = subprocess.run(pip + [SDIST], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    # Not a check (timings never are): the figure for the report.
    print(f"\nthe sdist built and installed in {time.monotonic() - start:.1f} s")
    return root / "bin" / "python"


def test_the_installed_sdist_answers_as_the_command_line(python, cli):
    positions = ["4455", "", "77777766666633442", "3324"]
    code = (
        "import c4solver, json, sys\n"
        "s = c4solver.Solver()\n"
        "print(json.dumps([s.analysis(c4solver.Position(m)) for m in sys.argv[1:]]))\n"
    )
    out = subprocess.run([str(python), "-c", code, *positions], capture_output=True, text=True, cwd="/")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    rows = cli(["analyze", "--json"], "".join(m + "\n" for m in positions))
    assert rows.returncode == 0, rows.stderr
    want = [json.loads(line) for line in rows.stdout.splitlines()]
    assert len(got) == len(want) == 4
    for g, w in zip(got, want):
        for field in ["moves", "score", "scores", "best", "book"]:
            assert g[field] == w[field], (field, g, w)
    assert got[1]["book"] is True, "the built-in book is inside"
