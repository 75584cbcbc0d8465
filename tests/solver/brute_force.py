"""An independent, slow expectimax over the core rules: every outcome of every keep.

It uses nothing of the solver: only ``Scorecard.placements``/``place`` and
``chance_outcomes`` from the core, with whole cards (uncapped subtotals) as states.
"""

from __future__ import annotations

from functools import cache

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
