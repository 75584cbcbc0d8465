from __future__ import annotations

import json

import pytest

from yahtzee import (
    Category,
    Dice,
    Game,
    IllegalMove,
    InvalidInput,
    Keep,
    Phase,
    RandomDice,
    Score,
    ScriptedDice,
)

C = Category


def scripted(*rolls: str, players: int | list[str] = 1, rules: str = "official") -> Game:
    return Game(players, rules, ScriptedDice(rolls))


def test_a_turn_rolls_keeps_and_scores() -> None:
    game = scripted("12236", "45", "6", players=["Ann", "Bob"])
    assert game.current_player == 0 and game.dice is None
    assert game.roll() == Dice.parse("12236")
    assert game.roll("223") == Dice.parse("22345")
    # dice kept on the previous roll may be picked up again
    assert game.roll(Keep.parse("2345")) == Dice.parse("23456")
    assert game.turn is not None and game.turn.rolls_left == 0
    placement = game.score("ls")
    assert placement.points == 40
    assert game.cards[0][C.LARGE_STRAIGHT] == 40
    assert game.current_player == 1 and game.turn is not None and game.turn.round == 1


def test_stop_after_the_first_roll() -> None:
    game = scripted("66612")
    game.roll()
    assert game.score(C.SIXES).points == 18


def test_keep_none_and_keep_all_are_rolls() -> None:
    game = scripted("11234", "55555")
    game.roll()
    assert game.roll(Keep.parse("11234")) == Dice.parse("11234")  # nothing thrown
    assert game.roll(Keep.NONE) == Dice.parse("55555")
    assert game.turn is not None and game.turn.rolls == 3


def test_no_keep_before_the_first_roll() -> None:
    game = scripted("12345")
    with pytest.raises(IllegalMove, match="first roll throws all five"):
        game.roll("33")


def test_no_score_before_the_first_roll() -> None:
    game = scripted("12345")
    with pytest.raises(IllegalMove, match="Roll the dice before you score") as caught:
        game.score(C.CHANCE)
    assert caught.value.code == "roll_first"


def test_no_fourth_roll() -> None:
    game = scripted("12345", "6", "6", "6")
    game.roll()
    game.roll("1234")
    game.roll("1234")
    with pytest.raises(IllegalMove, match="used all three rolls") as caught:
        game.roll("1234")
    assert caught.value.code == "no_rolls_left"
    assert "Aces" in str(caught.value)


def test_keep_must_be_in_the_dice() -> None:
    game = scripted("12345")
    game.roll()
    with pytest.raises(IllegalMove, match="cannot keep 6 6: the dice show 1 2 3 4 5"):
        game.roll("66")


def test_only_the_current_player_may_act() -> None:
    game = scripted("12345", "12345", players=["Ann", "Bob"])
    with pytest.raises(IllegalMove, match="It is Ann's turn, not Bob's") as caught:
        game.roll(player=1)
    assert caught.value.code == "not_your_turn"
    game.roll(player=0)
    game.score(C.CHANCE, player=0)
    with pytest.raises(IllegalMove, match="It is Bob's turn"):
        game.roll(player=0)
    with pytest.raises(InvalidInput, match="no seat 5"):
        game.roll(player=5)


def test_a_filled_box_is_refused() -> None:
    game = scripted("12345", "12346")
    game.roll()
    game.score(C.SMALL_STRAIGHT)
    game.roll()
    with pytest.raises(IllegalMove, match="Small Straight is already filled"):
        game.score(C.SMALL_STRAIGHT)


def test_illegal_actions_change_nothing_and_draw_no_dice() -> None:
    game = Game(["Ann", "Bob"], dice=RandomDice(3))
    game.roll()
    before_state, before_events = game.state, game.events
    rng_state = game.dice_source.rng.getstate()  # type: ignore[attr-defined]
    for bad in (lambda: game.roll("66666"), lambda: game.roll(player=1),
                lambda: game.score(C.CHANCE, player=1)):  # fmt: skip
        with pytest.raises(IllegalMove):
            bad()
    assert game.state == before_state and game.events == before_events
    assert game.dice_source.rng.getstate() == rng_state  # type: ignore[attr-defined]


def play_out(game: Game) -> None:
    """Roll once each turn and take the first legal box."""
    while not game.is_over:
        game.roll()
        if not game.is_over and game.turn is not None:
            game.score(game.placements()[0].category)


def test_exactly_13_rounds_then_nothing_more() -> None:
    game = Game(["Ann", "Bob", "Cy"], dice=RandomDice(1))
    play_out(game)
    assert game.phase is Phase.OVER
    assert all(card.is_complete for card in game.cards)
    scores = [e for e in game.events if e["type"] == "score"]
    assert len(scores) == 39
    assert [e["player"] for e in scores] == [0, 1, 2] * 13
    with pytest.raises(IllegalMove, match="The game is over") as caught:
        game.roll()
    assert caught.value.code == "game_over"
    with pytest.raises(IllegalMove):
        game.score(C.CHANCE)
    assert list(game.legal_actions()) == []


def test_legal_actions_view() -> None:
    game = scripted("11222", "2")
    assert list(game.legal_actions()) == [Keep.NONE]
    assert Keep.parse("2") not in game.legal_actions()
    game.roll()
    legal = game.legal_actions()
    assert Keep.parse("1122") in legal and Keep.parse("11222") in legal
    assert Keep.parse("3") not in legal
    assert Score(C.FULL_HOUSE) in legal and Score(C.YAHTZEE) in legal
    assert len(legal) == 12 + 13
    assert "not an action" not in legal


def test_replay_equals_the_live_game_and_resumes_mid_turn() -> None:
    game = Game(["Ann", "Bob"], dice=RandomDice(11))
    for _ in range(7):
        game.roll()
        game.roll(str(game.dice)[:2])
        game.score(game.placements()[-1].category)
    game.roll()
    game.roll("-")
    saved = json.loads(json.dumps(game.events))
    again = Game.replay(saved)
    assert again == game
    assert again.turn == game.turn and again.turn is not None and again.turn.rolls == 2
    assert again.dice == game.dice
    assert again.turn.kept == Keep.NONE
    # play goes on from the replayed state
    again.dice_source = RandomDice(5)
    again.roll(str(again.dice)[:3])
    assert again.turn.rolls == 3


@pytest.mark.parametrize(
    ("index", "change", "message"),
    [
        (2, {"dice": "66666"}, "do not contain the kept"),
        (1, {"keep": "6"}, "not legal here"),
        (3, {"points": 99}, "The log says"),
        (1, {"player": 1}, "not legal here"),
        (1, {"type": "bogus"}, "Unknown event type"),
        (0, {"players": []}, "1 to 8 players"),
    ],
)
def test_tampered_logs_are_refused(index: int, change: dict[str, object], message: str) -> None:
    game = scripted("12345", "33", "66666", players=["Ann", "Bob"])
    game.roll()
    game.roll("123")
    game.score(C.CHANCE)
    events = game.events
    events[index] = {**events[index], **change}
    with pytest.raises(InvalidInput, match=message):
        Game.replay(events)


def test_replay_needs_a_start_event() -> None:
    with pytest.raises(InvalidInput, match="empty"):
        Game.replay([])
    with pytest.raises(InvalidInput, match="begin with"):
        Game.replay([{"type": "roll", "player": 0, "keep": "-", "dice": "12345"}])


@pytest.mark.parametrize(
    "players", [0, 9, [], ["Ann"] * 2, [""], ["x" * 41], ["Ann", "ann"], ["a\x00b"], "Ann"]
)
def test_bad_seats(players: object) -> None:
    with pytest.raises(InvalidInput):
        Game(players)  # type: ignore[arg-type]


def identical_game(rules: str, playoff_rolls: list[str]) -> Game:
    """Two players who roll the same dice every turn, so they tie."""
    turns = ["11111", "22222", "33333", "44444", "55555", "66666", "12345", "23456", "22333",
             "11112", "66665", "12346", "33456"]  # fmt: skip
    rolls = [r for r in turns for _ in range(2)] + playoff_rolls
    game = Game(["Ann", "Bob"], rules, ScriptedDice(rolls))
    while game.phase is Phase.TURN:
        game.roll()
        game.score(game.placements()[0].category)
    return game


def test_tie_is_a_shared_win_by_default() -> None:
    game = identical_game("official", [])
    assert game.is_over
    assert game.cards[0].total == game.cards[1].total
    assert game.winners == (0, 1)
    assert [(s.place, s.winner) for s in game.standings()] == [(1, True), (1, True)]


def test_tie_playoff_until_someone_wins() -> None:
    game = identical_game("official+playoff", ["12345", "11236", "66666", "55555"])
    assert game.phase is Phase.PLAYOFF
    assert game.current_player == 0
    with pytest.raises(IllegalMove, match="playoff only rolls"):
        game.score(C.CHANCE)
    assert list(game.legal_actions()) == [Keep.NONE]
    game.roll()  # Ann throws 1 2 3 4 5: 15
    assert game.current_player == 1 and not game.is_over
    game.roll()  # Bob throws 1 1 2 3 6: 13
    assert game.is_over and game.winners == (0,)
    standings = game.standings()
    assert [(s.name, s.place, s.winner) for s in standings] == [("Ann", 1, True), ("Bob", 2, False)]
    assert Game.replay(game.events) == game


def test_playoff_tied_again_rolls_again() -> None:
    game = identical_game("official+playoff", ["12345", "11346", "66666", "55555"])
    game.roll()
    game.roll()  # 15 and 15: roll again
    assert game.phase is Phase.PLAYOFF and game.current_player == 0
    game.roll()
    game.roll()
    assert game.winners == (0,)
    assert len([e for e in game.events if e["type"] == "playoff_roll"]) == 4
    assert Game.replay(game.events) == game


def test_solo_game_has_one_winner() -> None:
    game = Game(1, dice=RandomDice(2))
    play_out(game)
    assert game.winners == (0,)
    assert game.standings()[0].name == "Player 1"


def test_standings_follow_the_playoff_rounds() -> None:
    """A, B and C tie; C is knocked out in round 1 and A in round 2: B, A, C."""
    turns = ["11111", "22222", "33333", "44444", "55555", "66666", "12345", "23456", "22333",
             "11112", "66665", "12346", "33456"]  # fmt: skip
    rolls = [r for r in turns for _ in range(3)] + ["66666", "66666", "11111", "12345", "23456"]
    game = Game(["A", "B", "C"], "official+playoff", ScriptedDice(rolls))
    while not game.is_over:
        game.roll()
        if game.turn is not None:
            game.score(game.placements()[0].category)
    assert game.winners == (1,)
    assert [(s.name, s.place) for s in game.standings()] == [("B", 1), ("A", 2), ("C", 3)]


def test_a_snapshot_stays_as_the_game_was_while_the_game_plays_on() -> None:
    game = Game(["Ann", "Bob"], dice=RandomDice(4))
    game.roll()
    shot = game.snapshot()
    log, cards, dice = shot.event_log, shot.cards, shot.dice
    game.score(game.placements()[0].category)
    game.roll()
    assert shot.event_log == log and shot.cards == cards and shot.dice == dice
    assert shot.current_player == 0 and game.current_player == 1
    assert Game.replay(shot.events).state == shot.state  # the game as it was, exactly


def test_the_game_as_it_was_is_made_from_a_state_kept_and_the_events_then() -> None:
    game = Game(["Ann", "Bob"], dice=RandomDice(4))
    game.roll()
    state, count = game.state, len(game.event_log)
    game.score(game.placements()[0].category)
    game.roll()
    was = game.as_it_was(state, count)
    assert was.event_log == game.event_log[:count] and was.state == state
    assert Game.replay(was.events).state == was.state
    assert was.current_player == 0 and game.current_player == 1
    for bad in (0, len(game.event_log) + 1):
        with pytest.raises(ValueError, match="events"):
            game.as_it_was(state, bad)
