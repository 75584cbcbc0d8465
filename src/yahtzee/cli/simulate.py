"""``yahtzee simulate``: many games of a strategy, their statistics and distribution (with
``--plot``, beside the exact distribution of optimal play)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core import MAX_LEVEL, MAX_PLAYERS, MIN_LEVEL, BotSpec, InvalidInput, RuleSet, Scorecard
from ..core.language import _
from ..render.numbers import decimal, percent
from ._io import add_rules_option, print_json, seed, whole_number
from .progress import compile_first, solver_progress
from .tables import build_left

if TYPE_CHECKING:
    import numpy.typing as npt

    from ..solver import ScoreDistribution, Simulation

MAX_GAMES = 10_000_000
PLOT_SIZE = (8, 4.5)  # inches
PLOT_DPI = 100
PLOT_BIN = 5  # points per bar of the plot
PLOT_MAX_SCORE = 1000  # the plot's bins reach this far
PLOT_MARGIN = 20  # points of axis beyond the highest score
PLOT_MIN_WIDTH = 100  # the narrowest score axis
HISTOGRAM_BIN = 20  # points per line of the text histogram
HISTOGRAM_WIDTH = 50  # characters of the longest bar
EXACT_MARK = "|"  # where the exact distribution puts a bar of the text histogram
FEWEST_SHOWN = 0.5  # games the exact distribution expects on a line with no game, to show it


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "simulate",
        help=_("play many games with a strategy and print statistics"),
        description=_(
            "Play N games per seat and print mean, deviation, percentiles, bonus and "
            "Yahtzee rates (and win rates with several seats). The winning strategy plays each "
            "decision for the best chance to finish first; with it the seats play turn by turn, "
            "and its two tables take minutes to build the first time (cached after). With "
            "--plot and an optimal seat, the plot also shows the exact distribution of optimal "
            "play (about a minute to compute the first time, cached after)."
        ),
    )
    parser.add_argument(
        "--strategy",
        default="optimal",
        metavar="NAME[,NAME...]",
        help=_(
            "random, greedy, heuristic, optimal, winning, level{low}-level{high}; "
            "a list gives one seat each"
        ).format(low=MIN_LEVEL, high=MAX_LEVEL),
    )
    parser.add_argument(
        "-n",
        "--games",
        type=whole_number(1, MAX_GAMES),
        default=10_000,
        metavar="N",
        help=_("games to play, 1 to {most} (default {default})").format(
            most=decimal(MAX_GAMES, 0), default=decimal(10_000, 0)
        ),
    )
    parser.add_argument("--seed", type=seed, default=0, help=_("a whole number (default 0)"))
    parser.add_argument(
        "--players",
        type=whole_number(1, MAX_PLAYERS),
        metavar="K",
        help=_("seats (1-{most}; default: one per strategy)").format(most=MAX_PLAYERS),
    )
    parser.add_argument(
        "--plot",
        metavar="FILE.png",
        help=_(
            "plot the score distribution (with the exact one of optimal play when a seat "
            "plays optimal)"
        ),
    )
    add_rules_option(parser)
    parser.add_argument("--json", action="store_true", help=_("print JSON"))
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.plot:
        _check_plot(Path(args.plot))
    seats = _seats(args)
    specs = [BotSpec.parse(name) for name in seats]  # every mistake before numba loads
    rules = RuleSet.named(args.rules)
    start = time.perf_counter()
    played = _play(seats, specs, rules, args)
    if played is None:
        print("\n" + _("Stopped (Ctrl-C) before any game was finished: nothing kept."),
              file=sys.stderr)  # fmt: skip
        return EXIT_INTERRUPTED
    result, stopped = played
    data = result.to_dict()
    data["seconds"] = time.perf_counter() - start
    if stopped:
        data.update(interrupted=True, games_asked=args.games)
    distribution = None
    if args.plot and any(spec.key in OPTIMAL for spec in specs):
        try:
            distribution = exact_distribution(rules)
            data["exact"] = {"strategy": "optimal", **distribution.to_dict()}
        except KeyboardInterrupt:  # the games are kept: they follow, without it
            print("\n" + _("Stopped (Ctrl-C) computing the exact distribution: the games "
                            "played follow without it."), file=sys.stderr)  # fmt: skip
            stopped = True
            data["interrupted"] = True
    if args.plot:
        data["plot"] = plot(result, Path(args.plot), distribution)
    if args.json:
        print_json(data)  # (numbers and keys only)
    else:
        _report(data, result, distribution, args)
    return EXIT_INTERRUPTED if stopped else 0


def _seats(args: argparse.Namespace) -> list[str]:
    """The strategy of each seat, from --strategy and --players."""
    names = [s for s in args.strategy.split(",") if s.strip()]
    if not names:
        raise InvalidInput(_("--strategy names a strategy, or several separated by commas."))
    players = len(names) if args.players is None else args.players
    if not 1 <= players <= MAX_PLAYERS:
        raise InvalidInput(_("--players takes 1 to {most} seats.").format(most=MAX_PLAYERS))
    if len(names) not in (1, players):
        raise InvalidInput(_("Give one strategy, or one per seat ({seats}).").format(seats=players))
    return names * players if len(names) == 1 else names


def _play(
    seats: list[str], specs: list[BotSpec], rules: RuleSet, args: argparse.Namespace
) -> tuple[Simulation, bool] | None:
    """The games played, each step with its bar (tables to build, the simulator to
    compile, the games), and whether a Ctrl-C stopped them first; None when it stopped
    them before any game was finished."""
    from ..solver import simulate  # noqa: PLC0415 - numba loads only here
    from ..solver.simulate import SimulationInterrupted  # noqa: PLC0415

    winning = any(spec.kind == "winning" for spec in specs)
    try:
        with solver_progress(_("Solving {rules}").format(rules=rules.name)) as progress:
            exact = any(spec.kind in {"optimal", "level", "winning"} for spec in specs)
            if progress is not None and exact:
                from ..solver import cached_solver  # noqa: PLC0415

                cached_solver(rules, progress=progress)  # any table to build, with its bar
        if winning:
            _winning_tables(rules)
        compile_first("match" if winning else "simulate", _("the simulator"))
        label = _("Simulating {count} games").format(count=decimal(args.games, 0))
        with solver_progress(label) as played:
            return simulate(seats, args.games, args.seed, rules, played=played), False
    except SimulationInterrupted as stop:
        if stop.partial is None:
            return None
        done = stop.partial.games
        stopped = _(
            "Stopped (Ctrl-C) after {done} of {asked} games: the statistics are "
            "those of the games played."
        ).format(done=decimal(done, 0), asked=decimal(args.games, 0))
        print("\n" + stopped, file=sys.stderr, flush=True)  # fmt: skip
        return stop.partial, True
    except KeyboardInterrupt:
        if winning:
            stopped = _("Stopped (Ctrl-C) while the win tables were made ready: {left}.")
            print("\n" + stopped.format(left=build_left()), file=sys.stderr)
        return None


def _report(
    data: dict[str, Any],
    result: Simulation,
    distribution: ScoreDistribution | None,
    args: argparse.Namespace,
) -> None:
    """The statistics as text: each seat's, the exact distribution's, the histogram."""
    edition = result.rules.edition
    five = edition.five_of_a_kind.display_name  # "Yahtzee", "Yatzy"
    print(_("{games} games, {rules} rules, seed {seed}, {seconds} s").format(
        games=result.games, rules=result.rules.name, seed=args.seed,
        seconds=_number(data["seconds"], 2)))  # fmt: skip
    for index, seat in enumerate(data["seats"]):
        p = seat["percentiles"]
        win = ("  " + _("wins {share}").format(share=percent(seat["win_rate"], 1))
               if "win_rate" in seat else "")  # fmt: skip
        print(_("seat {number} {strategy}: mean {mean} (± {error}), sd {sd}{wins}").format(
            number=index + 1, strategy=seat["strategy"], mean=_number(seat["mean"], 2),
            error=_number(seat["std_error"], 2), sd=_number(seat["std"], 2), wins=win))  # fmt: skip
        shown = " / ".join(_number(p[k], 0) for k in ("5", "25", "50", "75", "95"))
        print("  " + _("percentiles 5/25/50/75/95: {values}; min {low}, max {high}").format(
            values=shown, low=seat["min"], high=seat["max"]))  # fmt: skip
        rates = _("upper bonus {upper}, {five} {rate}").format(
            upper=percent(seat["upper_bonus_rate"], 1), five=five,
            rate=percent(seat["yahtzee_rate"], 1))  # fmt: skip
        if edition.extra_rules:
            rates += _(", {five} bonuses per game {count}").format(
                five=five, count=_number(seat["yahtzee_bonuses_per_game"], 3))  # fmt: skip
        print("  " + rates)
    if distribution is not None:
        p = distribution.percentiles()
        print(_("exact, optimal play: mean {mean}, sd {sd}; percentiles 5/25/50/75/95: "
                "{values}").format(
            mean=_number(distribution.mean, 2), sd=_number(distribution.std, 2),
            values=" / ".join(str(p[k]) for k in ("5", "25", "50", "75", "95"))))  # fmt: skip
    if not args.plot:
        print(seat_histograms(result))
    elif data["plot"] != str(args.plot):
        print(data["plot"])


EXIT_INTERRUPTED = 130  # the shell's status for a program stopped by Ctrl-C


OPTIMAL = frozenset({"optimal", f"level{MAX_LEVEL}"})
"""The strategies that play exactly as the solver: the exact distribution is theirs."""


def _winning_tables(rules: RuleSet) -> None:
    """The tables the winning strategy plays by, each built with its bar when missing (the
    simulation then finds them loaded)."""
    from ..solver.builds import may_detach  # noqa: PLC0415
    from ..solver.curve_table import cached_table  # noqa: PLC0415
    from ..solver.win_tables import ensure_tables  # noqa: PLC0415

    if may_detach(rules):  # both in the one background build (it goes on after a Ctrl-C)
        with solver_progress(
            _("Building the win tables ({rules})").format(rules=rules.name)
        ) as bar:
            ensure_tables(
                rules,
                progress=(lambda job, done, total: bar(done, total)) if bar else None,
                on_notice=lambda message: print(f"yahtzee: {message}", file=sys.stderr),
            )
    for kind in ("distribution", "target"):
        label = (
            _("Building the distribution table ({rules})")
            if kind == "distribution"
            else _("Building the target table ({rules})")
        )
        with solver_progress(label.format(rules=rules.name)) as progress:
            cached_table(kind, rules, progress=progress)


def exact_distribution(rules: RuleSet, card: Scorecard | None = None) -> ScoreDistribution:
    """The exact distribution of the final score of optimal play from ``card`` (the empty
    card: the start of every simulated game), with a bar while it is computed."""
    from ..solver import cached_solver  # noqa: PLC0415

    solver = cached_solver(rules)
    with solver_progress(_("Exact distribution ({rules})").format(rules=rules.name)) as progress:
        return solver.distribution(card or Scorecard.empty(rules), progress=progress)


def _check_plot(path: Path) -> None:
    """Before any game is played: ``--plot`` writes a PNG, drawn with matplotlib (an
    optional part)."""
    if path.suffix.lower() != ".png":
        raise InvalidInput(_("--plot writes a PNG file: give a name ending in .png."))
    try:
        import matplotlib  # noqa: F401, PLC0415 - optional
    except ImportError:
        raise InvalidInput(
            _(
                "--plot draws the picture with matplotlib, which is not installed: "
                "pip install '.[plot]' in the project's folder (or leave out --plot for a text "
                "histogram)."
            )
        ) from None


def plot(result: Simulation, path: Path, exact: ScoreDistribution | None = None) -> str:
    """A PNG of the score distribution with matplotlib, or a terminal histogram without;
    ``exact``: the exact distribution of optimal play, drawn over it as the number of games
    expected in each bar."""
    try:
        import matplotlib  # noqa: PLC0415 - optional

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # noqa: PLC0415
    except ImportError:
        return (
            _("matplotlib is not installed; the distribution:")
            + "\n"
            + histogram(result.seats[0].totals, exact=exact)
        )
    figure, axes = plt.subplots(figsize=PLOT_SIZE, dpi=PLOT_DPI)
    bins = range(0, PLOT_MAX_SCORE, PLOT_BIN)
    for number, seat in enumerate(result.seats, 1):
        axes.hist(
            seat.totals,
            bins=bins,
            alpha=0.6,
            label=_("seat {number} {strategy}").format(number=number, strategy=seat.strategy),
        )
    if exact is not None:
        edges = np.arange(0, PLOT_MAX_SCORE, PLOT_BIN)
        axes.stairs(
            expected_counts(exact, result.games, edges),
            edges,
            color="black",
            linewidth=1.2,
            label=_("exact, optimal play (mean {mean}, sd {sd})").format(
                mean=_number(exact.mean, 1), sd=_number(exact.std, 1)
            ),
        )
    highest = int(max(s.totals.max() for s in result.seats))
    axes.set_xlim(0, max(highest + PLOT_MARGIN, PLOT_MIN_WIDTH))
    axes.set_xlabel("final score")
    axes.set_ylabel("games")
    axes.set_title(
        _("{games} games, {rules} rules").format(games=result.games, rules=result.rules.name)
    )
    axes.legend()
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
    return str(path)


def expected_counts(
    exact: ScoreDistribution, games: int, bins: npt.NDArray[np.int64]
) -> npt.NDArray[np.float64]:
    """The games out of ``games`` that the exact distribution expects in each bin (the
    edges ``bins``; a bin holds its low edge, not its high one)."""
    points = np.arange(len(exact.pmf))
    counts, _edges = np.histogram(points, bins=bins, weights=exact.pmf)
    return games * np.asarray(counts, dtype=np.float64)


SEAT_MARKS = "#=*+o%@~"
"""The bar of each seat in the text histogram of several seats, seat 1 first."""


def seat_histograms(result: Simulation, width: int = HISTOGRAM_WIDTH) -> str:
    """The text histogram of the final scores: one seat's as `histogram`; several seats'
    with a legend, each bin a line per seat drawn with the seat's mark, all on one scale."""
    seats = result.seats
    if len(seats) == 1:
        return histogram(seats[0].totals, width)
    highest = max(int(seat.totals.max()) for seat in seats)
    edges = np.arange(0, highest + HISTOGRAM_BIN + 1, HISTOGRAM_BIN)
    counts = [np.histogram(seat.totals, bins=edges)[0] for seat in seats]
    top = max(int(c.max()) for c in counts)
    legend = ", ".join(
        SEAT_MARKS[i]
        + " "
        + _("seat {number} {strategy}").format(number=i + 1, strategy=seat.strategy)
        for i, seat in enumerate(seats)
    )
    lines = [
        _("Games per {bin} points of final score: {legend}").format(
            bin=HISTOGRAM_BIN, legend=legend
        )
    ]
    for index, low in enumerate(edges[:-1].tolist()):
        if not any(c[index] for c in counts):
            continue
        band = f"{low:4d}-{low + HISTOGRAM_BIN - 1:<4d} "
        for i, seat_counts in enumerate(counts):
            count = int(seat_counts[index])
            bar = SEAT_MARKS[i] * max(1, round(width * count / top)) if count else ""
            lines.append(f"{band if i == 0 else ' ' * len(band)}{bar} {count}")
    return "\n".join(lines)


def histogram(
    totals: npt.NDArray[np.int64],
    width: int = HISTOGRAM_WIDTH,
    exact: ScoreDistribution | None = None,
) -> str:
    """The distribution of scores as text bars, in bins of 20 points; ``exact``: a mark
    (``|``) on each line where the exact distribution expects the bar to end, and the
    games it expects there."""
    highest = max(int(totals.max()), 0 if exact is None else len(exact.pmf) - 1)
    edges = np.arange(0, highest + HISTOGRAM_BIN + 1, HISTOGRAM_BIN)
    counts, _edges = np.histogram(totals, bins=edges)
    expected = None if exact is None else expected_counts(exact, len(totals), edges)
    top = max(counts.max(), 0 if expected is None else expected.max())
    lines = []
    for index, low in enumerate(edges[:-1].tolist()):
        count = int(counts[index])
        wanted = None if expected is None else float(expected[index])
        if not count and (wanted is None or wanted < FEWEST_SHOWN):
            continue
        bar = "#" * max(1, round(width * count / top)) if count else ""
        line = f"{low:4d}-{low + HISTOGRAM_BIN - 1:<4d} "
        if wanted is None:
            lines.append(f"{line}{bar} {count}")
            continue
        mark = max(1, round(width * wanted / top))
        bar = bar.ljust(mark)
        bar = f"{bar[: mark - 1]}{EXACT_MARK}{bar[mark:]}"
        said = _("(exact {count})").format(count=_number(wanted, 0))
        lines.append(f"{line}{bar.ljust(width)} {count} {said}")
    return "\n".join(lines)


def _number(value: float, places: int) -> str:
    """A statistic with ``places`` decimals, as the language writes it (no grouping, as
    ever)."""
    return decimal(value, places, grouping=False)
