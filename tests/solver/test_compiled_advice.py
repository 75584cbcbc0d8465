"""Advice on the compiled kernels: one call per advice, the same values bit for bit as the
table build's kernel, ranked exactly as :meth:`Advice.from_options` ranks."""

from __future__ import annotations

import dataclasses
import pickle
import random

import numpy as np
import pytest

from tests.solver.conftest import solver_for
from tests.solver.test_turn_numpy import EDITIONS, RULE_SETS, states
from yahtzee import Category, Dice, Keep, Score, Scorecard, Situation
from yahtzee.core.scorecard import possible_points
from yahtzee.solver import Advice, Option, kernel, policy, use_compiled_kernels
from yahtzee.solver.advice import ACTIONS
from yahtzee.solver.layout import (
    KEEP_CODE,
    MAX_CANDIDATES,
    MAX_OPTIONS,
    N_MS,
    N_ROWS,
    PACK_COUNTS,
    PACK_N_BOXES,
    PACK_ORDERED,
    PACK_POINTS,
    PACK_SIZE,
    PACK_YAHTZEE_BOX,
    SCORE,
)
from yahtzee.solver.planner import _read, state_of
from yahtzee.solver.tables import MAX_BOXES, ROLL_BASE, model

_POINTS = {c: sorted(possible_points(c)) for c in Category}


def random_card(rng: random.Random) -> Scorecard:
    """A card with some boxes open, any points the boxes can hold (Jokers included)."""
    while True:
        fill = rng.random()
        boxes = [None if rng.random() > fill else rng.choice(_POINTS[c]) for c in Category]
        if None in boxes:
            bonus = 100 * rng.randint(0, 3) if boxes[Category.YAHTZEE] == 50 else 0
            return Scorecard(tuple(boxes), bonus)


def random_situations(rng: random.Random, count: int) -> list[Situation]:
    found = []
    for i in range(count):
        dice = Dice((rng.randint(1, 6),) * 5) if i % 4 == 0 else rng.choice(Dice.all())
        found.append(Situation(dice, i % 3, random_card(rng)))
    return found


def reference_options(name: str, situation: Situation) -> list[Option]:
    """The options as the planner listed them before the one-call kernel: the kernels'
    values per option, plus the card's total added in Python."""
    solver = solver_for(name)
    mask, yf, u = state_of(situation.card)
    m = solver.model
    R, K1, K2 = np.empty((N_ROWS, 1)), np.empty((N_MS, 1)), np.empty((N_MS, 1))
    policy.turn_tables(mask, yf, u, solver.table, m, R, K1, K2)
    kinds = np.empty(MAX_OPTIONS, dtype=np.int64)
    ids = np.empty(MAX_OPTIONS, dtype=np.int64)
    values = np.empty(MAX_OPTIONS)
    r, rolls_left = situation.dice.index, situation.rolls_left
    count = policy.option_values(mask, yf, r, rolls_left, m, R, K1, K2, kinds, ids, values)
    base = situation.card.total
    return [
        Option(
            Score(Category(int(ids[i]))) if kinds[i] == SCORE else Keep.all()[ids[i]],
            base + float(values[i]),
        )
        for i in range(count)
    ]


@pytest.mark.parametrize("name", RULE_SETS + EDITIONS)
def test_one_lane_turns_equal_the_table_builds_kernel_bit_for_bit(name: str) -> None:
    solver = solver_for(name)
    E, m = solver.table, solver.model
    rows = np.empty(MAX_CANDIDATES, dtype=np.int64)
    adds = np.empty(MAX_CANDIDATES)
    cats = np.empty(MAX_CANDIDATES, dtype=np.int64)
    for mask, yf, u in states(random.Random(name), 80, solver.rules):
        R, A = np.empty((N_ROWS, 1)), np.empty((N_MS, 1))
        K1, K2 = np.empty((N_MS, 1)), np.empty((N_MS, 1))
        kernel.turn(mask, yf, u, 1, E, m, R, A, rows, adds, cats, np.empty(1), K1, K2)
        oR, oK1, oK2 = np.empty((N_ROWS, 1)), np.empty((N_MS, 1)), np.empty((N_MS, 1))
        policy.turn_tables(mask, yf, u, E, m, oR, oK1, oK2)
        assert np.array_equal(oK1, K1)
        assert np.array_equal(oK2, K2)


def test_the_packed_tables_hold_the_models_tables() -> None:
    m = model(solver_for("official").rules)
    assert m.packed.shape == (PACK_SIZE,)
    assert m.packed.dtype == np.int16
    card = m.packed[PACK_N_BOXES], m.packed[PACK_YAHTZEE_BOX], m.packed[PACK_ORDERED]
    assert card == (13, int(Category.YAHTZEE), 0)
    points = m.packed[PACK_POINTS:PACK_COUNTS].reshape(-1, MAX_BOXES)
    assert np.array_equal(points[:, :13], m.points) and not points[:, 13:].any()
    assert np.array_equal(m.packed[-m.sub_keeps.size :], m.sub_keeps.ravel())


@pytest.mark.parametrize("name", RULE_SETS)
def test_compiled_advice_equals_the_kernels_values_ranked_in_python(name: str) -> None:
    use_compiled_kernels()
    solver = solver_for(name)
    for i, situation in enumerate(random_situations(random.Random(name), 300)):
        if i % 2:
            solver._turns.clear()  # half solve the turn in the same call, half reuse it
        listed = reference_options(name, situation)
        expected = Advice.from_options(situation, solver.rules, listed)
        assert solver.options(situation) == listed
        advice = solver.advise(situation)
        assert len(advice) == len(listed)
        assert advice.best == expected.best
        assert advice == expected
        assert advice.options == expected.options
        solver._turns.clear()
        assert solver.choose(situation) == expected.best.action
        for option in listed[:3]:
            assert solver.action_value(situation, option.action) == option.value


def test_turn_tables_and_standing_on_the_dice() -> None:
    """The turn kept for a state gives its columns, and keeping all five dice its value."""
    use_compiled_kernels()
    solver = solver_for("official")
    rng = random.Random(7)
    for situation in random_situations(rng, 40):
        solver._turns.clear()
        _, K1, K2 = solver.turn_tables(situation.card)
        assert K1.shape == K2.shape == (N_MS, 1)
        if situation.rolls_left:
            stand = Keep.of(situation.dice)
            value = solver.action_value(situation, stand)
            column = K1 if situation.rolls_left == 1 else K2
            stands = column[ROLL_BASE:, 0].tolist()
            assert value == situation.card.total + stands[situation.dice.index]


def test_advice_made_on_first_use_behaves_as_advice() -> None:
    use_compiled_kernels()
    solver = solver_for("official")
    situation = Situation(Dice.parse("13356"), 2, Scorecard.empty())
    lazy = solver.advise(situation)
    assert lazy.best.action == Keep.parse("33")
    assert lazy.best.value == pytest.approx(251.4054418, abs=1e-6)
    assert len(lazy) == len(lazy.options) == 36
    eager = Advice(situation, solver.rules, lazy.options)
    assert lazy == eager and hash(lazy) == hash(eager) and repr(lazy) == repr(eager)
    assert pickle.loads(pickle.dumps(lazy)) == lazy
    assert lazy.regret("keep 6") == pytest.approx(1.5769661, abs=1e-6)
    assert lazy.to_dict() == eager.to_dict()
    assert list(lazy) == list(lazy.options)
    with pytest.raises(dataclasses.FrozenInstanceError):
        lazy.situation = situation  # type: ignore[misc]
    assert lazy.situation is situation and lazy.rules is solver.rules


def test_option_codes_name_every_box_and_keep() -> None:
    assert ACTIONS[: len(Category)] == tuple(Score(c) for c in Category)
    assert ACTIONS[len(Category) : KEEP_CODE] == (None,) * (KEEP_CODE - len(Category))
    assert ACTIONS[KEEP_CODE:] == Keep.all()


def test_a_cards_state_and_total_are_read_as_the_card_says() -> None:
    rng = random.Random(11)
    for _ in range(2000):
        card = random_card(rng)
        mask, yf, u, total = _read(card)
        assert total == card.total
        assert mask == sum(1 << c for c, points in card if points is not None)
        assert yf == (card[Category.YAHTZEE] == 50)
        assert u == min(card.upper_subtotal, 63)


def test_planned_bots_decide_quickly_on_the_kernels_and_rival_aware_ones_never() -> None:
    from yahtzee.solver.strategies import decides_quickly, rival_aware, strategy

    use_compiled_kernels()
    for name in ("random", "greedy", "level1", "level5"):
        bot = strategy(name)
        assert decides_quickly(bot) and not rival_aware(bot), name
    winning = strategy("winning")
    assert rival_aware(winning) and not decides_quickly(winning)
    assert not decides_quickly(object())
