"""Server benchmark: N concurrent tables on loopback, each a scripted WebSocket player
against a bot; prints actions per second and the p50/p99 latency from an intent to its
broadcast, for N = 10, 100 and 1000.

Run: ``python benchmarks/server.py [--tables 10 100 1000] [--actions 20]``. The server runs
in its own process (uvicorn, SQLite in a temporary folder); this process is the clients.
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
from pathlib import Path

import httpx
import websockets

SERVER = """
import sys, uvicorn
from yahtzee.web import admission as caps
from yahtzee.web.app import create_app
caps.MAX_PER_ADDRESS = caps.MAX_SPECTATORS_PER_TABLE = 10**6  # every client is on loopback here
app = create_app(sys.argv[1], bot_delay=float(sys.argv[3]), rate=1000, max_tables_per_client=10**6)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="error",
            ws_per_message_deflate=False)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def make_table(http: httpx.AsyncClient) -> tuple[str, str]:
    answer = await http.post(
        "/api/tables", json={"host": "Bench", "seats": [{"kind": "bot", "level": 5}]}
    )
    made = answer.raise_for_status().json()  # (a 502 of nginx's, say, is not JSON)
    table = made["table"]["id"]
    started = await http.post(
        f"/api/tables/{table}/start", headers={"Authorization": f"Bearer {made['token']}"}
    )
    started.raise_for_status()
    return table, made["token"]


async def player(
    base: str,
    table: str,
    token: str,
    actions: int,
    think: float,
    latencies: list[float],
    counts: list[int],
    ready: asyncio.Barrier,
) -> None:
    """Act on our turn, measure each intent until its event comes back."""
    rng = random.Random(table)
    async with websockets.connect(f"ws://{base}/ws/{table}", max_size=2**20) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        game = json.loads(await ws.recv())["game"]
        await ready.wait()  # every client is connected: measure the steady state
        done = 0
        while done < actions and game["phase"] != "over":
            if game["current"] != 0:
                message = json.loads(await ws.recv())
                if message["type"] == "event":
                    game = message["game"]
                    counts[0] += 1
                continue
            await asyncio.sleep(rng.random() * think)
            intent = (
                {"type": "roll"}
                if game["dice"] is None
                else {"type": "score", "box": game["placements"][0]["box"]}
            )
            sent = time.perf_counter()
            await ws.send(json.dumps(intent))
            while True:
                message = json.loads(await ws.recv())
                if message["type"] == "event":
                    break
                if message["type"] == "error":
                    raise RuntimeError(message)
            latencies.append(time.perf_counter() - sent)
            counts[0] += 1
            game = message["game"]
            done += 1


async def run(base: str, tables: int, actions: int, think: float) -> dict[str, float]:
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=f"http://{base}", limits=limits, timeout=60) as http:
        made = await asyncio.gather(*(make_table(http) for _ in range(tables)))
    latencies: list[float] = []
    counts = [0]
    ready = asyncio.Barrier(tables)
    start = time.perf_counter()
    await asyncio.gather(
        *(player(base, t, k, actions, think, latencies, counts, ready) for t, k in made)
    )
    elapsed = time.perf_counter() - start
    latencies.sort()
    return {
        "tables": tables,
        "actions_per_s": counts[0] / elapsed,
        "p50_ms": statistics.median(latencies) * 1e3,
        "p99_ms": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1e3,
        "intents": len(latencies),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--actions", type=int, default=20, help="intents per scripted player")
    parser.add_argument("--think", type=float, default=3.0, help="max seconds before an intent")
    parser.add_argument("--bot-delay", type=float, default=0.3)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="yahtzee-bench-")
    print(f"yahtzee server benchmark, {os.cpu_count()} cores, SQLite, loopback")
    for tables in args.tables:
        port = free_port()
        db = f"sqlite:///{Path(folder) / f'bench-{tables}.db'}"
        server = subprocess.Popen(
            [sys.executable, "-c", SERVER, db, str(port), str(args.bot_delay)]
        )
        try:
            for _ in range(300):
                try:
                    httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.05)
            result = asyncio.run(run(f"127.0.0.1:{port}", tables, args.actions, args.think))
        finally:
            server.terminate()
            server.wait(timeout=30)
        print(
            f"  N={result['tables']:5d}: {result['actions_per_s']:7.0f} actions/s, "
            f"intent to broadcast p50 {result['p50_ms']:.1f} ms, p99 {result['p99_ms']:.1f} ms "
            f"({result['intents']} intents)"
        )


if __name__ == "__main__":
    main()
