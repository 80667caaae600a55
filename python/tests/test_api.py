"""The type stubs match the module, everything has a docstring, and Ctrl-C stops a
search."""

import ast
import doctest
import inspect
import pathlib
import signal
import subprocess
import sys
import time

import c4solver
from c4solver import _c4solver

STUBS = pathlib.Path(c4solver.__file__).with_name("_c4solver.pyi")


def params(f, skip_self):
    """[(name, default source or None)] of a stub's function."""
    static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in f.decorator_list)
    args = f.args.args[1:] if skip_self and not static else f.args.args
    defaults = [None] * (len(args) - len(f.args.defaults)) + [ast.unparse(d) for d in f.args.defaults]
    return [(a.arg, d) for a, d in zip(args, defaults)]


def stubbed():
    """{name: parameters of a function, None for a constant, or {member:
    parameters, or None for a property} of a class} as the stub file declares them
    (type aliases left out)."""
    tree = ast.parse(STUBS.read_text())
    names = {}
    for node in tree.body:
        if isinstance(node, ast.AnnAssign):
            names[node.target.id] = None
        elif isinstance(node, ast.FunctionDef):
            names[node.name] = params(node, False)
        elif isinstance(node, ast.ClassDef):
            names[node.name] = {
                f.name: None
                if any(isinstance(d, ast.Name) and d.id == "property" for d in f.decorator_list)
                else params(f, True)
                for f in node.body
                if isinstance(f, ast.FunctionDef)
            }
    return names


def public(obj):
    return {n for n in dir(obj) if not n.startswith("_")}


# The package's own functions over the extension's private batches (and over
# the book's rows).
BULK = {"solve_many", "analyze_many", "legal_mask", "book_positions"}


def parameters(f):
    """[(name, default source or None)] of a runtime function, without self."""
    return [
        (p.name, None if p.default is inspect.Parameter.empty else repr(p.default))
        for p in inspect.signature(f).parameters.values()
        if p.name != "self"
    ]


def test_the_stubs_declare_exactly_what_the_module_has():
    stubs = stubbed()
    private = {n for n in dir(_c4solver) if n.startswith("_") and not n.startswith("__")}
    assert set(stubs) == public(_c4solver) | private
    assert set(c4solver.__all__) == public(_c4solver) | BULK
    for name, members in stubs.items():
        runtime = getattr(_c4solver, name)
        if members is None:
            assert not callable(runtime), name
            continue
        if not inspect.isclass(runtime):
            assert members == parameters(runtime), name
            continue
        assert {m for m in members if not m.startswith("_")} == public(runtime), name
        for member, declared in members.items():
            if member == "__init__":
                assert declared == parameters(runtime), name
            elif declared is None:
                kind = type(inspect.getattr_static(runtime, member)).__name__
                assert kind == "getset_descriptor", f"{name}.{member} is a property"
            elif member in vars(runtime) and not member.startswith("__"):
                assert declared == parameters(getattr(runtime, member)), f"{name}.{member}"
            else:
                assert hasattr(runtime, member), f"{name}.{member}"


def test_everything_has_a_docstring():
    for name in c4solver.__all__:
        obj = getattr(c4solver, name)
        assert obj.__doc__, name
        if inspect.isclass(obj):
            for member in public(obj) | {"__repr__", "__str__"} & set(vars(obj)):
                assert getattr(obj, member).__doc__, f"{name}.{member}"


def test_the_module_docstring_examples_hold():
    assert doctest.testmod(c4solver).failed == 0
    assert doctest.testmod(c4solver).attempted >= 5


def test_ctrl_c_stops_a_long_search():
    # The empty board without the book takes about 30 s here: a stop within the
    # few seconds allowed below can only come from the interrupt.
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import signal\n"
            "import c4solver\n"
            "# Python leaves SIGINT alone if it started ignored (a background job).\n"
            "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
            "s = c4solver.Solver(book=False, threads=1)\n"
            "print('searching', flush=True)\n"
            "try:\n"
            "    print('finished', s.solve(''))\n"
            "except KeyboardInterrupt:\n"
            "    print('interrupted', s.solve('4455'), flush=True)\n",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline() == "searching\n"
        time.sleep(0.3)
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=10)
    finally:
        child.kill()
    assert out == "interrupted 18\n"
    assert child.returncode == 0
