"""The cluster benchmark's load generator (see benchmarks/cluster.py): N scripted players,
each at its own table against a bot, connecting through nginx as clients of their own
address; what each saw and was acknowledged is kept for the loss check."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets
from pydantic_core import from_json  # (twice as fast as json.loads here)
from server import make_table

WARMUP = 0.2  # the share of each run left out of the figures
BACKOFF_S = (0.25, 2.0)  # between reconnections
RESEND_S = 10.0  # an intent unanswered this long is sent again (same id)


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
    stagger: float  # each first game starts within this many seconds of the go
    go: asyncio.Event = field(default_factory=asyncio.Event)
    ready: int = 0
    warm: float = float("inf")
    end: float = float("inf")
    mark: float | None = None
    clients: list[Client] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    stamps: list[float] = field(default_factory=list)  # when each of those was sent
    n: Counter[str] = field(default_factory=Counter)  # acks, events, reconnects, ...
    closes: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    cpu: Counter[str] = field(default_factory=Counter)  # cores used, by part
    busy: str = ""  # each core's busy share (cpu_share.describe_busy)
    wakeups: Counter[str] = field(default_factory=Counter)  # by node (cpu_share.wakeups)
    loop_cpu: Counter[str] = field(default_factory=Counter)  # seconds (cpu_share.loop_cpu)
    allowed: dict[str, str] = field(default_factory=dict)  # the cores each part may use
    measured: float = 0.0  # seconds between the two CPU samples
    ended: list[float] = field(default_factory=list)  # when a client saw its game over
    opened: list[float] = field(default_factory=list)  # when a next table was made
    gc_pauses: list[tuple[int, float]] = field(default_factory=list)  # (generation, ms)
    # (both: seconds after the measured window began, as ``stamps``)


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
        record.last_event = time.monotonic()  # (a table opened in the last seconds of a
        # run, whose client never connected before the end, is not stuck)

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
        if self.game is None:  # counted: the client takes it for over and opens a new table
            run.errors["state without a game"] += 1
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
            first_wave = not run.go.is_set()
            run.ready += 1
            if run.ready >= run.tables:
                run.go.set()
            await run.go.wait()
            # the first tables' first moves spread out: games then end (and new ones start)
            # all the time, as on a site, not all within the same few seconds; a table
            # opened later starts as its player would, after a moment's thought
            spread = run.stagger if first_wave else run.think
            self.act_at = time.monotonic() + self.rng.random() * spread
            self.record.last_event = self.act_at
        loop = asyncio.get_running_loop()
        while True:
            now = time.monotonic()
            if self.game is None or self.game["phase"] == "over":
                self.record.over = True
                return
            if now >= run.end:
                return
            if self.pending is None and self.mine():
                if now < self.act_at:  # thinking, with an ear on the socket (as a page
                    # does: a closed connection is seen at once, not when the move is sent)
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout_at(
                            loop.time() + min(self.act_at, run.end) - now
                        ):
                            while True:
                                self.receive(from_json(await ws.recv()), time.monotonic())
                    continue
                self.count += 1
                intent = {"v": 1, **next_intent(self.game), "id": str(self.count)}
                self.pending = Pending(str(self.count), intent, now)
                await ws.send(json.dumps(intent))
                continue
            wake = self.pending.sent + RESEND_S if self.pending is not None else run.end
            try:  # one deadline for all the messages until it is this player's move again
                async with asyncio.timeout_at(loop.time() + min(wake, run.end) - now):
                    await self.listen(ws)
            except TimeoutError:
                if self.pending is not None and time.monotonic() >= wake:
                    run.n["resends"] += 1
                    self.pending.sent, self.pending.resent = time.monotonic(), True
                    await ws.send(json.dumps(self.pending.intent))

    async def listen(self, ws: Any) -> None:
        """Messages until the player is to act or the game is over."""
        while True:
            self.receive(from_json(await ws.recv()), time.monotonic())
            if self.resync:
                self.resync = False
                await ws.send(json.dumps({"v": 1, "type": "resync"}))
            game = self.game
            if game is None or game["phase"] == "over" or (self.pending is None and self.mine()):
                return

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
            if self.game is not None and self.game["phase"] == "over" and not record.over:
                record.over = True
                run.ended.append(now - run.warm)
            if run.mark is not None and record.moved is None and now >= run.mark:
                record.moved = now
            if pending is not None and not pending.own and event.get("player") == 0:
                pending.own = True
                if not pending.resent and pending.sent >= run.warm:
                    run.latencies.append(now - pending.sent)
                    run.stamps.append(pending.sent - run.warm)
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
                run.opened.append(time.monotonic() - run.warm)
                break
            except httpx.HTTPError as error:
                run.errors[f"new table: {_why(error)}"] += 1
                await asyncio.sleep(BACKOFF_S[1])
        else:
            return


def _why(error: httpx.HTTPError) -> str:
    """A failed new table as the errors count it: the step, the status and its code."""
    if not isinstance(error, httpx.HTTPStatusError):
        return type(error).__name__
    step = "start" if error.request.url.path.endswith("/start") else "create"
    try:
        code = error.response.json().get("code")
    except ValueError:  # nginx's own page, say
        code = None
    return f"{step} {error.response.status_code} {code or ''}".rstrip()


async def drive(
    base: str, args: argparse.Namespace, kill: Callable[[], None] | None, sample: Callable[[], Any]
) -> Run:
    """All tables made, all clients connected: then the clock starts. ``kill`` (or None) is
    called at half time; ``sample()`` reads the CPU time of every part, each core's
    busy time, the nodes' wakeups and their loop threads' CPU time, at the start and the
    end of the measured window (see cpu_share.py)."""
    from cpu_share import describe_busy, shares

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
        run = Run(base, args.tables, args.think, args.stagger)
        tasks = [asyncio.create_task(player(run, http, i + 1, m)) for i, m in enumerate(made)]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(run.go.wait(), 120)
        origin = time.monotonic() + args.stagger  # every table in play: the clock starts
        run.warm = origin + WARMUP * args.seconds
        run.end = origin + args.seconds
        run.go.set()
        await asyncio.sleep(run.warm - time.monotonic())
        before = sample()
        await asyncio.sleep(origin + args.seconds / 2 - time.monotonic())
        for client in run.clients:
            client.record.watched = client.game is not None and not client.record.over
        run.mark = time.monotonic()
        if kill is not None:
            kill()
        await asyncio.sleep(max(0.0, run.end - time.monotonic()))
        after, run.measured = sample(), time.monotonic() - run.warm
        run.cpu = shares(before[0], after[0], run.measured)
        run.busy = describe_busy(before[1], after[1], run.measured)
        run.wakeups = after[2] - before[2]  # (a node killed meanwhile: only the other's)
        run.loop_cpu = after[3] - before[3]
        await asyncio.wait(tasks, timeout=30)
        for task in tasks:
            if not task.done():
                task.cancel()
            elif task.exception() is not None:
                run.errors[f"client {type(task.exception()).__name__}"] += 1
    return run
