"""Startup benchmark: what a new user waits for, cold (empty caches) and warm.

Run: ``python benchmarks/startup.py`` (``--no-peer`` skips the comparison).

Every figure is the wall time of a fresh process, as a user starts it:

* ``yahtzee score 1 3 3 5 6``;
* ``yahtzee advise 13356 2`` cold (new empty ``NUMBA_CACHE_DIR``, ``YAHTZEE_CACHE_DIR``,
  ``XDG_CACHE_HOME`` and ``XDG_DATA_HOME``) and warm (the same folders again);
* the terminal game's first screen (``yahtzee`` in a pseudo-terminal, until the new-game
  screen is drawn), cold and warm;
* ``yahtzee serve``: from the start of the process to the first answer of
  ``/api/health``, cold and warm, and until the solver is ready (compiled kernels too);
* the peer: ``yatzy-solver`` 1.0.0 from PyPI, in a throwaway environment, from a fresh
  process to its first ``option_values`` answer (it builds its table first), measured in
  the same run.
"""

from __future__ import annotations

import argparse
import os
import pty
import select
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import PEER_FIRST_ANSWER, cold_env, peer_python, timed

YAHTZEE = str(Path(sys.executable).with_name("yahtzee"))


def first_screen(env: dict[str, str], marker: bytes = b"New game", limit: float = 120) -> float:
    """Seconds from starting ``yahtzee`` in a pseudo-terminal to its first screen."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the game, on a 100x32 terminal
        os.environ.update({**env, "TERM": "xterm-256color", "COLUMNS": "100", "LINES": "32"})
        os.execv(YAHTZEE, [YAHTZEE])
    start = time.perf_counter()
    seen = b""
    try:
        while time.perf_counter() - start < limit:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    seen += os.read(fd, 65536)
                except OSError:
                    break
                if marker in seen:
                    return time.perf_counter() - start
        raise SystemExit("the terminal game drew no first screen")
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        os.close(fd)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(env: dict[str, str], limit: float = 600) -> tuple[float, float]:
    """Seconds until ``yahtzee serve`` answers ``/api/health``, and until it says its
    solver is ready."""
    import httpx

    port = free_port()
    db = f"sqlite:///{tempfile.mkdtemp()}/serve.db"
    start = time.perf_counter()
    process = subprocess.Popen(
        [YAHTZEE, "serve", "--port", str(port), "--database-url", db],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    first = None
    try:
        while time.perf_counter() - start < limit:
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).json()
            except httpx.HTTPError:
                time.sleep(0.01)
                continue
            first = first or time.perf_counter() - start
            if health.get("solver") == "ready":
                return first, time.perf_counter() - start
            time.sleep(0.05)
        raise SystemExit("the server did not get ready")
    finally:
        process.terminate()
        process.wait(timeout=30)


def median_of(runs: int, measure: object) -> float:
    return statistics.median(measure() for _ in range(runs))  # type: ignore[operator]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per figure (median)")
    parser.add_argument("--no-peer", action="store_true")
    args = parser.parse_args()
    rows: list[tuple[str, float]] = []

    def cold_and_warm(label: str, measure: object) -> None:
        colds, warms = [], []
        for _ in range(args.runs):
            env = cold_env()
            colds.append(measure(env))  # type: ignore[operator]
            warms.append(measure(env))  # type: ignore[operator]
            shutil.rmtree(Path(env["NUMBA_CACHE_DIR"]).parent, ignore_errors=True)
        rows.append((f"{label}, cold", statistics.median(colds)))
        rows.append((f"{label}, warm", statistics.median(warms)))

    cold_and_warm("yahtzee score 1 3 3 5 6", lambda e: timed([YAHTZEE, "score", "13356"], e))
    cold_and_warm("yahtzee advise 13356 2", lambda e: timed([YAHTZEE, "advise", "13356", "2"], e))
    cold_and_warm("terminal game: first screen", first_screen)
    serves = [serve(cold_env()) for _ in range(max(1, args.runs // 2))]
    rows.append(("yahtzee serve: first answer, cold", statistics.median(s[0] for s in serves)))
    rows.append(("yahtzee serve: solver ready, cold", statistics.median(s[1] for s in serves)))
    peer = None
    if not args.no_peer and (python := peer_python("yatzy-solver")) is not None:
        peer = median_of(
            args.runs, lambda: timed([python, "-c", PEER_FIRST_ANSWER], dict(os.environ))
        )
        rows.append(("yatzy-solver 1.0.0: first answer (fresh process)", peer))
    width = max(len(label) for label, _ in rows)
    for label, seconds in rows:
        print(f"{label:<{width}}  {seconds:7.2f} s")
    if peer is not None:
        ours = dict(rows)["yahtzee advise 13356 2, cold"]
        print(f"cold advise vs the peer's first answer: {peer / ours:.1f}x faster")


if __name__ == "__main__":
    main()
