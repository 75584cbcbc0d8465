"""The numpy turn (no compiling) gives the compiled kernels' values, option for option."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.solver.conftest import solver_for
from yahtzee import RuleSet
from yahtzee.solver import policy, turn_numpy
from yahtzee.solver.kernel import N_MS, N_ROWS
from yahtzee.solver.tables import N_ROLLS, ROLL_BASE, card_shape, dice_tables, reach_table

RULE_SETS = ["official", "free-choice-joker", "no-joker", "no-bonus-no-joker"]
EDITIONS = ["official+forced", "yatzy+fh5+tp4", "yatzy+forced"]
"""Rule sets of other cards: boxes filled in order (Jokers too), fifteen boxes."""


def states(
    rng: random.Random, count: int, rules: RuleSet | None = None
) -> list[tuple[int, int, int]]:
    """Reachable turn-start states, half of them with the Yahtzee box filled (Jokers)."""
    card = card_shape(rules or RuleSet.official())
    reach = reach_table(card.n_boxes)
    ybit = 1 << card.yahtzee_box if card.yahtzee_box >= 0 else 0
    found = []
    while len(found) < count:
        mask = rng.randrange(card.all_filled)
        if card.ordered:
            mask = (1 << rng.randrange(card.n_boxes)) - 1
        elif len(found) % 2:
            mask |= ybit
        if mask == card.all_filled:
            continue
        yf = rng.randrange(2) if mask & ybit else 0
        found.append((mask, yf, rng.randint(0, int(reach[mask]))))
    return found


@pytest.mark.parametrize("name", RULE_SETS + EDITIONS)
def test_numpy_turns_agree_with_the_compiled_kernels(name: str) -> None:
    solver = solver_for(name)
    E, m, lite = solver.table, solver.model, solver.scoring
    rng = random.Random(name)
    kinds = np.empty(policy.MAX_OPTIONS, dtype=np.int64)
    ids = np.empty(policy.MAX_OPTIONS, dtype=np.int64)
    values = np.empty(policy.MAX_OPTIONS)
    for mask, yf, u in states(rng, 60, solver.rules):
        R, K1, K2 = np.empty((N_ROWS, 1)), np.empty((N_MS, 1)), np.empty((N_MS, 1))
        policy.turn_tables(mask, yf, u, E, m, R, K1, K2)
        nR, nK1, nK2 = turn_numpy.turn_tables(mask, yf, u, E, lite)
        np.testing.assert_allclose(nK1, K1, rtol=0, atol=1e-9)
        np.testing.assert_allclose(nK2, K2, rtol=0, atol=1e-9)
        for r in range(N_ROLLS):
            for rolls_left in (0, 1, 2):
                count = policy.option_values(
                    mask, yf, r, rolls_left, m, R, K1, K2, kinds, ids, values
                )
                got = turn_numpy.option_values(mask, yf, r, rolls_left, lite, nR, nK1, nK2)
                assert list(got[0]) == list(kinds[:count])
                assert list(got[1]) == list(ids[:count])
                np.testing.assert_allclose(got[2], values[:count], rtol=0, atol=1e-9)


def test_a_numpy_turn_gives_the_table_its_turn_start_value() -> None:
    solver = solver_for("official")
    rng = random.Random(3)
    for mask, yf, u in states(rng, 40):
        _, _, K2 = turn_numpy.turn_tables(mask, yf, u, solver.table, solver.scoring)
        # three rolls: the mean over first rolls of the best of standing and every keep
        dice = dice_tables()
        best = [
            max([K2[ROLL_BASE + r, 0], *(K2[k, 0] for k in dice.sub_keeps[r] if k >= 0)])
            for r in range(N_ROLLS)
        ]
        start = float(dice.probability @ np.array(best))
        assert start == pytest.approx(float(solver.table[mask, yf, u]), abs=1e-9)
