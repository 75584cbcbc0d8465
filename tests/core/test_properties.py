"""Invariants of whole games, with dice chosen by hypothesis (Yahtzees included often)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from yahtzee import (
    Dice,
    Game,
    IllegalMove,
    Keep,
    RuleSet,
    Score,
    Scorecard,
    chance_outcomes,
)

RULES = [*RuleSet.names(), *(f"{name}+playoff" for name in RuleSet.names())]


def universe(rules: RuleSet) -> list[Any]:
    """Every action of a game of ``rules``: each keep and each box of its edition."""
    return [*Keep.all(), *(Score(c) for c in rules.boxes)]


class DrawnDice:
    """A dice source whose outcomes hypothesis chooses, often a Yahtzee."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def throw(self, keep: Keep) -> Dice:
        outcomes = [o.dice for o in chance_outcomes(keep)]
        yahtzees = [d for d in outcomes if d.is_yahtzee] or outcomes
        return self.data.draw(st.one_of(st.sampled_from(yahtzees), st.sampled_from(outcomes)))


def check_card(card: Scorecard, rules: RuleSet) -> None:
    boxes = [points or 0 for points in card.boxes]
    edition = rules.edition
    assert card.edition is edition
    assert card.upper_subtotal == sum(boxes[:6])
    assert card.upper_bonus == (edition.upper_bonus if card.upper_subtotal >= 63 else 0)
    assert card.lower_total == sum(boxes[6:]) + card.yahtzee_bonus
    assert card.total == sum(boxes) + card.upper_bonus + card.yahtzee_bonus
    assert card.total - card.yahtzee_bonus <= 376  # Yatzy+tp4: Two Pairs up to 24
    assert card.total <= 1575
    if not rules.yahtzee_bonus:
        assert card.yahtzee_bonus == 0
    assert Scorecard.from_dict(card.to_dict()) == card
    assert Scorecard.from_dict(card.to_dict(), rules=rules) == card


def check_legality(game: Game, part: int = 0, parts: int = 1) -> None:
    """Every listed action is allowed; every other is refused and changes nothing (of the
    actions not listed, only every ``parts``-th from ``part`` on: one share at a time)."""
    legal = set(game.legal_actions())
    state, events = game.state, game.event_log
    for action in legal | set(universe(game.rules)[part::parts]):
        try:
            game.check(action)
            allowed = True
        except IllegalMove:
            allowed = False
        assert allowed == (action in legal) == (action in game.legal_actions()), action
        if not allowed:
            try:
                game.play(action)
            except IllegalMove:
                pass
            else:  # pragma: no cover - a failure
                raise AssertionError(f"{action} was accepted but not listed")
            assert game.state == state and game.event_log == events


@given(data=st.data(), players=st.integers(1, 6), rules=st.sampled_from(RULES))
def test_random_legal_games(data: st.DataObject, players: int, rules: str) -> None:
    game = Game(players, rules, DrawnDice(data))
    steps = 0
    while not game.is_over:
        if steps % 13 == 0:  # every phase of a turn in time (turns are 2 to 4 steps), and
            check_legality(game, steps // 13 % 5, 5)  # each action in time (5x quicker)
        actions = list(game.legal_actions())
        assert actions, "a game that is not over always has a legal action"
        game.play(data.draw(st.sampled_from(actions)))
        steps += 1
        turn = game.turn
        assert turn is None or 0 <= turn.rolls <= 3
    scored = [e for e in game.events if e["type"] == "score"]
    assert len(scored) == game.rules.rounds * players
    for seat in range(players):
        assert sum(1 for e in scored if e["player"] == seat) == game.rules.rounds
        assert game.cards[seat].is_complete
        check_card(game.cards[seat], game.rules)
    assert game.winners
    best = max(card.total for card in game.cards)
    assert all(game.cards[w].total == best for w in game.winners)
    assert Game.replay(game.events) == game
    check_legality(game)


@given(data=st.data(), rules=st.sampled_from(RULES))
def test_replay_of_any_prefix_equals_the_live_game(data: st.DataObject, rules: str) -> None:
    game = Game(["Ann", "Bob"], rules, DrawnDice(data))
    for _ in range(data.draw(st.integers(0, 60))):
        if game.is_over:
            break
        game.play(data.draw(st.sampled_from(list(game.legal_actions()))))
    assert Game.replay(game.events) == game


@given(
    dice=st.sampled_from(Dice.all()),
    filled=st.sets(st.integers(0, 14), max_size=14),
    yahtzee=st.sampled_from([None, 0, 50]),
    rules=st.sampled_from(RULES),
)
def test_placements_are_open_boxes_and_never_empty(
    dice: Dice, filled: set[int], yahtzee: int | None, rules: str
) -> None:
    rule_set = RuleSet.named(rules)
    edition = rule_set.edition
    chance = edition.parse_box("chance")
    boxes: list[int | None] = [0 if c in filled else None for c in edition.boxes]
    boxes[chance] = 5 if chance in filled else None
    boxes[edition.five_of_a_kind] = yahtzee
    card = Scorecard(tuple(boxes), 0, edition)
    if card.is_complete:
        return
    options = card.placements(dice, rule_set)
    assert options
    assert {p.category for p in options} <= set(card.open_boxes)
    if rule_set.ordered:
        assert [p.category for p in options] == [card.open_boxes[0]]
    for p in options:
        earns = dice.is_yahtzee and yahtzee == 50
        assert p.yahtzee_bonus == (rule_set.yahtzee_bonus if earns else 0)
        after = card.place(dice, p.category, rule_set)
        assert after.total == card.total + p.total + (after.upper_bonus - card.upper_bonus)
