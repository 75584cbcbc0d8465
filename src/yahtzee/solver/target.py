"""Playing for a target: the distribution of the final score, and the best chance to reach
a total.

* :class:`ScoreDistribution`: the final total's distribution under the expected-value
  policy, exact (float64) from any card (:meth:`Solver.distribution`);
* :class:`TargetSolver`: the highest chance of finishing with at least a target, and
  advice ranked by it (from the ``target`` curve table).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

import numpy as np
import numpy.typing as npt

from ..core import Dice, InvalidInput, RuleSet, Scorecard, Situation
from .advice import ACTIONS, Advice, Option
from .curve_build import Progress, build_layers
from .curve_table import CurveTable, build, load
from .layout import MAX_CANDIDATES, MAX_OPTIONS, N_MS, N_ROWS
from .planner import state_of
from .shipped import DATA
from .solver import resolve_rules
from .tables import model

if TYPE_CHECKING:
    from .solver import Solver

F64 = npt.NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class ScoreDistribution:
    """The distribution of a final total: ``pmf[t]`` = P(final total = ``t``)."""

    pmf: F64

    @cached_property
    def _cdf(self) -> F64:
        return np.cumsum(self.pmf)

    @property
    def mean(self) -> float:
        return float(np.dot(np.arange(len(self.pmf)), self.pmf))

    @property
    def std(self) -> float:
        t = np.arange(len(self.pmf))
        return float(np.sqrt(np.dot((t - self.mean) ** 2, self.pmf)))

    def quantile(self, q: float) -> int:
        """The least total ``t`` with P(final <= t) >= ``q`` (``q`` from 0 to 1)."""
        if not 0.0 <= q <= 1.0:
            raise InvalidInput(f"A quantile is between 0 and 1, not {q}.")
        cdf = self._cdf.tolist()
        return min(bisect.bisect_left(cdf, max(q - 1e-12, 1e-15)), len(cdf) - 1)

    def at_least(self, total: int) -> float:
        """P(final total >= ``total``)."""
        if total <= 0:
            return 1.0
        if total >= len(self.pmf):
            return 0.0
        return float(max(0.0, 1.0 - self._cdf[total - 1]))

    def percentiles(self, points: tuple[int, ...] = (1, 5, 25, 50, 75, 95, 99)) -> dict[str, int]:
        return {str(p): self.quantile(p / 100) for p in points}

    def to_dict(self) -> dict[str, Any]:
        return {"mean": self.mean, "std": self.std, "percentiles": self.percentiles()}


def exact_distribution(
    rules: RuleSet, card: Scorecard, expected: F64, progress: Progress | None = None
) -> ScoreDistribution:
    """The final total's distribution from a turn start on ``card`` under the policy of
    the expected-value table ``expected`` (ties to the first option, as the bots play):
    every state the card can reach, in float64 with every possible point."""
    if card.is_complete:
        pmf = np.zeros(card.total + 1)
        pmf[-1] = 1.0
        return ScoreDistribution(pmf)
    mask, yf, u = state_of(card)
    want = (mask * 2 + yf) * 64 + u
    survival: F64 | None = None
    for layer in build_layers(
        "distribution", rules, cap=None, base_mask=mask, expected=expected, progress=progress
    ):
        hit = np.flatnonzero(layer.index == want)
        if hit.size:
            survival = np.asarray(layer.curves[hit[0], : layer.widths[hit[0]]], dtype=np.float64)
    assert survival is not None
    future = survival - np.append(survival[1:], 0.0)
    return ScoreDistribution(np.concatenate((np.zeros(card.total), future)))


_DISTRIBUTIONS: dict[tuple[str, Scorecard], ScoreDistribution] = {}


def cached_distribution(
    solver: Solver, card: Scorecard, progress: Progress | None = None
) -> ScoreDistribution:
    """:func:`exact_distribution` under the solver's policy, kept for the process; the
    empty card's also on disk (a minute to compute, a few kilobytes to keep)."""
    key = (solver.rules.scoring_key, card)
    found = _DISTRIBUTIONS.get(key)
    if found is not None:
        return found
    path = CurveTable.path_for("distribution", solver.rules).with_suffix(".start.npy")
    empty = card == Scorecard.empty()
    if empty:
        for place in (shipped_distribution_path(solver.rules), path):
            try:
                found = ScoreDistribution(np.load(place, allow_pickle=False).astype(np.float64))
                break
            except (OSError, ValueError):
                found = None
    if found is None:
        found = exact_distribution(solver.rules, card, solver.table, progress)
        if empty:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                temp = path.with_suffix(".tmp.npy")
                np.save(temp, found.pmf)
                temp.replace(path)
            except OSError:
                pass
    _DISTRIBUTIONS[key] = found
    return found


def shipped_distribution_path(rules: RuleSet) -> Path:
    """The empty card's exact distribution that ships for these rules (the official
    rules'; ``scripts/make_shipped_tables.py`` regenerates it, a test recomputes it)."""
    return DATA / f"{rules.name}.distribution.npy"


class TargetSolver:
    """The best chance of finishing with at least a target total, and the play for it."""

    def __init__(self, rules: RuleSet, table: CurveTable) -> None:
        self.rules = rules
        self.table = table

    @classmethod
    def build(cls, rules: RuleSet | str | None = None, *, progress: Progress | None = None) -> Self:
        rule_set = resolve_rules(rules)
        return cls(rule_set, build("target", rule_set, progress=progress))

    @classmethod
    def load(
        cls,
        rules: RuleSet | str | None = None,
        *,
        directory: Path | None = None,
        progress: Progress | None = None,
    ) -> Self:
        """The cached table, checked; built and cached when missing (minutes: the
        ``progress`` hears ``(done, total)`` layer by layer)."""
        rule_set = resolve_rules(rules)
        return cls(rule_set, load("target", rule_set, directory=directory, progress=progress))

    @property
    def cap(self) -> int:
        """The most points still to come that a target may ask for."""
        return self.table.cap

    def probability(self, card: Scorecard | None = None, target: int = 0) -> float:
        """The highest chance of a final total of at least ``target`` from the start of a
        turn on ``card``."""
        card = card or Scorecard.empty()
        need = self._need(card, target)
        if need <= 0:
            return 1.0
        if card.is_complete:
            return 0.0
        return float(self.table.curve(card, need + 1)[need])

    def advise(
        self,
        card: Scorecard | Situation,
        dice: Dice | None = None,
        rolls_left: int = 0,
        *,
        target: int,
    ) -> Advice:
        """Every distinct option now, each valued by the best chance of reaching
        ``target`` after it, best first."""
        situation = card if isinstance(card, Situation) else Situation.of(card, dice, rolls_left)
        self._need(situation.card, target)
        from . import win_kernel as k  # noqa: PLC0415 - numba loads with the first advice
        from .compiling import compile_aside  # noqa: PLC0415

        compile_aside("curves")
        size = max(target, 0) + 2
        w, weights = np.empty(size), np.empty(size + 1)
        xmax = k.target_weights(target, w, weights)
        codes, values = target_options(self.table, situation, w, weights, xmax)
        options = [Option(ACTIONS[c], v) for c, v in zip(codes, values, strict=True)]
        return Advice.from_options(situation, self.rules, options)

    def _need(self, card: Scorecard, target: int) -> int:
        if isinstance(target, bool) or not isinstance(target, int):
            raise InvalidInput(f"A target is a whole number of points, not {target!r}.")
        need = target - card.total
        if need > self.cap:
            raise InvalidInput(
                f"A target can be at most {self.cap} points above the card's total "
                f"({card.total + self.cap} here)."
            )
        return need


def target_options(
    table: CurveTable, situation: Situation, w: F64, weights: F64, xmax: int
) -> tuple[list[int], list[float]]:
    """The codes and values of every option of ``situation`` against weights ``w`` (see
    :mod:`.win_kernel`), listed as the expected-value advice lists them."""
    from . import win_kernel as k  # noqa: PLC0415

    m = model(table.rules)
    mask, yf, u = state_of(situation.card)
    Q = np.empty((N_ROWS, k.MOST_ADD))
    K1, K2 = np.empty(N_MS), np.empty(N_MS)
    succ, gain = np.empty(N_ROWS, dtype=np.int64), np.empty(N_ROWS, dtype=np.int64)
    rows, cats = np.empty(MAX_CANDIDATES, dtype=np.int64), np.empty(MAX_CANDIDATES, dtype=np.int64)
    adds = np.empty(MAX_CANDIDATES)
    k.value_turn(mask, yf, u, situation.card.total, w, weights, xmax, table.levels, table.start,
                 table.lo, table.hi, m, succ, gain, Q, K1, K2, rows, adds, cats)  # fmt: skip
    codes, values = np.empty(MAX_OPTIONS, dtype=np.int64), np.empty(MAX_OPTIONS)
    count = k.value_options(mask, yf, situation.dice.index, situation.rolls_left, m, Q, K1, K2,
                            rows, adds, cats, codes, values)  # fmt: skip
    return codes[:count].tolist(), values[:count].tolist()
