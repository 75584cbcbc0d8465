"""A table's room hosted in one process (`LocalRoom`: the terminal game, plain mode): the
hot seat's commands, holds saved with the record, and the bots played by the room."""

from __future__ import annotations

import asyncio
from pathlib import Path

from yahtzee import BotSpec, RuleSet
from yahtzee.core import Scored
from yahtzee.service import GameSession, commands
from yahtzee.service.local_room import LocalRoom
from yahtzee.service.room_events import MeterRead, Played, RoomEvent
from yahtzee.store import Seat, Store

TIMEOUT_S = 30.0


class Heard:
    def __init__(self) -> None:
        self.events: list[RoomEvent] = []

    def heard(self, table_id: str, event: RoomEvent) -> None:
        self.events.append(event)


def test_a_hold_is_saved_and_a_resumed_game_shows_it_held(tmp_path: Path) -> None:
    async def run() -> None:
        with Store(f"sqlite:///{tmp_path / 'r.db'}") as store:
            session = GameSession.new([Seat("You")], RuleSet.official(), store=store, seed=3)
            room = LocalRoom(session, Heard())
            assert await room.handle(commands.Roll()) == commands.Done(2)
            assert await room.handle(commands.Hold((1, 3))) == commands.Done(2)
            assert session.game_id is not None
            again = LocalRoom(GameSession.resume(store, session.game_id), Heard())
            assert again.live.tray.held == frozenset({1, 3})

    asyncio.run(run())


def test_the_bot_plays_through_the_room_and_its_placement_stays() -> None:
    async def run() -> None:
        seats = [Seat("You"), Seat("Bot", BotSpec.at_level(1))]
        session = GameSession.new(seats, RuleSet.official(), seed=4, undo=True)
        heard = Heard()
        room = LocalRoom(session, heard)
        room.start()
        await room.handle(commands.Roll())
        assert await room.handle(commands.Score("chance")) == commands.Done(3)
        assert session.bot_waits and room.live.bot_due is None  # no wait asked for
        async with asyncio.timeout(TIMEOUT_S):
            while session.current != 0:
                await asyncio.sleep(0.01)
        played = [e for event in heard.events if isinstance(event, Played) for e in event.events]
        assert played == list(session.game.event_log[1:])  # every move told, in order
        last = session.game.event_log[-1]
        assert isinstance(last, Scored) and last.player == 1
        assert room.seat_for(commands.Undo()) == 1  # the placer's: the room refuses it
        refused = await room.handle(commands.Undo())
        assert refused == commands.Refused("no_undo", "A computer player's placement stays.")
        room.close()

    asyncio.run(run())


async def _meter_read(room: LocalRoom) -> None:
    async with asyncio.timeout(TIMEOUT_S):
        await asyncio.sleep(0)  # (the reading starts)
        while room.meter_pending():
            await asyncio.sleep(0.01)


def test_the_room_reads_the_meter_where_the_face_shows_it() -> None:
    """The terminal's meter is the room's: read as the game starts and after each
    placement, told as `MeterRead` (the suite builds no table: the estimate); plain mode
    shows none, and none is read."""

    async def run() -> None:
        seats = [Seat("You"), Seat("Ann")]
        shown, plain = Heard(), Heard()
        session = GameSession.new(seats, RuleSet.official(), seed=4)
        room = LocalRoom(session, shown, meter=True)
        unread = LocalRoom(GameSession.new(seats, RuleSet.official(), seed=4), plain)
        for each in (room, unread):
            each.start()
            await _meter_read(each)
            await each.handle(commands.Roll())
            await each.handle(commands.Score("chance"))
            await _meter_read(each)
        read = [event for event in shown.events if isinstance(event, MeterRead)]
        assert len(read) == 2  # as the game started, then after the placement
        first, after = (event.reading for event in read)
        assert first.chances == (0.5, 0.5) and first.estimate
        assert after.chances is not None and after.chances != first.chances
        assert read[1].seq == room.live.committed_seq  # as of the placement
        assert not any(isinstance(event, MeterRead) for event in plain.events)
        room.close()
        unread.close()

    asyncio.run(run())
