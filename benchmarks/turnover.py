"""Turnover benchmark: a node's CPU per game turnover (game over, review, a new table's
create, start and WebSocket hello), on its event loop's thread and in all its threads.

Run from the repository root: ``python benchmarks/turnover.py [--tables 50] [--rounds 2]
[--cluster] [--src PATH]``. One ``yahtzee serve`` node runs as its own process on a fresh
PostgreSQL database (``--cluster``: with Redis too, as a node of a cluster); this process
is the clients, each table its own client address (X-Forwarded-For, trusted from
127.0.0.1). Each round takes K new solo tables through these phases, each a burst of K at
once and measured alone (the node's CPU from just before the burst until it is quiet
again, 0.5 s after the last answer, less what the idle node uses in that time):

- create: K ``POST /api/tables``; start: K ``POST /api/tables/{id}/start``;
- hello: K WebSockets opened, each saying hello and reading its state;
- (not measured: each table's first 12 turns, and the 13th's roll)
- game over: each table's last score at once, until every client saw the game over;
- review: each client asks for the review (``{"type": "review"}``) and reads it;
- close: the K WebSockets closed (printed, not in the sum).

The event loop runs in the node's main thread (``yahtzee serve`` calls ``uvicorn.run``,
which runs ``asyncio.run`` there): its CPU is /proc/PID/task/PID/schedstat's (ns);
the whole process's is /proc/PID/stat's utime + stime (every thread, ended ones too).
Round 1 is cold (the first burst of each kind after the node started; one table made and
started alone before it, as two first tables at once collide on the new player name),
the later rounds warm.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import websockets
from cpu_share import process_cpu

ROOT = Path(__file__).resolve().parent.parent
SETTLE_S = 0.5  # after a burst's last answer: what the node still does (commits, pushes)
PACE_S = 0.11  # between one table's intents in the warm-up (the node allows 10 a second)
PHASES = ("create", "start", "hello", "game over", "review")


def loop_cpu(pid: int) -> float:
    """The main thread's CPU seconds so far (schedstat: ns on a CPU)."""
    return int(Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()[0]) / 1e9


def threads(pid: int) -> dict[int, float]:
    """Each thread's CPU seconds so far (schedstat), by thread id."""
    found = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError, ValueError):
            found[int(task.name)] = int((task / "schedstat").read_text().split()[0]) / 1e9
    return found


@dataclass
class Table:
    slot: int
    id: str = ""
    token: str = ""
    ws: Any = None
    game: dict[str, Any] | None = None
    seq: int = 0
    count: int = 0

    @property
    def headers(self) -> dict[str, str]:
        slot = self.slot
        return {"X-Forwarded-For": f"10.{slot >> 16 & 255}.{slot >> 8 & 255}.{slot & 255}"}

    async def until(self, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Messages (keeping the game and seq) until one for which ``done`` is true."""
        while True:
            message = json.loads(await self.ws.recv())
            if message.get("type") in ("event", "state") and message.get("game") is not None:
                self.game, self.seq = message["game"], max(self.seq, message["seq"])
            if done(message):
                return message

    async def act(self, intent: dict[str, Any], errors: Counter[str]) -> None:
        """Send an intent and wait for its ack and its own event (again after a refusal)."""
        for _ in range(10):
            self.count += 1
            key = str(self.count)
            await self.ws.send(json.dumps({"v": 1, **intent, "id": key}))
            answer = await self.until(
                lambda m, key=key: m.get("id") == key and m.get("type") in ("ack", "error")
            )
            if answer["type"] == "ack":
                if self.seq < answer["seq"]:
                    await self.until(lambda m, seq=answer["seq"]: self.seq >= seq)
                return
            errors[str(answer.get("code"))] += 1
            await asyncio.sleep(0.5)
        raise RuntimeError(f"table {self.id}: {intent} refused 10 times")


def next_intent(game: dict[str, Any]) -> dict[str, Any]:
    if game["dice"] is None:
        return {"type": "roll"}
    return {"type": "score", "box": game["placements"][0]["box"]}


Measured = tuple[float, float, float, dict[int, float]]
"""Loop-thread CPU s, whole-process CPU s, wall s, and each thread's CPU s."""


class Node:
    """The node's process, and what its idle loop and process use a second."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.idle_loop = self.idle_process = 0.0

    async def idle(self, seconds: float) -> None:
        loop, process, start = loop_cpu(self.pid), process_cpu(self.pid), time.monotonic()
        await asyncio.sleep(seconds)
        elapsed = time.monotonic() - start
        self.idle_loop = (loop_cpu(self.pid) - loop) / elapsed
        self.idle_process = (process_cpu(self.pid) - process) / elapsed

    async def measure(self, work: Callable[[], Awaitable[Any]]) -> Measured:
        """Loop-thread and process CPU seconds of ``work()`` (idle use taken off), its wall
        seconds, and each thread's CPU meanwhile (``work`` is called once the node is
        quiet: a gather made before would start at once)."""
        await asyncio.sleep(SETTLE_S)
        start, loop, process = time.monotonic(), loop_cpu(self.pid), process_cpu(self.pid)
        before = threads(self.pid)
        await work()
        wall = time.monotonic() - start
        await asyncio.sleep(SETTLE_S)
        elapsed = time.monotonic() - start
        after = threads(self.pid)
        used = {tid: cpu - before.get(tid, 0.0) for tid, cpu in after.items()}
        return (
            loop_cpu(self.pid) - loop - self.idle_loop * elapsed,
            process_cpu(self.pid) - process - self.idle_process * elapsed,
            wall,
            used,
        )


async def create(http: httpx.AsyncClient, table: Table) -> None:
    response = await http.post(
        "/api/tables", json={"host": "Bench", "seats": []}, headers=table.headers
    )
    response.raise_for_status()
    made = response.json()
    table.id, table.token = made["table"]["id"], made["token"]


async def start(http: httpx.AsyncClient, table: Table) -> None:
    response = await http.post(
        f"/api/tables/{table.id}/start",
        headers={**table.headers, "Authorization": f"Bearer {table.token}"},
    )
    response.raise_for_status()


async def hello(base: str, table: Table) -> None:
    table.ws = await websockets.connect(
        f"ws://{base}/ws/{table.id}", additional_headers=table.headers, proxy=None,
        compression=None, ping_interval=None, max_size=2**22, open_timeout=60,
    )  # fmt: skip
    await table.ws.send(json.dumps({"v": 1, "type": "hello", "token": table.token}))
    await table.until(lambda m: m.get("type") == "state")


async def warm_up(table: Table, errors: Counter[str]) -> None:
    """The first 12 turns and the 13th's roll: one score from the game's end."""
    for _ in range(12 * 2 + 1):
        assert table.game is not None
        await table.act(next_intent(table.game), errors)
        await asyncio.sleep(PACE_S)
    assert table.game is not None and table.game["dice"] is not None, table.game


async def game_over(table: Table) -> None:
    assert table.game is not None
    table.count += 1
    intent = {"v": 1, **next_intent(table.game), "id": str(table.count)}
    await table.ws.send(json.dumps(intent))
    acked = False

    def done(message: dict[str, Any]) -> bool:
        nonlocal acked
        if message.get("type") == "error":
            raise RuntimeError(f"the last score at {table.id} refused: {message}")
        acked = acked or (message.get("type") == "ack" and message.get("id") == intent["id"])
        return acked and table.game is not None and table.game["phase"] == "over"

    await table.until(done)


async def review(table: Table) -> None:
    table.count += 1
    await table.ws.send(json.dumps({"v": 1, "type": "review", "id": str(table.count)}))

    def done(message: dict[str, Any]) -> bool:
        if message.get("type") == "error":
            raise RuntimeError(f"the review at {table.id} refused: {message}")
        return message.get("type") == "review"

    await table.until(done)


async def burst(
    node: Node, tables: list[Table], step: Callable[[Table], Awaitable[Any]]
) -> Measured:
    """``step`` for every table at once, measured."""
    return await node.measure(lambda: asyncio.gather(*(step(t) for t in tables)))


async def rounds(base: str, node: Node, args: argparse.Namespace) -> list[dict[str, Any]]:
    limits = httpx.Limits(max_connections=args.tables)
    results = []
    async with httpx.AsyncClient(
        base_url=f"http://{base}", limits=limits, timeout=60, trust_env=False
    ) as http:
        primer = Table(1)
        await create(http, primer)
        await start(http, primer)
        await node.idle(3.0)
        for number in range(args.rounds):
            tables = [Table(2 + number * args.tables + i) for i in range(args.tables)]
            errors: Counter[str] = Counter()
            found: dict[str, Measured] = {}

            found["create"] = await burst(node, tables, lambda t: create(http, t))
            found["start"] = await burst(node, tables, lambda t: start(http, t))
            found["hello"] = await burst(node, tables, lambda t: hello(base, t))
            await asyncio.gather(*(warm_up(t, errors) for t in tables))
            found["game over"] = await burst(node, tables, game_over)
            found["review"] = await burst(node, tables, review)
            found["close"] = await burst(node, tables, lambda t: t.ws.close())
            results.append({"phases": found, "errors": errors})
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50, help="K, the tables in each burst")
    parser.add_argument("--rounds", type=int, default=2, help="the first is cold")
    parser.add_argument("--cluster", action="store_true", help="the node joins Redis")
    parser.add_argument(
        "--src",
        type=Path,
        default=ROOT / "src",
        help="the source tree the node runs (its PYTHONPATH), default this repository's src",
    )
    args = parser.parse_args()
    args.src = args.src.resolve()
    if not (args.src / "yahtzee" / "__init__.py").is_file():
        parser.error(f"--src {args.src}: no yahtzee package there")
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # so stop what we started
    sys.path.insert(0, str(ROOT))  # the tests' helpers
    import psycopg
    import uvloop
    from tests import services
    from tests.server_process import ServerProcess
    from tests.store.postgres import local_server

    from cluster import commit_of, start_node

    postgres = local_server()
    if postgres is None or (args.cluster and not services.find_binary("redis-server")):
        raise SystemExit("This benchmark needs Debian's postgresql (and redis-server).")
    cache = tempfile.mkdtemp(prefix="yahtzee-bench-cache-")
    env = {"PYTHONPATH": str(args.src), "YAHTZEE_NO_TABLE_BUILDS": "1", "YAHTZEE_CACHE_DIR": cache}
    with contextlib.ExitStack() as stack:
        stack.callback(shutil.rmtree, cache, ignore_errors=True)
        stack.callback(postgres.stop)
        pg = postgres.start()
        with psycopg.connect(pg, autocommit=True) as connection:
            connection.execute("CREATE DATABASE bench_turnover")
        url = pg.rsplit("/", 1)[0] + "/bench_turnover"
        extra = ["--bot-delay", "0", "--forwarded-allow-ips", "127.0.0.1"]
        if args.cluster:
            redis = stack.enter_context(services.LocalRedis())
            extra += ["--redis-url", redis.url, "--node-id", "node1"]
        server = ServerProcess(url, env=env, extra_args=extra)
        stack.callback(server.stop)
        start_node(server)
        assert server.proc is not None
        node = Node(server.proc.pid)
        base = f"127.0.0.1:{server.port}"
        try:
            results = uvloop.run(rounds(base, node, args))
        except Exception:
            print(f"the node's last words:\n{server.stderr_tail()}", file=sys.stderr)
            raise
        report(args, node, results, commit_of(args.src))


def report(args: argparse.Namespace, node: Node, results: list[dict[str, Any]], commit: str):
    kind = "a cluster node (PostgreSQL + Redis)" if args.cluster else "one node (PostgreSQL)"
    print(f"yahtzee turnover benchmark, {os.cpu_count()} cores, {kind}, {args.src} ({commit}), "
          f"bursts of K={args.tables} tables; idle node: loop thread {node.idle_loop * 1e3:.1f} "
          f"ms/s, process {node.idle_process * 1e3:.1f} ms/s (taken off each burst)")  # fmt: skip
    k = args.tables
    header = "".join(f" | {f'round {i + 1} ' + ('cold' if i == 0 else 'warm'):>24}" for i in
                     range(len(results)))  # fmt: skip
    print(f"\nms of node CPU per table: loop thread (whole process), wall of the burst{header}")
    sums = [[0.0, 0.0] for _ in results]
    for phase in (*PHASES, "close"):
        cells = []
        for i, result in enumerate(results):
            loop, process, wall, _ = result["phases"][phase]
            if phase in PHASES:
                sums[i][0] += loop
                sums[i][1] += process
            cells.append(f"{loop / k * 1e3:6.2f} ({process / k * 1e3:6.2f}), {wall:5.2f} s")
        print(f"  {phase:<28}" + "".join(f" | {c:>24}" for c in cells))
    cells = [f"{loop / k * 1e3:6.2f} ({process / k * 1e3:6.2f})" for loop, process in sums]
    print(f"  {'turnover per game (sum)':<28}" + "".join(f" | {c:>24}" for c in cells))
    print(
        "\nwhere each phase's CPU went (the main thread's share of all threads' schedstat, "
        "the busiest other thread's, threads seen):"
    )
    for i, result in enumerate(results):
        parts = []
        for phase, (_, _, _, used) in result["phases"].items():
            total = sum(used.values()) or float("nan")
            others = sorted((cpu for tid, cpu in used.items() if tid != node.pid), reverse=True)
            parts.append(f"{phase} {used.get(node.pid, 0.0) / total:.0%}/"
                         f"{(others[0] if others else 0.0) / total:.0%}/{len(used)}")  # fmt: skip
        refused = f"; refused in the warm-up: {dict(result['errors'])}" * bool(result["errors"])
        print(f"  round {i + 1}: {', '.join(parts)}{refused}")


if __name__ == "__main__":
    main()
