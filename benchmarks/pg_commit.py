"""The group commit on PostgreSQL, one game a batch (the common case under load): the CPU
a node spends per commit (this process's thread) and the database server's backend, and
the wall time, over a throwaway local PostgreSQL (fsync off, as in benchmarks/cluster.py).

Run from the repository root: ``python benchmarks/pg_commit.py [--games 60] [--rounds 12]``.
Needs Debian's postgresql (or ``YAHTZEE_TEST_POSTGRES_URL``) and ``yahtzee[cluster]``.
"""

from __future__ import annotations

import argparse
import os
import time

from common import throwaway_database
from cpu_share import process_cpu


def measure(url: str, games: int, rounds: int) -> list[tuple[int, float, float, float]]:
    """Three passes of ``rounds`` moves in each of ``games`` games, each move its own
    commit: (commits, node us, backend us, wall us) a commit, per pass."""
    from yahtzee.core import Game, RandomDice, Score
    from yahtzee.store import SAVED, Commit, Store

    passes = []
    with Store(url) as store:
        played = [Game(["Ann", "Bob"], dice=RandomDice(i)) for i in range(games)]
        ids = [store.start(game) for game in played]
        store.save_many([Commit(ids[0], played[0], len(played[0].event_log))])
        direct = store._direct  # the kept connection: its backend is the server's side
        assert direct is not None, "not PostgreSQL"
        backend = direct._connection.driver_connection.info.backend_pid
        for _ in range(3):
            node, server, wall, count = time.thread_time(), process_cpu(backend), 0.0, 0
            wall = time.perf_counter()
            for _ in range(rounds):
                for game_id, game in zip(ids, played, strict=True):
                    if game.is_over:
                        continue
                    base = len(game.event_log)
                    actions = list(game.legal_actions())
                    boxes = [a for a in actions if isinstance(a, Score)]
                    game.play(boxes[0] if boxes and base % 3 == 0 else actions[0])
                    outcome = store.save_many([Commit(game_id, game, base, f"0:{base}")])
                    assert outcome[game_id].kind == SAVED, outcome
                    count += 1
            passes.append((
                count, 1e6 * (time.thread_time() - node) / count,
                1e6 * (process_cpu(backend) - server) / count,
                1e6 * (time.perf_counter() - wall) / count,
            ))  # fmt: skip
    return passes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=12, help="moves per game a pass")
    args = parser.parse_args()
    with throwaway_database("bench_commit") as url:
        print(f"group commit on PostgreSQL, one game a batch, {os.cpu_count()} cores")
        for count, node, backend, wall in measure(url, args.games, args.rounds):
            print(f"  {count} commits: node {node:.0f} us, PostgreSQL backend {backend:.0f} us, "
                  f"wall {wall:.0f} us a commit")  # fmt: skip


if __name__ == "__main__":
    main()
