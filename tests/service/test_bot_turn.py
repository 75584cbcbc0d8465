"""A bot's turn on a served table: committed at once, shown move by move (`LiveGame`)."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests import waiting
from yahtzee import Action, BotSpec, Game, Keep, RuleSet, Score
from yahtzee.core import Event, Scored
from yahtzee.service import GameSession
from yahtzee.service.group_commit import GroupCommit
from yahtzee.service.live import LiveGame
from yahtzee.store import Outcome, Seat, Store

DELAY = 0.05
TIMER = 30.0
WAIT_S = 20.0


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(f"sqlite:///{tmp_path / 'r.db'}") as opened:
        yield opened


class CountedCommit(GroupCommit):
    """The group commit, counting the commits asked for."""

    count = 0

    async def commit(self, session: GameSession, base: int, intent: str | None = None) -> Outcome:
        self.count += 1
        return await super().commit(session, base, intent)


@dataclass
class Shown:
    """One publication, as the table's connections would see it."""

    seq: int
    events: tuple[Event, ...]
    game_seq: int  # the length of the log served (`committed_game`) when it went out
    later_seq: int  # the same, once the loop had turned (a connection made meanwhile)
    stored: int  # events the store held
    deadline: float | None
    at: float
    wall: float  # Unix time (the clock of turn deadlines)
    exact: bool = False  # the game served is its events' replay, state and all


def served(store: Store, seats: list[Seat]) -> tuple[LiveGame, CountedCommit, list[Shown]]:
    session = GameSession.new(seats, RuleSet.official(), store=store, seed=5)
    # the planners' kernels may not be compiled here: a greedy bot decides in microseconds
    session.bot_decides_quickly = lambda seat: True  # type: ignore[method-assign]
    committer = CountedCommit(store)
    shown: list[Shown] = []
    loop = asyncio.get_running_loop()

    def publish(seq: int, events: tuple[Event, ...]) -> None:
        assert session.game_id is not None
        stored = len(store.event_log(session.game_id))
        game = live.committed_game()
        exact = Game.replay(game.events).state == game.state
        entry = Shown(seq, events, len(game.event_log), -1, stored, live.deadline,
                      loop.time(), time.time(), exact)  # fmt: skip

        def later() -> None:
            entry.later_seq = len(live.committed_game().event_log)

        loop.call_soon(later)
        shown.append(entry)

    live = LiveGame(session, committer, publish, bot_delay=DELAY, turn_timer=TIMER)
    return live, committer, shown


async def until(predicate: Callable[[], bool], what: str) -> None:
    await waiting.until(predicate, what, WAIT_S)


def run(test: Coroutine[object, object, None]) -> None:
    asyncio.run(test)


GREEDY = [Seat("Ann"), Seat("Bot 2 (greedy)", BotSpec("greedy"))]


def test_a_bots_turn_is_committed_once_and_shown_move_by_move(store: Store) -> None:
    run(_a_bots_turn_is_committed_once_and_shown_move_by_move(store))


async def _a_bots_turn_is_committed_once_and_shown_move_by_move(store: Store) -> None:
    live, committer, shown = served(store, GREEDY)
    await live.act(Keep.NONE, 0)
    placement = live.session.game.placements()[0]
    before = committer.count
    await live.act(Score(placement.category), 0)
    await until(
        lambda: (
            live.session.current == 0
            and live.committed_seq == len(live.session.game.event_log)
            and live.deadline is not None
        ),
        "Ann's turn again",
    )
    await asyncio.sleep(0)  # (the last publication's look from the next turn of the loop)
    turn = shown[2:]  # after Ann's roll and score
    assert committer.count - before == 2  # Ann's score, then the bot's whole turn
    assert len(turn) >= 2 and isinstance(turn[-1].events[-1], Scored)
    end = turn[-1].seq
    assert all(s.stored == end for s in turn)  # recorded before the first was shown
    assert [s.game_seq for s in turn] == [s.seq for s in turn]  # each with its own state
    assert all(s.exact for s in turn)
    assert [s.later_seq for s in turn] == [s.seq for s in turn]  # also to a newcomer
    assert [s.seq for s in turn] == sorted({s.seq for s in turn})
    gaps = [b.at - a.at for a, b in itertools.pairwise(turn)]
    assert all(gap >= DELAY * 0.9 for gap in gaps), gaps
    assert all(s.deadline is None for s in turn[:-1])  # the bot's moves: no timer
    last = turn[-1]
    assert last.deadline is not None  # Ann's timer runs from the last move shown
    started = last.deadline - TIMER  # Ann's timer from the last move shown, not the commit
    assert started == pytest.approx(last.wall, abs=0.05)
    assert started >= turn[0].wall + (len(turn) - 1) * DELAY * 0.9
    live.close()
    live.committer.close()


def test_a_bots_turn_stopped_while_shown_serves_the_game_recorded(store: Store) -> None:
    run(_a_bots_turn_stopped_while_shown_serves_the_game_recorded(store))


async def _a_bots_turn_stopped_while_shown_serves_the_game_recorded(store: Store) -> None:
    """Another node drives the table now (or it closes) in the middle of the showing: the
    rest is taken in unshown, so the game served is the one the store holds."""
    live, _, shown = served(store, GREEDY)
    await live.act(Keep.NONE, 0)
    await live.act(Score(live.session.game.placements()[0].category), 0)
    await until(lambda: len(shown) >= 3, "the bot's first move shown")
    live.stop_driving()
    await asyncio.sleep(DELAY * 4)
    session = live.session
    assert session.game_id is not None
    assert live.committed_seq == len(session.game.event_log)
    assert live.committed_game() is session.game
    assert len(store.event_log(session.game_id)) == live.committed_seq
    assert shown[-1].seq < live.committed_seq  # the rest was not shown here
    live.committer.close()


def test_bots_alone_commit_turn_by_turn_not_the_whole_game(store: Store) -> None:
    run(_bots_alone_commit_turn_by_turn_not_the_whole_game(store))


async def _bots_alone_commit_turn_by_turn_not_the_whole_game(store: Store) -> None:
    seats = [Seat("Bot 1 (greedy)", BotSpec("greedy")), Seat("Bot 2 (greedy)", BotSpec("greedy"))]
    live, committer, shown = served(store, seats)
    live.bot_delay = 0.0
    live.schedule()
    await until(
        lambda: live.session.is_over and live.committed_seq == len(live.session.game.event_log),
        "the game over",
    )
    placements = sum(isinstance(e, Scored) for s in shown for e in s.events)
    assert placements == 26
    assert committer.count == 26  # one commit a turn
    live.committer.close()


def test_a_bots_turn_that_fails_midway_leaves_nothing_applied(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    run(_a_bots_turn_that_fails_midway_leaves_nothing_applied(store, caplog))


async def _a_bots_turn_that_fails_midway_leaves_nothing_applied(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    live, committer, shown = served(store, GREEDY)
    session = live.session
    await live.act(Keep.NONE, 0)
    decide, calls = session.bot_action, []

    def failing(seat: int | None = None) -> Action:
        calls.append(seat)
        if len(calls) == 2:
            raise RuntimeError("a strategy's bug")
        return decide(seat)

    session.bot_action = failing  # type: ignore[method-assign]
    await live.act(Score(session.game.placements()[0].category), 0)
    await until(lambda: "could not be recorded" in caplog.text, "the failure logged")
    assert session.game_id is not None
    assert committer.count == 2  # Ann's roll and score; nothing of the bot's
    assert len(session.game.event_log) == live.committed_seq == shown[-1].seq
    assert len(store.event_log(session.game_id)) == live.committed_seq
    assert session.current == 1  # still the bot's turn, as recorded
    live.committer.close()


def test_the_timers_stand_in_plays_the_whole_turn_and_keeps_it_for_the_player(
    store: Store,
) -> None:
    run(_the_timers_stand_in_plays_the_whole_turn_and_keeps_it_for_the_player(store))


async def _the_timers_stand_in_plays_the_whole_turn_and_keeps_it_for_the_player(
    store: Store,
) -> None:
    """When Ann's time runs out, the stand-in plays her whole turn (rolls and the
    placement), committed at once, shown move by move as the timer's; it is kept for her
    until she acts herself."""
    live, committer, shown = served(store, [Seat("Ann"), Seat("Bob")])
    session = live.session
    live.turn_timer = 0.05
    seen_by_timer: list[bool] = []

    def watch(seq: int) -> None:
        seen_by_timer.append(live.by_timer(seq))
        live.turn_timer = None  # no timer after this turn: Bob and Ann then act themselves

    live.publish = _also(live.publish, watch)
    live.schedule()
    await until(lambda: session.current == 1 and live.committed_seq == len(session.game.event_log),
                "Ann's turn played by the timer")  # fmt: skip
    turn = [event for s in shown for event in s.events]
    assert committer.count == 1  # the whole turn at once
    assert isinstance(turn[-1], Scored) and turn[-1].player == 0
    assert all(s.stored == shown[-1].seq for s in shown)  # recorded before the first shown
    assert seen_by_timer == [True] * len(shown) and len(shown) >= 2  # a roll, then the rest
    assert live.played_for(0) == tuple(turn) and live.played_for(1) == ()
    await live.act(Keep.NONE, 1)
    assert not live.by_timer(live.committed_seq)  # Bob's own roll
    await live.act(Score(session.game.placements()[0].category), 1)
    assert live.played_for(0) == tuple(turn)  # Bob acting tells Ann nothing
    await live.act(Keep.NONE, 0)
    assert live.played_for(0) == ()  # Ann is back
    live.close()
    live.committer.close()


def _also(publish: Callable[[int, tuple[Event, ...]], None], then: Callable[[int], None]) -> Any:
    def both(seq: int, events: tuple[Event, ...]) -> None:
        then(seq)
        publish(seq, events)

    return both
