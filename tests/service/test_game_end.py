"""A game's end is recorded even when whoever made the last move is gone at once: the
page that made it closes as the move is shown, which cancels its handler (`LiveGame`)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import waiting
from yahtzee import Keep, RuleSet, Score
from yahtzee.core import Event
from yahtzee.service import GameSession
from yahtzee.service.group_commit import GroupCommit
from yahtzee.service.live import LiveGame
from yahtzee.store import Seat, Store


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(f"sqlite:///{tmp_path / 'r.db'}") as opened:
        yield opened


def test_the_end_is_recorded_when_the_last_movers_handler_is_cancelled(store: Store) -> None:
    asyncio.run(_the_end_is_recorded(store))


async def _the_end_is_recorded(store: Store) -> None:
    session = GameSession.new([Seat("Ann")], RuleSet.official(), store=store, seed=5)
    ended: list[str] = []
    last: list[asyncio.Task[object]] = []
    loop = asyncio.get_running_loop()

    def publish(seq: int, events: tuple[Event, ...]) -> None:
        if session.is_over and last:  # the page sees the end and closes at once
            loop.call_soon(last[0].cancel)

    async def over() -> None:
        await asyncio.sleep(0.05)  # the table's end is written (a thread, in the lobby)
        ended.append("over")

    live = LiveGame(session, GroupCommit(store), publish, on_over=over)
    for _ in range(13):
        await live.act(Keep.NONE, 0)
        box = session.game.placements()[0].category
        if session.game.cards[0].open_count > 1:
            await live.act(Score(box), 0)
            continue
        last.append(asyncio.ensure_future(live.act(Score(box), 0)))
        with pytest.raises(asyncio.CancelledError):
            await last[0]
    await waiting.until(lambda: ended == ["over"], "the table's end recorded", 10.0)
    assert session.is_over
    assert session.game_id is not None
    assert store.summary(session.game_id).status == "finished"
