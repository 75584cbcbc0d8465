"""Cluster benchmark: ``yahtzee serve`` as 1 node against 2 nodes behind nginx, sharing one
PostgreSQL and one Redis on this machine; N tables, each a scripted player (as in
benchmarks/server.py) against a bot, every client connecting through nginx.

Run from the repository root: ``python benchmarks/cluster.py [--tables 2000] [--seconds 60]
[--runs a,b,c]``. Runs: ``a`` 1 node, ``b`` 2 nodes, ``c`` 2 nodes with node 2 killed
(SIGKILL) at half time; ``s`` (not by default) is 1 node without Redis. Every node has Redis
but ``s``'s. Each run gets a fresh database and Redis prefix; after it, what every client
saw and was acknowledged is checked against the database. Needs Debian's postgresql,
redis-server and nginx (as the cluster tests do).

All first games start together (as in benchmarks/server.py), so they also end within the
same seconds, near the end of a 60 s run, when every client opens a new table at once.
``--stagger S`` starts each client's first game at a random moment within S seconds and
only then measures: games end, and new tables open, all the time, as on a site.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import uvloop
from cluster_clients import WARMUP, Record, Run, drive
from cpu_share import describe, sample

ROOT = Path(__file__).resolve().parent.parent
RUNS = {"s": (1, False, False), "a": (1, True, False), "b": (2, True, False),
        "c": (2, True, True)}  # fmt: skip
"""Run: (nodes, with Redis, node 2 killed at half time)."""
STUCK_S = 15.0  # a game not over without an event this long at the end of a run is stuck


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
        names = {node.proc.pid: f"node{i + 1}" for i, node in enumerate(nodes)}
        kill = nodes[1].kill if killing else None
        run = uvloop.run(drive(f"127.0.0.1:{port}", args, kill, lambda: sample(names)))
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
    if args.latencies:  # when each measured intent was sent (s into the window), and its wait
        path = Path(args.latencies)
        path.with_name(f"{path.stem}-{kind}{path.suffix}").write_text(
            json.dumps([run.stamps, run.latencies])
        )
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
        f"     cores: {describe(run.cpu)}\n"
        f"     {counts}; closes {dict(run.closes)}, errors "
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
    parser.add_argument(
        "--stagger",
        type=float,
        default=0.0,
        help="first games start within this many seconds (a game lasts about a minute), "
        "then the measured --seconds begin (default 0: all at once)",
    )
    parser.add_argument("--bot-delay", type=float, default=0.3)
    parser.add_argument(
        "--meter",
        action="store_true",
        help="serve the win-chance meter from the cached tables (each node loads 800 MB)",
    )
    parser.add_argument(
        "--latencies",
        metavar="FILE",
        help="write each run's [sent at (s into the measured window), intent to own event (s)] "
        "as JSON, to FILE with the run's letter added (out.json: out-b.json)",
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
    staggered = f" after {args.stagger:g} s of staggered starts" if args.stagger else ""
    print(f"yahtzee cluster benchmark, {os.cpu_count()} cores, PostgreSQL + Redis, nginx "
          f"(1 worker), N={args.tables} tables, {args.seconds:g} s a run{staggered}")  # fmt: skip
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
