"""The bots a new game offers: the levels, optimal and winning, each said in a line."""

from __future__ import annotations

import pytest

from yahtzee.core import BOT_CHOICES, DEFAULT_BOT, BotSpec, InvalidInput, bot_choice, chosen_bot


def test_the_winning_and_the_optimal_bot_are_offered_with_what_they_do() -> None:
    keys = [c.key for c in BOT_CHOICES]
    assert keys == ["level1", "level2", "level3", "level4", "level5", "optimal", "winning"]
    assert bot_choice("winning").about == "plays for the best chance to finish first"
    assert bot_choice("optimal").spec == BotSpec("optimal")
    assert all(c.spec == BotSpec.parse(c.key) and c.name and c.about for c in BOT_CHOICES)
    assert DEFAULT_BOT in [c.spec for c in BOT_CHOICES]


@pytest.mark.parametrize("key", ["greedy", "random", "Winning", "3", "", "level6"])
def test_a_bot_not_offered_is_refused_naming_those_that_are(key: str) -> None:
    with pytest.raises(InvalidInput, match=r"the bots are level1, .*, optimal, winning"):
        bot_choice(key)


def test_a_bot_is_chosen_by_its_key_or_its_level_not_both() -> None:
    assert chosen_bot("winning") == BotSpec("winning")
    assert chosen_bot(level=2) == BotSpec.at_level(2)
    assert chosen_bot() == DEFAULT_BOT
    with pytest.raises(InvalidInput, match="not both"):
        chosen_bot("optimal", 5)
    with pytest.raises(InvalidInput):
        chosen_bot(level=9)
