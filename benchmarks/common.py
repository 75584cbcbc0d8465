"""Helpers the benchmark scripts share: fresh interpreters and throwaway peer installs."""

from __future__ import annotations

import atexit
import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path


def run_python(code: str, env: dict[str, str] | None = None, python: str = sys.executable) -> dict:
    """Run ``code`` in a fresh interpreter; it prints one JSON object last."""
    result = subprocess.run(
        [python, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        check=False,
    )
    if result.returncode != 0:
        raise SystemExit(f"benchmark step failed:\n{result.stderr}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def peer_python(package: str) -> str | None:
    """A throwaway virtual environment with ``package`` installed from PyPI: its
    interpreter, or ``None`` (with the reason printed) when the install fails."""
    venv = Path(tempfile.mkdtemp(prefix=f"{package}-")) / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    install = subprocess.run(
        [python, "-m", "pip", "install", "-q", package],
        capture_output=True,
        text=True,
        check=False,
    )
    if install.returncode != 0:
        print(f"({package} did not install: {install.stderr.strip()[-200:]})")
        return None
    return python


PEER_FIRST_ANSWER = """
import time
t = time.perf_counter()
import yatzy_solver as ys
solver = ys.Solver.build(ys.Variant("american+forced-joker"))
log = solver.simulate(1, seed=1, logs=True)["logs"][0]
first = next(line for line in log if " => " in line).split(" => ")[0]
solver.option_values(first)  # its first advice
"""


def cold_env() -> dict[str, str]:
    """Empty caches and data folders, as on a fresh install."""
    root = Path(tempfile.mkdtemp(prefix="yahtzee-cold-"))
    env = {**os.environ}
    for name in ("NUMBA_CACHE_DIR", "YAHTZEE_CACHE_DIR", "XDG_CACHE_HOME", "XDG_DATA_HOME"):
        env[name] = str(root / name.lower())
    env["YAHTZEE_DATA_DIR"] = str(root / "data")
    env.pop("YAHTZEE_DATABASE_URL", None)
    return env


def timed(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, env=env, capture_output=True, check=True)
    return time.perf_counter() - start


@functools.cache
def numba_cache() -> str:
    """The nodes' numba cache: this benchmark's, empty at first (the first node compiles
    the turn kernels while it warms up; the next ones load them); removed at exit."""
    path = tempfile.mkdtemp(prefix="yahtzee-bench-numba-")
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path
