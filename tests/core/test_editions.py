"""Editions as rule data (issue 54): Scandinavian Yatzy's boxes and scoring, its house
rules, the order of filling, and the errors that name the edition."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yahtzee.core import (
    Category,
    Dice,
    Edition,
    Game,
    IllegalMove,
    InvalidInput,
    RuleSet,
    Scorecard,
    ScriptedDice,
    Situation,
    YatzyBox,
    score,
)

YATZY = RuleSet.named("yatzy")
FH5, TP4 = RuleSet.named("yatzy+fh5"), RuleSet.named("yatzy+tp4")
BOTH = RuleSet.named("yatzy+fh5+tp4")
dice_st = st.lists(st.integers(1, 6), min_size=5, max_size=5).map(Dice)


def reference(key: str, faces: list[int], fh5: bool = False, tp4: bool = False) -> int:
    """Yatzy's scoring as the rule text says it, written apart from the engine."""
    counts = Counter(faces)
    pairs = sorted((f for f, n in counts.items() if n >= 2), reverse=True)
    upper = ["ones", "twos", "threes", "fours", "fives", "sixes"]
    if key in upper:
        face = upper.index(key) + 1
        return face * counts[face]
    if key == "one_pair":
        return 2 * pairs[0] if pairs else 0
    if key == "two_pairs":
        if len(pairs) >= 2:
            return 2 * pairs[0] + 2 * pairs[1]
        fours = [f for f, n in counts.items() if n >= 4]
        return 4 * fours[0] if tp4 and fours else 0
    if key in ("three_of_a_kind", "four_of_a_kind"):
        n = 3 if key == "three_of_a_kind" else 4
        kinds = [f for f, c in counts.items() if c >= n]
        return n * max(kinds) if kinds else 0
    if key == "small_straight":
        return 15 if sorted(faces) == [1, 2, 3, 4, 5] else 0
    if key == "large_straight":
        return 20 if sorted(faces) == [2, 3, 4, 5, 6] else 0
    if key == "full_house":
        shape = sorted(counts.values())
        return sum(faces) if shape == [2, 3] or (fh5 and shape == [5]) else 0
    if key == "chance":
        return sum(faces)
    assert key == "yatzy"
    return 50 if len(counts) == 1 else 0


@given(dice_st)
def test_every_yatzy_box_scores_as_the_rule_text_says(dice: Dice) -> None:
    for rules, fh5, tp4 in ((YATZY, False, False), (FH5, True, False), (TP4, False, True),
                            (BOTH, True, True)):  # fmt: skip
        for box in rules.boxes:
            expected = reference(box.key, list(dice.faces), fh5, tp4)
            assert score(box, dice, rules) == expected, (box.key, dice, rules.name)


def test_every_dice_of_every_box_against_the_reference() -> None:
    for dice in Dice.all():
        for box in YATZY.boxes:
            assert score(box, dice, YATZY) == reference(box.key, list(dice.faces))


@pytest.mark.parametrize(
    ("faces", "key", "rules", "points"),
    [
        ("66655", "one_pair", YATZY, 12),
        ("66655", "two_pairs", YATZY, 22),
        ("66655", "three_of_a_kind", YATZY, 18),
        ("66655", "full_house", YATZY, 28),
        ("66665", "four_of_a_kind", YATZY, 24),
        ("66665", "two_pairs", YATZY, 0),
        ("66665", "two_pairs", TP4, 24),
        ("44444", "full_house", YATZY, 0),
        ("44444", "full_house", FH5, 20),
        ("44444", "two_pairs", BOTH, 16),
        ("44444", "yatzy", YATZY, 50),
        ("12345", "small_straight", YATZY, 15),
        ("12345", "large_straight", YATZY, 0),
        ("23456", "large_straight", YATZY, 20),
        ("12346", "small_straight", YATZY, 0),
    ],
)
def test_golden_scores(faces: str, key: str, rules: RuleSet, points: int) -> None:
    assert score(YatzyBox.parse(key), Dice.parse(faces), rules) == points


def test_the_yatzy_card_is_the_peer_s_fifteen_boxes_in_order() -> None:
    assert [box.key for box in YATZY.boxes] == [
        "ones", "twos", "threes", "fours", "fives", "sixes", "one_pair", "two_pairs",
        "three_of_a_kind", "four_of_a_kind", "small_straight", "large_straight", "full_house",
        "chance", "yatzy",
    ]  # fmt: skip
    assert [box.code for box in YATZY.boxes][6:] == [
        "1p", "2p", "3k", "4k", "ss", "ls", "fh", "ch", "yz",
    ]  # fmt: skip
    assert YATZY.rounds == 15 and RuleSet.official().rounds == 13
    assert YATZY.edition.upper_bonus == 50 and YATZY.edition.upper_bonus_threshold == 63


def test_the_registered_rule_sets_of_this_issue() -> None:
    names = set(RuleSet.names())
    for house in ("", "+fh5", "+tp4", "+fh5+tp4"):
        assert f"yatzy{house}" in names and f"yatzy{house}+forced" in names
    assert "official+forced" in names
    assert RuleSet.named("yatzy+fh5+tp4+forced").house == ("fh5", "tp4")
    assert RuleSet.named("yatzy+forced+playoff").ordered
    for name in names:
        rules = RuleSet.named(name)
        assert RuleSet.from_dict(rules.to_dict()) == rules
    assert "edition" not in RuleSet.official().to_dict()  # the American data as it was


def test_a_card_of_yatzy_keeps_its_upper_bonus_and_reads_back() -> None:
    card = Scorecard.empty(YATZY)
    for face in range(1, 7):
        card = card.place(Dice([face] * 3 + [7 - face if face != 7 - face else 1] * 2), face - 1,
                          YATZY)  # fmt: skip
    assert card.upper_subtotal >= 63 and card.upper_bonus == 50
    data = card.to_dict()
    assert data["edition"] == "yatzy" and data["upper_bonus"] == 50
    assert Scorecard.from_dict(data) == card
    assert Scorecard.from_dict(data, rules=YATZY) == card
    assert Scorecard.from_json(card.to_json(), rules=YATZY) == card


def test_the_american_calls_without_rules_keep_working() -> None:
    card = Scorecard.empty().place(Dice.parse("33356"), "3k")
    assert card[Category.THREE_OF_A_KIND] == 20
    assert "edition" not in card.to_dict()
    assert Scorecard.from_dict(card.to_dict()) == card
    assert Situation.parse("13356 2 fh=25").card.edition is Edition.american()


def test_a_yatzy_game_lasts_fifteen_rounds_and_replays() -> None:
    game = Game(["Ann", "Bob"], "yatzy", ScriptedDice(["66655"] * 30))
    for _ in range(30):
        game.roll()
        game.score(game.cards[game.turn.player].open_boxes[-1])  # type: ignore[union-attr]
    assert game.is_over
    assert all(card.is_complete and len(card.boxes) == 15 for card in game.cards)
    assert Game.replay(game.events) == game


@pytest.mark.parametrize("name", ["official+forced", "yatzy+forced"])
def test_forced_order_refuses_a_box_out_of_order_and_changes_nothing(name: str) -> None:
    game = Game(["Ann"], name, ScriptedDice(["66666", "12345"]))
    game.roll()
    state, events = game.state, game.event_log
    with pytest.raises(IllegalMove, match=r"top to bottom: the next is (Aces|Ones)") as error:
        game.score("chance")
    assert error.value.code == "out_of_order"
    assert game.state == state and game.event_log == events
    assert [p.category.key for p in game.cards[0].placements(game.dice, game.rules)] == ["ones"]
    game.score("ones")
    assert game.cards[0].boxes[0] == 0


def test_a_box_of_another_edition_is_an_error_naming_the_edition() -> None:
    game = Game(["Ann"], "official", ScriptedDice(["66655"]))
    game.roll()
    with pytest.raises(InvalidInput, match="One Pair is a box of Yatzy, not of Yahtzee"):
        game.score("one_pair")
    with pytest.raises(InvalidInput, match="a box of Yatzy, not of Yahtzee"):
        game.score(YatzyBox.ONE_PAIR)  # type: ignore[arg-type]
    assert game.cards[0] == Scorecard.empty()
    yatzy = Game(["Ann"], "yatzy", ScriptedDice(["66655"]))
    yatzy.roll()
    with pytest.raises(InvalidInput, match="Yatzy"):
        yatzy.score("yahtzee_bonus")


def test_a_card_of_one_edition_loaded_under_another_is_refused() -> None:
    yatzy_card = Scorecard.empty(YATZY).to_dict()
    with pytest.raises(InvalidInput, match="This card is a Yatzy card; the game is Yahtzee"):
        Scorecard.from_dict(yatzy_card, rules=RuleSet.official())
    american = Scorecard.empty().to_dict()
    with pytest.raises(InvalidInput, match="This card is a Yahtzee card; the game is Yatzy"):
        Scorecard.from_dict(american, rules=YATZY)
    with pytest.raises(InvalidInput, match="This is a Yatzy card; the official rules are"):
        Scorecard.empty(YATZY).placements(Dice.parse("12345"), RuleSet.official())


def test_an_unknown_edition_is_refused_naming_the_editions() -> None:
    with pytest.raises(InvalidInput, match=r"Unknown edition 'maxi'\. Editions: american, yatzy"):
        Scorecard.from_dict({"edition": "maxi", "boxes": {}})
    with pytest.raises(InvalidInput, match="Unknown edition"):
        RuleSet.from_dict({"name": "x", "edition": "maxi"})
    with pytest.raises(InvalidInput, match="Yatzy has no house rule 'fh6'"):
        RuleSet.from_dict({"name": "x", "edition": "yatzy", "joker": "none",
                           "yahtzee_bonus": 0, "house": ["fh6"]})  # fmt: skip
    with pytest.raises(InvalidInput, match="no Joker rule"):
        RuleSet.from_dict({"name": "x", "edition": "yatzy"})


def test_the_rules_in_words_name_the_yatzy_boxes() -> None:
    text = RuleSet.named("yatzy+fh5+forced").describe()
    assert "15 rounds" in text and "Upper bonus: 50 points" in text
    assert "Two Pairs: two different pairs" in text
    assert "Five of a kind is also a Full House." in text
    assert "top to bottom" in text
