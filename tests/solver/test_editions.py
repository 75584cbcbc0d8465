"""The solver of every edition: the published expected scores, and every option of
yatzy-solver's own exports (built here from the installed peer) on all eight Yatzy rule
sets; boxes filled in order (``+forced``) offer only the next box."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.solver.conftest import solver_for
from tests.solver.peer_exports import export
from yahtzee import Dice, Keep, RuleSet, Score, Scorecard, Situation
from yahtzee.core import Box, YatzyBox
from yahtzee.solver import Solver

EXPECTED = {
    "yatzy": 248.4399894,
    "yatzy+fh5": 248.4680909,
    "yatzy+tp4": 248.6440589,
    "yatzy+fh5+tp4": 248.6748827,
    "yatzy+forced": 122.5585274,
    "yatzy+fh5+forced": 122.6063535,
    "yatzy+tp4+forced": 123.1945781,
    "yatzy+fh5+tp4+forced": 123.2424042,
}
"""Expected final scores from an empty card (yatzy-solver 1.0.0's ``state_value``; the
first four are the figures the issue quotes)."""

OFFICIAL_FORCED = 130.2859719
"""``official+forced``: no peer solves it; the brute force of tests/solver/test_values.py
agrees with its late-game values."""


@pytest.mark.parametrize("name", EXPECTED)
def test_expected_scores_of_every_yatzy_rule_set(name: str) -> None:
    solver = solver_for(name)
    assert solver.expected_total(Scorecard.empty(solver.rules)) == pytest.approx(
        EXPECTED[name], abs=1e-6
    )


@pytest.mark.parametrize("name", EXPECTED)
def test_every_option_equals_the_peers_export(name: str, tmp_path: Path) -> None:
    rules = RuleSet.named(name)
    rows = export(rules, tmp_path)
    first = rows[0].situation  # the peer's situations read as ours: a game's first roll
    assert (first.card, first.rolls_left) == (Scorecard.empty(rules), 2)
    solver = solver_for(name)
    boxes: set[Score] = set()
    keeps: set[Keep] = set()
    for row in rows:
        card = row.situation.card
        ours = {o.action: o.value - card.total for o in solver.advise(row.situation)}
        assert ours.keys() == row.options.keys(), row.situation
        for action, value in row.options.items():
            assert ours[action] == pytest.approx(value, rel=0, abs=1e-9), (row.situation, action)
        boxes |= {a for a in ours if isinstance(a, Score)}
        keeps |= {a for a in ours if isinstance(a, Keep)}
    assert len(boxes) == len(rules.boxes)  # every box was an option, and every keep
    assert len(keeps) == sum(1 for k in Keep.all() if len(k) < 5)


def card_with(rules: RuleSet, points: dict[Box, int]) -> Scorecard:
    """A card of the rules' edition with these boxes filled."""
    boxes = tuple(points.get(box) for box in rules.boxes)
    return Scorecard(boxes, 0, rules.edition)


def test_boxes_filled_in_order_offer_only_the_next_box() -> None:
    solver = solver_for("yatzy+forced")
    card = card_with(solver.rules, {YatzyBox.ONES: 3, YatzyBox.TWOS: 4})
    advice = solver.advise(Situation.of(card, Dice.parse("66666"), 0))
    assert [o.action for o in advice] == [Score(YatzyBox.THREES)]
    free = solver_for("yatzy").advise(Situation.of(card, Dice.parse("66666"), 0))
    assert len(free) == 13


def test_official_forced_fills_in_order_jokers_included() -> None:
    """The rulebook's scoring with boxes filled top to bottom: far below the free order,
    and an extra Yahtzee still goes only in the next box (its Joker value, the bonus)."""
    solver = solver_for("official+forced")
    start = solver.expected_total(Scorecard.empty(solver.rules))
    assert start == pytest.approx(OFFICIAL_FORCED, abs=1e-6)
    assert start < solver_for("official").expected_total() - 100
    card = card_with(solver.rules, {**dict.fromkeys(solver.rules.boxes[:11], 0),
                                    solver.rules.boxes[11]: 50})  # fmt: skip
    advice = solver.advise(Situation.of(card, Dice.parse("33333"), 0))
    assert [o.action.category.key for o in advice if isinstance(o.action, Score)] == ["chance"]
    assert advice.best.value == pytest.approx(card.total + 15 + 100)


def test_a_solver_refuses_another_editions_table() -> None:
    table = solver_for("official").table
    with pytest.raises(ValueError, match="shape"):
        Solver(RuleSet.named("yatzy"), table)
