"""The solver's scoring arrays say exactly what the core's rules say."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from yahtzee import Dice, RuleSet, Scorecard
from yahtzee.solver import kernel, policy
from yahtzee.solver.tables import model

RULES = [RuleSet.named(n) for n in RuleSet.names()]


@given(
    rules=st.sampled_from(RULES),
    mask=st.integers(0, (1 << 15) - 2),
    holds_50=st.booleans(),
    dice=st.one_of(
        st.sampled_from(Dice.all()), st.sampled_from([Dice((f,) * 5) for f in range(1, 7)])
    ),
)
def test_kernel_placements_match_the_core(
    rules: RuleSet, mask: int, holds_50: bool, dice: Dice
) -> None:
    edition = rules.edition
    mask %= (1 << len(edition.boxes)) - 1  # a card of the edition with a box open
    boxes: list[int | None] = [None] * len(edition.boxes)
    for c in edition.boxes:
        if mask >> c & 1:
            boxes[c] = 5 if c.key == "chance" else 0
    yf = 0
    five = edition.five_of_a_kind
    if mask >> five & 1 and holds_50:
        boxes[five] = 50
        yf = 1 if edition.extra_rules else 0  # (Yatzy's states have no such bit)
    card = Scorecard(tuple(boxes), 0, edition)
    expected = {(p.category.value, p.points, p.yahtzee_bonus) for p in card.placements(dice, rules)}
    m = model(rules)
    rows, adds, cats = np.empty(16, np.int64), np.empty(16), np.empty(16, np.int64)
    count = kernel.candidates(mask, yf, dice.index, m, rows, adds, cats)
    found = set()
    for c in cats[:count]:
        points, bonus = policy.placement_points(mask, yf, dice.index, int(c), m)
        found.add((int(c), int(points), int(bonus)))
    assert found == expected
