"""Computer players behind one `Strategy` protocol, and difficulty levels 1 to 5.

* ``random``: any legal option, uniformly (a baseline, not an opponent).
* ``greedy``: the most points this turn. It plans its re-rolls for this turn's best box
  and gives the future no thought at all.
* ``heuristic``: the beginner tips of the walkthrough as box values. Each box is worth
  a par (about what it scores in a good game), so a turn that uses a box gives up its
  par. This crosses out Aces first, saves Chance as a safety net and settles for straights
  and full houses when they come. It also credits staying on pace for the upper bonus
  (three of each number), and plans each turn's re-rolls for those values.
* ``optimal``: the exact solver; no strategy has a higher expected score.
* ``winning``: against others, each decision maximises the chance to finish first
  (`winning`); alone, it plays as ``optimal``.

Levels are for opponents: level 5 is ``optimal``. Levels 4 to 1 are the optimal player
with human-sized mistakes. Each decision is a softmax draw over the options' exact values,
so a slightly worse option is often taken and a much worse one almost never. The
temperatures are 0.5, 1, 1.5 and 2.5 points, which average about 250, 234, 219 and 190
(optimal: 254.6).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Protocol, TypeGuard, runtime_checkable

import numpy as np
import numpy.typing as npt

from ..core import LEVELS, Action, BotSpec, Edition, RuleSet, Scorecard, Situation
from .planner import TurnPlanner, compiled_kernels
from .solver import cached_solver, table_shape
from .tables import N_UPPER, card_shape

LEVEL_TEMPERATURES = dict(zip(LEVELS, (2.5, 1.5, 1.0, 0.5, 0.0), strict=True))

# Par of each box of the American card in card order: roughly its average in optimal
# play (other editions measure theirs: `box_pars`).
PAR = (1.9, 5.3, 8.6, 12.2, 15.7, 19.2, 21.7, 13.1, 22.6, 29.5, 32.7, 16.9, 22.0)
PAR_GAMES = 2000
"""Games of optimal play whose box averages are an edition's pars (`box_pars`)."""
BONUS_SLACK = 10.0
PACE_PER_FACE = 3  # on pace for the upper bonus: three of each number


@runtime_checkable
class Strategy(Protocol):
    """Chooses an action in a situation (the dice showing, rolls left, the card)."""

    name: str

    def choose(self, situation: Situation) -> Action:
        """The action this player takes in ``situation``: a ``Keep`` to roll around, or a
        ``Score``."""
        ...


@runtime_checkable
class RivalAware(Protocol):
    """A strategy that also looks at the other players' cards (``winning``)."""

    name: str

    def choose_against(self, situation: Situation, rivals: Sequence[Scorecard]) -> Action:
        """The action this player takes in ``situation`` against ``rivals``' cards."""
        ...


def rival_aware(strategy: object) -> TypeGuard[RivalAware]:
    """Whether ``strategy`` looks at the rivals' cards: `isinstance` of the protocol
    without its cost (50-100 us a call, one each bot decision)."""
    return callable(getattr(type(strategy), "choose_against", None))


def decides_quickly(strategy: object) -> bool:
    """Whether ``strategy``'s choices take microseconds (a planner's, on the compiled
    kernels): a server makes them on its event loop, not in a worker thread."""
    return isinstance(strategy, PlannedStrategy | RandomStrategy) and compiled_kernels()


@dataclass
class PlannedStrategy:
    """Plays by a `TurnPlanner`, optionally with softmax noise."""

    name: str
    planner: TurnPlanner
    temperature: float = 0.0
    rng: random.Random | None = None

    def choose(self, situation: Situation) -> Action:
        return self.planner.choose(situation, self.temperature, self.rng)


@dataclass
class RandomStrategy:
    """Any legal option, uniformly at random."""

    name: str
    planner: TurnPlanner
    rng: random.Random

    def choose(self, situation: Situation) -> Action:
        return self.rng.choice(self.planner.options(situation)).action


def heuristic_table(rules: RuleSet | None = None) -> npt.NDArray[np.float64]:
    """Par values of the open boxes plus credit for the upper bonus, per state (the
    official rules' by default)."""
    rules = rules or RuleSet.official()
    shape = card_shape(rules)
    par = box_pars(rules)
    table = np.zeros(table_shape(rules))
    cap, bonus = shape.cap, shape.upper_bonus
    subtotals = np.arange(cap + 1)
    for mask in range(shape.n_masks):
        open_boxes = [c for c in range(shape.n_boxes) if not mask >> c & 1]
        pace = sum(PACE_PER_FACE * (c + 1) for c in open_boxes if c < N_UPPER)
        credit = np.zeros(cap + 1)
        if pace:
            need = cap - subtotals
            credit = bonus * np.clip((pace - need + BONUS_SLACK) / (2 * BONUS_SLACK), 0.0, 1.0)
            credit[subtotals >= cap] = 0.0
        table[mask, :, :] = sum(par[c] for c in open_boxes) + credit
    return table


def box_pars(rules: RuleSet) -> tuple[float, ...]:
    """Each box's par in card order: `PAR` on the American card; on another edition's,
    the box's mean score (its own definition's points) over `PAR_GAMES` games of
    optimal play, seed 0, rounded to a tenth."""
    if rules.edition == Edition.american():
        return PAR
    from . import policy  # noqa: PLC0415 - numba loads only here
    from .layout import LOG_BOX, LOG_WIDTH  # noqa: PLC0415
    from .tables import model  # noqa: PLC0415

    m, n_boxes = model(rules), card_shape(rules).n_boxes
    games = np.zeros(PAR_GAMES, dtype=np.int64)
    log = np.zeros((PAR_GAMES, n_boxes, LOG_WIDTH), dtype=np.int64)
    policy.simulate(PAR_GAMES, 0, 0, 0, cached_solver(rules).table, m, 0.0, False, games,
                    games.copy(), games.copy(), games.copy(), log)  # fmt: skip
    rolls = log[:, :, 0]  # the last roll of each turn: rolls are at 0, 2, 4 (-1: none)
    for at in range(2, LOG_BOX, 2):
        rolls = np.where(log[:, :, at] >= 0, log[:, :, at], rolls)
    points = m.points[rolls, log[:, :, LOG_BOX]]
    sums = np.zeros(n_boxes)
    np.add.at(sums, log[:, :, LOG_BOX], points)
    return tuple(round(float(x), 1) for x in sums / PAR_GAMES)


def _planner(kind: str, rules: RuleSet) -> TurnPlanner:
    made = _PLANNERS.get((kind, rules))
    if made is None:
        if kind == "greedy":
            made = TurnPlanner(rules, np.zeros(table_shape(rules)))
        elif kind == "heuristic":
            made = TurnPlanner(rules, _heuristic(rules))
        else:
            made = cached_solver(rules)
        _PLANNERS[kind, rules] = made
    return made


_PLANNERS: dict[tuple[str, RuleSet], TurnPlanner] = {}
"""The planners made, by kind and rules."""


@cache
def _heuristic(rules: RuleSet) -> npt.NDArray[np.float64]:
    return heuristic_table(rules)


@dataclass(frozen=True)
class _Planned:
    """How a planned strategy is made: the kind of its planner, and its temperature."""

    kind: str
    temperature: float = 0.0

    @property
    def planner(self) -> str:
        return "greedy" if self.kind == "random" else self.kind

    def __call__(self, rules: RuleSet, rng: random.Random) -> Strategy:
        if self.kind == "random":
            return RandomStrategy("random", _planner(self.planner, rules), rng)
        return PlannedStrategy(self.kind, _planner(self.kind, rules), self.temperature, rng)


STRATEGIES: dict[str, Callable[[RuleSet, random.Random], Strategy]] = {
    "random": _Planned("random"),
    "greedy": _Planned("greedy"),
    "heuristic": _Planned("heuristic"),
    "optimal": _Planned("optimal"),
    **{f"level{n}": _Planned("optimal", t) for n, t in LEVEL_TEMPERATURES.items()},
    "winning": lambda rules, _rng: _winning(rules),
}


def made_at_once(spec: BotSpec | str, rules: RuleSet) -> bool:
    """Whether `strategy` makes this bot's strategy at once (its planner is at hand) and
    it decides quickly (`decides_quickly`)."""
    recipe = STRATEGIES.get(strategy_name(spec))
    return (
        isinstance(recipe, _Planned) and (recipe.planner, rules) in _PLANNERS and compiled_kernels()
    )


def _winning(rules: RuleSet) -> Strategy:
    from .winning import WinningStrategy  # noqa: PLC0415

    return WinningStrategy(rules)


def strategy(
    spec: BotSpec | str, rules: RuleSet | None = None, seed: int | random.Random | None = None
) -> Strategy:
    """A strategy for a `BotSpec` (or its text: ``random``, ``greedy``, ``heuristic``,
    ``optimal``, ``level1``-``level5``; ``"5"`` and ``"Level 5"`` mean ``level5``)."""
    key = strategy_name(spec)
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    built = STRATEGIES[key](rules or RuleSet.official(), rng)
    built.name = key
    return built


def strategy_name(spec: BotSpec | str) -> str:
    """The registered name of a strategy (``"5"`` and ``"Level 5"`` mean ``level5``)."""
    return (spec if isinstance(spec, BotSpec) else BotSpec.parse(spec)).key
