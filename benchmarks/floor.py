"""The floor of this machine under the cluster benchmark: the node CPU per acknowledged
action of a server that does nothing but what every action of `benchmarks/cluster.py`
needs at the least, with the same parts (uvicorn with uvloop and its default WebSocket protocol,
psycopg's `AsyncConnection` on a local PostgreSQL with fsync off) and no game at all.

Run from the repository root: ``python -m benchmarks run floor [--tables 200] [--seconds 40]
[--think 3] [--no-database] [--bot-turn-once] [--half PAIRS]``. Needs Debian's postgresql
(as the cluster benchmark does). ``--half PAIRS``: the 2-node ratio of the bare parts, a
run at ``--tables`` and one at half of them in turn, PAIRS times (two nodes sharing a load
are each a node at half of it), each pair's ratio of CPU per action and their median.

A bare ASGI app (no framework, no middleware) serves N WebSockets; each is a table where a
scripted player (thinking up to 3 s, as in the cluster benchmark) sends "roll", then
"score", then waits for a bot's turn. Per intent the app parses it, inserts one row
(autocommit: a transaction), and sends the ack and one event; after a "score" it plays a
"bot": `--bot-events` times, after `--bot-delay` s, an insert and an event, then a meter
message. The messages are texts of the sizes the real server sends (an event with its
game's state about 1.9 kB, an ack 40 bytes, a meter 140 bytes: measured on `yahtzee
serve`), so per acknowledged action there are 3 commits and 4.5 messages, as in the
cluster benchmark's game (roll once, score; a bot's turn of about four events). What is
left out: the game, its checks and its state, the bots' decisions, the win meter, the
group commit's batching, every check on a message, rate and size limits, Redis.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import uvloop
import websockets
from cpu_share import process_cpu
from parts import local_postgres

WARMUP_S = 10.0

APP = r"""
import asyncio, json, sys
import psycopg, uvicorn

PORT, URL, BOT, DELAY = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
ONCE = sys.argv[5] == "once"  # a bot's turn committed at once, then revealed paced
STATE = json.dumps({"dice": [1, 2, 3, 4, 5], "cards": ["x" * 60] * 26})[:1850]
ACK = '{"v":1,"type":"ack","id":"%s","seq":%d}'
EVENT = '{"v":1,"type":"event","seq":%d,"mine":%s,"game":%s}'
METER = '{"v":1,"type":"meter","seq":%d,"chances":[0.4812,0.5188],"estimate":true,"margin":0.03}'
db = {"connection": None}
lock = asyncio.Lock()

async def commit(table, seq):
    connection = db["connection"]
    if connection is None:
        return
    async with lock:
        await connection.execute(
            "INSERT INTO floor_events (tab, seq, data) VALUES (%s, %s, %s)",
            (table, seq, '{"type":"rolled","dice":"12345"}'), prepare=True)

async def bot(table, seq, send):
    try:
        await turn(table, seq, send)
    except Exception:  # the client left
        pass

async def turn(table, seq, send):
    if ONCE:
        await commit(table, seq + BOT)
    for k in range(BOT):
        await asyncio.sleep(DELAY)
        seq += 1
        if not ONCE:
            await commit(table, seq)
        mine = "true" if k == BOT - 1 else "false"
        await send({"type": "websocket.send", "text": EVENT % (seq, mine, STATE)})
    await send({"type": "websocket.send", "text": METER % seq})

async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                if URL != "-":
                    connection = await psycopg.AsyncConnection.connect(URL, autocommit=True)
                    await connection.execute(
                        "CREATE TABLE IF NOT EXISTS floor_events (tab text, seq int, "
                        "data text, at timestamptz DEFAULT now(), PRIMARY KEY (tab, seq))")
                    await connection.execute("TRUNCATE floor_events")  # (a run before)
                    db["connection"] = connection
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["type"] != "websocket":
        return
    await receive()
    await send({"type": "websocket.accept"})
    table, seq, task = scope["path"], 0, None
    while True:
        message = await receive()
        if message["type"] != "websocket.receive":
            return
        intent = json.loads(message["text"])
        seq += 1
        await commit(table, seq)
        await send({"type": "websocket.send", "text": ACK % (intent["id"], seq)})
        scoring = intent["type"] == "score"
        await send({"type": "websocket.send",
                    "text": EVENT % (seq, "false" if scoring else "true", STATE)})
        if scoring:
            task = asyncio.create_task(bot(table, seq, send))
            seq += BOT

uvicorn.run(app, host="127.0.0.1", port=PORT, log_level="warning",
            ws_per_message_deflate=False, server_header=False)
"""


def listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(1.0)
        return probe.connect_ex(("127.0.0.1", port)) == 0


async def player(port: int, table: int, think: float, window: list[float], acks: list[int]) -> None:
    rng = random.Random(table)
    async with websockets.connect(f"ws://127.0.0.1:{port}/t{table}", max_size=None) as ws:
        count, mine = 0, True
        while True:
            if mine:
                await asyncio.sleep(rng.random() * think)
                count += 1
                kind = "roll" if count % 2 else "score"
                await ws.send(json.dumps({"v": 1, "type": kind, "id": str(count)}))
                mine = False
            message = json.loads(await asyncio.wait_for(ws.recv(), 30))
            now = time.monotonic()
            if message["type"] == "ack" and window[0] <= now <= window[1]:
                acks[0] += 1
            if message["type"] == "event" and message["mine"]:
                mine = True


async def drive(port: int, args: argparse.Namespace, tables: int, pid: int) -> tuple[float, int]:
    start = time.monotonic()
    window = [start + WARMUP_S, start + WARMUP_S + args.seconds]
    acks = [0]
    players = [
        asyncio.create_task(player(port, t, args.think, window, acks)) for t in range(tables)
    ]
    await asyncio.sleep(max(0.0, window[0] - time.monotonic()))
    before = process_cpu(pid)
    await asyncio.sleep(max(0.0, window[1] - time.monotonic()))
    used = process_cpu(pid) - before
    for task in players:
        task.cancel()
    await asyncio.wait(players, timeout=15)  # (a socket's closing handshake is bounded)
    return used, acks[0]


def serve_once(args: argparse.Namespace, tables: int, url: str) -> tuple[float, int]:
    """One run: the floor server started, ``tables`` players driven, the server stopped;
    its CPU seconds in the measured window and the acknowledgements in it."""
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as script:
        script.write(APP)
    once = "once" if args.bot_turn_once else "each"
    server = subprocess.Popen(
        [sys.executable, script.name, str(port), url, str(args.bot_events),
         str(args.bot_delay), once]
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while not listening(port):
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit("the floor server did not start")
            time.sleep(0.1)
        return uvloop.run(drive(port, args, tables, server.pid))
    finally:
        server.terminate()
        server.wait(timeout=15)
        os.unlink(script.name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--think", type=float, default=3.0)
    parser.add_argument("--bot-events", type=int, default=4)
    parser.add_argument("--bot-delay", type=float, default=0.3)
    parser.add_argument("--no-database", action="store_true")
    parser.add_argument(
        "--bot-turn-once",
        action="store_true",
        help="a bot's turn in one commit (3 -> 1.5 commits an action)",
    )
    parser.add_argument(
        "--half",
        type=int,
        default=0,
        metavar="PAIRS",
        help="the 2-node ratio of the bare parts: PAIRS times a run at --tables and one at "
        "half of them (a node of two sharing that load), in turn; each ratio and the median",
    )
    args = parser.parse_args()
    postgres = None if args.no_database else local_postgres()
    if postgres is None and not args.no_database:
        raise SystemExit("This benchmark needs Debian's postgresql (or --no-database).")
    url = postgres.start() if postgres is not None else "-"
    kind = (
        f"{'no database' if args.no_database else 'PostgreSQL'}"
        f"{', a bot turn one commit' if args.bot_turn_once else ''}"
    )
    counts = [args.tables, args.tables // 2] * args.half or [args.tables]
    print(
        f"floor benchmark, {os.cpu_count()} cores: {len(counts)} run(s) of "
        f"{WARMUP_S:g} s warm-up and {args.seconds:g} s measured each",
        flush=True,
    )
    per_action: list[float] = []
    try:
        for tables in counts:
            used, acks = serve_once(args, tables, url)
            if not acks:
                raise SystemExit(f"no action was acknowledged at {tables} tables")
            per_action.append(used / acks * 1e3)
            print(
                f"floor ({kind}), {tables} tables, {args.seconds:g} s: "
                f"{acks / args.seconds:.0f} actions/s, server CPU per acknowledged action "
                f"{per_action[-1]:.2f} ms ({used:.1f} s over {acks} acks)",
                flush=True,
            )
    finally:
        if postgres is not None:
            postgres.stop()
    if args.half:
        pairs = zip(per_action[::2], per_action[1::2], strict=True)
        ratios = [half / whole for whole, half in pairs]
        shown = ", ".join(f"{r:.2f}" for r in ratios)
        print(
            f"half the tables against all of them (a node of two against one node), pair by "
            f"pair: {shown}; median {statistics.median(ratios):.2f}"
        )


if __name__ == "__main__":
    main()
