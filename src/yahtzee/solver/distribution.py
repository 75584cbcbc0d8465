"""The distribution of the final score under the expected-value-optimal play.

`exact_distribution` is exact (float64, every possible point) from any card: it
solves the distribution curves of every state the card can reach (see `curves`).
The empty card's is about a minute to compute, so the official rules' ships with the
package and any other is cached on disk once computed.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core import InvalidInput, RuleSet, Scorecard
from ..core.language import _
from .cache import cache_dir
from .curve_build import Progress, build_layers, canonical, state_index
from .planner import state_of
from .shipped import DATA
from .tables import card_shape

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
        """The expected final total."""
        return float(np.dot(np.arange(len(self.pmf)), self.pmf))

    @property
    def std(self) -> float:
        """The standard deviation of the final total."""
        t = np.arange(len(self.pmf))
        return float(np.sqrt(np.dot((t - self.mean) ** 2, self.pmf)))

    def quantile(self, q: float) -> int:
        """The least total ``t`` with P(final <= t) >= ``q`` (``q`` from 0 to 1)."""
        if not 0.0 <= q <= 1.0:
            raise InvalidInput(_("A quantile is between 0 and 1, not {q}.").format(q=q))
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
        """The final total at each of these percentiles, keyed by the percentile."""
        return {str(p): self.quantile(p / 100) for p in points}

    def to_dict(self) -> dict[str, Any]:
        """Mean, standard deviation and percentiles as JSON-ready data."""
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
    shape = card_shape(rules)
    state = np.array([[mask, yf, u]], dtype=np.int64)
    want = int(state_index(canonical(state, shape), shape)[0])
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
    rules: RuleSet, expected: F64, card: Scorecard, progress: Progress | None = None
) -> ScoreDistribution:
    """`exact_distribution` under the policy of ``expected`` (the solver's table of
    ``rules``), kept for the process; the empty card's also on disk (a minute to compute,
    a few kilobytes to keep)."""
    key = (rules.scoring_key, card)
    found = _DISTRIBUTIONS.get(key)
    if found is not None:
        return found
    path = _cached_start_path(rules)
    empty = card == Scorecard.empty(rules)
    if empty:
        for place in (shipped_distribution_path(rules), path):
            try:
                found = ScoreDistribution(np.load(place, allow_pickle=False).astype(np.float64))
                break
            except (OSError, ValueError):
                found = None
    if found is None:
        found = exact_distribution(rules, card, expected, progress)
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


def _cached_start_path(rules: RuleSet) -> Path:
    slug = "".join(ch if ch.isalnum() else "-" for ch in rules.scoring_key.lower())
    return cache_dir() / f"distribution-{slug}.start.npy"


def start_distribution_kept(rules: RuleSet) -> bool:
    """Whether the empty card's distribution is at hand without working it out (it
    ships, or an earlier run kept it): then no kernel needs compiling for it."""
    return shipped_distribution_path(rules).is_file() or _cached_start_path(rules).is_file()


def shipped_distribution_path(rules: RuleSet) -> Path:
    """The empty card's exact distribution that ships for these rules (the official
    rules'; ``scripts/make_shipped_tables.py`` regenerates it, a test recomputes it)."""
    return DATA / f"{rules.name}.distribution.npy"
