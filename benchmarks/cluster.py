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

Every run prints, besides its totals, the intent-to-own-event latency in each 3 s window
(``--window``) with the games that ended and the tables opened in it, and the nodes' CPU
per acknowledged action (and, with 1-node and 2-node runs together, their ratio).
``--pin`` runs the nodes on core 0 and everything else (PostgreSQL, Redis, nginx, the
clients) on core 1. ``--find-max`` runs 1 node (run ``a``) at rising table counts
(``--counts``) and prints the largest whose p99 stays under ``--p99-ms``. ``--src`` names
the source tree the nodes (and the loss check) import; ``--hash`` makes nginx send each
table's requests to one node (``hash $table consistent``, the id from the URI).
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import gc_probe
import httpx
import uvloop
from cluster_check import check
from cluster_clients import WARMUP, Run, drive
from cluster_figures import Figures, median, percentile, split, summary, windows
from common import numba_cache
from cpu_share import allowed, cpu_busy, describe, loop_cpu, pin, sample, wakeups
from parts import LocalNginx, LocalRedis, ServerProcess, find_binary, free_port, local_postgres

ROOT = Path(__file__).resolve().parent.parent
RUNS = {"s": (1, False, False), "a": (1, True, False), "b": (2, True, False),
        "c": (2, True, True)}  # fmt: skip
"""Run: (nodes, with Redis, node 2 killed at half time)."""
STUCK_S = 15.0  # a game not over without an event this long at the end of a run is stuck
RUN_NUMBERS = itertools.count(1)
NODE_CORE, REST_CORE = {0}, {1}  # --pin: the nodes' core, everything else's


@contextlib.contextmanager
def pinned(cores: set[int] | None):
    """This process's threads on ``cores`` meanwhile (the processes it starts inherit
    them), then back on what they had; None: nothing changes."""
    if cores is None:
        yield
        return
    was = os.sched_getaffinity(0)
    pin(os.getpid(), cores)
    try:
        yield
    finally:
        pin(os.getpid(), was)


def nginx_for(ports: list[int], port: int, hashing: bool) -> LocalNginx:
    """nginx in front of the nodes: round robin, or with ``hashing`` each table's requests
    to one node (a consistent hash of the table id, as docs/deploy.md configures it). It
    passes on each scripted player's X-Forwarded-For: each is a client of its own, with its
    own limits, though all connect from 127.0.0.1."""
    return LocalNginx(ports, port=port, hashed=hashing, forwarded=True)


def start_node(node: ServerProcess) -> None:
    """Start a node and wait until its solver is warm (then the next one may start)."""
    node.start()
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        health = httpx.get(f"{node.base}/api/health", timeout=5, trust_env=False).json()
        if health.get("solver") == "ready":
            return
        time.sleep(0.5)
    raise RuntimeError(f"the node on port {node.port} did not warm up within 300 s")


def one_run(
    kind: str, args: argparse.Namespace, pg: str, redis: str, others: dict[int, str]
) -> tuple:
    """One run on a fresh database and Redis prefix: the run, its loss check, and the
    warning lines each node wrote. ``others``: the pids of PostgreSQL's postmaster and of
    redis-server, by part (their CPU is theirs and their children's)."""
    import psycopg

    count, clustered, killing = RUNS[kind]
    database = f"bench_{kind}_{os.getpid()}_{next(RUN_NUMBERS)}"  # a run again: anew
    with psycopg.connect(pg, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {database}")
    url = pg.rsplit("/", 1)[0] + f"/{database}"
    port = free_port()
    # 127.0.0.1 (port 80) too: an nginx that passes Host as $host drops the port
    extra = ["--bot-delay", str(args.bot_delay), "--forwarded-allow-ips", "127.0.0.1",
             "--allowed-host", f"127.0.0.1:{port}", "--allowed-host", "127.0.0.1:80"]  # fmt: skip
    # Without --meter the nodes find no win-chance tables (an empty solver cache; the
    # official table ships with the package) and build none: the figures are the server's,
    # not those of loading 800 MB of tables into each node during the run. Their numba
    # cache is this benchmark's own too, so that the meter reads estimates all game long
    # whatever this machine compiled before: with the curve kernels compiled, it works out
    # late-game cards exactly instead (25-110 ms each, as a server does while its tables
    # are being built), about 3 ms more per action at 200 tables.
    meter_env = (
        {}
        if args.meter
        else {
            "YAHTZEE_NO_TABLE_BUILDS": "1",
            "YAHTZEE_CACHE_DIR": tempfile.mkdtemp(prefix="yahtzee-bench-cache-"),
            "NUMBA_CACHE_DIR": numba_cache(),
        }
    )
    probe = gc_probe.install() if args.gc_probe else None
    meter_env["PYTHONPATH"] = os.pathsep.join(str(p) for p in (probe, args.src) if p)
    nodes: list[ServerProcess] = []
    run: Run | None = None
    nginx = None
    logs: dict[str, list[str]] = {}
    try:
        for i in range(count):
            cluster = ["--redis-url", redis, "--node-id", f"node{i + 1}",
                       "--redis-prefix", f"yz-{database}:"]  # fmt: skip
            nodes.append(ServerProcess(url, env=meter_env, extra_args=extra + cluster * clustered))
            with pinned(NODE_CORE if args.pin else None):  # the node inherits core 0
                start_node(nodes[-1])
            if args.pin:  # and each of its threads, made before or after
                pin(nodes[-1].proc.pid, NODE_CORE)
        nginx = nginx_for([n.port for n in nodes], port, args.hash)
        nginx.start()
        names = {node.proc.pid: f"node{i + 1}" for i, node in enumerate(nodes)}
        names |= {**others, nginx.pid: "nginx"}
        cores = allowed(names)
        kill = nodes[1].kill if killing else None
        measure = lambda: (sample(names), cpu_busy(), wakeups(names), loop_cpu(names))  # noqa: E731
        run = uvloop.run(drive(f"127.0.0.1:{port}", args, kill, measure))
        run.allowed = cores
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
            whole = node.stderr_tail(size=1 << 30)
            if run is not None:
                run.gc_pauses += gc_probe.pauses(whole, run.warm, run.end)
            if args.logs is not None:
                args.logs.mkdir(parents=True, exist_ok=True)
                (args.logs / f"{database}-node{i + 1}.log").write_text(whole)
            text = whole.splitlines()
            logs[f"node{i + 1}"] = [line for line in text if "WARN" in line or "ERROR" in line]
            node.stop()
        if probe is not None:
            shutil.rmtree(probe, ignore_errors=True)
        if "YAHTZEE_CACHE_DIR" in meter_env:
            shutil.rmtree(meter_env["YAHTZEE_CACHE_DIR"], ignore_errors=True)
    return run, check(url, [c.record for c in run.clients]), logs


def node_cpu_ms(run: Run) -> float:
    """The nodes' CPU (all of them, all threads) per acknowledged action in the measured
    window, in ms."""
    nodes = sum(cores for part, cores in run.cpu.items() if part.startswith("node"))
    return nodes * run.measured / run.n["acks"] * 1e3 if run.n["acks"] else float("nan")


def report_name(kind: str) -> str:
    """``1 node``, ``2 nodes, node 2 killed``..."""
    nodes, _, killed = RUNS[kind]
    what = f"{nodes} node{'s' * (nodes > 1)}" + ", node 2 killed" * killed
    return what + " without Redis" * (kind == "s")


def report(
    kind: str, run: Run, args: argparse.Namespace, checked: tuple
) -> tuple[str, str, Figures]:
    """The lines printed for one run, its README row and its headline figures."""
    killed, what = RUNS[kind][2], report_name(kind)
    window = args.seconds * (1 - WARMUP)
    rate, events = run.n["acks"] / window, run.n["events"] / window
    if args.latencies:  # when each measured intent was sent (s into the window), and its wait
        path = Path(args.latencies)
        path.with_name(f"{path.stem}-{kind}{path.suffix}").write_text(
            json.dumps([run.stamps, run.latencies])
        )
    p50, p99 = percentile(run.latencies, 0.5) * 1e3, percentile(run.latencies, 0.99) * 1e3
    records = [c.record for c in run.clients]
    # (a game that ended at the mark has nothing more to move)
    watched = [r for r in records if r.watched and not (r.over and r.moved is None)]
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
    per_node = ", ".join(
        f"{part} {cores * run.measured / max(1, run.n['acks']) * 1e3:.2f}"
        for part, cores in sorted(run.cpu.items())
        if part.startswith("node")
    )
    pinning = ", ".join(f"{part} {cores}" for part, cores in run.allowed.items())
    acks = max(1, run.n["acks"])
    loops = sum(n for part, n in run.wakeups.items() if not part.endswith(" all"))
    on_loop = sum(run.loop_cpu.values()) / acks * 1e3
    woken = f"{loops / acks:.2f} on the event loop's thread, " + ", ".join(
        f"{part} {n / acks:.2f}" for part, n in sorted(run.wakeups.items())
    )
    line = (
        f"  {kind} ({what}): {rate:5.0f} actions/s ({events:.0f} events/s), intent to own "
        f"event p50 {p50:.1f} ms, p99 {p99:.1f} ms ({len(run.latencies)} intents)\n"
        f"     node CPU per acknowledged action: {node_cpu_ms(run):.2f} ms ({per_node}; "
        f"{run.n['acks']} acks in {run.measured:.1f} s), {on_loop:.2f} ms of it on the "
        f"event loop's thread\n"
        f"     node wakeups per acknowledged action: {woken}\n"
        f"     from half time every table moved again within (max / p99) {moved}, p50 "
        f"{percentile(gaps, 0.5):.1f} s; "
        f"the {len(cut)} cut off within {max(cut, default=float('nan')):.1f} s, their state "
        f"again within {max(back, default=float('nan')):.1f} s\n"
        f"     loss check: {games} games, {count} events, {dict(problems) or 'nothing lost'}"
        f"{'; refused: ' + str(dict(odd)) if odd else ''}\n"
        f"     cores: {describe(run.cpu)}\n"
        f"     each core busy: {run.busy}; may run on: {pinning}\n"
        + (f"     GC pauses (--gc-probe): {gc_probe.describe(run.gc_pauses)}\n" * args.gc_probe)
        + f"     {counts}; closes {dict(run.closes)}, errors "
        f"{dict(run.errors)}\n"
        f"     per {args.window:g} s of the measured window (by when sent; * games ended in it):"
        f"\n       " + "\n       ".join(windows(run, args.window))
    )
    row = (f"| {what} | {args.tables} | {rate:.0f} | {p50:.1f} ms | {p99:.1f} ms | "
           f"{moved if killed else ''} | {sum(problems.values())} |")  # fmt: skip
    return (
        line,
        row,
        Figures(node_cpu_ms(run), p99, max(gaps, default=math.nan) if killed else None),
    )


def find_max(args: argparse.Namespace, pg: str, redis: str, others: dict[int, str]) -> None:
    """Run ``a`` (1 node) at each of ``--counts`` tables, rising, until p99 reaches
    ``--p99-ms``; then ``--refine`` bisections between the last count held and the first
    not; the largest count held, and a table of every count's figures."""
    counts = sorted(int(c) for c in args.counts.split(","))
    results: dict[int, tuple[float, float, float, float, int]] = {}

    def measure(tables: int) -> bool:
        """``--repeat`` runs at ``tables``; held when their median p99 is under the bar
        (the row shows the run of the median p99)."""
        args.tables = tables
        found = []
        for _ in range(args.repeat):
            started = time.monotonic()
            run, checked, _ = one_run("a", args, pg, redis, others)
            line, _, figures = report("a", run, args, checked)
            print(f"\n{tables} tables ({time.monotonic() - started:.0f} s):\n{line}", flush=True)
            worst = max(
                (percentile(w, 0.99) for w in split(run, args.window) if len(w) >= 20),
                default=float("nan"),
            )
            rate = run.n["acks"] / (args.seconds * (1 - WARMUP))
            found.append((figures.p99_ms, rate, percentile(run.latencies, 0.5) * 1e3,
                          worst * 1e3, sum(checked[2].values())))  # fmt: skip
        found.sort()
        p99, rate, p50, worst, _ = found[(len(found) - 1) // 2]
        results[tables] = (rate, p50, p99, worst, sum(f[4] for f in found))
        if args.repeat > 1:
            each = ", ".join(f"{f[0]:.1f}" for f in found)
            print(f"{tables} tables: median p99 {median([f[0] for f in found]):.1f} ms ({each})")
        return median([f[0] for f in found]) < args.p99_ms

    held = failed = None
    for tables in counts:
        if measure(tables):
            held = tables
        else:
            failed = tables
            break
    for _ in range(args.refine if held is not None and failed is not None else 0):
        middle = (held + failed) // 2 // 50 * 50  # type: ignore[operator]
        if middle <= held or middle >= failed:  # type: ignore[operator]
            break
        if measure(middle):
            held = middle
        else:
            failed = middle
    pinned_to = " (node on core 0, the rest on core 1)" if args.pin else ""
    print(f"\nfind-max: 1 node{pinned_to}, stagger {args.stagger:g} s, {args.seconds:g} s "
          f"runs, p99 under {args.p99_ms:g} ms\n| tables | actions/s | p50 | p99 | worst "
          f"{args.window:g} s window's p99 | lost |\n|---|---|---|---|---|---|")  # fmt: skip
    for tables, (rate, p50, p99, worst, lost) in sorted(results.items()):
        print(f"| {tables} | {rate:.0f} | {p50:.1f} ms | {p99:.1f} ms | {worst:.1f} ms | {lost} |")
    missed = f" (not held: {failed})" if failed is not None else " (every count held)"
    print(f"largest table count held: {held if held is not None else 'none'}{missed}")


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
    parser.add_argument(
        "--logs", type=Path, metavar="DIR", help="write each node's whole output into DIR"
    )
    parser.add_argument(
        "--window", type=float, default=3.0, help="seconds of each window of latencies printed"
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="the nodes on core 0 (taskset), PostgreSQL, Redis, nginx and the clients on core 1",
    )
    parser.add_argument(
        "--src",
        type=Path,
        default=ROOT / "src",
        help="the source tree the nodes run (their PYTHONPATH; the loss check's too), "
        "default this repository's src",
    )
    parser.add_argument(
        "--hash",
        action="store_true",
        help="nginx sends each table's requests to one node (hash on the table id, "
        "consistent); default round robin",
    )
    parser.add_argument(
        "--find-max",
        action="store_true",
        help="run a (1 node) at each of --counts tables until p99 reaches --p99-ms; print "
        "the largest count held",
    )
    parser.add_argument("--counts", default="200,400,600,800,1000,1200,1500,2000")
    parser.add_argument("--p99-ms", type=float, default=100.0)
    parser.add_argument(
        "--gc-probe",
        action="store_true",
        help="print the nodes' garbage-collection pauses of 5 ms or more in the measured window",
    )
    parser.add_argument(
        "--refine", type=int, default=1, help="--find-max: bisections after the first miss"
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="run each kind (--find-max: each count) this many times, alternating, and give "
        "the medians (one run here moves by 20-40 %% from the next)",
    )
    args = parser.parse_args()
    args.src = args.src.resolve()
    kinds = [k.strip() for k in args.runs.split(",") if k.strip()]
    if not kinds or any(k not in RUNS for k in kinds):
        parser.error(f"--runs takes some of {', '.join(RUNS)}")
    if not (args.src / "yahtzee" / "__init__.py").is_file():
        parser.error(f"--src {args.src}: no yahtzee package there")
    if args.pin and not {0, 1} <= os.sched_getaffinity(0):
        parser.error("--pin needs cores 0 and 1")
    signal.signal(signal.SIGINT, signal.default_int_handler)  # also when started with &
    signal.signal(signal.SIGTERM, signal.getsignal(signal.SIGINT))  # so stop what we started
    sys.path.insert(0, str(args.src))  # the loss check reads the records as the nodes do
    if args.pin:  # PostgreSQL, Redis and nginx inherit it; the nodes are moved to core 0
        pin(os.getpid(), REST_CORE)
    postgres = local_postgres()
    if postgres is None or not all(map(find_binary, ("redis-server", "nginx"))):
        raise SystemExit("This benchmark needs Debian's postgresql, redis-server and nginx.")
    staggered = f" after {args.stagger:g} s of staggered starts" if args.stagger else ""
    print(f"yahtzee cluster benchmark, {os.cpu_count()} cores, PostgreSQL + Redis, nginx "
          f"(1 worker, {'hash on the table id' if args.hash else 'round robin'}), "
          f"{'rising table counts' if args.find_max else f'N={args.tables} tables'}, "
          f"{args.seconds:g} s a run{staggered}\n"
          f"nodes run {args.src} ({commit_of(args.src)})"
          f"{'; pinned: nodes on core 0, the rest on core 1' if args.pin else ''}")  # fmt: skip
    if args.repeat < 1:
        parser.error("--repeat takes 1 or more")
    rows = []
    per_action: dict[str, float] = {}
    figures: dict[str, list[Figures]] = {kind: [] for kind in kinds}
    with contextlib.ExitStack() as stack:
        stack.callback(postgres.stop)
        pg = postgres.start()
        redis = stack.enter_context(LocalRedis())
        others = {postgres.postmaster_pid: "postgres", redis.pid: "redis"}
        if args.find_max:
            find_max(args, pg, redis.url, others)
            return
        for kind in kinds * args.repeat:
            run, checked, logs = one_run(kind, args, pg, redis.url, others)
            line, row, found = report(kind, run, args, checked)
            rows.append(row)
            per_action[kind] = node_cpu_ms(run)
            figures[kind].append(found)
            print(line, flush=True)
            for node, lines in logs.items():
                if lines:
                    print(f"     {node}: {len(lines)} warning lines, the first: {lines[0][:300]}")
    print("\nFor the README:\n| nodes | tables (N) | actions per second (acked intents) | "
          "intent to own event, p50 | p99 | after the kill, every table moving: max / p99 "
          "| lost |\n|---|---|---|---|---|---|---|")  # fmt: skip
    print("\n".join(rows))
    one = per_action.get("a", per_action.get("s"))
    if one is not None and "b" in per_action:
        print(f"\nnode CPU per acknowledged action, 2 nodes (b) {per_action['b']:.2f} ms against "
              f"1 node ({'a' if 'a' in per_action else 's'}) {one:.2f} ms: ratio "
              f"{per_action['b'] / one:.2f}" + " (the last pair)" * (args.repeat > 1))  # fmt: skip
    if args.repeat > 1:
        print(summary(figures, {kind: report_name(kind) for kind in kinds}))


def commit_of(src: Path) -> str:
    """The commit of the work tree ``src`` is in (with ``+`` when it has changes)."""
    try:

        def git(*words: str) -> str:
            command = ["git", "-C", str(src), *words]
            return subprocess.run(
                command, capture_output=True, text=True, check=True
            ).stdout.strip()

        head, dirty = git("rev-parse", "--short", "HEAD"), git("status", "--porcelain", ".")
    except (OSError, subprocess.CalledProcessError):
        return "not a git tree"
    return head + "+" * bool(dirty)


if __name__ == "__main__":
    main()
