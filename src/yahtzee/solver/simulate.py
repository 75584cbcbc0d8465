"""Many games at compiled speed, for every strategy, and their statistics."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core import (
    UPPER_BONUS_THRESHOLD,
    BotSpec,
    InvalidInput,
    RuleSet,
    Scorecard,
)
from ..core.language import _
from .curve_table import CurveTable, cached_table
from .layout import LOG_WIDTH
from .planner import state_of
from .solver import Progress, cached_solver, table_shape
from .strategies import LEVEL_TEMPERATURES, _heuristic, strategy_name
from .tables import card_shape, model

PERCENTILES = (1, 5, 25, 50, 75, 95, 99)
I64 = npt.NDArray[np.int64]


@dataclass(frozen=True)
class SeatResult:
    strategy: str
    totals: I64
    uppers: I64
    yahtzees: I64
    bonuses: I64
    bonus_threshold: int = UPPER_BONUS_THRESHOLD
    """The upper subtotal that earns the upper bonus (the rules' edition's)."""

    def summary(self) -> dict[str, Any]:
        totals = self.totals
        n = len(totals)
        return {
            "strategy": self.strategy,
            "games": n,
            "mean": float(totals.mean()),
            "std": float(totals.std(ddof=1)) if n > 1 else 0.0,
            "std_error": float(totals.std(ddof=1) / np.sqrt(n)) if n > 1 else 0.0,
            "min": int(totals.min()),
            "max": int(totals.max()),
            "percentiles": {str(p): float(np.percentile(totals, p)) for p in PERCENTILES},
            "upper_bonus_rate": float((self.uppers >= self.bonus_threshold).mean()),
            "yahtzee_rate": float(self.yahtzees.mean()),
            "yahtzee_bonuses_per_game": float(self.bonuses.mean()),
        }


@dataclass(frozen=True)
class Simulation:
    """The result of ``simulate``: each seat's totals and bonuses over every game, and the wins."""

    rules: RuleSet
    seed: int
    seats: tuple[SeatResult, ...]

    @property
    def games(self) -> int:
        """How many games were played."""
        return len(self.seats[0].totals)

    def win_rates(self) -> list[float]:
        """Each seat's share of wins; a shared win counts 1/k to each of the k winners."""
        totals = np.stack([seat.totals for seat in self.seats], axis=1)
        best = totals.max(axis=1, keepdims=True)
        winners = totals == best
        shares = winners / winners.sum(axis=1, keepdims=True)
        return [float(x) for x in shares.mean(axis=0)]

    def to_dict(self) -> dict[str, Any]:
        """The rule set, seed, games and each seat's summary as JSON-ready data."""
        data: dict[str, Any] = {
            "rules": self.rules.name,
            "seed": self.seed,
            "games": self.games,
            "seats": [seat.summary() for seat in self.seats],
        }
        if len(self.seats) > 1:
            for seat, rate in zip(data["seats"], self.win_rates(), strict=True):
                seat["win_rate"] = rate
        return data


def _kernel_args(
    name: str, rules: RuleSet, progress: Progress | None
) -> tuple[npt.NDArray[np.float64], float, bool]:
    if name == "random":
        return np.zeros(table_shape(rules)), 0.0, True
    if name == "greedy":
        return np.zeros(table_shape(rules)), 0.0, False
    if name == "heuristic":
        return _heuristic(rules), 0.0, False
    level = BotSpec.parse(name).level
    temperature = LEVEL_TEMPERATURES[level] if level is not None else 0.0
    return cached_solver(rules, progress=progress).table, temperature, False


def simulate(
    strategies: Sequence[str],
    games: int,
    seed: int = 0,
    rules: RuleSet | None = None,
    *,
    progress: Progress | None = None,
    start: Scorecard | None = None,
    tables: tuple[CurveTable, CurveTable] | None = None,
    played: Progress | None = None,
) -> Simulation:
    """Play ``games`` games with one seat per strategy (each seat plays its own card with
    its own dice; they compare totals at the end). ``progress`` hears of the solver's
    build when a strategy needs a table that is not cached yet.

    With a strategy that looks at the others (``winning``), or a ``start`` card for every
    seat, the seats play turn by turn as in a real game (the first seat rotates from game
    to game); ``tables`` are its ``distribution`` and ``target`` tables (by default the
    cached ones, built on first use).

    The games are played in calls of a fraction of a second: ``played`` hears
    ``(games done, games)`` after each, and a Ctrl-C stops the simulation within a second
    (`SimulationInterrupted`, holding the games finished before it)."""
    rule_set = rules or RuleSet.official()
    if games < 1:
        raise InvalidInput(_("Simulate at least one game."))
    if not 0 <= seed < 2**31:
        raise InvalidInput(_("The seed is a whole number from 0 to 2147483647."))
    names = [strategy_name(raw) for raw in strategies]
    if "winning" in names or start is not None:
        return _match(names, games, seed, rule_set, progress, start, tables, played)
    from . import policy  # noqa: PLC0415 - numba loads (and compiles) only to simulate
    from .compiling import compile_aside  # noqa: PLC0415

    plays = [_kernel_args(name, rule_set, progress) for name in names]
    compile_aside("simulate")  # the first time after an install: in a child process
    out = [[np.zeros(games, dtype=np.int64) for _ in range(4)] for _ in names]
    no_log = np.zeros((0, card_shape(rule_set).n_boxes, LOG_WIDTH), dtype=np.int64)
    m = model(rule_set)

    def play(first: int, count: int) -> None:
        for index, (table, temperature, uniform) in enumerate(plays):
            totals, uppers, yahtzees, bonuses = (c[first : first + count] for c in out[index])
            policy.simulate(count, first, seed, index, table, m, temperature, uniform, totals,
                            uppers, yahtzees, bonuses, no_log)  # fmt: skip

    def result(done: int) -> Simulation:
        threshold = rule_set.edition.upper_bonus_threshold
        seats = []
        for index, name in enumerate(names):
            totals, uppers, yahtzees, bonuses = (column[:done] for column in out[index])
            seats.append(SeatResult(name, totals, uppers, yahtzees, bonuses, threshold))
        return Simulation(rule_set, seed, tuple(seats))

    return result(_in_chunks(games, play, played, result))


CHUNK_S = 0.2
"""About how long one call of a compiled loop of games runs: numba's loop does not look at
signals, so a Ctrl-C is heard between two calls (within a second), and progress told."""
FIRST_CHUNK = 64
"""The games of the first call; the next calls are sized on its time."""
GROWTH = 8
"""At most this many times the games of the call before (while the pace is learnt)."""


class SimulationInterrupted(KeyboardInterrupt):
    """A Ctrl-C during `simulate`: ``partial`` is the simulation of the games finished
    before it (every seat's, the same games), None when none was."""

    def __init__(self, partial: Simulation | None) -> None:
        super().__init__()
        self.partial = partial


def _in_chunks(
    games: int,
    play: Callable[[int, int], None],
    played: Progress | None,
    result: Callable[[int], Simulation],
) -> int:
    """Play ``games`` games by calls of ``play(first, count)`` of about `CHUNK_S` each,
    telling ``played`` the games done after each; returns the games played (all of them).
    A Ctrl-C between or during the calls raises `SimulationInterrupted` with the games
    finished before it (a call the Ctrl-C came in does finish first: its games count only
    once it has returned)."""
    done, size = 0, FIRST_CHUNK
    try:
        while done < games:
            count = min(size, games - done)
            began = time.perf_counter()
            play(done, count)
            done += count
            took = time.perf_counter() - began
            size = max(1, min(size * GROWTH, round(count * CHUNK_S / max(took, 1e-6))))
            if played is not None:
                played(done, games)
    except KeyboardInterrupt:
        raise SimulationInterrupted(result(done) if done else None) from None
    return done


def compile_match() -> None:
    """Compile the turn-by-turn simulation (on the tables of a late card: seconds)."""
    from .curve_table import build  # noqa: PLC0415
    from .winning import late_card  # noqa: PLC0415

    rules, card = RuleSet.official(), late_card()
    mask = state_of(card)[0]
    tables = (build("distribution", rules, base_mask=mask), build("target", rules, base_mask=mask))
    simulate(["winning", "optimal"], 1, 0, start=card, tables=tables)


def _match(  # noqa: PLR0917 - the arguments of simulate, passed on
    names: list[str],
    games: int,
    seed: int,
    rules: RuleSet,
    progress: Progress | None,
    start: Scorecard | None,
    tables: tuple[CurveTable, CurveTable] | None,
    played: Progress | None,
) -> Simulation:
    from . import match_kernel, win_kernel  # noqa: PLC0415 - numba loads only to simulate
    from .compiling import compile_aside  # noqa: PLC0415

    n = len(names)
    kinds: list[int] = []
    temperatures: list[float] = []
    uniform: list[bool] = []
    seat_tables: list[npt.NDArray[np.float64]] = []
    for name in names:
        if name == "winning":
            kinds.append(win_kernel.WINNING)
            temperatures.append(0.0)
            uniform.append(False)
            continue
        table, temperature, plays_random = _kernel_args(name, rules, progress)
        kinds.append(len(seat_tables))
        seat_tables.append(table)
        temperatures.append(temperature)
        uniform.append(plays_random)
    if "winning" in names:
        distribution, target = tables or (
            cached_table("distribution", rules, progress=progress),
            cached_table("target", rules, progress=progress),
        )
    else:
        distribution = target = CurveTable.blank(rules)
    card = start or Scorecard.empty(rules)
    mask, yf, _unused = state_of(card)
    upper = sum(card.boxes[c] or 0 for c in rules.edition.upper)
    compile_aside("match")
    out = [np.zeros((games, n), dtype=np.int64) for _ in range(4)]
    none = np.zeros(1)  # no interim seat: its tables are not read
    m = model(rules)
    kind_of, heat = np.array(kinds, dtype=np.int64), np.array(temperatures)
    at_random = np.array(uniform)
    by_table = np.stack(seat_tables or [np.zeros(table_shape(rules))])
    opening = np.array([mask, yf, upper, card.total], dtype=np.int64)

    def play(first: int, count: int) -> None:
        totals, uppers, yahtzees, bonuses = (column[first : first + count] for column in out)
        match_kernel.simulate_match(
            count, first, seed, 0, kind_of, heat, at_random, by_table, m,
            distribution.levels, distribution.start, distribution.lo, distribution.hi,
            target.levels, target.start, target.lo, target.hi, distribution.cap, none, none,
            opening, totals, uppers, yahtzees, bonuses,
        )  # fmt: skip

    def result(done: int) -> Simulation:
        totals, uppers, yahtzees, bonuses = (column[:done] for column in out)
        threshold = rules.edition.upper_bonus_threshold
        seats = tuple(
            SeatResult(name, totals[:, i], uppers[:, i], yahtzees[:, i], bonuses[:, i], threshold)
            for i, name in enumerate(names)
        )
        return Simulation(rules, seed, seats)

    return result(_in_chunks(games, play, played, result))
