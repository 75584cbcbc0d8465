"""Turn planning from any table of turn-start values: options, their values, choices.

The optimal solver, the greedy bot (a table of zeros: only this turn's points count) and
the heuristic bot (a table of par values) are all planners over different tables.
"""

from __future__ import annotations

import math
import random
import threading
from collections import OrderedDict
from collections.abc import Callable
from functools import cached_property
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ..core import (
    UPPER_BONUS,
    UPPER_BONUS_THRESHOLD,
    YAHTZEE_POINTS,
    Action,
    Category,
    Dice,
    IllegalMove,
    InvalidInput,
    Keep,
    RuleSet,
    Scorecard,
    Situation,
)
from ..core.language import _
from . import turn_numpy
from .advice import Advice, Option, action_text, actions_for
from .layout import KEEP_CODE, MAX_OPTIONS, N_MS, N_ROWS, SCORE, TURN_SIZE
from .tables import (
    N_BOXES,
    N_MASKS,
    N_UPPER,
    ROLL_BASE,
    UPPER_CAP,
    Model,
    TurnScoring,
    edition_card,
    model,
    reach_table,
    turn_scoring,
)

_CACHE_STATES = 4096
_TABLE_SHAPE = (N_MASKS, 2, UPPER_CAP + 1)
_ROLLS = {dice.faces: r for r, dice in enumerate(Dice.all())}

F64 = npt.NDArray[np.float64]
TurnTables = tuple[F64, F64, F64]


_reach: list[int] = []  # reach_table() as a list (quicker to index one by one), on first use


def _read_any(card: Scorecard) -> tuple[int, int, int, int]:
    """`_read` for a card of any edition, box by box in a loop."""
    shape = edition_card(card.edition)
    mask = upper = 0
    for c, points in enumerate(card.boxes):
        if points is not None:
            mask |= 1 << c
            upper += points if c < N_UPPER else 0
    subtotal = min(upper, shape.cap)
    if subtotal > reach_table(shape.n_boxes)[mask]:
        raise InvalidInput(_("This card's upper boxes cannot add up to its upper subtotal."))
    ybox = shape.yahtzee_box
    holds_50 = 1 if ybox >= 0 and card.boxes[ybox] == YAHTZEE_POINTS else 0
    return mask, holds_50, subtotal, card.total


def _read(card: Scorecard) -> tuple[int, int, int, int]:
    """The card's state (see `state_of`) and its total: on the path of every advice,
    so written out box by box for the American card (a third of the time of a loop)."""
    boxes = card.boxes
    if len(boxes) != N_BOXES:
        return _read_any(card)
    b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12 = boxes
    mask = upper = 0
    lower = card.yahtzee_bonus
    if b0 is not None:
        mask, upper = mask | 1 << 0, upper + b0
    if b1 is not None:
        mask, upper = mask | 1 << 1, upper + b1
    if b2 is not None:
        mask, upper = mask | 1 << 2, upper + b2
    if b3 is not None:
        mask, upper = mask | 1 << 3, upper + b3
    if b4 is not None:
        mask, upper = mask | 1 << 4, upper + b4
    if b5 is not None:
        mask, upper = mask | 1 << 5, upper + b5
    if b6 is not None:
        mask, lower = mask | 1 << 6, lower + b6
    if b7 is not None:
        mask, lower = mask | 1 << 7, lower + b7
    if b8 is not None:
        mask, lower = mask | 1 << 8, lower + b8
    if b9 is not None:
        mask, lower = mask | 1 << 9, lower + b9
    if b10 is not None:
        mask, lower = mask | 1 << 10, lower + b10
    if b11 is not None:
        mask, lower = mask | 1 << 11, lower + b11
    if b12 is not None:
        mask, lower = mask | 1 << 12, lower + b12
    subtotal = upper if upper < UPPER_CAP else UPPER_CAP
    if subtotal > (_reach or _load_reach())[mask]:
        raise InvalidInput(_("This card's upper boxes cannot add up to its upper subtotal."))
    holds_50 = 1 if b11 == YAHTZEE_POINTS else 0
    total = upper + (UPPER_BONUS if upper >= UPPER_BONUS_THRESHOLD else 0) + lower  # as Scorecard
    return mask, holds_50, subtotal, total


assert (N_BOXES, N_UPPER, int(Category.YAHTZEE)) == (13, 6, 11), "_read names every box"


def _load_reach() -> list[int]:
    _reach[:] = reach_table().tolist()
    return _reach


def state_of(card: Scorecard) -> tuple[int, int, int]:
    """The solver's state of a card: (filled-box mask, Yahtzee box holds 50, capped subtotal)."""
    mask, holds_50, subtotal, _unused = _read(card)
    return mask, holds_50, subtotal


class TurnPlanner:
    """Values every option of a turn against ``table`` (expected points still to come).

    One turn at a time is solved in numpy (well under a millisecond, nothing to compile);
    after `use_compiled_kernels`, by the compiled kernels (microseconds: one call
    solves the turn, then values and ranks every option).
    """

    def __init__(self, rules: RuleSet, table: F64) -> None:
        self.rules = rules
        self.table = table
        self._turns: OrderedDict[tuple[int, int, int], F64] = OrderedDict()
        """Solved turns by state, each one array (``R``, ``K1``, ``K2``), the latest last."""
        self._args: tuple[bool, tuple[object, ...]] | None = None

    @cached_property
    def model(self) -> Model:
        """The rule set's scoring arrays (built on first use: loading stays fast)."""
        return model(self.rules)

    @cached_property
    def scoring(self) -> TurnScoring:
        """What one turn in numpy reads (quick to derive: no full Joker table)."""
        return turn_scoring(self.rules)

    @cached_property
    def actions(self) -> tuple[Action, ...]:
        """The action of each option code (see `advice.actions_for`)."""
        return actions_for(self.rules)

    def _kernel_args(self) -> tuple[bool, tuple[object, ...]]:
        """The arguments `policy.advise` takes after the situation's, and whether
        they have the types it was compiled for (a table of float64, C order, writable)."""
        found = self._args
        table = self.table
        if found is None or found[1][0] is not table:
            exact = (
                isinstance(table, np.ndarray)
                and table.dtype == np.float64
                and table.ndim == len(_TABLE_SHAPE)
                and bool(table.flags.c_contiguous and table.flags.writeable and table.flags.aligned)
            )
            m = self.model
            args = (table, m.packed, m.joker, m.joker_bonus, m.cap, m.upper_bonus)
            found = self._args = exact, args
        return found

    def future(self, card: Scorecard) -> float:
        """Expected points still to come from the start of a turn on ``card``."""
        if card.is_complete:
            return 0.0
        mask, yf, u = state_of(card)
        return float(self.table[mask, yf, u])

    def _keep(self, key: tuple[int, int, int], turn: F64) -> None:
        self._turns[key] = turn
        if len(self._turns) > _CACHE_STATES:
            self._turns.popitem(last=False)

    def _turn(self, key: tuple[int, int, int]) -> F64:
        """The state's solved turn (kept for the next decisions)."""
        found = self._turns.get(key)
        if found is not None:
            try:  # noqa: SIM105 - on the hot path, where suppress() costs a call
                self._turns.move_to_end(key)
            except KeyError:  # another thread has just let it go
                pass
            return found
        kernels = _kernels
        if kernels is not None:
            turn = np.empty(TURN_SIZE)
            exact, args = self._kernel_args()
            kernel = kernels.direct if exact else kernels.advise
            kernel(*key, -1, 0, 0, True, False, *args, turn, turn, 0)
        else:
            R, K1, K2 = turn_numpy.turn_tables(*key, self.table, self.scoring)
            turn = np.concatenate((R[:, 0], K1[:, 0], K2[:, 0]))
            _count_numpy_turn()
        self._keep(key, turn)
        return turn

    def turn_tables(self, card: Scorecard) -> TurnTables:
        """The turn's option values for this card's state, as columns: ``R`` (next-state
        values per placement row), ``K1`` and ``K2`` (keep values with one and two rolls
        left; ``K1[ROLL_BASE + r]`` stands on roll ``r``)."""
        turn = self._turn(state_of(card))
        K1, K2 = turn[N_ROWS : N_ROWS + N_MS, None], turn[N_ROWS + N_MS : TURN_SIZE, None]
        return turn[:N_ROWS, None], K1, K2

    def _compiled(
        self, kernels: _Kernels, situation: Situation, ranked: bool
    ) -> tuple[F64, int, int]:
        """Every option in one compiled call (which first solves the turn when it is not
        kept), listed or ranked best first: ``(out, at, count)``, where ``out[at:][:count]``
        holds their expected final totals and ``out[at + MAX_OPTIONS:][:count]`` their
        codes (see `advice.ACTIONS`). A turn solved now is kept in the same array
        as its options, before them."""
        mask, yf, u, total = _read(situation.card)
        key = (mask, yf, u)
        turns = self._turns
        turn = turns.get(key)
        solve = turn is None
        if turn is None:
            turn = out = np.empty(TURN_SIZE + 2 * MAX_OPTIONS)
            at = TURN_SIZE
        else:
            try:  # noqa: SIM105 - on the hot path, where suppress() costs a call
                turns.move_to_end(key)
            except KeyError:  # another thread has just let it go
                pass
            out = np.empty(2 * MAX_OPTIONS)
            at = 0
        found = self._args
        if found is None or found[1][0] is not self.table:
            found = self._kernel_args()
        count = (kernels.direct if found[0] else kernels.advise)(
            mask, yf, u, _ROLLS[situation.dice.faces], situation.rolls_left, total, solve, ranked,
            *found[1], turn, out, at,
        )  # fmt: skip
        if solve:  # kept once it is whole
            turns[key] = turn
            if len(turns) > _CACHE_STATES:
                turns.popitem(last=False)
        return out, at, count

    def options(self, situation: Situation) -> list[Option]:
        """Every distinct option: the legal boxes, then (with rolls left) every keep of
        under five dice, each with the expected final total it leads to."""
        kernels = _kernels
        if kernels is not None:
            out, at, count = self._compiled(kernels, situation, False)
            codes = map(int, out[at + MAX_OPTIONS : at + MAX_OPTIONS + count].tolist())
            totals = out[at : at + count].tolist()
            return list(map(Option, map(self.actions.__getitem__, codes), totals))
        card = situation.card
        R, K1, K2 = self.turn_tables(card)
        mask, yf, _unused = state_of(card)
        kinds, ids, values = turn_numpy.option_values(
            mask, yf, situation.dice.index, situation.rolls_left, self.scoring, R, K1, K2
        )
        base = card.total
        return [
            Option(self.actions[i if kind == SCORE else KEEP_CODE + i], base + value)
            for kind, i, value in zip(kinds.tolist(), ids.tolist(), values.tolist(), strict=True)
        ]

    def advice(self, situation: Situation) -> Advice:
        """Every distinct option, with the expected final total of each, best first."""
        kernels = _kernels
        if kernels is None:
            return Advice.from_options(situation, self.rules, self.options(situation))
        out, at, count = self._compiled(kernels, situation, True)
        return Advice.ranked(situation, self.rules, out, at, count)

    def action_value(self, situation: Situation, action: Action) -> float:
        """The expected final total after any legal action, keeping all five dice included."""
        for option in self.options(situation):
            if option.action == action:
                return option.value
        if isinstance(action, Keep) and action == Keep.of(situation.dice) and situation.rolls_left:
            _unused, K1, K2 = self.turn_tables(situation.card)
            stand = K1 if situation.rolls_left == 1 else K2
            return situation.card.total + float(stand[ROLL_BASE + situation.dice.index, 0])
        raise IllegalMove(
            _("{action} is not allowed in {situation}.").format(
                action=action_text(action), situation=situation
            ),
            code="not_an_option",
        )

    def choose(
        self, situation: Situation, temperature: float = 0.0, rng: random.Random | None = None
    ) -> Action:
        """The best option (the first on a tie), or with a positive temperature a softmax
        draw: an option worse by ``temperature`` points is ``e`` times less likely."""
        kernels = _kernels
        if temperature <= 0 and kernels is not None:
            out, at, _unused = self._compiled(kernels, situation, True)
            return self.actions[int(out[at + MAX_OPTIONS])]
        options = self.options(situation)
        best = Advice.from_options(situation, self.rules, options).best
        if temperature <= 0:
            return best.action
        weights = [math.exp((o.value - best.value) / temperature) for o in options]
        return (rng or random).choices(options, weights)[0].action


class _Kernels(NamedTuple):
    advise: Callable[..., int]
    """`policy.advise`: its dispatcher checks the arguments' types."""
    direct: Callable[..., int]
    """Its machine code for the types a planner passes (a table as `_kernel_args`
    checks it), called without the dispatcher's checks."""


_compiled = threading.Event()
_kernels: _Kernels | None = None
"""Set with `_compiled`: the kernels the planners call."""
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
    global _kernels  # noqa: PLW0603 - set once, before the flag
    if _compiled.is_set():
        return
    from . import policy  # noqa: PLC0415 - numba loads here

    planner = TurnPlanner(RuleSet.official(), np.zeros(_TABLE_SHAPE))
    m = planner.model
    R, K1, K2 = np.empty((N_ROWS, 1)), np.empty((N_MS, 1)), np.empty((N_MS, 1))
    policy.turn_tables(0, 0, 0, planner.table, m, R, K1, K2)
    out = np.empty(MAX_OPTIONS, dtype=np.int64)
    policy.option_values(0, 0, 0, 2, m, R, K1, K2, out, out.copy(), np.empty(MAX_OPTIONS))
    # compile as the planners call it, then call its machine code for these types directly
    exact, args = planner._kernel_args()
    turn = np.empty(TURN_SIZE + 2 * MAX_OPTIONS)
    warm = (0, 0, 0, 0, 2, 0, True, True, *args, turn, turn, TURN_SIZE)
    policy.advise(*warm)
    direct = policy.direct_entry(policy.advise, warm) if exact else policy.advise
    _kernels = _Kernels(policy.advise, direct)
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
