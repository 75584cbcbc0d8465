"""Compiling the kernels aside: in a child process, so that this one stays responsive.

numba compiles a kernel on its first call and keeps the machine code in its cache; the
first call after an install can take tens of seconds, during which the compiling process
hardly runs anything else (a progress bar stops, a screen freezes, a server stalls). So
when a kernel is not in numba's cache yet, a child process compiles it, and this process
only waits (its progress bar and threads go on), then loads it from the cache. Processes
that find the same kernels missing at once (a server and a terminal game started together,
test workers) compile them once: the first holds a lock beside numba's cache while its
child compiles, and the others wait for it, then find them cached.
"""

from __future__ import annotations

import contextlib
import logging
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

from .child import python_child

_log = logging.getLogger(__name__)

Kind = Literal["turn", "build", "simulate", "curves", "match"]
COMPILE_SECONDS: dict[Kind, int] = {
    "turn": 10,
    "build": 20,
    "simulate": 15,
    "curves": 45,
    "match": 40,
}
"""About how long each kind takes to compile, the first time after an install (measured on
a quiet 2-core machine), for a player told to wait."""
TIMEOUT_S = 900
CHILD_ENV = "YAHTZEE_COMPILING"  # set in the child: it compiles in place

_COMPILE: dict[Kind, str] = {
    "turn": "from yahtzee.solver.planner import use_compiled_kernels; use_compiled_kernels()",
    "build": (
        "import numpy as np; from yahtzee import RuleSet; from yahtzee.solver import kernel;"
        "from yahtzee.solver.solver import TABLE_SHAPE; from yahtzee.solver.tables import "
        "ALL_FILLED, model, reach_table; kernel.build_layer(np.array([ALL_FILLED], "
        "dtype=np.int32), reach_table(), np.zeros(TABLE_SHAPE), model(RuleSet.official()))"
    ),
    "simulate": "from yahtzee.solver import simulate; simulate(['optimal'], 1, 0)",
    "curves": "from yahtzee.solver.winning import compile_curves; compile_curves()",
    "match": "from yahtzee.solver.simulate import compile_match; compile_match()",
}


def _dispatchers(kind: Kind) -> list[object]:
    from . import curves, kernel, match_kernel, policy, win_kernel  # noqa: PLC0415 - numba loads here

    found: dict[Kind, list[object]] = {
        "turn": [policy.turn_tables, policy.option_values, policy.advise],
        "build": [kernel.build_layer],
        "simulate": [policy.simulate],
        "curves": [curves.survival_layer, curves.pmf_layer, win_kernel.value_turn],
        "match": [match_kernel.simulate_match],
    }
    return found[kind]


def cached(kind: Kind) -> bool:
    """Whether numba's cache already holds these kernels (a quick load, no compiling;
    once it does, it is not looked at again; while it does not, looked at again at most
    every `RECHECK_S` seconds: the win meter asks at every move)."""
    if kind in _CACHED:
        return True
    now = _clock()
    if now < _MISSING.get(kind, 0.0):
        return False
    try:
        found = all(
            Path(d._cache._cache_file._index_path).is_file()  # type: ignore[attr-defined]
            for d in _dispatchers(kind)
        )
    except AttributeError:  # another numba: assume the worst
        found = False
    if found:
        _CACHED.add(kind)
    else:
        _MISSING[kind] = now + RECHECK_S
    return found


@contextlib.contextmanager
def _compiling(kind: Kind) -> Iterator[None]:
    """Held while this process has ``kind`` compiled: an exclusive lock on a file beside
    numba's cache, so that processes on the same cache compile it once (where there is no
    such lock, or no cache folder to put it in, nothing is held)."""
    try:
        import fcntl  # noqa: PLC0415 - POSIX only
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    try:
        folder = Path(_dispatchers(kind)[0]._cache._cache_path)  # type: ignore[attr-defined]
        folder.mkdir(parents=True, exist_ok=True)
        lock = (folder / f"yahtzee-compiling-{kind}.lock").open("a")
    except (AttributeError, OSError):
        yield
        return
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # (released when the file closes)
        yield


RECHECK_S = 1.0
_clock = time.monotonic
_CACHED: set[Kind] = set()
_MISSING: dict[Kind, float] = {}
"""Kinds found missing, until when (monotonic) the answer stands."""


def compile_aside(kind: Kind) -> bool:
    """Make sure these kernels are compiled and cached, compiling them in a child process
    if they are not. Returns False (and logs why) if the child could not: the caller then
    compiles them itself, as numba would anyway."""
    if os.environ.get(CHILD_ENV) or cached(kind):
        return bool(not os.environ.get(CHILD_ENV))
    with _compiling(kind):
        _MISSING.pop(kind, None)
        if cached(kind):  # another process compiled them meanwhile
            return True
        return _compile_in_child(kind)


def _compile_in_child(kind: Kind) -> bool:
    try:
        done = subprocess.run(
            python_child(_COMPILE[kind]),
            env={**os.environ, CHILD_ENV: "1"},
            capture_output=True,
            timeout=TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        _log.warning("could not compile the solver's kernels aside: %s", error)
        return False
    if done.returncode != 0:
        tail = done.stderr.decode(errors="replace").strip().splitlines()[-1:]
        _log.warning("could not compile the solver's kernels aside: %s", " ".join(tail))
        return False
    _MISSING.pop(kind, None)  # compiled now: look again
    return True
