"""Wrong types and hostile data through the public API raise YahtzeeError, never a crash."""

from __future__ import annotations

import random

import pytest

from yahtzee import (
    Category,
    Dice,
    Game,
    GameStarted,
    IllegalMove,
    InvalidInput,
    JokerRule,
    Keep,
    RuleSet,
    Scorecard,
    Scored,
    ScriptedDice,
    YahtzeeError,
)
from yahtzee.core import rules as rules_module

NESTED: object = []
for _ in range(5000):
    NESTED = [NESTED]

BAD_CALLS = {
    "card huge int": lambda: Scorecard.from_dict({"boxes": {"aces": 10**5000}}),
    "card huge total": lambda: Scorecard.from_dict({"boxes": {}, "total": 10**5000}),
    "card deep json": lambda: Scorecard.from_json("[" * 100_000),
    "card long number": lambda: Scorecard.from_json("1" * 5000),
    "card bytes": lambda: Scorecard.from_json(b"\xff"),
    "card nested value": lambda: Scorecard.from_dict({"boxes": {"aces": NESTED}}),
    "card bonus too big": lambda: Scorecard.from_dict(
        {"boxes": {"yahtzee": 50}, "yahtzee_bonus": 10**9}
    ),
    "card bonus count": lambda: Scorecard.from_dict(
        {"boxes": {"yahtzee": 50, "aces": 5}, "yahtzee_bonus": 200}
    ),
    "card bonus odd": lambda: Scorecard.from_dict(
        {"boxes": {"yahtzee": 50, "aces": 5}, "yahtzee_bonus": 7}
    ),
    "scorecard int": lambda: Scorecard(5),  # type: ignore[arg-type]
    "scorecard text boxes": lambda: Scorecard(("x",) * 13),  # type: ignore[arg-type]
    "rules int": lambda: Game(1, rules=5),  # type: ignore[arg-type]
    "rules dict": lambda: Game(1, rules={}),  # type: ignore[arg-type]
    "dice source": lambda: Game(1, dice=object()),  # type: ignore[arg-type]
    "check text": lambda: Game(1).check("33"),  # type: ignore[arg-type]
    "check none": lambda: Game(1).check(None),  # type: ignore[arg-type]
    "replay none": lambda: Game.replay(None),  # type: ignore[arg-type]
    "replay int": lambda: Game.replay(5),  # type: ignore[arg-type]
    "replay typed score int": lambda: Game.replay(
        [GameStarted(("a",), "official"), Scored(0, 8, 0)]  # type: ignore[arg-type]
    ),
    "replay typed start": lambda: Game.replay([GameStarted(("a",), 5)]),  # type: ignore[arg-type]
    "replay typed start none": lambda: Game.replay([GameStarted(None, "official")]),  # type: ignore[arg-type]
    "replay typed version": lambda: Game.replay([GameStarted(("a",), "official", 2)]),
    "replay huge player": lambda: Game.replay(
        [
            {"type": "start", "version": 1, "players": ["a"], "rules": "official"},
            {"type": "roll", "player": 10**5000, "keep": "-", "dice": "12345"},
        ]
    ),
    "rules nested name": lambda: RuleSet.from_dict({"name": NESTED, "summary": ""}),
    "for face 0": lambda: Category.for_face(0),
    "for face 7": lambda: Category.for_face(7),
    "keep of none": lambda: Keep.of(None),  # type: ignore[arg-type]
    "place text nonsense": lambda: Scorecard.empty().place(Dice.parse("11111"), "zz"),
    "register bad name": lambda: RuleSet.register(RuleSet("My Rules", "x")),
    "register playoff": lambda: RuleSet.register(RuleSet("zz+playoff", "x")),
    "unregistered variant": lambda: Game(
        1, RuleSet.from_dict({"name": "official", "summary": "", "joker": "none"})
    ),
    "bonus 50": lambda: RuleSet("half-bonus", "x", yahtzee_bonus=50),
}


@pytest.mark.parametrize("call", BAD_CALLS.values(), ids=BAD_CALLS.keys())
def test_bad_calls_raise_yahtzee_errors(call: object) -> None:
    with pytest.raises(YahtzeeError) as caught:
        call()  # type: ignore[operator]
    assert len(str(caught.value)) < 300


def test_random_random_is_a_dice_source() -> None:
    a, b = Game(1, dice=random.Random(4)), Game(1, dice=random.Random(4))
    assert a.roll() == b.roll()


def test_place_accepts_numbers_and_names() -> None:
    card = Scorecard.empty()
    assert card.place(Dice.parse("22333"), 8)[Category.FULL_HOUSE] == 25
    assert card.place(Dice.parse("22333"), "fh")[Category.FULL_HOUSE] == 25
    game = Game(1, dice=ScriptedDice(["22333"]))
    game.roll()
    assert game.score(8).points == 25  # type: ignore[arg-type]


def test_refusals_name_only_the_boxes_the_joker_allows() -> None:
    card = Scorecard.from_dict({"boxes": {"yahtzee": 50, "full_house": 25}})
    with pytest.raises(IllegalMove) as caught:
        card.place(Dice.parse("55555"), Category.FULL_HOUSE)
    assert str(caught.value) == "Full House is already filled (25). Allowed: Fives."
    with pytest.raises(IllegalMove) as caught:
        card.place(Dice.parse("55555"), Category.CHANCE)
    assert str(caught.value) == "The Joker rule does not allow Chance now. Allowed: Fives."
    game = Game(1, dice=ScriptedDice(["55555", "55555", "55555", "55555", "44444"]))
    game.roll()
    game.score(Category.YAHTZEE)
    game.roll()
    game.roll("55555")
    game.roll("55555")
    with pytest.raises(IllegalMove) as caught:
        game.roll("5555")
    assert str(caught.value) == "You have used all three rolls: score the dice now. Allowed: Fives."


def test_playoff_rules_describe_themselves_consistently() -> None:
    rules = RuleSet.named("official+playoff")
    assert "playoff" in rules.summary and "shared" not in rules.summary
    assert "playoff" in rules.describe()


def test_registered_names_are_normalised_and_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """(The registry is put back afterwards: a rule set left registered showed up in the
    list of rule sets another test's error message names, in the same worker.)"""
    monkeypatch.setattr(rules_module, "_REGISTRY", dict(rules_module._REGISTRY))
    rules = RuleSet.register(
        RuleSet("test-house", "A house rule for the tests.", joker=JokerRule.NONE)
    )
    assert RuleSet.named("Test House") is rules
    assert Game(1, rules).rules is rules
    assert RuleSet.named("test-house+playoff").joker is JokerRule.NONE


def test_free_choice_marks_only_real_joker_values() -> None:
    card = Scorecard.from_dict({"boxes": {"yahtzee": 50}})
    free = RuleSet.named("free-choice-joker")
    marked = {p.category: p.joker for p in card.placements(Dice.parse("44444"), free)}
    assert not any(marked.values())  # the Fours box is open: no Joker values apply
    card = Scorecard.from_dict({"boxes": {"yahtzee": 50, "fours": 12}})
    marked = {p.category: p.joker for p in card.placements(Dice.parse("44444"), free)}
    assert {c for c, joker in marked.items() if joker} == {
        Category.FULL_HOUSE, Category.SMALL_STRAIGHT, Category.LARGE_STRAIGHT,
    }  # fmt: skip


def test_replay_errors_name_the_event() -> None:
    game = Game(1, dice=ScriptedDice(["12345"]))
    game.roll()
    events = game.events
    events[1] = {**events[1], "player": "0"}
    with pytest.raises(InvalidInput, match=r"^Event 2: Event field 'player'"):
        Game.replay(events)
