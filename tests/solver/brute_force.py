"""An independent, slow expectimax over the core rules: every outcome of every keep.

It uses nothing of the solver: only ``Scorecard.placements``/``place`` and
``chance_outcomes`` from the core, with whole cards (uncapped subtotals) as states.
"""

from __future__ import annotations

from functools import cache
from math import fsum

from yahtzee import Dice, Keep, RuleSet, Scorecard, chance_outcomes


class BruteForce:
    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.final_total = cache(self._final_total)
        self.roll_value = cache(self._roll_value)
        self.keep_value = cache(self._keep_value)

    def _final_total(self, card: Scorecard) -> float:
        """Expected final total from the start of a turn on ``card``."""
        if card.is_complete:
            return float(card.total)
        return self.keep_value(card, Keep.NONE, 2)

    def _keep_value(self, card: Scorecard, keep: Keep, rolls_left_after: int) -> float:
        """Keep ``keep``, throw the rest, then ``rolls_left_after`` rolls remain."""
        return sum(
            float(o.probability) * self.roll_value(card, o.dice, rolls_left_after)
            for o in chance_outcomes(keep)
        )

    def _roll_value(self, card: Scorecard, dice: Dice, rolls_left: int) -> float:
        best = max(
            self.score_value(card, dice, p.category) for p in card.placements(dice, self.rules)
        )
        if rolls_left:
            best = max(best, *(self.keep_value(card, k, rolls_left - 1) for k in dice.keeps()))
        return best

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
        self.roll_value = cache(self._roll_value)
        self.keep_value = cache(self._keep_value)

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

    def _turn_value(self, card: Scorecard, needed: int) -> float:
        """Chance of scoring ``needed`` more points from the start of a turn on ``card``."""
        if needed <= 0:
            return 1.0
        if card.is_complete:
            return 0.0
        return self.keep_value(card, needed, Keep.NONE, 2)

    def _keep_value(self, card: Scorecard, needed: int, keep: Keep, rolls_left_after: int) -> float:
        """Keep ``keep``, throw the rest, then ``rolls_left_after`` rolls remain."""
        return fsum(
            float(o.probability) * self.roll_value(card, needed, o.dice, rolls_left_after)
            for o in chance_outcomes(keep)
        )

    def _roll_value(self, card: Scorecard, needed: int, dice: Dice, rolls_left: int) -> float:
        best = max(
            self.score_value(card, dice, p.category, needed)
            for p in card.placements(dice, self.rules)
        )
        if rolls_left and best < 1.0:
            best = max(
                best, *(self.keep_value(card, needed, k, rolls_left - 1) for k in dice.keeps())
            )
        return best

    def score_value(self, card: Scorecard, dice: Dice, category: object, needed: int) -> float:
        after = card.place(dice, category, self.rules)  # type: ignore[arg-type]
        return self.turn_value(after, needed - (after.total - card.total))
