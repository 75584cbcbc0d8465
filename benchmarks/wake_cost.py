"""What this machine charges for waking up: the CPU one slice of a server node's work per
event costs when slices run back to back, and when each follows the node lying idle as
long as it does between events at a given load.

The slice is the node's own code: one move applied to a two-player game, the state view
and the event message made of it (`GameView`, `EventMessage.texts`), the group commit's
parameters (`pg_commit._parameters`), and the message sent over a loopback TCP connection
to a reader in another process (as a node sends to nginx). Its CPU (this thread's, user
and system) is taken apart into the Python part and the send. A node at 13 acknowledged
actions a second handles about 38 events a second (one every 26 ms); at 98 actions, 286
(one every 3.5 ms); at saturation they come back to back. On a machine where waking up
is free, every column reads the same.

Run from the repository root: ``python benchmarks/wake_cost.py [--slices 300] [--src PATH]``
(``--src``: the source tree whose code the slice runs; default this repository's).
"""

from __future__ import annotations

import argparse
import os
import platform
import select
import socket
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

GAPS_MS = (0.0, 1.0, 3.5, 10.0, 26.0, 75.0)
"""Idle time before each slice: back to back, then the mean gap between events of a node
at about 1,000, 286, 100, 38 and 13 events a second."""


def reader() -> tuple[socket.socket, int]:
    """A loopback connection whose other end a child process reads (and drops)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    pid = os.fork()
    if pid == 0:  # the reader: waits in select, as nginx waits in epoll
        peer, _ = server.accept()
        while True:
            select.select([peer], [], [])
            if not peer.recv(1 << 16):
                os._exit(0)
    sender = socket.create_connection(server.getsockname())
    sender.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    server.close()
    return sender, pid


def fresh_game(seed: int) -> Any:
    from yahtzee.core import Game, RandomDice

    return Game(["Ann", "Bob"], dice=RandomDice(seed))


def one_slice(game: Any, sender: socket.socket) -> tuple[float, float]:
    """One event's work: (Python part, send), in seconds of this thread's CPU."""
    from yahtzee.core import Score
    from yahtzee.service.tray import tray_of
    from yahtzee.store import Commit
    from yahtzee.store.pg_commit import _parameters
    from yahtzee.web.messages import EventMessage
    from yahtzee.web.models import GameView

    began = time.thread_time()
    base = len(game.event_log)
    actions = list(game.legal_actions())
    boxes = [a for a in actions if isinstance(a, Score)]
    game.play(boxes[0] if boxes and base % 3 == 0 else actions[0])
    events = tuple(game.event_log[base:])
    view = GameView.of(game, tray_of(game))
    texts = EventMessage.texts(base + 1, events, view, None)
    commit = Commit("g1", game, base, f"0:{base}")
    _parameters([commit], [("g1", f"0:{base}")], datetime.now(UTC))
    data = "".join(texts).encode()
    made = time.thread_time()
    sender.sendall(data)
    return made - began, time.thread_time() - made


def measure(slices: int) -> dict[float, list[tuple[float, float]]]:
    """``slices`` slices at each gap, the gaps taken in turn (so that a slower minute of a
    shared machine falls on every column alike)."""
    sender, pid = reader()
    found: dict[float, list[tuple[float, float]]] = {gap: [] for gap in GAPS_MS}
    games = [fresh_game(seed) for seed in range(len(GAPS_MS))]
    try:
        warm = fresh_game(999)
        for _ in range(20):  # imports, caches, the connection
            one_slice(warm if not warm.is_over else fresh_game(998), sender)
        for _ in range(max(1, slices // 10)):
            for i, gap in enumerate(GAPS_MS):
                for _ in range(10):
                    if games[i].is_over:
                        games[i] = fresh_game(len(found[gap]) + 100 * i)
                    if gap:
                        time.sleep(gap / 1e3)
                    found[gap].append(one_slice(games[i], sender))
    finally:
        sender.close()
        os.waitpid(pid, 0)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slices", type=int, default=300, help="slices at each gap")
    parser.add_argument("--src", type=Path, default=ROOT / "src", help="the source tree")
    args = parser.parse_args()
    sys.path.insert(0, str(args.src.resolve()))
    found = measure(args.slices)
    hot = statistics.median(p + s for p, s in found[0.0])
    print(f"one event's work on this node's code, {os.cpu_count()} cores, "
          f"{platform.python_implementation()} {platform.python_version()}, "
          f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC; medians of {args.slices} slices")  # fmt: skip
    print(f"{'idle before':>12} {'python':>9} {'send':>9} {'slice':>9} {'x hot':>6}")
    for gap, runs in found.items():
        python = statistics.median(p for p, _ in runs) * 1e6
        send = statistics.median(s for _, s in runs) * 1e6
        whole = statistics.median(p + s for p, s in runs)
        print(f"{gap:>9.1f} ms {python:>6.0f} us {send:>6.0f} us {whole * 1e6:>6.0f} us "
              f"{whole / hot:>6.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
