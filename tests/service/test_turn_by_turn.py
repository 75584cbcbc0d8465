"""Turn-by-turn tables (`service.timeout`): a game between two accounts over several
simulated days, by the lobby's injected clock, under each timeout rule; the deadline kept
in the records (a restarted lobby applies it); a resting table let go from memory and
loaded again when asked for, a move in between; and the seam that tells who is to move
(`service.turns`). The records are SQLite's; nothing sleeps."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from argon2 import PasswordHasher

from yahtzee import RuleSet
from yahtzee.core import BotSpec, InvalidInput, Score
from yahtzee.service import Lobby, Table, TableRoom, commands
from yahtzee.service.accounts import Accounts
from yahtzee.service.room_events import RoomEvent, TimedOut
from yahtzee.service.timeout import TimeoutRule
from yahtzee.store import Store
from yahtzee.store import tables as records

DAY = 24 * 60 * 60
START = 1_900_000_000.0
WAIT_S = 30.0


@dataclass
class Clock:
    """The lobby's clock, moved by the test."""

    now: float = START

    def __call__(self) -> float:
        return self.now


@dataclass
class Heard:
    """Every room event of the lobby, and a wake-up for whoever waits on one."""

    events: list[tuple[str, RoomEvent]] = field(default_factory=list)
    news: asyncio.Event = field(default_factory=asyncio.Event)

    def heard(self, table_id: str, event: RoomEvent) -> None:
        self.events.append((table_id, event))
        self.news.set()

    def timed_out(self) -> list[TimedOut]:
        return [e for _, e in self.events if isinstance(e, TimedOut)]

    async def until(self, done: Callable[[], bool]) -> None:
        async with asyncio.timeout(WAIT_S):
            while not done():
                self.news.clear()
                await self.news.wait()


@dataclass
class Told:
    """A `TurnListener`: each (table, seat) told to move, in order."""

    told: list[tuple[str, int]] = field(default_factory=list)

    async def to_move(self, table: Table, seat: int) -> None:
        self.told.append((table.id, seat))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(f"sqlite:///{tmp_path / 't.db'}") as opened:
        yield opened


@dataclass
class Game:
    lobby: Lobby
    clock: Clock
    heard: Heard
    told: Told
    table: Table
    tokens: tuple[str, str]

    @property
    def room(self) -> TableRoom:
        return self.lobby.room(self.table)

    def to_move(self) -> int | None:
        live = self.table.live
        assert live is not None
        return live.committed_game().current_player

    async def turn(self, seat: int) -> None:
        """``seat`` plays a whole turn: one roll, then the first open box."""
        assert await self.room.handle(seat, commands.Roll()) == commands.Done(self.room.seq)
        live = self.table.live
        assert live is not None
        box = next(a for a in live.committed_game().legal_actions() if isinstance(a, Score))
        outcome = await self.room.handle(seat, commands.Score(box.category.name))
        assert isinstance(outcome, commands.Done), outcome

    def recorded(self) -> records.TableRecord:
        row = records.load_table(self.lobby.store, self.table.id)
        assert row is not None
        return row


def lobby_of(store: Store, clock: Clock, heard: Heard, told: Told) -> Lobby:
    return Lobby(store, heard, seed=5, clock=clock, turns=told, unload_after=60)


async def started(
    store: Store, timeout: TimeoutRule, turn_timer: int = DAY, clock: Clock | None = None
) -> Game:
    clock = clock or Clock()
    heard, told = Heard(), Told()
    lobby = lobby_of(store, clock, heard, told)
    accounts = Accounts(store, clock=clock, hasher=PasswordHasher(time_cost=1, memory_cost=64))
    ann_account, bob_account = (
        accounts.sign_up(name, "correct horse battery").signed_in.account for name in ("Ann", "Bob")
    )
    table, ann = await lobby.create(
        "10.0.0.1", "Ann", [None], RuleSet.official(), turn_timer=turn_timer, timeout=timeout,
        account=ann_account.id,
    )  # fmt: skip
    _, _, bob = await lobby.join(table.invite_token, "Bob", account=bob_account.id)
    await lobby.start(table, ann)
    return Game(lobby, clock, heard, told, table, (ann, bob))


def run(store: Store, test: Callable[[Store], Awaitable[None]]) -> None:
    asyncio.run(test(store))


def test_a_day_a_move_with_a_bot_for_the_late_over_several_days(store: Store) -> None:
    """Rule ``bot``: each move whose day ran out is played by a bot of the chosen level
    (everyone told), the player plays on at the next turn, and the count of missed turns
    starts again when the player moves; each deadline is recorded as it starts."""

    async def test(store: Store) -> None:
        game = await started(store, TimeoutRule("bot", level=1))
        lobby, clock = game.lobby, game.clock
        try:
            assert game.table.turn_by_turn
            live = game.table.live
            assert live is not None and live.deadline == START + DAY
            assert game.recorded().deadline == START + DAY
            assert game.told.told == [(game.table.id, 0)]  # told at the start
            assert all(seat.account for seat in game.recorded().seats)  # two accounts'

            clock.now += 3600  # Ann plays within the hour: Bob's day starts now
            await game.turn(0)
            assert game.recorded().deadline == clock.now + DAY
            assert game.told.told[-1] == (game.table.id, 1)

            for missed in (1, 2):  # Bob lets two days pass: a level-1 bot plays for him
                clock.now += DAY - 1
                assert await lobby.sweep_deadlines() == []  # not yet
                clock.now += 1
                assert await lobby.sweep_deadlines() == [game.table]
                assert game.heard.timed_out()[-1] == TimedOut(1, "Bob", "bot", missed, False)
                assert game.to_move() == 0 and game.table.seats[1].missed == missed
                assert game.recorded().seats[1].missed == missed
                assert game.told.told[-1] == (game.table.id, 0)
                await game.turn(0)

            await game.turn(1)  # Bob is back: his count starts again
            assert game.table.seats[1].missed == 0 and game.recorded().seats[1].missed == 0
            assert game.table.seats[1].bot is None and not game.table.seats[1].out
            assert game.table.seat_of(game.tokens[1]) == 1
            assert live.session.stand_in_bot == BotSpec.at_level(1)
        finally:
            lobby.close()

    run(store, test)


def test_rule_out_hands_the_seat_to_the_bot_after_missed_turns_in_a_row(store: Store) -> None:
    """Rule ``out`` with two missed turns: Bob misses one, moves (his count starts
    again), then misses two in a row: he is out, everyone is told, his token acts no
    more, and the rule's bot plays his seat on by itself."""

    async def test(store: Store) -> None:
        game = await started(store, TimeoutRule("out", level=2, missed=2))
        lobby, clock = game.lobby, game.clock
        try:
            await game.turn(0)
            clock.now += DAY
            assert await lobby.sweep_deadlines() == [game.table]
            assert game.heard.timed_out()[-1] == TimedOut(1, "Bob", "out", 1, False)
            await game.turn(0)
            await game.turn(1)
            assert game.table.seats[1].missed == 0
            for missed in (1, 2):
                await game.turn(0)
                clock.now += DAY
                assert await lobby.sweep_deadlines() == [game.table]
                assert game.heard.timed_out()[-1] == TimedOut(1, "Bob", "out", missed, missed == 2)
            seat = game.table.seats[1]
            assert seat.out and seat.bot == BotSpec.at_level(2) and seat.name == "Bob"
            assert game.table.seat_of(game.tokens[1]) is None
            row = game.recorded().seats[1]
            assert row.out and row.bot == BotSpec.at_level(2) and row.token_hash is None
            await game.turn(0)  # then the bot plays Bob's turn by itself
            await game.heard.until(lambda: game.to_move() == 0)
            assert len(game.heard.timed_out()) == 3
        finally:
            lobby.close()

    run(store, test)


def test_a_resting_table_is_let_go_and_loaded_again_with_a_move_in_between(
    store: Store,
) -> None:
    """Nobody at the table and no bot to play: a minute later it leaves memory; asked for,
    it is loaded from the records with its deadline, a move is made, it is let go again,
    and loaded again it has the move (and the deadline the move started)."""

    async def test(store: Store) -> None:
        game = await started(store, TimeoutRule())
        lobby, clock, table_id = game.lobby, game.clock, game.table.id
        try:
            assert lobby.let_go_idle() == []  # resting from now on
            clock.now += 59
            assert lobby.let_go_idle() == []
            clock.now += 1
            assert lobby.let_go_idle() == [game.table]
            assert table_id not in lobby.tables

            back = await lobby.locate(table_id)
            assert isinstance(back, Table) and back is not game.table
            assert back.live is not None and back.live.deadline == START + DAY
            game.table = back
            await game.turn(0)
            seq, deadline = game.room.seq, back.live.deadline
            assert deadline == clock.now + DAY

            assert lobby.let_go_idle() == []
            clock.now += 60
            assert lobby.let_go_idle() == [back] and table_id not in lobby.tables
            again = await lobby.locate(table_id)
            assert isinstance(again, Table) and again.live is not None
            assert again.live.committed_seq == seq and again.live.deadline == deadline
            assert again.live.committed_game().current_player == 1
        finally:
            lobby.close()

    run(store, test)


def test_a_table_someone_is_at_or_a_live_table_stays(store: Store) -> None:
    """A table with a short timer (live play) is never let go, nor one whose deadline
    sweep is not due."""

    async def test(store: Store) -> None:
        game = await started(store, TimeoutRule(), turn_timer=60)
        try:
            assert not game.table.turn_by_turn
            game.clock.now += 3600
            assert game.lobby.let_go_idle() == []
            game.clock.now += 3600
            assert game.lobby.let_go_idle() == []
            assert game.recorded().deadline is None  # live play: nothing recorded
        finally:
            game.lobby.close()

    run(store, test)


def test_the_recorded_deadline_survives_a_restart(store: Store) -> None:
    """A new lobby on the same records does not load the turn-by-turn table at startup;
    once the deadline passes by its clock, its sweep loads the table and applies the
    rule."""

    async def test(store: Store) -> None:
        game = await started(store, TimeoutRule("bot", level=1))
        clock = game.clock
        await game.turn(0)
        deadline = clock.now + DAY
        game.lobby.close()

        heard, told = Heard(), Told()
        restarted = lobby_of(store, clock, heard, told)
        try:
            assert await asyncio.to_thread(restarted.load_unfinished) == 0
            clock.now = deadline - 1
            assert await restarted.sweep_deadlines() == []
            clock.now = deadline
            [table] = await restarted.sweep_deadlines()
            assert table.id == game.table.id
            assert heard.timed_out() == [TimedOut(1, "Bob", "bot", 1, False)]
            assert told.told == [(table.id, 0)]
            row = records.load_table(store, table.id)
            assert row is not None and row.deadline == deadline + DAY
            assert row.seats[1].missed == 1
        finally:
            restarted.close()

    run(store, test)


def test_the_time_per_move_and_the_rule_are_checked(store: Store) -> None:
    """1 second to three days; a rule, level and count the service knows."""

    async def test(store: Store) -> None:
        lobby = Lobby(store, Heard())
        try:
            for timer in (0, 3 * DAY + 1):
                with pytest.raises(InvalidInput) as refused:
                    await lobby.create("10.0.0.2", "Ann", [None], RuleSet.official(),
                                       turn_timer=timer)  # fmt: skip
                assert refused.value.code == "bad_turn_timer"
            table, _ = await lobby.create(
                "10.0.0.2", "Ann", [None], RuleSet.official(), turn_timer=3 * DAY,
                timeout=TimeoutRule("out", 5, 10),
            )  # fmt: skip
            row = records.load_table(store, table.id)
            assert row is not None
            assert (row.turn_timer, row.timeout_rule, row.timeout_level, row.timeout_missed) == (
                3 * DAY, "out", 5, 10,
            )  # fmt: skip
        finally:
            lobby.close()
        for rule, level, missed in (("skip", 3, 3), ("out", 0, 3), ("out", 3, 0), ("bot", 6, 3)):
            with pytest.raises(InvalidInput) as bad:
                TimeoutRule(rule, level, missed)
            assert bad.value.code == "bad_timeout_rule"

    run(store, test)
