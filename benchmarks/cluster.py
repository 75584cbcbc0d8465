"""Cluster benchmark: ``yahtzee serve`` as 1 node against 2 nodes behind nginx, sharing one
PostgreSQL and one Redis on this machine; N tables, each a scripted player (as in
benchmarks/server.py) against a bot, every client connecting through nginx.

Run from the repository root: ``python benchmarks/cluster.py [--tables 2000] [--seconds 60]
[--runs a,b,c]``. Runs: ``a`` 1 node, ``b`` 2 nodes, ``c`` 2 nodes with node 2 killed
(SIGKILL) at half time; ``s`` (not by default) is 1 node without Redis. Every node has Redis
but ``s``'s. Each run gets a fresh database and Redis prefix; after it, what every client
saw and was acknowledged is checked against the database. Needs Debian's postgresql,
redis-server and nginx (as the cluster tests do).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from server import make_table

ROOT = Path(__file__).resolve().parent.parent
RUNS = {"s": (1, False, False), "a": (1, True, False), "b": (2, True, False),
        "c": (2, True, True)}  # fmt: skip
"""Run: (nodes, with Redis, node 2 killed at half time)."""
WARMUP = 0.2  # the share of each run left out of the figures
BACKOFF_S = (0.25, 2.0)  # between reconnections
RESEND_S = 10.0  # an intent unanswered this long is sent again (same id)
STUCK_S = 15.0  # a game not over without an event this long at the end of a run is stuck


@dataclass
class Record:
    """What one table's client saw: events by seq, acks by intent id."""

    table: str
    seen: dict[int, dict[str, Any]] = field(default_factory=dict)
    acked: dict[str, int] = field(default_factory=dict)
    refused: list[tuple[str, str, bool]] = field(default_factory=list)  # id, code, resent
    conflicts: int = 0
    gaps: int = 0
    over: bool = False
    last_event: float = 0.0
    watched: bool = False  # in play at the mark
    moved: float | None = None  # first event after the mark
    cut: bool = False  # its connection closed after the mark
    back: float | None = None  # its state again after that


@dataclass
class Run:
    base: str
    tables: int
    think: float
    go: asyncio.Event = field(default_factory=asyncio.Event)
    ready: int = 0
    warm: float = float("inf")
    end: float = float("inf")
    mark: float | None = None
    clients: list[Client] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    n: Counter[str] = field(default_factory=Counter)  # acks, events, reconnects, ...
    closes: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    cpu: float = 0.0


@dataclass
class Pending:
    id: str
    intent: dict[str, Any]
    sent: float
    resent: bool = False
    own: bool = False


class Speaker:
    """An httpx client speaking for one client address: nginx appends to X-Forwarded-For
    and the nodes trust it from 127.0.0.1, so each scripted player is its own client with
    its own limits (benchmarks/server.py lifts them in its server instead)."""

    def __init__(self, http: httpx.AsyncClient, slot: int) -> None:
        self.http, self.address = http, f"10.{slot >> 16 & 255}.{slot >> 8 & 255}.{slot & 255}"

    async def post(self, url: str, **kwargs: Any) -> httpx.Response:
        headers = {**kwargs.pop("headers", {}), "X-Forwarded-For": self.address}
        return await self.http.post(url, headers=headers, **kwargs)


def next_intent(game: dict[str, Any]) -> dict[str, Any]:
    """benchmarks/server.py's player: roll once, then score the first legal box."""
    if game["dice"] is None:
        return {"type": "roll"}
    return {"type": "score", "box": game["placements"][0]["box"]}


class Client:
    """One scripted player at one table; reconnects (through nginx) whenever its socket
    closes, says hello again and sends a pending intent again with the same id."""

    def __init__(self, run: Run, record: Record, token: str, address: str, seed: int) -> None:
        self.run, self.record, self.token, self.address = run, record, token, address
        self.rng = random.Random(seed)
        self.game: dict[str, Any] | None = None
        self.seq = 0
        self.pending: Pending | None = None
        self.count = self.sessions = 0
        self.resync = self.online = False
        self.act_at = 0.0

    def mine(self) -> bool:
        return self.game is not None and self.game["current"] == 0

    async def play(self) -> None:
        run, backoff = self.run, BACKOFF_S[0]
        url = f"ws://{run.base}/ws/{self.record.table}"
        while not self.record.over and time.monotonic() < run.end:
            try:
                async with websockets.connect(
                    url, additional_headers={"X-Forwarded-For": self.address}, proxy=None,
                    compression=None, ping_interval=None, max_size=2**20, open_timeout=30,
                ) as ws:  # fmt: skip
                    await self.session(ws)
                    backoff = BACKOFF_S[0]
            except websockets.ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd is not None else 1006
                run.closes[str(code)] += 1
                if code in (1000, 4401, 4403, 4409, 4429):
                    run.n["failed"] += 1
                    return
            except (OSError, TimeoutError, websockets.WebSocketException) as error:
                response = getattr(error, "response", None)
                what = f"HTTP {response.status_code}" if response is not None else None
                run.closes[what or type(error).__name__] += 1
            else:
                continue
            self.online = False
            if run.mark is not None and time.monotonic() >= run.mark and not self.record.cut:
                self.record.cut, self.record.moved = True, None  # what the dead node sent
            await asyncio.sleep(backoff)
            backoff = min(2 * backoff, BACKOFF_S[1])

    async def session(self, ws: Any) -> None:
        run = self.run
        await ws.send(json.dumps({"v": 1, "type": "hello", "token": self.token}))
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "state":
                break
        self.game, self.seq = message["game"], message["seq"]
        self.act_at = time.monotonic()
        self.sessions, self.online = self.sessions + 1, True
        if self.sessions > 1:
            run.n["reconnects"] += 1
            if self.record.cut and self.record.back is None:
                self.record.back = time.monotonic() - (run.mark or 0.0)
            if self.pending is not None:
                self.pending.resent = True
                await ws.send(json.dumps(self.pending.intent))
        else:
            self.record.last_event = self.act_at  # stuck counts from here
            run.ready += 1
            if run.ready >= run.tables:
                run.go.set()
            await run.go.wait()
        while True:
            now = time.monotonic()
            if self.game is None or self.game["phase"] == "over":
                self.record.over = True
                return
            if now >= run.end:
                return
            if self.pending is None and self.mine() and now >= self.act_at:
                self.count += 1
                intent = {"v": 1, **next_intent(self.game), "id": str(self.count)}
                self.pending = Pending(str(self.count), intent, now)
                await ws.send(json.dumps(intent))
                continue
            if self.pending is not None:
                wake = self.pending.sent + RESEND_S
            else:
                wake = self.act_at if self.mine() else run.end
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.0, min(wake, run.end) - now))
            except TimeoutError:
                if self.pending is not None and time.monotonic() >= wake:
                    run.n["resends"] += 1
                    self.pending.sent, self.pending.resent = time.monotonic(), True
                    await ws.send(json.dumps(self.pending.intent))
                continue
            self.receive(json.loads(raw), time.monotonic())
            if self.resync:
                self.resync = False
                await ws.send(json.dumps({"v": 1, "type": "resync"}))

    def receive(self, message: dict[str, Any], now: float) -> None:
        run, record, pending = self.run, self.record, self.pending
        kind = message.get("type")
        if kind == "event":
            seq, event = message["seq"], message["event"]
            if record.seen.setdefault(seq, event) != event:
                record.conflicts += 1
            if seq <= self.seq:
                return
            record.gaps += seq > self.seq + 1
            was_mine = self.mine()
            run.n["events"] += run.warm <= now <= run.end
            self.seq, self.game, record.last_event = seq, message["game"], now
            if run.mark is not None and record.moved is None and now >= run.mark:
                record.moved = now
            if pending is not None and not pending.own and event.get("player") == 0:
                pending.own = True
                if not pending.resent and pending.sent >= run.warm:
                    run.latencies.append(now - pending.sent)
            if pending is None and self.mine() and not was_mine:
                self.act_at = now + self.rng.random() * run.think
        elif kind == "ack" and pending is not None and message.get("id") == pending.id:
            record.acked[pending.id] = message["seq"]
            run.n["acks"] += run.warm <= now <= run.end
            self.pending = None
            self.act_at = now + self.rng.random() * run.think
        elif kind == "error":
            run.errors[str(message.get("code"))] += 1
            if pending is not None and message.get("id") == pending.id:
                record.refused.append((pending.id, str(message.get("code")), pending.resent))
                self.pending, self.resync = None, True  # refused: what is the game now?
        elif kind == "state":
            self.game, self.seq = message["game"], message["seq"]
            self.act_at = now + self.rng.random() * run.think


async def player(run: Run, http: httpx.AsyncClient, slot: int, made: tuple[str, str]) -> None:
    """Play the table; while the run lasts, each next game at a new table."""
    speaker = Speaker(http, slot)
    while True:
        client = Client(run, Record(made[0]), made[1], speaker.address, slot)
        run.clients.append(client)
        await client.play()
        while time.monotonic() < run.end:
            try:
                made = await make_table(speaker)
                break
            except httpx.HTTPError as error:
                run.errors[f"new table: {type(error).__name__}"] += 1
                await asyncio.sleep(BACKOFF_S[1])
        else:
            return


async def drive(base: str, args: argparse.Namespace, kill: Any) -> Run:
    """All tables made, all clients connected: then the clock starts. ``kill`` (or None) is
    called at half time."""
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(
        base_url=f"http://{base}", limits=limits, timeout=60, trust_env=False
    ) as http:
        # One first, alone: two games starting at once both add a new player's name (Bench,
        # the bot's) to PostgreSQL, and one of them fails (500) on the unique name.
        made = [await make_table(Speaker(http, 1))]
        made += await asyncio.gather(
            *(make_table(Speaker(http, i + 1)) for i in range(1, args.tables))
        )
        run = Run(base, args.tables, args.think)
        tasks = [asyncio.create_task(player(run, http, i + 1, m)) for i, m in enumerate(made)]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(run.go.wait(), 120)
        now = time.monotonic()
        run.warm = now + WARMUP * args.seconds
        run.end = now + args.seconds
        run.go.set()
        cpu = time.process_time()
        await asyncio.sleep(args.seconds / 2)
        for client in run.clients:
            client.record.watched = client.game is not None and not client.record.over
        run.mark = time.monotonic()
        if kill is not None:
            kill()
        await asyncio.sleep(max(0.0, run.end - time.monotonic()))
        run.cpu = (time.process_time() - cpu) / args.seconds
        await asyncio.wait(tasks, timeout=30)
        for task in tasks:
            if not task.done():
                task.cancel()
            elif task.exception() is not None:
                run.errors[f"client {type(task.exception()).__name__}"] += 1
    return run


def check(url: str, records: list[Record]) -> tuple[int, int, Counter[str], Counter[str]]:
    """Games, events, problems (every event a client saw is the one recorded at its seq,
    every acked intent is recorded once at or before its ack's seq, no seq was seen with
    two events, each log replays) and refusals of intents the records hold."""
    from sqlalchemy import select

    from yahtzee.core import Game
    from yahtzee.store import Store
    from yahtzee.store import tables as table_records
    from yahtzee.store.schema import events

    problems: Counter[str] = Counter()
    odd: Counter[str] = Counter()
    games = count = 0
    with Store(url) as store:
        with store.engine.connect() as connection:
            query = select(events.c.game_id, events.c.intent, events.c.seq)
            marks = {(g, i): s for g, i, s in connection.execute(query) if i is not None}
        for record in records:
            problems["seq seen with two events"] += record.conflicts
            row = table_records.load_table(store, record.table)
            if row is None or not row.game_id:
                problems["table or game missing"] += bool(record.seen or record.acked)
                continue
            log = store.event_log(row.game_id)
            games, count = games + 1, count + len(log)
            try:
                Game.replay(log)
            except Exception:
                problems["log does not replay"] += 1
            for seq, event in record.seen.items():
                problems["seen event not recorded"] += seq > len(log) or log[seq - 1] != event
            for intent, seq in record.acked.items():
                problems["acked seq not recorded"] += seq > len(log)
                mark = marks.get((row.game_id, f"0:{intent}"))
                problems["acked intent not recorded"] += mark is None or mark > seq
            for intent, code, resent in record.refused:  # should have been acked again
                if (row.game_id, f"0:{intent}") in marks:
                    odd[f"{code} to a recorded intent{' resent' * resent}"] += 1
    return games, count, +problems, odd


def start_node(node: Any) -> None:
    """Start a node and wait until its solver is warm (then the next one may start)."""
    node.start()
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        health = httpx.get(f"{node.base}/api/health", timeout=5, trust_env=False).json()
        if health.get("solver") == "ready":
            return
        time.sleep(0.5)
    raise RuntimeError(f"the node on port {node.port} did not warm up within 300 s")


def one_run(kind: str, args: argparse.Namespace, pg: str, redis: str) -> tuple:
    """One run on a fresh database and Redis prefix: the run, its loss check, and the
    warning lines each node wrote."""
    import psycopg
    from tests.server_process import ServerProcess, free_port
    from tests.services import LocalNginx

    count, clustered, killing = RUNS[kind]
    database = f"bench_{kind}_{os.getpid()}"
    with psycopg.connect(pg, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {database}")
    url = pg.rsplit("/", 1)[0] + f"/{database}"
    port = free_port()
    # 127.0.0.1 (port 80) too: an nginx that passes Host as $host drops the port
    extra = ["--bot-delay", str(args.bot_delay), "--forwarded-allow-ips", "127.0.0.1",
             "--allowed-host", f"127.0.0.1:{port}", "--allowed-host", "127.0.0.1:80"]  # fmt: skip
    # Without --meter the nodes find no win-chance tables (an empty solver cache; the
    # official table ships with the package) and build none: the figures are the server's,
    # not those of loading 800 MB of tables into each node during the run.
    meter_env = (
        {}
        if args.meter
        else {
            "YAHTZEE_NO_TABLE_BUILDS": "1",
            "YAHTZEE_CACHE_DIR": tempfile.mkdtemp(prefix="yahtzee-bench-cache-"),
        }
    )
    nodes: list[Any] = []
    nginx = None
    logs: dict[str, list[str]] = {}
    try:
        for i in range(count):
            cluster = ["--redis-url", redis, "--node-id", f"node{i + 1}",
                       "--redis-prefix", f"yz-bench-{kind}-{os.getpid()}:"]  # fmt: skip
            nodes.append(ServerProcess(url, env=meter_env, extra_args=extra + cluster * clustered))
            start_node(nodes[-1])
        nginx = LocalNginx([n.port for n in nodes], port=port)
        nginx.start()
        run = asyncio.run(drive(f"127.0.0.1:{port}", args, nodes[1].kill if killing else None))
    except BaseException:
        for node in nodes:
            print(f"node on port {node.port} wrote:\n{node.stderr_tail()}", file=sys.stderr)
        raise
    finally:
        if nginx is not None:
            nginx.stop()
        for i, node in enumerate(nodes):
            if node.proc is not None and node.proc.poll() is None:
                node.proc.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    node.proc.wait(timeout=15)
            text = node.stderr_tail(size=1 << 30).splitlines()
            logs[f"node{i + 1}"] = [line for line in text if "WARN" in line or "ERROR" in line]
            node.stop()
        if "YAHTZEE_CACHE_DIR" in meter_env:
            shutil.rmtree(meter_env["YAHTZEE_CACHE_DIR"], ignore_errors=True)
    return run, check(url, [c.record for c in run.clients]), logs


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else float("nan")


def report(kind: str, run: Run, args: argparse.Namespace, checked: tuple) -> tuple[str, str]:
    """The lines printed for one run, and its README row."""
    nodes, _, killed = RUNS[kind]
    what = f"{nodes} node{'s' * (nodes > 1)}" + ", node 2 killed" * killed
    what += " without Redis" * (kind == "s")
    window = args.seconds * (1 - WARMUP)
    rate, events = run.n["acks"] / window, run.n["events"] / window
    p50, p99 = percentile(run.latencies, 0.5) * 1e3, percentile(run.latencies, 0.99) * 1e3
    records = [c.record for c in run.clients]
    watched = [r for r in records if r.watched]
    gaps = [(r.moved or float("inf")) - (run.mark or 0.0) for r in watched]
    cut = [g for g, r in zip(gaps, watched, strict=True) if r.cut]
    back = [r.back for r in watched if r.back is not None]
    never = sum(g == float("inf") for g in gaps)
    moved = f"{max(gaps, default=float('nan')):.1f} s / {percentile(gaps, 0.99):.1f} s"
    moved += f" ({never} of {len(gaps)} not within {args.seconds / 2:g} s)" * (never > 0)
    games, count, problems, odd = checked
    late = [c for c in run.clients if not c.record.over and run.end - c.record.last_event > STUCK_S]
    counts = ", ".join(f"{k} {run.n[k]}" for k in ("reconnects", "resends", "failed"))
    counts += f", seq gaps {sum(r.gaps for r in records)}, stuck {len(late)} (reconnecting "
    counts += f"{sum(not c.online for c in late)}, awaiting an ack "
    counts += f"{sum(c.online and c.pending is not None for c in late)}, on the bot's turn "
    counts += f"{sum(c.online and not c.mine() for c in late)})"
    line = (
        f"  {kind} ({what}): {rate:5.0f} actions/s ({events:.0f} events/s), intent to own "
        f"event p50 {p50:.1f} ms, p99 {p99:.1f} ms ({len(run.latencies)} intents)\n"
        f"     from half time every table moved again within (max / p99) {moved}, p50 "
        f"{percentile(gaps, 0.5):.1f} s; "
        f"the {len(cut)} cut off within {max(cut, default=float('nan')):.1f} s, their state "
        f"again within {max(back, default=float('nan')):.1f} s\n"
        f"     loss check: {games} games, {count} events, {dict(problems) or 'nothing lost'}"
        f"{'; refused: ' + str(dict(odd)) if odd else ''}\n"
        f"     client CPU {run.cpu:.0%}, {counts}; closes {dict(run.closes)}, errors "
        f"{dict(run.errors)}"
    )
    row = (f"| {what} | {args.tables} | {rate:.0f} | {p50:.1f} ms | {p99:.1f} ms | "
           f"{moved if killed else ''} | {sum(problems.values())} |")  # fmt: skip
    return line, row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=60.0, help="duration of each run")
    parser.add_argument("--runs", default="a,b,c", help="some of s, a, b, c (comma-separated)")
    parser.add_argument("--think", type=float, default=3.0, help="max seconds before an intent")
    parser.add_argument("--bot-delay", type=float, default=0.3)
    parser.add_argument(
        "--meter",
        action="store_true",
        help="serve the win-chance meter from the cached tables (each node loads 800 MB)",
    )
    args = parser.parse_args()
    kinds = [k.strip() for k in args.runs.split(",") if k.strip()]
    if not kinds or any(k not in RUNS for k in kinds):
        parser.error(f"--runs takes some of {', '.join(RUNS)}")
    signal.signal(signal.SIGINT, signal.default_int_handler)  # also when started with &
    signal.signal(signal.SIGTERM, signal.getsignal(signal.SIGINT))  # so stop what we started
    sys.path.insert(0, str(ROOT))  # the cluster tests' helpers
    from tests import services
    from tests.store.postgres import local_server

    postgres = local_server()
    if postgres is None or not all(map(services.find_binary, ("redis-server", "nginx"))):
        raise SystemExit("This benchmark needs Debian's postgresql, redis-server and nginx.")
    print(f"yahtzee cluster benchmark, {os.cpu_count()} cores, PostgreSQL + Redis, nginx "
          f"(1 worker), N={args.tables} tables, {args.seconds:g} s a run")  # fmt: skip
    rows = []
    with contextlib.ExitStack() as stack:
        stack.callback(postgres.stop)
        pg = postgres.start()
        redis = stack.enter_context(services.LocalRedis())
        for kind in kinds:
            run, checked, logs = one_run(kind, args, pg, redis.url)
            line, row = report(kind, run, args, checked)
            rows.append(row)
            print(line, flush=True)
            for node, lines in logs.items():
                if lines:
                    print(f"     {node}: {len(lines)} warning lines, the first: {lines[0][:300]}")
    print("\nFor the README:\n| nodes | tables (N) | actions per second (acked intents) | "
          "intent to own event, p50 | p99 | after the kill, every table moving: max / p99 "
          "| lost |\n|---|---|---|---|---|---|---|")  # fmt: skip
    print("\n".join(rows))


if __name__ == "__main__":
    main()
