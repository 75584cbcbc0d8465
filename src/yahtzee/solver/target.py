"""Playing for a target: the highest chance of finishing with at least a target total,
and advice ranked by it (from the ``target`` curve table)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Self

import numpy as np
import numpy.typing as npt

from ..core import Action, Dice, InvalidInput, RuleSet, Scorecard, Situation
from ..core.language import _
from .advice import TIE, Advice, Option, actions_for
from .curve_build import Progress
from .curve_table import CurveTable, build, load
from .layout import MAX_CANDIDATES, MAX_OPTIONS, N_MS, N_ROWS
from .planner import state_of
from .tables import model, resolve_rules

F64 = npt.NDArray[np.float64]


class TargetSolver:
    """The best chance of finishing with at least a target total, and the play for it."""

    def __init__(self, rules: RuleSet, table: CurveTable) -> None:
        self.rules = rules
        self.table = table

    @classmethod
    def build(cls, rules: RuleSet | str | None = None, *, progress: Progress | None = None) -> Self:
        """Build the target table of ``rules`` now (minutes; ``progress`` hears each layer)."""
        rule_set = resolve_rules(rules)
        return cls(rule_set, build("target", rule_set, progress=progress))

    @classmethod
    def load(
        cls,
        rules: RuleSet | str | None = None,
        *,
        directory: Path | None = None,
        progress: Progress | None = None,
        on_notice: Callable[[str], None] | None = None,
    ) -> Self:
        """The cached table, checked; built and cached when missing (minutes: the
        ``progress`` hears ``(done, total)`` layer by layer, ``on_notice`` what a build it
        starts will take)."""
        rule_set = resolve_rules(rules)
        table = load("target", rule_set, directory=directory, progress=progress,
                     on_notice=on_notice)  # fmt: skip
        return cls(rule_set, table)

    @property
    def cap(self) -> int:
        """The most points still to come that a target may ask for."""
        return self.table.cap

    def probability(self, card: Scorecard | None = None, target: int = 0) -> float:
        """The highest chance of a final total of at least ``target`` from the start of a
        turn on ``card``."""
        card = card or Scorecard.empty(self.rules)
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
        codes, values = self._options(situation, target)
        actions = actions_for(self.rules)
        options = [Option(actions[c], v) for c, v in zip(codes, values, strict=True)]
        return Advice.from_options(situation, self.rules, options)

    def choose(self, situation: Situation, target: int) -> Action:
        """The target bot's choice: the option with the best chance of reaching
        ``target`` (the first on a tie, as the other bots choose)."""
        codes, values = self._options(situation, target)
        best = 0
        for i in range(1, len(values)):
            if values[i] > values[best] + TIE:
                best = i
        return actions_for(self.rules)[codes[best]]

    def _options(self, situation: Situation, target: int) -> tuple[list[int], list[float]]:
        self._need(situation.card, target)
        from . import win_kernel as k  # noqa: PLC0415 - numba loads with the first advice
        from .compiling import compile_aside  # noqa: PLC0415

        compile_aside("curves")
        size = max(target, 0) + 2
        w, weights = np.empty(size), np.empty(size + 1)
        xmax = k.target_weights(target, w, weights)
        return target_options(self.table, situation, w, weights, xmax)

    def _need(self, card: Scorecard, target: int) -> int:
        if isinstance(target, bool) or not isinstance(target, int):
            raise InvalidInput(
                _("A target is a whole number of points, not {target!r}.").format(target=target)
            )
        need = target - card.total
        if need > self.cap:
            raise InvalidInput(
                _(
                    "A target can be at most {cap} points above the card's total ({total} here)."
                ).format(cap=self.cap, total=card.total + self.cap)
            )
        return need


def target_options(
    table: CurveTable, situation: Situation, w: F64, weights: F64, xmax: int
) -> tuple[list[int], list[float]]:
    """The codes and values of every option of ``situation`` against weights ``w`` (see
    `win_kernel`), listed as the expected-value advice lists them."""
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
