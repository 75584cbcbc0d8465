"""Solver benchmark: build (first run and warm), cache load, advise latency, simulation.

Run: ``python benchmarks/solver.py`` (add ``--no-peer`` to skip the comparison).

It first times the cold path as a new user meets it: ``yahtzee advise 13356 2`` in a fresh
process with empty caches, then again warm, beside the peer's first answer from a fresh
process. It also installs the Rust solver ``yatzy-solver`` from PyPI into a throwaway virtual
environment and measures it in the same run: its ``Solver.build`` time, its
``option_values`` latency and its ``simulate`` throughput, printed as ratios. The peer is
for this benchmark only, never a dependency of the project.

Advice is timed on the compiled kernels (``use_compiled_kernels()``, as bulk work and a
warm server use them; a fresh process answers in numpy until then), each call from a cold
turn cache, so every advice solves its whole turn, as the peer's ``option_values`` does
(asking it the same situation again is no quicker). ``advise`` returns its options valued
and ranked, and makes their Python objects on first use; the figure with every option
read is printed too. The peer is timed on its own logged situations (0 to 2 rolls left)
and on ours (first rolls, 2 rolls left: the whole turn matters), converted to its notation.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

from common import PEER_FIRST_ANSWER, cold_env, peer_python, run_python, timed

if TYPE_CHECKING:
    from yahtzee import Situation
    from yahtzee.solver import Solver

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


def ours(games: int, situations: int, repeats: int) -> tuple[dict[str, float], str]:
    """Our figures, and a file with the advised situations in the peer's notation (with
    our best value of each, less the points already scored, to check they match)."""
    numba_cache = tempfile.mkdtemp(prefix="numba-cold-")
    table_cache = tempfile.mkdtemp(prefix="yahtzee-table-")
    env = {"NUMBA_CACHE_DIR": numba_cache, "YAHTZEE_CACHE_DIR": table_cache}
    cold = run_python(BUILD, env)  # first run after install: kernels compile
    warm = min((run_python(BUILD, env) for _ in range(repeats)), key=lambda r: r["build"])
    os.environ.update(env)

    from yahtzee import RuleSet
    from yahtzee.solver import Solver, simulate, use_compiled_kernels
    from yahtzee.solver.solver import cached_solver

    rules = RuleSet.official()
    Solver.load(rules)  # writes the cache
    loads = [run_python(LOAD, env)["load"] for _ in range(5)]  # each in a fresh process
    solver = cached_solver(rules)
    use_compiled_kernels()  # advice on the compiled kernels (numba's cache, compiled above)
    advised = real_situations(situations)
    latencies, read_all = advise_latencies(solver, advised)
    shared = {
        "texts": [peer_notation(s) for s in advised],
        "best_future": [solver.advise(s).best.value - s.card.total for s in advised],
    }
    shared_path = os.path.join(tempfile.mkdtemp(prefix="yahtzee-situations-"), "shared.json")
    with open(shared_path, "w") as file:
        json.dump(shared, file)
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
        "advise_all_median_us": statistics.median(read_all) * 1e6,
        "advise_all_p99_us": percentile(read_all, 99) * 1e6,
        "simulate_games_per_s": games / elapsed,
    }, shared_path


def real_situations(count: int) -> list[Situation]:
    """``count`` situations met in real games: each turn's first roll, a level-3 bot playing."""
    from yahtzee import BotSpec, RuleSet
    from yahtzee.service import GameSession
    from yahtzee.store import Seat

    situations: list[Situation] = []
    rng = random.Random(5)
    bot = Seat("Bot", BotSpec.at_level(3))
    while len(situations) < count:
        session = GameSession.new([bot], RuleSet.official(), seed=rng.randrange(2**31))
        for move in session.bot_moves():
            turn, situation = session.game.turn, session.game.situation()
            first_roll = move.dice is not None and turn is not None and turn.rolls == 1
            if first_roll and situation is not None:
                situations.append(situation)
    return situations[:count]


def advise_latencies(
    solver: Solver, situations: list[Situation]
) -> tuple[list[float], list[float]]:
    """The latency of ``advise`` for each situation, each from a cold turn cache, and of
    ``advise`` with every option read as Python objects."""
    latencies, read_all = [], []
    for situation in situations:
        solver._turns.clear()  # measure the whole computation
        start = time.perf_counter()
        solver.advise(situation)
        latencies.append(time.perf_counter() - start)
    for situation in situations:
        solver._turns.clear()
        start = time.perf_counter()
        solver.advise(situation).options  # noqa: B018 - made on first use
        read_all.append(time.perf_counter() - start)
    return latencies, read_all


def peer_notation(situation: Situation) -> str:
    """A situation in the peer's notation (its box names; Yahtzee is ``five_of_a_kind``)."""
    from yahtzee import Category

    card = situation.card
    names = {c: "five_of_a_kind" if c is Category.YAHTZEE else c.key for c in Category}
    filled = ",".join(names[c] for c in Category if card[c] is not None) or "-"
    text = (
        f"dice {situation.dice.spaced()} | rolls {situation.rolls_left} | "
        f"upper {card.upper_subtotal} | filled {filled}"
    )
    if card[Category.YAHTZEE] is not None:
        text += f" | five_of_a_kind {card[Category.YAHTZEE]}"
    return text


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
with open({ours_path!r}) as file:
    ours = json.load(file)  # the situations we time, in its notation
def latencies(texts):
    lat = []
    for s in texts:
        t = time.perf_counter(); solver.option_values(s); lat.append(time.perf_counter() - t)
    lat.sort()
    return statistics.median(lat) * 1e6, lat[int(len(lat) * 0.99)] * 1e6
own = latencies(sits)
same = latencies(ours["texts"])
gap = max(
    abs(max(v for _, v in solver.option_values(s)) - best)
    for s, best in zip(ours["texts"], ours["best_future"])
)
solver.simulate(1000, seed=1)
t = time.perf_counter(); solver.simulate({games}, seed=2); dt = time.perf_counter() - t
from importlib.metadata import version
print(json.dumps({{
    "version": version("yatzy-solver"),
    "build_s": min(builds),
    "option_values_median_us": own[0],
    "option_values_p99_us": own[1],
    "same_median_us": same[0],
    "same_p99_us": same[1],
    "same_best_gap": gap,
    "simulate_games_per_s": {games} / dt,
    "value": solver.state_value("upper 0 | filled -"),
}}))
"""


def peer(
    python: str, games: int, situations: int, repeats: int, ours_path: str
) -> dict[str, float]:
    code = PEER.format(
        variant=PEER_VARIANT,
        repeats=repeats,
        situations=situations,
        games=games,
        ours_path=ours_path,
    )
    return run_python(code, python=python)


def first_answers(runs: int) -> tuple[float, float]:
    """Time to the first answer of ``yahtzee advise 13356 2`` in a fresh process, the
    medians over ``runs``: cold (empty caches, as on a fresh install) and warm (again)."""
    command = [str(Path(sys.executable).with_name("yahtzee")), "advise", "13356", "2"]
    colds, warms = [], []
    for _ in range(runs):
        env = cold_env()
        colds.append(timed(command, env))
        warms.append(timed(command, env))
    return statistics.median(colds), statistics.median(warms)


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

    cold, warm = first_answers(args.repeats)
    mine, shared_path = ours(args.games, args.situations, args.repeats)
    print(f"yahtzee (official rules), {os.cpu_count()} cores")
    print(
        f"  first answer, fresh process (yahtzee advise 13356 2): cold (empty caches) "
        f"{cold:.2f} s, warm {warm:.2f} s"
    )
    print(
        f"  table build, first run after install: {mine['build_first_run_s']:.2f} s "
        f"(with import and compiling: {mine['compile_and_build_first_run_s']:.2f} s)"
    )
    print(f"  table build, warm (compiled code cached): {mine['build_warm_s']:.3f} s")
    print(f"  cache load (fresh process, checksum verified): {mine['cache_load_ms']:.1f} ms")
    print(
        f"  advise latency over {args.situations} situations (compiled kernels, cold turn "
        f"cache): median {mine['advise_median_us']:.1f} us, p99 {mine['advise_p99_us']:.1f} us"
    )
    print(
        f"  the same, every option read as Python objects: median "
        f"{mine['advise_all_median_us']:.1f} us, p99 {mine['advise_all_p99_us']:.1f} us"
    )
    print(f"  simulate optimal: {mine['simulate_games_per_s']:,.0f} games/s")
    if args.no_peer:
        return
    python = peer_python("yatzy-solver")
    if python is None:
        return
    other = peer(python, args.games, args.situations, args.repeats, shared_path)
    print(f"yatzy-solver {other['version']} ({PEER_VARIANT}), same run")
    runs = [timed([python, "-c", PEER_FIRST_ANSWER], dict(os.environ)) for _ in range(3)]
    first = statistics.median(runs)
    print(
        f"  first answer, fresh process (it builds its table each time): {first:.2f} s   "
        f"-> ours is {first / cold:.1f}x faster cold, {first / warm:.1f}x warm"
    )
    print(
        f"  Solver.build: {other['build_s']:.3f} s   -> ours is "
        f"{other['build_s'] / mine['build_warm_s']:.1f}x faster (warm)"
    )
    ours_p99, ours_all_p99 = mine["advise_p99_us"], mine["advise_all_p99_us"]
    print("  option_values latency (from text; every option as a Python pair; no turn kept):")
    sets = (
        ("its own logged situations (0-2 rolls left)", "option_values_"),
        ("the same situations as ours (2 rolls left)", "same_"),
    )
    for label, key in sets:
        median, p99 = other[f"{key}median_us"], other[f"{key}p99_us"]
        print(
            f"    {label}: median {median:.1f} us, p99 {p99:.1f} us   -> p99 ours/theirs "
            f"{ours_p99 / p99:.2f} (every option read: {ours_all_p99 / p99:.2f})"
        )
    print(f"    (its best values on ours differ from ours by at most {other['same_best_gap']:.1e})")
    print(
        f"  simulate: {other['simulate_games_per_s']:,.0f} games/s   -> ours is "
        f"{mine['simulate_games_per_s'] / other['simulate_games_per_s']:.2f}x"
    )
    print(f"  its expected score: {other['value']:.6f}")


if __name__ == "__main__":
    main()
