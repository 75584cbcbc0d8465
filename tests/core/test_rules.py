from __future__ import annotations

import pytest

from yahtzee import InvalidInput, JokerRule, RuleSet, TieBreak


def test_registry() -> None:
    assert RuleSet.names()[0] == "official"
    assert set(RuleSet.names()) >= {"official", "free-choice-joker", "no-joker", "no-yahtzee-bonus"}
    assert RuleSet.official() is RuleSet.named("official")
    assert RuleSet.named("Free Choice Joker").joker is JokerRule.FREE_CHOICE
    assert RuleSet.named("no-joker").joker is JokerRule.NONE
    assert RuleSet.named("no-yahtzee-bonus").yahtzee_bonus == 0
    official = RuleSet.official()
    assert (official.joker, official.yahtzee_bonus, official.tie_break) == (
        JokerRule.FORCED, 100, TieBreak.SHARED,
    )  # fmt: skip


def test_playoff_suffix() -> None:
    rules = RuleSet.named("no-joker+playoff")
    assert rules.tie_break is TieBreak.PLAYOFF
    assert rules.joker is JokerRule.NONE
    assert rules.name == "no-joker+playoff"
    assert RuleSet.named(rules.name) == rules
    assert rules.scoring_key == RuleSet.named("no-joker").scoring_key


def test_frozen_and_dict_round_trip() -> None:
    rules = RuleSet.named("free-choice-joker")
    with pytest.raises(AttributeError):
        rules.joker = JokerRule.NONE  # type: ignore[misc]
    assert RuleSet.from_dict(rules.to_dict()) == rules


def test_unknown_rule_set_lists_the_names() -> None:
    with pytest.raises(InvalidInput, match="Rule sets: official, free-choice-joker"):
        RuleSet.named("house-rules")


def test_register_rejects_a_taken_name() -> None:
    with pytest.raises(InvalidInput, match="already registered"):
        RuleSet.register(RuleSet(name="official", summary="again"))


@pytest.mark.parametrize("name", ["official", "free-choice-joker", "no-joker", "no-yahtzee-bonus"])
def test_describe_in_words(name: str) -> None:
    text = RuleSet.named(name).describe()
    assert "63" in text and "35" in text and "Joker" in text
    assert ("100 points" in text) == (name != "no-yahtzee-bonus")


def test_the_scoring_key_is_made_once_and_follows_each_rule_set_made_from_another() -> None:
    """The key is kept in the value (the meter asks for it at every move): one made by
    ``dataclasses.replace`` or read back from its dict has its own options' key, and the
    key takes no part in equality."""
    import dataclasses

    official = RuleSet.official()
    assert official.scoring_key == "joker=forced;bonus=100"
    no_bonus = dataclasses.replace(official, name="no-bonus-test", yahtzee_bonus=0)
    assert no_bonus.scoring_key == "joker=forced;bonus=0"
    assert RuleSet.from_dict(no_bonus.to_dict()).scoring_key == no_bonus.scoring_key
    assert dataclasses.replace(official) == official
    assert "scoring_key" not in repr(official)
