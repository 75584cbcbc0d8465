"""Playing to win: the chance of each player to win, and the ``winning`` strategy.

* `win_chances`: each player's chance to finish first if everyone plays the
  expected-value-optimal way from here (ties shared), from the ``distribution`` table;
* `WinningStrategy`: each decision maximises the chance to finish ahead of the
  best of the other players' final totals. The method (Holderied's "beat an opponent",
  Pawlewicz's multi-player heuristic): the others' final totals are taken as independent
  and distributed as under expected-value play from their current cards (the
  ``distribution`` table), and the bot's own chance of reaching each total is its best
  chance for that very total (the ``target`` table). The sum over totals of "chance the
  best rival ends there" times "my best chance to beat it" is an upper bound of what one
  policy can reach (each total gets its own best play), and the bot picks the option
  with the highest such sum; re-deciding at every step keeps it close.

Both tables are built on first use (minutes); until then the strategy plays by the
interim method of `interim` (a normal approximation from the shipped tables) and
says so (`WinningStrategy.method`), and the meter shows an estimate.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from ..core import Action, Category, Dice, RuleSet, Scorecard, Situation
from . import builds, win_tables
from .advice import TIE, actions_for
from .curve_table import CurveTable, cached_table, table_loaded
from .interim import (
    EV_METHOD,
    EXACT_METHOD,
    INTERIM_METHOD,
    can_estimate,
    chances_of,
    interim_options,
    kernels_ready,
)
from .planner import state_of
from .solver import cached_solver
from .tables import model

F64 = npt.NDArray[np.float64]
_log = logging.getLogger(__name__)


def final_pmf(card: Scorecard, table: CurveTable) -> F64:
    """P(final total = t) for t from 0, everyone playing for expected points (a future
    beyond the table's cap counts as the cap)."""
    if card.is_complete:
        pmf = np.zeros(card.total + 1)
        pmf[-1] = 1.0
        return pmf
    survival = table.curve(card, table.cap + 2)
    return np.concatenate((np.zeros(card.total), survival[:-1] - survival[1:]))


def win_chances(cards: Sequence[Scorecard], table: CurveTable) -> list[float]:
    """Each player's chance to finish first (a tie of k players gives each 1/k)."""
    return chances_of([final_pmf(card, table) for card in cards])


def beat_chance(card: Scorecard, score: int, table: CurveTable) -> float:
    """The chance to finish above ``score`` playing for expected points (solo: your best)."""
    pmf = final_pmf(card, table)
    return float(pmf[score + 1 :].sum()) if score + 1 < len(pmf) else 0.0


# Tables, built aside: see .win_tables (the names of old, for their callers)

NO_BUILDS_ENV = builds.NO_BUILDS_ENV
request_tables = win_tables.request_tables
table_progress = win_tables.table_progress

# The strategy -------------------------------------------------------------------------


@dataclass
class WinningStrategy:
    """Plays each decision for the best chance to finish first (see the module's notes)."""

    rules: RuleSet
    name: str = "winning"
    tables: tuple[CurveTable, CurveTable] | None = field(default=None, repr=False)
    """The ``distribution`` and ``target`` tables (by default the process's, built aside
    on first use)."""

    def choose(self, situation: Situation) -> Action:
        """Alone, there is nobody to beat: the expected-value choice."""
        return cached_solver(self.rules).choose(situation)

    method: str = field(default=EXACT_METHOD, init=False)
    """How the last decision against others was made: `interim.EXACT_METHOD`, or
    until the tables are there `interim.INTERIM_METHOD` (the expected-value way
    where neither is at hand: rules with no shipped variance table, or its kernels are
    being compiled)."""

    def choose_against(self, situation: Situation, rivals: Sequence[Scorecard]) -> Action:
        """The best choice for finishing first: by the score-curve tables once they are
        loaded; until then (they are asked for) by the interim normal approximation."""
        if not rivals:
            return self.choose(situation)
        ready = table_loaded("distribution", self.rules) and table_loaded("target", self.rules)
        if self.tables is None and not ready:
            request_tables(self.rules)
            if not can_estimate(self.rules) or not kernels_ready():
                self.method = EV_METHOD
                return self.choose(situation)
            self.method = INTERIM_METHOD
            codes, values = interim_options(situation, rivals, self.rules)
        else:
            self.method = EXACT_METHOD
            codes, values = self.options(situation, rivals)
        best = 0
        for i in range(1, len(values)):
            if values[i] > values[best] + TIE:
                best = i
        return actions_for(self.rules)[codes[best]]

    def options(
        self, situation: Situation, rivals: Sequence[Scorecard]
    ) -> tuple[list[int], list[float]]:
        """Every option's code and its chance to win (see `win_kernel`)."""
        from .target import target_options  # noqa: PLC0415

        distribution, target = self.tables or (
            cached_table("distribution", self.rules),
            cached_table("target", self.rules),
        )
        w, weights, xmax = rival_weights(situation.card, rivals, distribution)
        return target_options(target, situation, w, weights, xmax)


def rival_weights(
    card: Scorecard, rivals: Sequence[Scorecard], table: CurveTable
) -> tuple[F64, F64, int]:
    """The weights of the best rival's final total (see `win_kernel.rival_weights`)."""
    from . import win_kernel as k  # noqa: PLC0415

    cards = [card, *rivals]
    states = [state_of(c) for c in cards]
    masks = np.array([s[0] for s in states], dtype=np.int64)
    yfs = np.array([s[1] for s in states], dtype=np.int64)
    us = np.array([s[2] for s in states], dtype=np.int64)
    totals = np.array([c.total for c in cards], dtype=np.int64)
    size = int(totals.max()) + table.cap + 8
    cdf, w, weights = np.empty(size), np.empty(size), np.empty(size + 1)
    xmax = k.rival_weights(0, len(cards), masks, yfs, us, totals, table.levels, table.start,
                           table.lo, table.hi, table.cap, model(table.rules), cdf, w,
                           weights)  # fmt: skip
    return w, weights, int(xmax)


def late_card() -> Scorecard:
    """A card with only Aces, the Yahtzee box and Chance open (the late-game tests and the
    compiling use tables of the states it can reach)."""
    boxes = tuple(None if c in LATE_OPEN else 0 for c in Category)
    return Scorecard(boxes)


LATE_OPEN = (Category.ONES, Category.YAHTZEE, Category.CHANCE)


def compile_curves() -> None:
    """Compile the curve kernels (on the tables of a late card: a second)."""
    from .curve_table import build  # noqa: PLC0415
    from .target import TargetSolver  # noqa: PLC0415

    rules, card = RuleSet.official(), late_card()
    build("distribution", rules, base_mask=state_of(card)[0])
    target = build("target", rules, base_mask=state_of(card)[0])
    TargetSolver(rules, target).advise(card, Dice((1, 2, 3, 4, 5)), 2, target=10)
