"""An independent, slow expectimax over the core rules: every outcome of every keep.

It uses nothing of the solver: only ``Scorecard.placements``/``place`` and
``chance_outcomes`` from the core, with whole cards (uncapped subtotals) as states.

Within one state (a card; for targets, a card and the points still needed) the values of
rolls and keeps are kept by the index of the dice or keep in ``Dice.all()`` and
``Keep.all()``, so that the card is hashed once per state rather than at every lookup;
the arithmetic is the same (the same floats added in the same order).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from math import fsum

from yahtzee import Dice, Keep, RuleSet, Scorecard, chance_outcomes

_DICE = Dice.all()
_KEEPS = Keep.all()
_DICE_INDEX = {dice: i for i, dice in enumerate(_DICE)}
_KEEP_INDEX = {keep: i for i, keep in enumerate(_KEEPS)}
_THROWS = tuple(
    tuple((float(o.probability), _DICE_INDEX[o.dice]) for o in chance_outcomes(keep))
    for keep in _KEEPS
)
"""Per keep (by index): every outcome of throwing the others, as (probability, dice index)."""
_KEEPS_OF = tuple(tuple(_KEEP_INDEX[k] for k in dice.keeps()) for dice in _DICE)
"""Per dice (by index): the indices of the keeps they allow."""
_NONE = _KEEP_INDEX[Keep.NONE]


def _expectimax(
    placed: Callable[[Dice], list[float]], add: Callable[[list[float]], float], stop: float
) -> tuple[Callable[[int, int], float], Callable[[int, int], float]]:
    """The keep and roll values of one state: ``placed(dice)`` the values of scoring each
    legal box, ``add`` how a throw's terms are summed, and no keep is looked at once a
    box reaches ``stop``."""
    keeps: dict[int, float] = {}  # keep index * 3 + rolls left after the throw
    rolls: dict[int, float] = {}  # dice index * 3 + rolls left

    def keep(k: int, rolls_after: int) -> float:
        key = k * 3 + rolls_after
        value = keeps.get(key)
        if value is None:
            value = keeps[key] = add([p * roll(d, rolls_after) for p, d in _THROWS[k]])
        return value

    def roll(d: int, rolls_left: int) -> float:
        key = d * 3 + rolls_left
        value = rolls.get(key)
        if value is None:
            value = max(placed(_DICE[d]))
            if rolls_left and value < stop:
                value = max(value, *(keep(k, rolls_left - 1) for k in _KEEPS_OF[d]))
            rolls[key] = value
        return value

    return keep, roll


class BruteForce:
    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.final_total = cache(self._final_total)
        self._states = cache(self._state)

    def _state(self, card: Scorecard) -> tuple[Callable[[int, int], float], ...]:
        def placed(dice: Dice) -> list[float]:
            return [
                self.score_value(card, dice, p.category) for p in card.placements(dice, self.rules)
            ]

        keep, roll = _expectimax(placed, sum, float("inf"))
        return keep, roll

    def _final_total(self, card: Scorecard) -> float:
        """Expected final total from the start of a turn on ``card``."""
        if card.is_complete:
            return float(card.total)
        return self.keep_value(card, Keep.NONE, 2)

    def keep_value(self, card: Scorecard, keep: Keep, rolls_left_after: int) -> float:
        """Keep ``keep``, throw the rest, then ``rolls_left_after`` rolls remain."""
        return self._states(card)[0](_KEEP_INDEX[keep], rolls_left_after)

    def roll_value(self, card: Scorecard, dice: Dice, rolls_left: int) -> float:
        return self._states(card)[1](_DICE_INDEX[dice], rolls_left)

    def score_value(self, card: Scorecard, dice: Dice, category: object) -> float:
        return self.final_total(card.place(dice, category, self.rules))  # type: ignore[arg-type]


class BruteTarget:
    """The highest chance of a final total of at least a target, by the same expectimax.

    A state is a whole card and the points still needed (``target - card.total``); a
    complete card scores 1.0 if nothing more is needed, else 0.0, and once nothing more is
    needed the chance is 1.0 whatever is left (points never go down).
    """

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.turn_value = cache(self._turn_value)
        self._states = cache(self._state)

    def probability(self, card: Scorecard, target: int) -> float:
        """Highest chance of ``card.total >= target`` at the end, from the start of a turn."""
        return self.turn_value(card, target - card.total)

    def option_values(
        self, card: Scorecard, dice: Dice, rolls_left: int, target: int
    ) -> dict[object, float]:
        """Every legal action with ``dice`` showing and ``rolls_left`` rolls to come, to its
        chance of reaching ``target``: a :class:`Category` to score, a :class:`Keep` to keep
        (keeping all five is standing)."""
        needed = target - card.total
        values: dict[object, float] = {
            p.category: self.score_value(card, dice, p.category, needed)
            for p in card.placements(dice, self.rules)
        }
        if rolls_left:
            for keep in dice.keeps():
                values[keep] = self.keep_value(card, needed, keep, rolls_left - 1)
        return values

    def _state(self, card: Scorecard, needed: int) -> tuple[Callable[[int, int], float], ...]:
        def placed(dice: Dice) -> list[float]:
            return [
                self.score_value(card, dice, p.category, needed)
                for p in card.placements(dice, self.rules)
            ]

        keep, roll = _expectimax(placed, fsum, 1.0)
        return keep, roll

    def _turn_value(self, card: Scorecard, needed: int) -> float:
        """Chance of scoring ``needed`` more points from the start of a turn on ``card``."""
        if needed <= 0:
            return 1.0
        if card.is_complete:
            return 0.0
        return self._states(card, needed)[0](_NONE, 2)

    def keep_value(self, card: Scorecard, needed: int, keep: Keep, rolls_left_after: int) -> float:
        """Keep ``keep``, throw the rest, then ``rolls_left_after`` rolls remain."""
        return self._states(card, needed)[0](_KEEP_INDEX[keep], rolls_left_after)

    def roll_value(self, card: Scorecard, needed: int, dice: Dice, rolls_left: int) -> float:
        return self._states(card, needed)[1](_DICE_INDEX[dice], rolls_left)

    def score_value(self, card: Scorecard, dice: Dice, category: object, needed: int) -> float:
        after = card.place(dice, category, self.rules)  # type: ignore[arg-type]
        return self.turn_value(after, needed - (after.total - card.total))
