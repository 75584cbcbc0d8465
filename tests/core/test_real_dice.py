"""Real dice at the table (issue 27, items 1-2): a game whose players roll real dice and
enter them, or write scores as on a paper pad. The engine checks every entry against the
rules (the forced Joker and the Yahtzee bonus included) and keeps each one as an event, so
replays stay exact."""

from __future__ import annotations

import json
import random

import pytest

from yahtzee.core import (
    Category,
    Dice,
    DiceEntered,
    EnterDice,
    Game,
    IllegalMove,
    InvalidInput,
    Keep,
    Score,
    Write,
    Written,
    possible_points,
)
from yahtzee.core.events import event_from_dict, event_to_dict

C = Category


def pad(players: int = 3) -> Game:
    return Game([f"P{i + 1}" for i in range(players)], entered=True)


def test_the_start_says_the_dice_are_entered_and_a_rolled_game_is_written_as_before() -> None:
    assert pad().events[0]["dice"] == "entered"
    assert "dice" not in Game(2).events[0]  # logs recorded before real dice read the same
    again = Game.replay(pad().events)
    assert again.entered and not Game.replay(Game(2).events).entered


def test_entered_dice_show_and_a_second_entry_corrects_them_without_a_roll() -> None:
    game = pad()
    game.enter_dice("33356", roll=1)
    assert game.dice == Dice.parse("33356") and game.turn is not None and game.turn.rolls == 1
    game.enter_dice("3 3 3 3 6")  # mistyped: corrected, the roll not said
    assert game.dice == Dice.parse("33336")
    assert game.turn.rolls == 3  # not said: advice is about the box
    game.enter_dice(Dice((3, 3, 3, 3, 6)), roll=2)
    assert game.turn.rolls == 2 and game.situation() is not None
    assert game.situation().rolls_left == 1  # type: ignore[union-attr]
    points = {p.category: p.points for p in game.placements()}
    assert points[C.THREES] == 12 and points[C.FOUR_OF_A_KIND] == 18
    assert game.score("threes").points == 12
    assert game.current_player == 1


@pytest.mark.parametrize(
    ("dice", "words"),
    [
        ("33357", "'7' in '33357' is not a die face: each die shows 1 to 6."),
        ("3335", "4 dice in '3335'; a roll has exactly five dice"),
        ("333556", "6 dice in '333556'; a roll has exactly five dice"),
        ("", "No dice given"),
    ],
)
def test_a_bad_entry_says_what_is_allowed_and_changes_nothing(dice: str, words: str) -> None:
    game = pad()
    game.enter_dice("12345")
    before = game.events
    with pytest.raises(InvalidInput, match=words.replace("(", r"\(")):
        game.enter_dice(dice)
    assert game.events == before and game.dice == Dice.parse("12345")


@pytest.mark.parametrize("roll", [0, 4, True, 2.0, "2"])
def test_a_roll_of_the_turn_is_one_two_or_three(roll: object) -> None:
    game = pad()
    with pytest.raises(InvalidInput, match="A roll of the turn is 1, 2 or 3"):
        game.enter_dice("12345", roll=roll)  # type: ignore[arg-type]
    assert len(game.events) == 1


def test_the_program_never_rolls_in_a_game_of_entered_dice_and_the_reverse() -> None:
    game = pad()
    with pytest.raises(IllegalMove, match="enter the five dice showing") as refused:
        game.roll()
    assert refused.value.code == "dice_entered"
    assert Keep.NONE not in game.legal_actions()
    assert EnterDice(Dice.parse("11111")) in game.legal_actions()
    rolled = Game(2)
    for attempt in (lambda: rolled.enter_dice("12345"), lambda: rolled.write("ones", 3)):
        with pytest.raises(IllegalMove, match="The program rolls the dice") as refused:
            attempt()
        assert refused.value.code == "dice_rolled"
    assert len(rolled.events) == 1
    with pytest.raises(InvalidInput, match="Event 2 is not legal here"):
        Game.replay([*pad().events, {"type": "roll", "player": 0, "keep": "", "dice": "12345"}])


def test_an_entry_out_of_turn_is_refused() -> None:
    game = pad()
    with pytest.raises(IllegalMove, match="It is P1's turn, not P2's") as refused:
        game.enter_dice("12345", player=1)
    assert refused.value.code == "not_your_turn"
    with pytest.raises(IllegalMove, match="It is P1's turn, not P3's"):
        game.write("chance", 20, player=2)
    assert len(game.events) == 1


def test_quick_score_entry_checks_the_points_and_computes_the_bonuses() -> None:
    game = pad(1)
    with pytest.raises(InvalidInput, match=r"Fours holds 0, 4, 8, 12, 16 or 20 points") as no:
        game.write("fours", 7)
    assert no.value.code == "points_not_allowed" and len(game.events) == 1
    with pytest.raises(InvalidInput, match="Full House holds 0 or 25 points"):
        game.write(C.FULL_HOUSE, 24)
    with pytest.raises(InvalidInput, match="Chance holds 5 to 30 points"):
        game.write("chance", 0)
    for face, category in enumerate(C.upper(), start=1):
        game.write(category, 3 * face)  # par in every upper box: 63
    card = game.cards[0]
    assert card.upper_subtotal == 63 and card.upper_bonus == 35
    game.write("yahtzee", 50)
    with pytest.raises(IllegalMove, match=r"Yahtzee is already filled \(50\)") as filled:
        game.write("yahtzee", 50)
    assert filled.value.code == "box_filled"
    game.enter_dice("44444")  # a Yahtzee is entered as dice: the Joker and the bonus follow
    placements = {p.category: p for p in game.placements()}
    assert placements[C.FULL_HOUSE].joker and placements[C.FULL_HOUSE].yahtzee_bonus == 100
    assert game.score("full_house").total == 125
    assert game.cards[0].total == 63 + 35 + 50 + 125


def test_an_entry_stays_editable_until_the_next_player_acts() -> None:
    game = pad(2)
    game.write("chance", 22)
    assert game.can_undo()
    game.undo()
    game.write("chance", 23)  # the edit: taken back, written again, both in the log
    assert [e["type"] for e in game.events[1:]] == ["write", "undo", "write"]
    game.write("chance", 18)  # the next player's entry
    game.undo()  # takes back the next player's only
    assert not game.can_undo()
    assert game.cards[0][C.CHANCE] == 23 and game.current_player == 1
    game.enter_dice("12345")
    game.score("large_straight")
    game.undo()
    assert game.dice == Dice.parse("12345")  # the same dice show again


def test_a_whole_game_of_entered_dice_with_a_yahtzee_a_joker_and_the_bonus() -> None:
    """Three players, every turn from the table: the Yahtzee, the forced Joker (a
    Yahtzee of threes must go in Threes while it is open), the 100 bonus, a quick entry."""
    game = pad(3)
    script: list[tuple[str, str | None, int | None]] = [  # dice or written points, the box
        ("66666", "yahtzee", None),  # P1: a Yahtzee, 50
        ("12345", "large_straight", None),
        ("write", "chance", 24),
    ]
    for dice, box, points in script:
        if dice == "write":
            assert box is not None and points is not None
            game.write(box, points)
        else:
            game.enter_dice(dice)
            game.score(box or "chance")
    # round 2, P1: a Yahtzee of threes; Threes is open, so the forced Joker sends it there
    game.enter_dice("33333", roll=2)
    with pytest.raises(IllegalMove, match="The Joker rule does not allow Full House"):
        game.score("full_house")
    placed = game.score("threes")
    assert (placed.points, placed.yahtzee_bonus) == (15, 100)
    game.write("ones", 3)
    game.write("twos", 6)
    # round 3, P1: a Yahtzee of threes again, Threes filled: any lower box at full value
    game.enter_dice("33333")
    placed = game.score("large_straight")
    assert placed.joker and (placed.points, placed.yahtzee_bonus) == (40, 100)
    while not game.is_over:
        player = game.current_player
        assert player is not None
        first_open = game.cards[player].open_boxes[0]
        game.enter_dice("11223")
        game.score(first_open)
    assert game.cards[0].yahtzee_bonus == 200
    totals = [card.total for card in game.cards]
    assert totals[0] == sum(v or 0 for _, v in game.cards[0]) + 200 + game.cards[0].upper_bonus
    again = Game.replay(json.loads(json.dumps(game.events)))
    assert again == game and [c.total for c in again.cards] == totals


def test_the_playoff_takes_entered_dice() -> None:
    game = Game(["A", "B"], "official+playoff", entered=True)
    while game.phase.value == "turn":
        box = game.cards[game.current_player or 0].open_boxes[0]
        game.write(box, 5 if box is C.CHANCE else 0)
    assert game.phase.value == "playoff"
    game.enter_dice("66666")
    game.enter_dice("11111")
    assert game.is_over and game.winners == (0,)
    assert Game.replay(game.events) == game


def test_every_entry_event_round_trips_and_bad_ones_are_refused() -> None:
    for event in (
        DiceEntered(1, Dice.parse("22345"), 3),
        DiceEntered(0, Dice.parse("22345")),
        Written(2, C.SMALL_STRAIGHT, 30),
    ):
        assert event_from_dict(json.loads(json.dumps(event_to_dict(event)))) == event
    for bad in (
        {"type": "dice", "player": 0, "dice": "2234"},
        {"type": "dice", "player": 0, "dice": "22345", "roll": "2"},
        {"type": "write", "player": 0, "category": "fives"},
        {"type": "start", "version": 1, "players": ["A"], "rules": "official", "dice": "mine"},
    ):
        with pytest.raises(InvalidInput):
            event_from_dict(bad)


@pytest.mark.parametrize("seed", range(40))
def test_any_game_of_entries_replays_exactly(seed: int) -> None:
    """Random games of entries (dice entered and scored, points written, entries taken
    back) replay to the same game, and every card adds up."""
    rng = random.Random(seed)
    game = pad(rng.randint(1, 3))
    while not game.is_over:
        player = game.current_player
        assert player is not None
        card = game.cards[player]
        if rng.random() < 0.5:
            box = rng.choice(card.open_boxes)
            game.play(Write(box, rng.choice(sorted(possible_points(box, game.rules)))))
        else:
            game.play(EnterDice(rng.choice(Dice.all()), rng.choice([None, 1, 2, 3])))
            game.play(Score(rng.choice(game.placements()).category))
        if rng.random() < 0.1 and game.can_undo():
            game.undo()
    assert Game.replay(game.events) == game
    for card in game.cards:
        assert card.total == card.upper_total + card.lower_total
