from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from yahtzee import Dice, Game, InvalidInput, Keep, RandomDice, ScriptedDice, chance_outcomes
from yahtzee.core import Rolled
from yahtzee.core.sources import sample


@pytest.mark.parametrize("text", ["1 3 3 5 6", "13356", "6 5 3 3 1", "1,3,3,5,6", "[1, 3, 3, 5, 6]",
                                  " 63351 ", "1-3-3-5-6"])  # fmt: skip
def test_parse_forms(text: str) -> None:
    dice = Dice.parse(text)
    assert dice.faces == (1, 3, 3, 5, 6)
    assert str(dice) == "13356"
    assert dice.spaced() == "1 3 3 5 6"
    assert Dice.parse(str(dice)) == dice
    assert Dice.parse(dice.spaced()) == dice


def test_counts_total_and_index() -> None:
    dice = Dice.parse("13356")
    assert dice.counts == (1, 0, 2, 0, 1, 1)
    assert dice.total == 18
    assert Dice.all()[dice.index] == dice
    assert repr(dice) == "Dice.parse('13356')"


def test_252_rolls_with_probabilities_summing_to_one() -> None:
    rolls = Dice.all()
    assert len(rolls) == 252 == len(set(rolls))
    assert sum(r.probability for r in rolls) == 1
    assert Dice.parse("11111").probability == Fraction(1, 7776)
    assert Dice.parse("12345").probability == Fraction(120, 7776)
    ordered = Counter(tuple(sorted(t)) for t in itertools.product(range(1, 7), repeat=5))
    assert all(Fraction(ordered[r.faces], 7776) == r.probability for r in rolls)


def test_462_keeps() -> None:
    keeps = Keep.all()
    assert len(keeps) == 462 == len(set(keeps))
    assert [len([k for k in keeps if len(k) == n]) for n in range(6)] == [1, 6, 21, 56, 126, 252]
    assert all(Keep.all()[k.index] == k for k in keeps)


def test_keep_text_round_trip() -> None:
    assert str(Keep.NONE) == "-"
    for keep in Keep.all():
        assert Keep.parse(str(keep)) == keep
    assert Keep.parse("") == Keep.parse("none") == Keep.NONE
    assert Keep.parse("3 3") == Keep((3, 3))


def test_keeps_of_dice() -> None:
    assert len(Dice.parse("12345").keeps()) == 32
    assert len(Dice.parse("11111").keeps()) == 6
    assert len(Dice.parse("11222").keeps()) == 12
    dice = Dice.parse("11222")
    assert all(dice.contains(k) for k in dice.keeps())
    assert Keep.parse("12") in dice and Keep.parse("111") not in dice


@pytest.mark.parametrize("keep", ["-", "3", "33", "335", "1234", "13356"])
def test_chance_outcomes_match_brute_force(keep: str) -> None:
    k = Keep.parse(keep)
    outcomes = chance_outcomes(k)
    assert sum(o.probability for o in outcomes) == 1
    assert all(o.dice.contains(k) for o in outcomes)
    brute: Counter[Dice] = Counter(
        Dice(k.faces + t) for t in itertools.product(range(1, 7), repeat=k.rerolled)
    )
    assert {o.dice: o.probability for o in outcomes} == {
        dice: Fraction(n, 6**k.rerolled) for dice, n in brute.items()
    }


def test_sampling_follows_the_chance_outcomes() -> None:
    rng = random.Random(7)
    keep = Keep.parse("66")
    n = 60_000
    seen = Counter(sample(keep, rng) for _ in range(n))
    for outcome in chance_outcomes(keep):
        expected = n * float(outcome.probability)
        assert abs(seen[outcome.dice] - expected) < 5 * expected**0.5 + 1


def test_random_dice_is_reproducible() -> None:
    a, b = RandomDice(42), RandomDice(42)
    rolls_a = [a.throw(Keep.NONE) for _ in range(20)]
    assert rolls_a == [b.throw(Keep.NONE) for _ in range(20)]
    assert len(set(rolls_a)) > 5


def test_scripted_dice_whole_roll_or_thrown_faces() -> None:
    source = ScriptedDice(["12345", "66", Dice.parse("11116"), (2, 2, 2, 2, 2)])
    assert source.throw(Keep.NONE) == Dice.parse("12345")
    assert source.throw(Keep.parse("345")) == Dice.parse("34566")
    assert source.throw(Keep.parse("11")) == Dice.parse("11116")
    assert source.throw(Keep.parse("11116")) == Dice.parse("11116")  # nothing thrown
    assert source.remaining == 1
    with pytest.raises(InvalidInput, match="does not fit"):
        source.throw(Keep.parse("1"))
    source.throw(Keep.NONE)
    with pytest.raises(InvalidInput, match="run out"):
        source.throw(Keep.NONE)


def test_dice_thrown_around_a_keep_are_the_shared_roll_and_bad_faces_still_refused() -> None:
    """`Keep.with_thrown` (every roll of duplicate dice) gives the one `Dice` of each of the
    252 rolls, made once, not an object per roll; faces that are no faces are refused as
    `Dice` refuses them (a ``True`` is no 1, though it hashes as one)."""
    shared = {dice.faces: dice for dice in Dice.all()}
    for keep in (Keep.NONE, Keep.parse("66"), Keep.parse("12345")):
        for thrown in itertools.product(range(1, 7), repeat=keep.rerolled):
            dice = keep.with_thrown(thrown)
            assert dice is shared[dice.faces]
            assert dice == Dice(keep.faces + thrown)
    for bad in ((7,), (0,), (True,), (1.0,), ("1",), (1, 2)):
        with pytest.raises(InvalidInput):
            Keep.parse("1234").with_thrown(bad)


def test_a_games_log_keeps_the_shared_keep_of_each_roll() -> None:
    """`Keep.shared` is the one of the 462 made once, equal to the keep; a game's log keeps
    that one, not the object each roll was asked with."""
    made = {keep.faces: keep for keep in Keep.all()}
    for keep in Keep.all():
        again = Keep(keep.faces)
        assert again is not keep and again.shared is keep and again.shared == again
    game = Game(["Ann"], dice=RandomDice(7))
    game.roll()
    kept = Keep.of(game.dice.faces[:3])  # type: ignore[union-attr]
    game.roll(kept)
    logged = game.event_log[-1]
    assert isinstance(logged, Rolled) and logged.keep == kept
    assert logged.keep is made[kept.faces] and game.turn.kept is logged.keep  # type: ignore[union-attr]
