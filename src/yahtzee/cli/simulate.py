"""``yahtzee simulate``: many games of a strategy, their statistics and distribution."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core import MAX_LEVEL, MAX_PLAYERS, MIN_LEVEL, BotSpec, InvalidInput, RuleSet
from ._io import add_rules_option, print_json, seed, whole_number
from .progress import solver_progress, working

if TYPE_CHECKING:
    import numpy.typing as npt

    from ..solver import Simulation

MAX_GAMES = 10_000_000
PLOT_SIZE = (8, 4.5)  # inches
PLOT_DPI = 100
PLOT_BIN = 5  # points per bar of the plot
PLOT_MAX_SCORE = 1000  # the plot's bins reach this far
PLOT_MARGIN = 20  # points of axis beyond the highest score
PLOT_MIN_WIDTH = 100  # the narrowest score axis
HISTOGRAM_BIN = 20  # points per line of the text histogram
HISTOGRAM_WIDTH = 50  # characters of the longest bar


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "simulate",
        help="play many games with a strategy and print statistics",
        description="Play N games per seat and print mean, deviation, percentiles, bonus and "
        "Yahtzee rates (and win rates with several seats).",
    )
    parser.add_argument(
        "--strategy",
        default="optimal",
        metavar="NAME[,NAME...]",
        help=f"random, greedy, heuristic, optimal, level{MIN_LEVEL}-level{MAX_LEVEL}; a list "
        "gives one seat each",
    )
    parser.add_argument(
        "-n", "--games", type=whole_number(1, MAX_GAMES), default=10_000, metavar="N"
    )
    parser.add_argument("--seed", type=seed, default=0, help="a whole number (default 0)")
    parser.add_argument(
        "--players",
        type=whole_number(1, MAX_PLAYERS),
        metavar="K",
        help=f"seats (1-{MAX_PLAYERS}; default: one per strategy)",
    )
    parser.add_argument("--plot", metavar="FILE.png", help="plot the score distribution")
    add_rules_option(parser)
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.plot and Path(args.plot).suffix.lower() != ".png":
        raise InvalidInput("--plot writes a PNG file: give a name ending in .png.")
    names = [s for s in args.strategy.split(",") if s.strip()]
    if not names:
        raise InvalidInput("--strategy names a strategy, or several separated by commas.")
    players = len(names) if args.players is None else args.players
    if not 1 <= players <= MAX_PLAYERS:
        raise InvalidInput(f"--players takes 1 to {MAX_PLAYERS} seats.")
    if len(names) not in (1, players):
        raise InvalidInput(f"Give one strategy, or one per seat ({players}).")
    seats = names * players if len(names) == 1 else names
    specs = [BotSpec.parse(name) for name in seats]  # every mistake before numba loads
    rules = RuleSet.named(args.rules)
    from ..solver import simulate  # noqa: PLC0415 - numba loads only here

    start = time.perf_counter()
    with solver_progress(f"Solving {rules.name}") as progress:
        exact = any(spec.kind in {"optimal", "level"} for spec in specs)
        if progress is not None and exact:
            from ..solver import cached_solver  # noqa: PLC0415

            cached_solver(rules, progress=progress)  # any table to build, with its bar
    with working(f"Simulating {args.games:,} games"):
        result = simulate(seats, args.games, args.seed, rules)
    seconds = time.perf_counter() - start
    data = result.to_dict()
    data["seconds"] = seconds
    if args.plot:
        data["plot"] = plot(result, Path(args.plot))
    if args.json:
        print_json(data)
        return 0
    print(f"{result.games} games, {rules.name} rules, seed {args.seed}, {seconds:.2f} s")
    for index, seat in enumerate(data["seats"]):
        p = seat["percentiles"]
        win = f"  wins {seat['win_rate']:.1%}" if "win_rate" in seat else ""
        print(f"seat {index + 1} {seat['strategy']}: mean {seat['mean']:.2f} "
              f"(± {seat['std_error']:.2f}), sd {seat['std']:.2f}{win}")  # fmt: skip
        print(f"  percentiles 5/25/50/75/95: {p['5']:.0f} / {p['25']:.0f} / {p['50']:.0f} / "
              f"{p['75']:.0f} / {p['95']:.0f}; min {seat['min']}, max {seat['max']}")  # fmt: skip
        print(f"  upper bonus {seat['upper_bonus_rate']:.1%}, Yahtzee {seat['yahtzee_rate']:.1%}, "
              f"Yahtzee bonuses per game {seat['yahtzee_bonuses_per_game']:.3f}")  # fmt: skip
    if not args.plot:
        print(histogram(result.seats[0].totals))
    elif data["plot"] != str(args.plot):
        print(data["plot"])
    return 0


def plot(result: Simulation, path: Path) -> str:
    """A PNG of the score distribution with matplotlib, or a terminal histogram without."""
    try:
        import matplotlib  # noqa: PLC0415 - optional

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # noqa: PLC0415
    except ImportError:
        return "matplotlib is not installed; the distribution:\n" + histogram(
            result.seats[0].totals
        )
    figure, axes = plt.subplots(figsize=PLOT_SIZE, dpi=PLOT_DPI)
    for seat in result.seats:
        axes.hist(
            seat.totals, bins=range(0, PLOT_MAX_SCORE, PLOT_BIN), alpha=0.6, label=seat.strategy
        )
    highest = int(max(s.totals.max() for s in result.seats))
    axes.set_xlim(0, max(highest + PLOT_MARGIN, PLOT_MIN_WIDTH))
    axes.set_xlabel("final score")
    axes.set_ylabel("games")
    axes.set_title(f"{result.games} games, {result.rules.name} rules")
    axes.legend()
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
    return str(path)


def histogram(totals: npt.NDArray[np.int64], width: int = HISTOGRAM_WIDTH) -> str:
    """The distribution of scores as text bars, in bins of 20 points."""
    top_edge = int(totals.max()) + HISTOGRAM_BIN + 1
    counts, edges = np.histogram(totals, bins=range(0, top_edge, HISTOGRAM_BIN))
    top = counts.max()
    lines = []
    for count, low in zip(counts, edges[:-1], strict=True):
        if count:
            bar = "#" * max(1, round(width * count / top))
            lines.append(f"{int(low):4d}-{int(low) + HISTOGRAM_BIN - 1:<4d} {bar} {count}")
    return "\n".join(lines)
