"""The game service: one game being played, with its seats, record, bots, hints, review."""

from __future__ import annotations

from pathlib import Path

import pytest

from yahtzee import BotSpec, Category, Game, IllegalMove, Keep, RuleSet, Score, ScriptedDice
from yahtzee.service import GameSession
from yahtzee.solver import strategies
from yahtzee.store import Seat, Store, stats


@pytest.fixture
def store(tmp_path: Path) -> Store:
    with Store(f"sqlite:///{tmp_path / 'r.db'}") as opened:
        yield opened  # type: ignore[misc]


def bots_only(store: Store, *levels: int, seed: int = 1) -> GameSession:
    seats = [
        Seat(BotSpec.at_level(n).seat_name(i), BotSpec.at_level(n)) for i, n in enumerate(levels)
    ]
    return GameSession.new(seats, RuleSet.official(), store=store, seed=seed)


def test_bots_play_a_whole_game_and_every_action_is_recorded(store: Store) -> None:
    session = bots_only(store, 3, 5)
    moves = list(session.bot_moves())
    assert session.is_over
    assert sum(1 for m in moves if m.placement is not None) == 2 * 13
    assert all(m.by_bot for m in moves)
    assert session.game_id is not None
    assert store.event_log(session.game_id) == session.game.events
    assert [m.seq for m in moves] == sorted(m.seq for m in moves)


def test_a_seed_makes_the_bots_and_dice_reproducible(store: Store) -> None:
    first, second = bots_only(store, 1, 2, seed=7), bots_only(store, 1, 2, seed=7)
    list(first.bot_moves())
    list(second.bot_moves())
    assert first.game.events == second.game.events


def test_statistics_tell_bots_apart_by_strategy_and_level(store: Store) -> None:
    """Regression: every web bot was "Bot 2", so a level-3 and a level-5 bot were one player."""
    list(bots_only(store, 3, 5, seed=1).bot_moves())
    list(bots_only(store, 3, 3, seed=2).bot_moves())  # two level-3 bots, named by their seats
    found = {s.player: s for s in stats(store)}
    assert set(found) == {"Bot (level 3)", "Bot (level 5)"}
    assert found["Bot (level 3)"].games == 3 and found["Bot (level 5)"].games == 1
    assert [s.player for s in stats(store, "Bot (level 5)")] == ["Bot (level 5)"]


def test_a_finished_game_is_reviewed_for_its_humans_only(store: Store) -> None:
    seats = [Seat("Ann"), Seat("Bot 2 (greedy)", BotSpec("greedy"))]
    session = GameSession.new(seats, RuleSet.official(), store=store, seed=3)
    while not session.is_over:
        if session.is_bot(session.current):
            list(session.bot_moves())
            continue
        session.roll()
        session.score(min(session.placements()))
    reviews = session.review()
    assert [r.player for r in reviews] == [0]
    ann = stats(store, "Ann")[0]
    assert ann.reviewed_games == 1
    assert ann.loss_per_game == pytest.approx(reviews[0].total_loss)
    assert stats(store, "Bot (greedy)")[0].reviewed_games == 0


def test_hints_are_recorded_per_seat_and_survive_a_resume(store: Store) -> None:
    session = GameSession.new([Seat("Ann"), Seat("Bob")], RuleSet.official(), store=store, seed=4)
    with pytest.raises(IllegalMove, match="dice are showing"):
        session.hint()  # nothing rolled yet
    session.roll()
    advice = session.hint()
    assert advice.options and session.hinted == {0}
    with pytest.raises(IllegalMove):
        session.hint(1)  # not Bob's turn
    assert session.game_id is not None
    again = GameSession.resume(store, session.game_id)
    assert again.hinted == {0} and again.game == session.game
    assert store.summary(session.game_id).hints_used


def test_hints_can_be_switched_off(store: Store) -> None:
    session = GameSession.new([Seat("Ann")], RuleSet.official(), store=store, hints=False)
    session.roll()
    with pytest.raises(IllegalMove, match="off"):
        session.hint()
    assert not session.hinted


def test_an_illegal_action_changes_nothing(store: Store) -> None:
    session = GameSession.new([Seat("Ann")], RuleSet.official(), store=store, seed=5)
    before = list(session.game.events)
    with pytest.raises(IllegalMove):
        session.score(Category.CHANCE)  # before rolling
    with pytest.raises(IllegalMove):
        session.bot_action()  # Ann is no bot
    assert session.game.events == before
    assert session.game_id is not None and store.event_log(session.game_id) == before


def test_a_move_not_yet_saved_can_be_taken_back(store: Store) -> None:
    session = GameSession.new([Seat("Ann")], RuleSet.official(), store=store, seed=6)
    session.roll()
    move = session.apply(Keep.NONE)  # in memory only, as before a group commit
    assert move.dice is not None and len(session.game.event_log) == 3
    session.reload()
    assert len(session.game.event_log) == 2


def test_the_turn_timer_stand_in_plays_a_legal_move(store: Store) -> None:
    dice = ScriptedDice(["11111", "23456"])
    session = GameSession.new([Seat("Ann")], RuleSet.official(), store=store, dice=dice)
    assert session.stand_in(0) == Keep.NONE  # nothing rolled yet: it rolls
    session.roll()
    action = session.stand_in(0)
    session.act(action, 0)
    assert len(session.game.event_log) == 3


def test_a_rematch_has_the_same_seats_and_rules_and_a_new_record(store: Store) -> None:
    seats = [Seat("Ann"), Seat("Bot 2 (level 1)", BotSpec.at_level(1))]
    session = GameSession.new(seats, RuleSet.named("no-joker"), store=store, seed=8, hints=False)
    again = session.rematch(seed=9)
    assert again.seats == session.seats and again.rules == session.rules
    assert not again.hints_allowed and again.game_id != session.game_id
    assert again.game_id is not None and store.summary(again.game_id).rules == "no-joker"
    assert isinstance(again.game, Game) and not again.game.event_log[1:]


def test_the_win_meter_asks_for_its_tables_and_waits_for_them(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No table loaded: no meter yet, and the tables are asked for (against others the
    target table too, for the review's swing in win chance); nothing waits for them. A
    solo game asks for none (issue 50.7: no table is built for it)."""
    from yahtzee.solver import winning

    asked: list[tuple[str, ...]] = []
    monkeypatch.setattr(winning, "request_tables", lambda rules, kinds: asked.append(tuple(kinds)))
    duel = GameSession.new([Seat("Ann"), Seat("Bob")], RuleSet.official(), store=store, seed=1)
    solo = GameSession.new([Seat("Ann")], RuleSet.named("no-joker"), store=store, seed=1)
    assert duel.win_chances() is None and solo.win_chances() is None
    assert asked == [("distribution", "target")]
    assert duel.win_meter_progress() is None


def test_a_new_games_bot_decides_quickly_once_its_planner_is_at_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A planned bot's strategy is made on the spot once its planner is at hand (then no
    worker thread for a new game's first bot move), and plays as one made on first use."""
    monkeypatch.setattr(strategies, "compiled_kernels", lambda: True)
    monkeypatch.setattr(strategies, "_PLANNERS", {})
    rules, bot = RuleSet.official(), BotSpec.at_level(2)
    seats = [Seat("Ann"), Seat("Bot", bot)]
    assert not GameSession.new(seats, rules, seed=3).bot_decides_quickly(1)  # not made yet
    strategies.strategy(bot, rules)  # (as a first game's bot move in a worker thread)
    quick, later = GameSession.new(seats, rules, seed=3), GameSession.new(seats, rules, seed=3)
    assert quick.bot_decides_quickly(1) and not quick.bot_decides_quickly(0)  # 0: Ann
    winning = GameSession.new([Seat("Ann"), Seat("W", BotSpec.parse("winning"))], rules)
    assert not winning.bot_decides_quickly(1)
    for session in (quick, later):
        while not session.game.is_over:
            if session.is_bot(session.current):
                session.act(session.bot_action())
            else:
                session.act(Keep.NONE if session.game.situation() is None else
                            _first_open(session))  # fmt: skip
    assert quick.game.event_log == later.game.event_log


def _first_open(session: GameSession) -> Score:
    return Score(session.game.cards[session.current].open_boxes[0])
