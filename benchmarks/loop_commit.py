"""The group commit driven by the event loop (`Store.save_many_on_loop`, a server node's
path) against the same call on psycopg's ``AsyncConnection`` (the driver it used before):
the node's CPU per commit (this thread: user and system), one game a batch, on uvloop as
the server runs, over a throwaway local PostgreSQL.

Each commit's CPU is taken with the move made and the arguments built (`none`: that alone)
and the driver's share is the difference. Measured back to back, and with the loop idle
10 ms before each commit, as a node is at low load (``wake_cost.py`` says why that costs
more here). The three paths are taken in turn, ``--passes`` times.

Run from the repository root: ``python benchmarks/loop_commit.py [--games 15] [--passes 4]``.
Needs Debian's postgresql (or ``YAHTZEE_TEST_POSTGRES_URL``) and ``yahtzee[cluster]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

from common import throwaway_database

Save = Callable[[list[Any]], Awaitable[Any]]


async def psycopg_path(url: str) -> Save:
    """The previous driver: psycopg's async connection, as the server kept it, sending the
    call as it did (`pg_commit._CALL`, which the thread's commit still sends)."""
    import psycopg

    from yahtzee.store.pg_commit import _CALL, _outcomes, _parameters
    from yahtzee.store.store import now

    connection = await psycopg.AsyncConnection.connect(url, autocommit=True)

    async def save(commits: list[Any]) -> Any:
        asked = [(c.game_id, c.intent) for c in commits if c.intent is not None]
        cursor = await connection.execute(_CALL, _parameters(commits, asked, now()))
        return _outcomes(commits, asked, await cursor.fetchall())

    return save


async def one_pass(save: Save | None, store: Any, gap: float, games: int) -> float:
    """A game's whole play, each move its own commit: median CPU per commit, in us."""
    from yahtzee.core import Game, RandomDice, Score
    from yahtzee.store import Commit
    from yahtzee.store.pg_commit import _parameters
    from yahtzee.store.store import now

    played = [Game(["Ann", "Bob"], dice=RandomDice(i)) for i in range(games)]
    ids = [store.start(game) for game in played]
    spent = []
    while not all(game.is_over for game in played):
        for game_id, game in zip(ids, played, strict=True):
            if game.is_over:
                continue
            if gap:
                await asyncio.sleep(gap)
            began = time.thread_time()
            base = len(game.event_log)
            actions = list(game.legal_actions())
            boxes = [a for a in actions if isinstance(a, Score)]
            game.play(boxes[0] if boxes and base % 3 == 0 else actions[0])
            commits = [Commit(game_id, game, base, f"0:{base}")]
            if save is None:
                _parameters(commits, [(game_id, f"0:{base}")], now())
            else:
                assert (await save(commits))[game_id].saved
            spent.append(time.thread_time() - began)
    return statistics.median(spent) * 1e6


async def measure(url: str, games: int, passes: int) -> None:
    from yahtzee.store import Store

    with Store(url) as store:
        paths: dict[str, Save | None] = {
            "none": None,
            "psycopg (before)": await psycopg_path(url),
            "asyncpg (now)": store.save_many_on_loop,
        }
        for gap in (0.0, 0.01):
            found: dict[str, list[float]] = {name: [] for name in paths}
            for _ in range(passes):
                for name, save in paths.items():
                    found[name].append(await one_pass(save, store, gap, games))
            alone = statistics.median(found["none"])
            print(f"idle before each commit: {gap * 1e3:.0f} ms (medians of {passes} passes)")
            for name, runs in found.items():
                each = " ".join(f"{r:.0f}" for r in runs)
                driver = statistics.median(runs) - alone
                share = f", the driver {driver:.0f} us" if name != "none" else ""
                print(f"  {name:>17}: {statistics.median(runs):4.0f} us a commit ({each}){share}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=15)
    parser.add_argument("--passes", type=int, default=4)
    args = parser.parse_args()
    import uvloop

    with throwaway_database("bench_loop") as url:
        print(f"the event loop's group commit, one game a batch, {os.cpu_count()} cores, "
              f"{time.strftime('%Y-%m-%d %H:%M')}")  # fmt: skip
        uvloop.run(measure(url, args.games, args.passes))


if __name__ == "__main__":
    main()
