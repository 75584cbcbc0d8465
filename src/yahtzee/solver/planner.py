"""Turn planning from any table of turn-start values: options, their values, choices.

The optimal solver, the greedy bot (a table of zeros: only this turn's points count) and
the heuristic bot (a table of par values) are all planners over different tables.
"""

from __future__ import annotations

import math
import random
import threading
from collections import OrderedDict
from functools import cached_property

import numpy as np
import numpy.typing as npt

from ..core import (
    YAHTZEE_POINTS,
    Action,
    Category,
    IllegalMove,
    InvalidInput,
    Keep,
    RuleSet,
    Score,
    Scorecard,
    Situation,
)
from . import turn_numpy
from .advice import Advice, Option
from .layout import MAX_OPTIONS, N_MS, N_ROWS, SCORE
from .tables import ROLL_BASE, UPPER_CAP, Model, TurnScoring, model, reach_table, turn_scoring

_KEEPS = Keep.all()
_CACHE_STATES = 4096

TurnTables = tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]


def state_of(card: Scorecard) -> tuple[int, int, int]:
    """The solver's state of a card: (filled-box mask, Yahtzee box holds 50, capped subtotal)."""
    mask = sum(1 << c for c, points in card if points is not None)
    holds_50 = 1 if card[Category.YAHTZEE] == YAHTZEE_POINTS else 0
    subtotal = min(card.upper_subtotal, UPPER_CAP)
    if subtotal > reach_table()[mask]:
        raise InvalidInput("This card's upper boxes cannot add up to its upper subtotal.")
    return mask, holds_50, subtotal


class TurnPlanner:
    """Values every option of a turn against ``table`` (expected points still to come).

    One turn at a time is solved in numpy (well under a millisecond, nothing to compile);
    after :func:`use_compiled_kernels`, by the compiled kernels (microseconds).
    """

    def __init__(self, rules: RuleSet, table: npt.NDArray[np.float64]) -> None:
        self.rules = rules
        self.table = table
        self._turns: OrderedDict[tuple[int, int, int], TurnTables] = OrderedDict()

    @cached_property
    def model(self) -> Model:
        """The rule set's scoring arrays (built on first use: loading stays fast)."""
        return model(self.rules)

    @cached_property
    def scoring(self) -> TurnScoring:
        """What one turn in numpy reads (quick to derive: no full Joker table)."""
        return turn_scoring(self.rules)

    def future(self, card: Scorecard) -> float:
        """Expected points still to come from the start of a turn on ``card``."""
        if card.is_complete:
            return 0.0
        mask, yf, u = state_of(card)
        return float(self.table[mask, yf, u])

    def turn_tables(self, card: Scorecard) -> TurnTables:
        """The turn's option values for this card's state (kept for the next decisions)."""
        key = state_of(card)
        found = self._turns.get(key)
        if found is not None:
            self._turns.move_to_end(key)
            return found
        if _compiled.is_set():
            from . import policy  # noqa: PLC0415 - numba loads only with compiled kernels

            R, K1, K2 = np.empty((N_ROWS, 1)), np.empty((N_MS, 1)), np.empty((N_MS, 1))
            policy.turn_tables(key[0], key[1], key[2], self.table, self.model, R, K1, K2)
        else:
            R, K1, K2 = turn_numpy.turn_tables(key[0], key[1], key[2], self.table, self.scoring)
            _count_numpy_turn()
        self._turns[key] = (R, K1, K2)
        if len(self._turns) > _CACHE_STATES:
            self._turns.popitem(last=False)
        return R, K1, K2

    def options(self, situation: Situation) -> list[Option]:
        """Every distinct option: the legal boxes, then (with rolls left) every keep of
        under five dice, each with the expected final total it leads to."""
        card = situation.card
        R, K1, K2 = self.turn_tables(card)
        mask, yf, _ = state_of(card)
        r, rolls_left = situation.dice.index, situation.rolls_left
        if _compiled.is_set():
            from . import policy  # noqa: PLC0415

            kinds = np.empty(MAX_OPTIONS, dtype=np.int64)
            ids = np.empty(MAX_OPTIONS, dtype=np.int64)
            values = np.empty(MAX_OPTIONS)
            count = policy.option_values(
                mask, yf, r, rolls_left, self.model, R, K1, K2, kinds, ids, values
            )
        else:
            kinds, ids, values = turn_numpy.option_values(
                mask, yf, r, rolls_left, self.scoring, R, K1, K2
            )
            count = len(kinds)
        base = card.total
        return [
            Option(
                Score(Category(int(ids[i]))) if kinds[i] == SCORE else _KEEPS[ids[i]],
                base + float(values[i]),
            )
            for i in range(count)
        ]

    def action_value(self, situation: Situation, action: Action) -> float:
        """The expected final total after any legal action, keeping all five dice included."""
        for option in self.options(situation):
            if option.action == action:
                return option.value
        if isinstance(action, Keep) and action == Keep.of(situation.dice) and situation.rolls_left:
            _, K1, K2 = self.turn_tables(situation.card)
            stand = K1 if situation.rolls_left == 1 else K2
            return situation.card.total + float(stand[ROLL_BASE + situation.dice.index, 0])
        raise IllegalMove(f"{action} is not allowed in {situation}.", code="not_an_option")

    def choose(
        self, situation: Situation, temperature: float = 0.0, rng: random.Random | None = None
    ) -> Action:
        """The best option (the first on a tie), or with a positive temperature a softmax
        draw: an option worse by ``temperature`` points is ``e`` times less likely."""
        options = self.options(situation)
        best = Advice.from_options(situation, self.rules, options).best
        if temperature <= 0:
            return best.action
        weights = [math.exp((o.value - best.value) / temperature) for o in options]
        return (rng or random).choices(options, weights)[0].action


_compiled = threading.Event()
BULK_TURNS = 2000
"""After this many turns solved in numpy, a process is doing bulk work (simulating,
training, serving many tables): it compiles the kernels, which then pay for themselves.
A game in the terminal solves a few dozen."""
_numpy_turns = [0]


def _count_numpy_turn() -> None:
    _numpy_turns[0] += 1
    if _numpy_turns[0] == BULK_TURNS:
        use_compiled_kernels()


def use_compiled_kernels() -> None:
    """Compile (or load from numba's cache) the turn kernels and use them from now on:
    microseconds a decision instead of about a millisecond. Slow the first time after an
    install (compiling), so front ends do without: only bulk work needs it."""
    if _compiled.is_set():
        return
    from ..core import RuleSet  # noqa: PLC0415
    from . import policy  # noqa: PLC0415 - numba loads here

    m = model(RuleSet.official())
    table = np.zeros((1 << len(Category), 2, UPPER_CAP + 1))
    R, K1, K2 = np.empty((N_ROWS, 1)), np.empty((N_MS, 1)), np.empty((N_MS, 1))
    policy.turn_tables(0, 0, 0, table, m, R, K1, K2)
    out = np.empty(MAX_OPTIONS, dtype=np.int64)
    policy.option_values(0, 0, 0, 2, m, R, K1, K2, out, out.copy(), np.empty(MAX_OPTIONS))
    _compiled.set()


def compiled_kernels() -> bool:
    """Whether the turn kernels are compiled and in use."""
    return _compiled.is_set()


def compile_kernels_aside() -> bool:
    """Compile the turn kernels in a child process (numba caches them), then load them
    here: the compiling never holds this process's interpreter, so a server or a screen
    stays responsive. Returns whether the compiled kernels are in use."""
    if _compiled.is_set():
        return True
    from .compiling import compile_aside  # noqa: PLC0415

    if not compile_aside("turn"):
        return False
    use_compiled_kernels()  # from numba's cache: quick
    return True
