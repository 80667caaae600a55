#!/usr/bin/env python3
"""Reruns the benchmark tables of the docs and rewrites them in place.

    cargo build --release && python3 scripts/refresh-benchmarks.py [FILE.md ...]

Every block of the form

    <!-- refresh: COMMAND -->
    ...
    <!-- end refresh -->

in the given markdown files (default: every file in docs/) is replaced by the
output of COMMAND, run from the repository root with target/release on PATH (so
`c4solver ...` is this build), under a line that says when, where and with which
command it was measured. Commands that need a program outside the repository
name it with an environment variable (e.g. `$PONS_FINAL`); a block whose command
fails is left as it was, with a warning, and the script exits with 1 at the end.
Run it on a quiet machine: the blocks run one after the other, never at once.
"""

import datetime
import os
import pathlib
import platform
import re
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"^(<!-- refresh: ([^\n]+?) -->\n)(.*?)^(<!-- end refresh -->)", re.S | re.M)


def machine():
    """A short description of this machine."""
    model = platform.processor() or platform.machine()
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        kb = int(next(l for l in open("/proc/meminfo") if l.startswith("MemTotal")).split()[1])
        mem = f", {kb / 1024 / 1024:.0f} GB"
    except (OSError, StopIteration):
        pass
    return f"{os.cpu_count()} cores ({model}){mem}"


def main():
    files = [pathlib.Path(f) for f in sys.argv[1:]] or sorted((ROOT / "docs").glob("*.md"))
    env = dict(os.environ)
    env["PATH"] = f"{ROOT / 'target' / 'release'}{os.pathsep}{env['PATH']}"
    where = machine()
    failed = 0
    for path in files:
        text = path.read_text()
        out = []
        last = 0
        for m in BLOCK.finditer(text):
            command = m.group(2)
            print(f"{path.name}: {command}", file=sys.stderr)
            start = time.monotonic()
            run = subprocess.run(command, shell=True, cwd=ROOT, env=env, capture_output=True, text=True)
            secs = time.monotonic() - start
            out.append(text[last:m.start()])
            if run.returncode != 0:
                print(f"  failed ({run.returncode}), block kept: {run.stderr.strip()[:500]}", file=sys.stderr)
                failed += 1
                out.append(m.group(0))
            else:
                today = datetime.date.today().isoformat()
                body = (f"Measured {today} on {where}, {secs:.0f} s: `{command}`\n\n"
                        f"{run.stdout.rstrip()}\n")
                out.append(m.group(1) + body + m.group(4))
            last = m.end()
        out.append(text[last:])
        path.write_text("".join(out))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
