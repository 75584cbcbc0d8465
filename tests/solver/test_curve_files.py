"""The score-curve tables' compact forms: states whose upper bonus is out of reach share
one curve, and the levels on disk are steps between neighbours, compressed."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from yahtzee import Category, RuleSet, Scorecard
from yahtzee.solver.curve_build import canonical, layer_states, state_index
from yahtzee.solver.curve_table import TABLE_CAP, CurveTable, build, decode_levels, encode_levels
from yahtzee.solver.planner import state_of
from yahtzee.solver.tables import N_UPPER, UPPER_CAP

from .brute_force import BruteTarget

OPEN = (Category.ONES, Category.YAHTZEE, Category.CHANCE)


def card_with(upper: dict[Category, int]) -> Scorecard:
    """Aces, the Yahtzee box and Chance open; the other upper boxes as given, the lower
    ones 0."""
    return Scorecard(tuple(None if c in OPEN else upper.get(c, 0) for c in Category))


@settings(max_examples=60, deadline=None)
@given(arrays(np.uint16, st.integers(0, 3000)))
def test_levels_encoding_round_trip(levels: np.ndarray) -> None:
    low, high = encode_levels(levels)
    assert np.array_equal(decode_levels(low, high, len(levels)), levels)


def test_levels_of_another_length_are_refused() -> None:
    low, high = encode_levels(np.arange(10, dtype=np.uint16))
    with pytest.raises(ValueError, match="length"):
        decode_levels(low, high, 11)


def test_canonical_states_are_those_with_the_bonus_out_of_reach() -> None:
    states = np.concatenate([layer_states(filled) for filled in range(4, 9)])
    mapped = canonical(states)
    mask, u = states[:, 0], states[:, 2]
    room = sum(5 * (c + 1) * (1 - ((mask >> c) & 1)) for c in range(N_UPPER))
    dead = u + room < UPPER_CAP
    assert dead.any() and (~dead).any()
    assert np.array_equal(mapped[dead, 2], np.zeros(dead.sum()))
    assert np.array_equal(mapped[~dead], states[~dead])
    assert np.array_equal(mapped[:, :2], states[:, :2])
    # the one worked out is a reachable state of the same layer
    assert set(state_index(mapped).tolist()) <= set(state_index(states).tolist())


def test_states_with_the_bonus_out_of_reach_share_a_curve_and_it_is_right() -> None:
    """Aces open (at most 5 more upper points): subtotals 10 and 40 cannot reach 63, so
    both cards read the one curve worked out; 60 can, and has its own. Each agrees with
    an independent expectimax over whole cards."""
    rules = RuleSet.official()
    low = card_with({Category.TWOS: 4, Category.THREES: 6})  # 10
    high = card_with({Category.FOURS: 16, Category.FIVES: 15, Category.SIXES: 9})  # 40
    near = card_with({Category.FOURS: 20, Category.FIVES: 25, Category.SIXES: 12,
                      Category.THREES: 3})  # fmt: skip
    assert [state_of(c)[2] for c in (low, high, near)] == [10, 40, 60]
    table = build("target", rules, base_mask=state_of(low)[0])
    starts = [int(table.start[CurveTable.index(c)]) for c in (low, high, near)]
    assert starts[0] == starts[1] != starts[2]
    brute = BruteTarget(rules)  # (in pure Python: 10-20 s a target of 30 or more points)
    targets = {low: (1, 10, 30), high: (1, 10, 30), near: (10, 30, 120)}  # 120: the bonus
    for card, mores in targets.items():
        for more in mores:
            expected = brute.probability(card, card.total + more)
            assert table.curve(card)[more] == pytest.approx(expected, abs=2e-5), (card, more)
    assert table.cap == TABLE_CAP
