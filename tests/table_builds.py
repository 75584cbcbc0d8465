"""Small, real builds of the win tables for the tests that run the builder.

A full build takes minutes, so these tests set the builder's test knobs
(``solver/builds.py``): only the states a late card can reach are built (a real build of
a second or two, saved under the table's usual name), and each layer can be slowed so that
a test can kill a builder mid-build. Every test has its own cache folder, and whatever
builder it started is killed on the way out (:func:`stop_builders`).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

from yahtzee.solver.builds import (
    BASE_MASK_ENV,
    HOLD_ENV,
    LAYER_DELAY_ENV,
    LOG_NAME,
    NO_BUILDS_ENV,
    builder_running,
    read_state,
)
from yahtzee.solver.cache import CACHE_ENV
from yahtzee.solver.planner import state_of
from yahtzee.solver.winning import late_card

from .waiting import wait_until

LATE_MASK = state_of(late_card())[0]
BUILD_TIMEOUT = 300.0  # a first build in a fresh clone compiles its kernels (a minute or two)

REQUEST = """
import sys
from yahtzee import RuleSet
from yahtzee.solver.curve_table import load

def told(done, total):
    print("progress", done, total, flush=True)

table = load(sys.argv[1], RuleSet.official(), progress=told)
print("loaded", len(table.levels), flush=True)
"""
"""A program that asks for one table of the official rules as a game would (``load``),
printing the layers it hears of and then the table's size."""


def builder_env(cache: Path, delay: float = 0.0, hold: Path | None = None) -> dict[str, str]:
    """The environment of a process whose builds are small and real, in ``cache``;
    ``hold``: its builder waits after its first layer until that file is there."""
    env = {**os.environ, CACHE_ENV: str(cache), BASE_MASK_ENV: str(LATE_MASK)}
    env["PYTHONIOENCODING"] = "utf-8"
    env.pop(NO_BUILDS_ENV, None)
    env.pop(LAYER_DELAY_ENV, None)
    env.pop(HOLD_ENV, None)
    if delay:
        env[LAYER_DELAY_ENV] = str(delay)
    if hold is not None:
        env[HOLD_ENV] = str(hold)
    return env


def request(cache: Path, kind: str = "distribution", delay: float = 0.0) -> subprocess.Popen[str]:
    """Start a process that asks for a table (see :data:`REQUEST`)."""
    return subprocess.Popen(
        [sys.executable, "-c", REQUEST, kind],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=builder_env(cache, delay),
    )


def builders_started(cache: Path) -> list[int]:
    """The pids of the builders started in ``cache`` (from their log), in order."""
    try:
        text = (cache / LOG_NAME).read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    return [int(pid) for pid in re.findall(r"builder (\d+) started", text)]


def _is_builder(pid: int) -> bool:
    try:
        return b"builder_main" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def kill_builder(pid: int) -> None:
    if _is_builder(pid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def stop_builders(cache: Path) -> None:
    """Kill every builder a test started in ``cache`` and wait until the lock is free."""
    state = read_state(cache)
    for pid in {*builders_started(cache), *([state.pid] if state else [])}:
        kill_builder(pid)
    wait_until(lambda: not builder_running(cache), timeout=30, what="the builders stop")
