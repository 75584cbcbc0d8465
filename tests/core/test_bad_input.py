"""Malformed input raises InvalidInput with a message a player understands."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from yahtzee import Category, Dice, Game, InvalidInput, Keep, RuleSet, Scorecard

BAD_DICE = [
    "1234", "0 1 2 3 4", "abcde", "123456", "", "   ", "1 2 3 4 7", "12 3 4 5", "1,2,3,4",
    "one two three four five", "1.5 2 3 4 5", "-1 2 3 4 5", "1 2 3 4 5 6", "66666 6",
    "1\t2\t3\t4\t9", "\uff11\uff12\uff13\uff14\uff15", "1e5", "[1, 2, 3]", "None", "12345x",
]  # fmt: skip
BAD_BOXES = ["", "full hose", "7s", "sevens", "bonus", "total", "upper bonus", "yahtzee bonus"]
BAD_CARDS = [
    "{", "[]", "null", '{"boxes": {"aces": 7}}', '{"boxes": {"full_house": 24}}',
    '{"boxes": {"nope": 1}}', '{"boxes": {"chance": 0}}',
    '{"boxes": {"yahtzee": 0}, "yahtzee_bonus": 100}', '{"boxes": {"aces": 1.0}}',
    '{"boxes": {"aces": 3}, "total": 5}',
]  # fmt: skip
BAD_RULES = ["bogus", "", "official+bogus", "Official Rules"]
BAD_KEEPS = ["7", "333333", "abc", "1 2 x"]

CASES: list[tuple[str, Callable[[str], object], str]] = [
    *(("dice", Dice.parse, text) for text in BAD_DICE),
    *(("box", Category.parse, text) for text in BAD_BOXES),
    *(("card", Scorecard.from_json, text) for text in BAD_CARDS),
    *(("rules", RuleSet.named, text) for text in BAD_RULES),
    *(("keep", Keep.parse, text) for text in BAD_KEEPS),
]


def test_there_are_at_least_30_cases() -> None:
    assert len(CASES) >= 30


@pytest.mark.parametrize(("kind", "parse", "text"), CASES, ids=[f"{k}:{t!r}" for k, _, t in CASES])
def test_invalid_input(kind: str, parse: Callable[[str], object], text: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse(text)
    message = str(caught.value)
    assert message.endswith((".", "?")), message
    assert "\n" not in message
    assert len(message) < 300
    assert caught.value.code == "invalid_input"


def test_dice_messages_say_what_is_allowed() -> None:
    with pytest.raises(InvalidInput, match="exactly five dice"):
        Dice.parse("1234")
    with pytest.raises(
        InvalidInput, match="'0' in '0 1 2 3 4' is not a die face: each die shows 1 to 6"
    ):
        Dice.parse("0 1 2 3 4")
    with pytest.raises(InvalidInput, match="not a die face"):
        Dice.parse("abcde")


def test_bad_values_in_code() -> None:
    for bad in [(1, 2, 3, 4), (0, 1, 2, 3, 4), (1, 2, 3, 4, True), (1, 2, 3, 4, "5"), 12345]:
        with pytest.raises(InvalidInput):
            Dice(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        Game(["Ann"], "nope")


def test_a_bad_roll_in_a_log_is_refused_every_time_it_is_read() -> None:
    """Rolls read from logs are parsed once per text of dice (a node reads thousands of
    logs at once when it takes over a dead node's tables): a bad text is refused each
    time, never remembered as good, and a good one reads back equal."""
    game = Game(1)
    game.roll(Keep(()))
    good = game.events
    bad = [dict(event) for event in good]
    bad[1]["dice"] = "12347"
    for _ in range(2):
        with pytest.raises(InvalidInput):
            Game.replay(bad)
        assert Game.replay(good).event_log == game.event_log
