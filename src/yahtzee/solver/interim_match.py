"""Many games of the interim ``winning`` bot (`interim`) at compiled speed, turn
by turn against expected-value bots, as `simulate.simulate` plays the exact one."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..core import BotSpec, RuleSet, Scorecard
from .curve_table import CurveTable
from .interim import shipped_variance
from .planner import state_of
from .solver import cached_solver
from .strategies import LEVEL_TEMPERATURES, strategy_name


def simulate_interim(
    strategies: Sequence[str],
    games: int,
    seed: int = 0,
    rules: RuleSet | None = None,
    *,
    start: Scorecard | None = None,
) -> npt.NDArray[np.int64]:
    """Play ``games`` games turn by turn, one seat per strategy (``"winning"``: the interim
    bot; else an expected-value bot, ``optimal`` or a level), the first seat alternating
    from game to game, as `simulate.simulate` plays the exact one; every seat
    starts on ``start`` (by default an empty card). Returns the totals, one row a game."""
    from . import interim_kernel as k  # noqa: PLC0415 - numba loads only to simulate
    from . import match_kernel  # noqa: PLC0415
    from .tables import model  # noqa: PLC0415

    rule_set = rules or RuleSet.official()
    D = shipped_variance(rule_set)
    assert D is not None, "no variance table ships for these rules"
    table = cached_solver(rule_set).table
    kinds, temperatures = [], []
    for raw in strategies:
        name = strategy_name(raw)
        if name == "winning":
            kinds.append(k.INTERIM)
            temperatures.append(0.0)
            continue
        level = BotSpec.parse(name).level
        kinds.append(0)
        temperatures.append(LEVEL_TEMPERATURES[level] if level is not None else 0.0)
    card = start or Scorecard.empty(rule_set)
    mask, yf, _ = state_of(card)
    upper = sum(card.boxes[c] or 0 for c in rule_set.edition.upper)
    out = [np.zeros((games, len(kinds)), dtype=np.int64) for _ in range(4)]
    blank = CurveTable.blank(rule_set)  # no exact winning seat: not read
    curves = (blank.levels, blank.start, blank.lo, blank.hi)
    match_kernel.simulate_match(
        games, 0, seed, 1, np.array(kinds, dtype=np.int64), np.array(temperatures),
        np.zeros(len(kinds), dtype=np.bool_), np.stack([table]), model(rule_set), *curves,
        *curves, blank.cap, np.ascontiguousarray(table).reshape(-1), D,
        np.array([mask, yf, upper, card.total], dtype=np.int64), *out,
    )  # fmt: skip
    return out[0]


__all__ = ["simulate_interim"]
