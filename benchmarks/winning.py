"""Playing to win: table builds, the head-to-head win share, decision and meter latency.

Run: ``python benchmarks/winning.py`` (``--games N`` for the head to head, default
200,000; ``--cache DIR`` to reuse tables built before instead of timing the builds).

1. Builds both score-curve tables of the official rules (``distribution`` then
   ``target``) twice, each time in a fresh process on both cores: from empty caches
   (numba's kernels compiled first, as a new user meets it), then with the kernels
   compiled (a new rule set, or ``yahtzee tables clear``); prints each build's time and
   each table's size on disk, and how long a fresh process takes to load both.
2. Plays ``winning`` against ``optimal`` head to head, turn by turn, the first seat
   alternating from game to game, and prints the ``winning`` seat's share of wins (a tie
   counts half) with its 95% confidence interval; then one ``winning`` against two and
   against three ``optimal`` players (a quarter of the games each), beside the share an
   equal player would have.
3. Times ``winning`` decisions (the strategy as a live game calls it: a fresh turn each
   time) and the win-chance meter for 2 and 4 players, p50 and p99.
4. The interim ``winning`` bot (before the tables are there: a normal approximation from
   the shipped tables, ``yahtzee.solver.interim``): its share against ``optimal`` the same
   way (compiled, turn by turn, seats alternating), its decision latency and the
   estimated meter's latency (``--interim-only``: this part alone, no table built).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from common import cold_env, run_python

BUILD = """
import json, time
from pathlib import Path
from yahtzee.core import RuleSet
from yahtzee.solver import cached_solver
from yahtzee.solver.curve_table import CurveTable, build
rules = RuleSet.official()
cached_solver(rules)  # the expected-value table ships: read, not built
found = {}
for kind in ("distribution", "target"):
    t = time.perf_counter()
    build(kind, rules).save()
    found[kind] = time.perf_counter() - t
    found[kind + "_mb"] = CurveTable.path_for(kind, rules).stat().st_size / 1e6
print(json.dumps(found))
"""
LOAD = """
import json, time
t = time.perf_counter()
from yahtzee.core import RuleSet
from yahtzee.solver.curve_table import CurveTable
for kind in ("distribution", "target"):
    CurveTable.read(kind, RuleSet.official())
print(json.dumps({"s": time.perf_counter() - t}))
"""


def share_interval(shares: list[float] | object) -> tuple[float, float]:
    import numpy as np

    values = np.asarray(shares, dtype=float)
    mean = float(values.mean())
    half = 1.96 * float(values.std(ddof=1)) / len(values) ** 0.5
    return mean, half


def seat_shares(totals: object, seat: int) -> object:
    """Per game: the share of the win of ``seat`` (ties shared)."""
    import numpy as np

    t = np.asarray(totals)
    best = t.max(axis=1, keepdims=True)
    winners = t == best
    return winners[:, seat] / winners.sum(axis=1)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--cache", type=Path, default=None)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--interim-only", action="store_true")
    args = parser.parse_args()
    if args.cache is not None:
        os.environ["YAHTZEE_CACHE_DIR"] = str(args.cache)

    import numpy as np

    from yahtzee.core import RuleSet
    from yahtzee.solver import cached_solver, simulate
    from yahtzee.solver.curve_table import cached_table
    from yahtzee.solver.winning import WinningStrategy, win_chances

    rules = RuleSet.official()
    cached_solver(rules)
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    if args.interim_only:
        interim(args.games, args.seed, rules)
        return
    if args.cache is None:
        cold = cold_env()
        for label, env in (("from empty caches", cold), ("kernels compiled", {**cold})):
            env["YAHTZEE_CACHE_DIR"] = str(Path(tempfile.mkdtemp(prefix="yahtzee-win-")))
            built = run_python(BUILD, env)
            for kind in ("distribution", "target"):
                print(f"{kind} table, {label}: built in {built[kind]:.1f} s, "
                      f"{built[kind + '_mb']:.0f} MB on disk")  # fmt: skip
            print(f"both tables, {label}: {built['distribution'] + built['target']:.1f} s, "
                  f"{built['distribution_mb'] + built['target_mb']:.0f} MB")  # fmt: skip
        os.environ["YAHTZEE_CACHE_DIR"] = env["YAHTZEE_CACHE_DIR"]
    warm = run_python(LOAD)
    print(f"both tables loaded from the cache in a fresh process (checked): {warm['s']:.1f} s")
    tables = (cached_table("distribution", rules), cached_table("target", rules))
    t0 = time.perf_counter()
    head = simulate(["winning", "optimal"], args.games, args.seed, rules, tables=tables)
    took = time.perf_counter() - t0
    totals = np.stack([s.totals for s in head.seats], axis=1)
    mean, half = share_interval(seat_shares(totals, 0))
    print(
        f"winning vs optimal, {args.games:,} games ({took:.0f} s): winning's share "
        f"{100 * mean:.2f}% ± {100 * half:.2f}% (95% CI {100 * (mean - half):.2f}%"
        f" to {100 * (mean + half):.2f}%); mean totals {totals[:, 0].mean():.2f} vs "
        f"{totals[:, 1].mean():.2f}"
    )
    for rivals in (2, 3):
        games = max(args.games // 4, 1000)
        names = ["winning"] + ["optimal"] * rivals
        t0 = time.perf_counter()
        result = simulate(names, games, args.seed + rivals, rules, tables=tables)
        took = time.perf_counter() - t0
        totals = np.stack([s.totals for s in result.seats], axis=1)
        mean, half = share_interval(seat_shares(totals, 0))
        print(
            f"winning vs {rivals} optimal, {games:,} games ({took:.0f} s): winning's share "
            f"{100 * mean:.2f}% ± {100 * half:.2f}% (an equal player: "
            f"{100 / (rivals + 1):.2f}%)"
        )

    # decision and meter latency on positions from real games
    rng = random.Random(args.seed)
    from yahtzee.core import Game
    from yahtzee.solver import strategy

    optimal = strategy("optimal", rules, 1)
    winning = WinningStrategy(rules)
    decide: list[float] = []
    meter2: list[float] = []
    meter4: list[float] = []
    for g in range(60):
        game = Game(["a", "b", "c", "d"], rules, random.Random(rng.randrange(2**31)))
        while not game.is_over:
            situation = game.situation()
            if situation is None:
                game.roll()
                continue
            me = game.current_player
            rivals = [c for p, c in enumerate(game.cards) if p != me]
            t0 = time.perf_counter()
            action = winning.choose_against(situation, rivals[:1] if g % 2 else rivals)
            decide.append(time.perf_counter() - t0)
            game.play(action if g % 3 else optimal.choose(situation))
            if game.situation() is None:
                t0 = time.perf_counter()
                win_chances(game.cards[:2], tables[0])
                meter2.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                win_chances(game.cards, tables[0])
                meter4.append(time.perf_counter() - t0)
    ms = 1000.0
    print(
        f"winning decision: p50 {ms * statistics.median(decide):.2f} ms, "
        f"p99 {ms * percentile(decide, 99):.2f} ms ({len(decide)} decisions)"
    )
    print(
        f"meter update: 2 players p99 {ms * percentile(meter2, 99):.2f} ms, "
        f"4 players p99 {ms * percentile(meter4, 99):.2f} ms"
    )
    interim(args.games, args.seed, rules)


def interim(games: int, seed: int, rules: object) -> None:
    """Part 4: the interim bot's head to head against ``optimal`` and its latencies."""
    import numpy as np

    from yahtzee.core import Game, RuleSet
    from yahtzee.solver import strategy
    from yahtzee.solver.interim import estimate_chances, interim_options
    from yahtzee.solver.interim_match import simulate_interim

    assert isinstance(rules, RuleSet)
    t0 = time.perf_counter()
    simulate_interim(["winning", "optimal"], 2, seed, rules)  # compiled (or loaded) first
    print(f"interim kernels compiled or loaded in {time.perf_counter() - t0:.1f} s")
    t0 = time.perf_counter()
    totals = simulate_interim(["winning", "optimal"], games, seed, rules)
    took = time.perf_counter() - t0
    mean, half = share_interval(seat_shares(totals, 0))
    print(
        f"interim winning vs optimal, {games:,} games ({took:.0f} s): its share "
        f"{100 * mean:.2f}% ± {100 * half:.2f}% (95% CI {100 * (mean - half):.2f}%"
        f" to {100 * (mean + half):.2f}%); mean totals {totals[:, 0].mean():.2f} vs "
        f"{totals[:, 1].mean():.2f}"
    )
    rng = random.Random(seed)
    optimal = strategy("optimal", rules, 1)
    decide: list[float] = []
    meter2: list[float] = []
    meter4: list[float] = []
    for g in range(40):
        game = Game(["a", "b", "c", "d"], rules, random.Random(rng.randrange(2**31)))
        while not game.is_over:
            situation = game.situation()
            if situation is None:
                game.roll()
                continue
            me = game.current_player
            rivals = [c for p, c in enumerate(game.cards) if p != me]
            t0 = time.perf_counter()
            interim_options(situation, rivals[:1] if g % 2 else rivals, rules)
            decide.append(time.perf_counter() - t0)
            game.play(optimal.choose(situation))
            if game.situation() is None:
                t0 = time.perf_counter()
                estimate_chances(game.cards[:2], rules)  # (late: exact distributions)
                meter2.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                estimate_chances(game.cards, rules)
                meter4.append(time.perf_counter() - t0)
    ms = 1000.0
    print(
        f"interim decision: p50 {ms * statistics.median(decide):.2f} ms, "
        f"p99 {ms * percentile(decide, 99):.2f} ms ({len(decide)} decisions)"
    )
    print(
        f"estimated meter: 2 players p50 {ms * statistics.median(meter2):.2f} ms, p99 "
        f"{ms * percentile(meter2, 99):.2f} ms; 4 players p99 "
        f"{ms * percentile(meter4, 99):.2f} ms"
    )
    empty = tempfile.mkdtemp(prefix="yahtzee-cold-")
    cold = run_python(
        """
        import json, time
        t = time.perf_counter()
        from yahtzee.core import Category, Keep, RuleSet, Score
        from yahtzee.service import GameSession
        from yahtzee.store import Seat
        session = GameSession.new([Seat("Ann"), Seat("Bob")], RuleSet.official(), seed=1)
        session.act(Keep.NONE)  # the first roll
        session.act(Score(Category.CHANCE))
        start = time.perf_counter()
        reading = session.meter()
        print(json.dumps({"s": time.perf_counter() - start, "all": time.perf_counter() - t,
                          "estimate": reading.estimate, "chances": reading.chances}))
        """,
        env={
            "NUMBA_CACHE_DIR": f"{empty}/numba",
            "YAHTZEE_CACHE_DIR": f"{empty}/yahtzee",
            "XDG_CACHE_HOME": f"{empty}/cache",
            "XDG_DATA_HOME": f"{empty}/data",
            "YAHTZEE_NO_TABLE_BUILDS": "1",
        },
    )
    print(
        f"estimated meter from empty caches, fresh process: first read after a placement "
        f"{cold['s']:.2f} s ({cold['all']:.2f} s with the imports; estimate: "
        f"{cold['estimate']}) (numpy {np.__version__})"
    )


if __name__ == "__main__":
    main()
