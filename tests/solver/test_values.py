"""Golden values from the literature, and agreement with an independent brute force."""

from __future__ import annotations

import random
import zlib

import pytest

from tests.solver.brute_force import BruteForce
from tests.solver.conftest import solver_for
from yahtzee import Category, Dice, Keep, RuleSet, Score, Scorecard, Situation
from yahtzee.core import score

# Expected final score from an empty card, optimal solitaire play.
GOLDEN = {
    "official": 254.5877,  # forced Joker (the rulebook)
    "free-choice-joker": 254.5896,  # Verhoeff's published optimum for that reading
}
GLENN_2006 = 245.87  # no Joker, no Yahtzee bonus (Glenn, 2006)


@pytest.mark.parametrize(("name", "value"), GOLDEN.items())
def test_golden_expected_scores(name: str, value: float) -> None:
    assert round(solver_for(name).expected_total(), 4) == value


def test_glenn_no_joker_no_bonus() -> None:
    assert round(solver_for("no-bonus-no-joker").expected_total(), 2) == GLENN_2006


@pytest.mark.parametrize("name", RuleSet.names())
def test_every_registered_rule_set_is_solved(name: str) -> None:
    total = solver_for(name).expected_total()
    if RuleSet.named(name).ordered:  # boxes filled top to bottom: about half
        assert 120 < total < 135
    else:
        assert 240 < total < 260


def test_the_first_decision_of_a_game() -> None:
    """Values agree with the published solvers' figures for 1 3 3 5 6 with two rolls left."""
    advice = solver_for("official").advise(Scorecard.empty(), Dice.parse("13356"), 2)
    assert advice.best.action == Keep.parse("33")
    assert advice.best.value == pytest.approx(251.4054, abs=5e-5)
    assert advice.regret(Keep.parse("6")) == pytest.approx(1.57697, abs=5e-6)
    assert advice.value("score threes") == pytest.approx(239.9508, abs=5e-5)


def late_cards(
    seed: int, count: int, rules: RuleSet | None = None
) -> list[tuple[Scorecard, Dice, int]]:
    """Random late-game situations with one to three open boxes (the last ones when boxes
    are filled in order), Yahtzees often, on the rules' card."""
    rng = random.Random(seed)
    rules = rules or RuleSet.official()
    edition = rules.edition
    found = []
    while len(found) < count:
        open_count = rng.randint(1, 3)
        every = list(edition.boxes)
        open_boxes = set(every[-open_count:] if rules.ordered else rng.sample(every, open_count))
        boxes: dict[str, int] = {}
        for c in every:
            if c in open_boxes:
                continue
            if c.is_upper:
                boxes[c.key] = c.face * rng.randint(0, 5)
            elif isinstance(c, Category):
                boxes[c.key] = rng.choice(sorted(_POINTS[c]))
            else:
                boxes[c.key] = score(c, rng.choice(Dice.all()), rules)
        bonus = 0
        if boxes.get("yahtzee") == 50 and rng.random() < 0.5 and edition.extra_rules:
            bonus = 100 * rng.randint(1, 2)
        data = {"boxes": boxes, "yahtzee_bonus": bonus, "edition": edition.name}
        card = Scorecard.from_dict(data, rules=rules)
        face = rng.randint(1, 6)
        dice = Dice((face,) * 5) if rng.random() < 0.4 else rng.choice(Dice.all())
        found.append((card, dice, rng.randint(0, 2)))
    return found


_POINTS = {
    Category.THREE_OF_A_KIND: {0, 17, 24},
    Category.FOUR_OF_A_KIND: {0, 14, 26},
    Category.FULL_HOUSE: {0, 25},
    Category.SMALL_STRAIGHT: {0, 30},
    Category.LARGE_STRAIGHT: {0, 40},
    Category.YAHTZEE: {0, 50},
    Category.CHANCE: {12, 23},
}


BRUTE_FORCED = [n for n in RuleSet.names() if RuleSet.named(n).edition.extra_rules] + ["yatzy"]
"""The American rule sets and plain Yatzy (the other Yatzy rule sets are checked against
the peer's exports, option for option: tests/solver/test_editions.py)."""


@pytest.mark.parametrize("name", BRUTE_FORCED)
def test_advisor_agrees_with_brute_force(name: str) -> None:
    rules = RuleSet.named(name)
    solver, brute = solver_for(name), BruteForce(rules)
    checked = 0
    for card, dice, rolls_left in late_cards(seed=zlib.crc32(name.encode()), count=6, rules=rules):
        advice = solver.advise(Situation(dice, rolls_left, card))
        for option in advice:
            if isinstance(option.action, Score):
                expected = brute.score_value(card, dice, option.action.category)
            else:
                expected = brute.keep_value(card, option.action, rolls_left - 1)
            assert option.value == pytest.approx(expected, abs=1e-9, rel=0), (
                str(advice.situation),
                option,
            )
            checked += 1
        assert solver.expected_total(card) == pytest.approx(brute.final_total(card), abs=1e-9)
    assert checked > 20
