"""The one win-meter read every face shows (``GameSession.meter``), when to read it
again, the review's win column once the tables are loaded, and how the ``winning`` bot
says it played. The suite never builds the exact tables (``YAHTZEE_NO_TABLE_BUILDS``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from yahtzee import BotSpec, RuleSet
from yahtzee.core import Action, Keep, Score
from yahtzee.service import GameSession
from yahtzee.service.meter import (
    NOTHING,
    STALL_S,
    MeterReading,
    MeterWatch,
    play_notes,
    quick_meter,
)
from yahtzee.solver import interim
from yahtzee.solver import review as review_module
from yahtzee.solver.interim import ESTIMATE_MARGIN, INTERIM_METHOD, compile_interim
from yahtzee.store import Seat, Store


@pytest.fixture
def store(tmp_path: Path) -> Store:
    with Store(f"sqlite:///{tmp_path / 'r.db'}") as opened:
        yield opened


def test_without_the_tables_the_meter_is_an_estimate_with_its_margin(store: Store) -> None:
    session = GameSession.new([Seat("Ann"), Seat("Bob")], RuleSet.official(), store=store, seed=3)
    reading = session.meter()
    assert reading.estimate and reading.margin == ESTIMATE_MARGIN
    assert reading.chances == pytest.approx((0.5, 0.5))  # two empty cards
    assert reading.settled  # nothing is being built in the suite
    while not session.game.is_over:
        session.act(_first_legal(session))
    assert session.meter() == NOTHING  # the standings tell now


def test_the_quick_meter_is_the_estimate_read_at_once_or_nothing(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`quick_meter` answers without a thread what `meter` would (two or more
    players, the estimate), and None where `meter` may take long or read the store."""
    session = GameSession.new([Seat("Ann"), Seat("Bob")], RuleSet.official(), store=store, seed=4)
    while session.game.cards[0] == session.game.cards[1] or session.current != 0:
        session.act(_first_legal(session))
    quick = quick_meter(session)
    assert quick is not None and quick == session.meter()
    assert quick.estimate and quick.chances is not None
    assert abs(quick.chances[0] - 0.5) > 0.01
    alone = GameSession.new([Seat("Ann")], RuleSet.official(), store=store)
    assert quick_meter(alone) is None  # the player's best score is read from the store
    monkeypatch.setattr(interim, "late_pending", lambda card, rules: True)
    assert quick_meter(session) is None  # a late card's exact distribution: tens of ms
    monkeypatch.undo()
    monkeypatch.setattr(GameSession, "win_meter_ready", lambda _: True)
    assert quick_meter(session) is None  # the exact meter: a worker thread's job
    while not session.game.is_over:
        session.act(_first_legal(session))
    assert quick_meter(session) == NOTHING


def test_a_late_card_is_pending_until_its_distribution_is_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    session = GameSession.new([Seat("Ann")], RuleSet.official(), seed=2)
    card = session.game.cards[0]
    assert not interim.late_pending(card, session.rules)  # 13 boxes open: the normal
    while len(session.game.cards[0].open_boxes) > interim.LATE_OPEN_BOXES:
        session.act(_first_legal(session))
    card = session.game.cards[0]
    monkeypatch.setattr(interim, "_LATE", {})
    monkeypatch.setattr("yahtzee.solver.compiling.cached", lambda kind: True)
    assert interim.late_pending(card, session.rules)
    interim._LATE[(session.rules.scoring_key, interim.state_of(card))] = None
    assert not interim.late_pending(card, session.rules)


def _first_legal(session: GameSession) -> Action:
    situation = session.game.situation()
    if situation is None:
        return Keep.NONE
    return Score(session.game.cards[session.current].open_boxes[0])


def test_the_exact_meter_once_its_table_is_loaded(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(GameSession, "win_meter_ready", lambda _: True)
    monkeypatch.setattr(GameSession, "win_chances", lambda _, cards=None: [0.75, 0.25])
    session = GameSession.new([Seat("Ann"), Seat("Bob")], RuleSet.official(), store=store)
    assert session.meter() == MeterReading((0.75, 0.25))


def test_rules_with_no_shipped_table_have_no_estimate_but_the_progress(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(GameSession, "win_meter_progress", lambda _: (2, 14))
    session = GameSession.new([Seat("Ann"), Seat("Bob")], RuleSet.named("no-joker"), store=store)
    assert session.meter() == MeterReading(progress=(2, 14))


def test_a_watch_looks_again_while_a_build_moves_and_stops_when_it_stalls() -> None:
    watch = MeterWatch()
    building = MeterReading((0.5, 0.5), True, ESTIMATE_MARGIN, (1, 14))
    assert watch.again(building, 0.0)
    assert watch.again(building, STALL_S - 1)
    assert not watch.again(building, STALL_S + 1)  # stalled
    assert watch.again(MeterReading(progress=(2, 14)), STALL_S + 2)  # it moved
    assert not watch.again(MeterReading((0.5, 0.5)), STALL_S + 3)  # done


def test_the_review_is_made_again_for_its_win_column_once_the_tables_are_there(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    seats = [Seat("Ann"), Seat("Bot", BotSpec.at_level(1))]
    session = GameSession.new(seats, RuleSet.official(), store=store, seed=5)
    while not session.game.is_over:
        session.act(session.bot_action() if session.is_bot(session.current) else
                    _first_legal(session))  # fmt: skip
    (before,) = session.review()
    assert all(d.win_swing is None for d in before.decisions)  # no tables yet
    monkeypatch.setattr(review_module, "has_win_swings", lambda game: True)
    monkeypatch.setattr(review_module, "_win_swings", lambda game: lambda s, r, a: 0.125)
    (after,) = session.review()
    assert after.decisions and all(d.win_swing == 0.125 for d in after.decisions)


def test_the_winning_bot_says_it_played_by_the_interim_method(store: Store) -> None:
    compile_interim()  # until then it plays for expected points and says so (a fresh cache)
    seats = [Seat("Ann"), Seat("Bot (winning)", BotSpec.parse("winning"))]
    session = GameSession.new(seats, RuleSet.official(), store=store, seed=2)
    session.act(_first_legal(session))
    session.act(_first_legal(session))
    while session.current == 1:
        session.play_bot()
    assert set(session.bot_methods) == {1}
    count = session.bot_methods[1][INTERIM_METHOD]
    assert count >= 1
    (note,) = play_notes(session)
    decisions = f"{count} decision" + ("s" if count > 1 else "")
    assert note == (  # in a player's words: no "normal approximation (shipped tables)"
        f"Bot (winning) played to win: {decisions} on estimated chances (its exact tables "
        "were not ready yet)."
    )


def test_a_solo_game_asks_for_no_table_and_its_chance_is_to_beat_the_best(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 50.7: a game alone asked for the win-chance tables to be built (minutes) and
    reported their build. Now it asks for none: without a best score nothing shows; with
    one, the chance to beat it is the shipped estimate (no build under way to report)."""
    from yahtzee.solver import winning

    asked: list[object] = []
    monkeypatch.setattr(winning, "request_tables", lambda rules, kinds=(): asked.append(kinds))
    monkeypatch.setattr(winning, "table_progress", lambda rules, kind: (3, 14))  # one builds
    alone = GameSession.new([Seat("Ann")], RuleSet.official(), store=store, seed=3)
    assert alone.meter() == NOTHING
    assert alone.win_meter_progress() is None
    monkeypatch.setattr(GameSession, "best_score", lambda self: 240)
    reading = alone.meter()
    assert reading.estimate and reading.chances is not None and reading.best == 240
    assert reading.progress is None
    assert asked == []
    pair = GameSession.new([Seat("Ann"), Seat("Bob")], RuleSet.official(), store=store, seed=3)
    assert pair.meter().progress == (3, 14)  # against others, the tables are asked for
    assert asked == [("distribution", "target")]
