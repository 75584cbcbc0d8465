"""Solver benchmark: build (first run and warm), cache load, advise latency, simulation.

Run: ``python benchmarks/solver.py`` (add ``--no-peer`` to skip the comparison).

It also installs the Rust solver ``yatzy-solver`` from PyPI into a throwaway virtual
environment and measures it in the same run: its ``Solver.build`` time, its
``option_values`` latency and its ``simulate`` throughput, printed as ratios. The peer is
for this benchmark only, never a dependency of the project.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time

from common import peer_python, run_python

PEER_VARIANT = "american+forced-joker"  # the rulebook's forced Joker, as `official`


LOAD = """
import json, time
from yahtzee.solver import Solver
t = time.perf_counter()
Solver.load("official")
print(json.dumps({"load": time.perf_counter() - t}))
"""

BUILD = """
import json, time
t0 = time.perf_counter()
from yahtzee.solver.solver import build_table
from yahtzee import RuleSet
t1 = time.perf_counter()
build_table(RuleSet.official())
t2 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "build": t2 - t1}))
"""


def ours(games: int, situations: int, repeats: int) -> dict[str, float]:
    numba_cache = tempfile.mkdtemp(prefix="numba-cold-")
    table_cache = tempfile.mkdtemp(prefix="yahtzee-table-")
    env = {"NUMBA_CACHE_DIR": numba_cache, "YAHTZEE_CACHE_DIR": table_cache}
    cold = run_python(BUILD, env)  # first run after install: kernels compile
    warm = min((run_python(BUILD, env) for _ in range(repeats)), key=lambda r: r["build"])
    os.environ.update(env)

    from yahtzee import RuleSet
    from yahtzee.solver import Solver, simulate
    from yahtzee.solver.solver import cached_solver

    rules = RuleSet.official()
    Solver.load(rules)  # writes the cache
    loads = [run_python(LOAD, env)["load"] for _ in range(5)]  # each in a fresh process
    solver = cached_solver(rules)
    latencies = advise_latencies(solver, situations)
    simulate(["optimal"], 1000, seed=1)  # warm up
    start = time.perf_counter()
    simulate(["optimal"], games, seed=2)
    elapsed = time.perf_counter() - start
    return {
        "build_first_run_s": cold["build"],
        "compile_and_build_first_run_s": cold["build"] + cold["import"],
        "build_warm_s": warm["build"],
        "cache_load_ms": statistics.median(loads) * 1e3,
        "advise_median_us": statistics.median(latencies) * 1e6,
        "advise_p99_us": percentile(latencies, 99) * 1e6,
        "simulate_games_per_s": games / elapsed,
    }


def advise_latencies(solver: object, count: int) -> list[float]:
    """Advice for ``count`` situations met in real games, each from a cold turn cache."""
    from yahtzee import BotSpec, RuleSet
    from yahtzee.service import GameSession
    from yahtzee.store import Seat

    situations = []
    rng = random.Random(5)
    bot = Seat("Bot", BotSpec.at_level(3))
    while len(situations) < count:
        session = GameSession.new([bot], RuleSet.official(), seed=rng.randrange(2**31))
        for move in session.bot_moves():  # each turn's first roll is a situation met in play
            turn = session.game.turn
            if move.dice is not None and turn is not None and turn.rolls == 1:
                situations.append(session.game.situation())
    latencies = []
    for situation in situations[:count]:
        solver._turns.clear()  # type: ignore[attr-defined]  # measure the whole computation
        start = time.perf_counter()
        solver.advise(situation)  # type: ignore[attr-defined]
        latencies.append(time.perf_counter() - start)
    return latencies


PEER = """
import json, random, statistics, time
import yatzy_solver as ys
variant = ys.Variant({variant!r})
builds = []
for _ in range({repeats}):
    t = time.perf_counter()
    solver = ys.Solver.build(variant)
    builds.append(time.perf_counter() - t)
logs = solver.simulate(400, seed=123, logs=True)["logs"]
sits = [line.split(" => ")[0] for game in logs for line in game if " => " in line]
random.Random(0).shuffle(sits)
sits = sits[:{situations}]
lat = []
for s in sits:
    t = time.perf_counter(); solver.option_values(s); lat.append(time.perf_counter() - t)
lat.sort()
solver.simulate(1000, seed=1)
t = time.perf_counter(); solver.simulate({games}, seed=2); dt = time.perf_counter() - t
from importlib.metadata import version
print(json.dumps({{
    "version": version("yatzy-solver"),
    "build_s": min(builds),
    "option_values_median_us": statistics.median(lat) * 1e6,
    "option_values_p99_us": lat[int(len(lat) * 0.99)] * 1e6,
    "simulate_games_per_s": {games} / dt,
    "value": solver.state_value("upper 0 | filled -"),
}}))
"""


def peer(games: int, situations: int, repeats: int) -> dict[str, float] | None:
    python = peer_python("yatzy-solver")
    if python is None:
        return None
    code = PEER.format(variant=PEER_VARIANT, repeats=repeats, situations=situations, games=games)
    return run_python(code, python=python)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--situations", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-peer", action="store_true")
    args = parser.parse_args()

    mine = ours(args.games, args.situations, args.repeats)
    print(f"yahtzee (official rules), {os.cpu_count()} cores")
    print(
        f"  table build, first run after install: {mine['build_first_run_s']:.2f} s "
        f"(with import and compiling: {mine['compile_and_build_first_run_s']:.2f} s)"
    )
    print(f"  table build, warm (compiled code cached): {mine['build_warm_s']:.3f} s")
    print(f"  cache load (fresh process, checksum verified): {mine['cache_load_ms']:.1f} ms")
    print(
        f"  advise latency over {args.situations} situations: median "
        f"{mine['advise_median_us']:.0f} us, p99 {mine['advise_p99_us']:.0f} us"
    )
    print(f"  simulate optimal: {mine['simulate_games_per_s']:,.0f} games/s")
    if args.no_peer:
        return
    other = peer(args.games, args.situations, args.repeats)
    if other is None:
        return
    print(f"yatzy-solver {other['version']} ({PEER_VARIANT}), same run")
    print(
        f"  Solver.build: {other['build_s']:.3f} s   -> ours is "
        f"{other['build_s'] / mine['build_warm_s']:.1f}x faster (warm)"
    )
    print(
        f"  option_values latency: median {other['option_values_median_us']:.1f} us, "
        f"p99 {other['option_values_p99_us']:.1f} us   -> ratio of p99 (ours/theirs) "
        f"{mine['advise_p99_us'] / other['option_values_p99_us']:.1f}"
    )
    print(
        f"  simulate: {other['simulate_games_per_s']:,.0f} games/s   -> ours is "
        f"{mine['simulate_games_per_s'] / other['simulate_games_per_s']:.2f}x"
    )
    print(f"  its expected score: {other['value']:.6f}")


if __name__ == "__main__":
    main()
