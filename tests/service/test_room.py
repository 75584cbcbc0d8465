"""A table's room refuses every illegal command itself, with the code the protocol
documents, and a refused command changes nothing (`service.room.TableRoom`).

These tests talk to the room as a face does (a seat, or None for a spectator, and a typed
command): no server, no connection. The web layer only turns the refusal into an error
message, so what is checked here is what every face shows.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from yahtzee import BotSpec, Category, RuleSet
from yahtzee.service import Lobby, TableRoom, commands, daily_table
from yahtzee.service.commands import Command, Outcome
from yahtzee.service.room_events import QuietListener
from yahtzee.store import Store

DOCS = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
TRANSPORT_CODES = {
    "malformed_json",
    "too_large",
    "unknown_type",
    "bad_message",
    "bad_version",
    "rate_limited",
    "server_error",
}
"""Documented codes the web layer gives a message before any command exists (its parse,
its size, its rate) and the server's own failure: never a room's refusal."""


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """One set of records for the module (each test's tables are its own)."""
    with Store(f"sqlite:///{tmp_path_factory.mktemp('room') / 'r.db'}") as opened:
        yield opened


@dataclass
class Tables:
    """Tables of one lobby, each opened as a test needs it."""

    lobby: Lobby

    async def room(
        self,
        *,
        friends: int = 1,
        bots: tuple[BotSpec, ...] = (),
        hints: bool = True,
        entered: bool = False,
        start: bool = True,
    ) -> TableRoom:
        table, host = await self.lobby.create(
            "127.0.0.1", "Ann", [None] * friends + list(bots), RuleSet.official(),
            hints=hints, entered=entered,
        )  # fmt: skip
        for name in ("Bob", "Cid", "Dee")[:friends]:
            await self.lobby.join(table.invite_token, name)
        if start:
            await self.lobby.start(table, host)
        return self.lobby.room(table)


def at_tables(store: Store, test: Callable[[Tables], Awaitable[None]]) -> None:
    """Run ``test`` with the tables of a new lobby, closed after it."""

    async def run() -> None:
        lobby = Lobby(store, QuietListener(), seed=11)
        try:
            await test(Tables(lobby))
        finally:
            lobby.close()

    asyncio.run(run())


async def done(room: TableRoom, seat: int | None, command: Command) -> int:
    outcome = await room.handle(seat, command)
    assert isinstance(outcome, commands.Done), outcome
    return outcome.seq


def absent_face(room: TableRoom) -> str:
    """A face the current dice do not show."""
    live = room.live
    assert live is not None
    dice = live.committed_game().turn
    assert dice is not None and dice.dice is not None
    return str(next(face for face in range(1, 7) if face not in dice.dice.faces))


async def refused(room: TableRoom, seat: int | None, command: Command) -> Outcome:
    """The room's answer, checked to have changed nothing (its committed log, the dice
    and what is held)."""
    live = room.live
    before = (room.seq, live.committed_game().event_log, live.tray) if live else None
    outcome = await room.handle(seat, command, intent="same-id")
    after = (room.seq, live.committed_game().event_log, live.tray) if live else None
    assert after == before
    return outcome


@dataclass
class Case:
    room: TableRoom
    seat: int | None
    command: Command


async def not_started(t: Tables) -> Case:
    return Case(await t.room(start=False), 0, commands.Roll())


async def spectator_rolls(t: Tables) -> Case:
    return Case(await t.room(), None, commands.Roll())


async def spectator_chats(t: Tables) -> Case:
    return Case(await t.room(), None, commands.Chat("hello"))


async def spectator_asks_a_hint(t: Tables) -> Case:
    return Case(await t.room(), None, commands.Hint())


async def spectator_holds(t: Tables) -> Case:
    room = await t.room()
    await done(room, 0, commands.Roll())
    return Case(room, None, commands.Hold((0,)))


async def not_your_turn(t: Tables) -> Case:
    return Case(await t.room(), 1, commands.Roll())


async def not_your_turn_to_hold(t: Tables) -> Case:
    room = await t.room()
    await done(room, 0, commands.Roll())
    return Case(room, 1, commands.Hold((0,)))


async def no_rolls_left(t: Tables) -> Case:
    room = await t.room()
    for _ in range(3):
        await done(room, 0, commands.Roll())
    return Case(room, 0, commands.Roll())


async def not_rolled(t: Tables) -> Case:
    return Case(await t.room(), 0, commands.Hold((0, 1)))


async def keep_not_in_dice(t: Tables) -> Case:
    room = await t.room()
    await done(room, 0, commands.Roll())
    return Case(room, 0, commands.Roll(keep=absent_face(room)))


async def keep_before_roll(t: Tables) -> Case:
    return Case(await t.room(), 0, commands.Roll(keep="1"))


async def roll_first(t: Tables) -> Case:
    return Case(await t.room(), 0, commands.Score("chance"))


async def box_filled(t: Tables) -> Case:
    room = await t.room(friends=0, entered=True)
    await done(room, 0, commands.Dice("12345"))
    await done(room, 0, commands.Score("chance"))
    await done(room, 0, commands.Dice("23456"))
    return Case(room, 0, commands.Score("chance"))


async def joker_rule(t: Tables) -> Case:
    room = await t.room(friends=0, entered=True)
    await done(room, 0, commands.Dice("66666"))
    await done(room, 0, commands.Score("yahtzee"))
    await done(room, 0, commands.Dice("66666"))
    return Case(room, 0, commands.Score("chance"))  # the Joker rule: Sixes is open


async def game_over(t: Tables) -> Case:
    room = await t.room(friends=0, entered=True)
    for box in Category:  # (Chance holds at least 5)
        await done(room, 0, commands.Write(box.key, 5 if box is Category.CHANCE else 0))
    return Case(room, 0, commands.Dice("12345"))


async def hints_off(t: Tables) -> Case:
    return Case(await t.room(hints=False), 0, commands.Hint())


async def not_over(t: Tables) -> Case:
    return Case(await t.room(), 0, commands.Review())


async def unknown_box(t: Tables) -> Case:
    room = await t.room()
    await done(room, 0, commands.Roll())
    return Case(room, 0, commands.Score("the big one"))


async def bad_keep_text(t: Tables) -> Case:
    room = await t.room()
    await done(room, 0, commands.Roll())
    return Case(room, 0, commands.Roll(keep="1x"))


async def held_and_named_differ(t: Tables) -> Case:
    room = await t.room()
    await done(room, 0, commands.Roll())
    return Case(room, 0, commands.Roll(keep=absent_face(room), held=(0,)))


async def bad_dice(t: Tables) -> Case:
    return Case(await t.room(entered=True), 0, commands.Dice("1237"))


async def four_dice(t: Tables) -> Case:
    return Case(await t.room(entered=True), 0, commands.Dice("1234"))


async def bad_roll(t: Tables) -> Case:
    return Case(await t.room(entered=True), 0, commands.Dice("12345", roll=4))


async def points_not_allowed(t: Tables) -> Case:
    return Case(await t.room(entered=True), 0, commands.Write("fives", 7))


async def dice_entered_roll(t: Tables) -> Case:
    return Case(await t.room(entered=True), 0, commands.Roll())


async def dice_entered_hold(t: Tables) -> Case:
    room = await t.room(entered=True)
    await done(room, 0, commands.Dice("12345"))
    return Case(room, 0, commands.Hold((0,)))


async def dice_rolled(t: Tables) -> Case:
    return Case(await t.room(), 0, commands.Dice("12345"))


async def dice_rolled_write(t: Tables) -> Case:
    return Case(await t.room(), 0, commands.Write("chance", 20))


async def no_undo(t: Tables) -> Case:
    return Case(await t.room(entered=True), 0, commands.Undo())


async def undo_off(t: Tables) -> Case:
    room = await t.room()
    await done(room, 0, commands.Roll())
    await done(room, 0, commands.Score("chance"))
    return Case(room, 0, commands.Undo())


async def resign_spectator(t: Tables) -> Case:
    return Case(await t.room(), None, commands.Resign())


async def resign_before_the_start(t: Tables) -> Case:
    return Case(await t.room(start=False), 1, commands.Resign())


async def resign_at_real_dice(t: Tables) -> Case:
    return Case(await t.room(entered=True), 1, commands.Resign())


async def resign_a_daily_game(t: Tables) -> Case:
    table, _ = await daily_table.start(t.lobby, "127.0.0.1", "Ann", None)
    return Case(t.lobby.room(table), 0, commands.Resign())


async def resign_once_over(t: Tables) -> Case:
    room = await t.room(friends=0)
    for box in Category:
        await done(room, 0, commands.Roll())
        await done(room, 0, commands.Score(box.key))
    return Case(room, 0, commands.Resign())


CASES = {
    not_started: "not_started",
    spectator_rolls: "spectator",
    spectator_chats: "spectator",
    spectator_asks_a_hint: "spectator",
    spectator_holds: "spectator",
    not_your_turn: "not_your_turn",
    not_your_turn_to_hold: "not_your_turn",
    no_rolls_left: "no_rolls_left",
    not_rolled: "not_rolled",
    keep_not_in_dice: "keep_not_in_dice",
    keep_before_roll: "keep_before_roll",
    roll_first: "roll_first",
    box_filled: "box_filled",
    joker_rule: "joker_rule",
    game_over: "game_over",
    hints_off: "hints_off",
    not_over: "not_over",
    unknown_box: "invalid_input",
    bad_keep_text: "invalid_input",
    held_and_named_differ: "invalid_input",
    bad_dice: "bad_dice",
    four_dice: "bad_dice",
    bad_roll: "bad_roll",
    points_not_allowed: "points_not_allowed",
    dice_entered_roll: "dice_entered",
    dice_entered_hold: "dice_entered",
    dice_rolled: "dice_rolled",
    dice_rolled_write: "dice_rolled",
    no_undo: "no_undo",
    undo_off: "undo_off",
    resign_spectator: "spectator",
    resign_before_the_start: "not_started",
    resign_at_real_dice: "bots_need_rolled_dice",
    resign_a_daily_game: "daily_alone",
    resign_once_over: "game_over",
}


@pytest.mark.parametrize(("setup", "code"), CASES.items(), ids=[f.__name__ for f in CASES])
def test_the_room_refuses_with_the_documented_code_and_changes_nothing(
    store: Store, setup: Callable[[Tables], Awaitable[Case]], code: str
) -> None:
    async def test(tables: Tables) -> None:
        case = await setup(tables)
        outcome = await refused(case.room, case.seat, case.command)
        assert isinstance(outcome, commands.Refused), outcome
        assert outcome.code == code, outcome
        assert outcome.message and "Traceback" not in outcome.message
        again = await refused(case.room, case.seat, case.command)  # not remembered as done
        assert again == outcome

    at_tables(store, test)


def documented_codes() -> set[str]:
    """The error codes docs/protocol.md lists for intents."""
    text = DOCS.read_text(encoding="utf-8")
    listed = text[text.index("Error codes:") :]
    listed = listed[: listed.index("\n\n")]
    while True:  # what a code's note in brackets names is not a code
        bare = re.sub(r"\([^()]*\)", "", listed)
        if bare == listed:
            return set(re.findall(r"`([a-z_]+)`", bare))
        listed = bare


def test_every_documented_code_of_a_command_is_a_refusal_checked_here() -> None:
    codes = documented_codes()
    assert "not_your_turn" in codes and "rate_limited" in codes  # the list was read
    assert codes - TRANSPORT_CODES == set(CASES.values())


def test_a_refused_command_leaves_the_game_where_the_last_legal_one_did(store: Store) -> None:
    """A legal command, then an illegal one twice: each refused, and the game goes on from
    where the legal one left it."""

    async def test(tables: Tables) -> None:
        room = await tables.room()
        seq = await done(room, 0, commands.Roll())
        for _ in range(2):
            outcome = await refused(room, 1, commands.Score("chance"))
            assert isinstance(outcome, commands.Refused) and outcome.code == "not_your_turn"
        assert room.seq == seq
        assert await done(room, 0, commands.Score("chance")) > seq

    at_tables(store, test)


def test_a_player_who_resigns_leaves_the_stand_in_bot_playing_the_seat(store: Store) -> None:
    """Bob resigns while Ann is to move: his seat is the stand-in's from then on (his
    token acts for it no more, the table's listeners are told), and when his turn comes
    the bot plays it under his name, while Ann plays on."""

    async def test(tables: Tables) -> None:
        room = await tables.room()
        table = room.table
        await done(room, 1, commands.Resign())
        bob = table.seats[1]
        assert bob.bot is not None and bob.token_hash is None and bob.name == "Bob"
        await done(room, 0, commands.Roll())
        await done(room, 0, commands.Score("chance"))
        live = room.live
        assert live is not None
        async with asyncio.timeout(30):
            while live.committed_game().current_player != 0:  # the bot plays Bob's turn
                await asyncio.sleep(0.01)
        game = live.committed_game()
        assert game.players[1] == "Bob"
        assert len(game.cards[0].filled_boxes) == len(game.cards[1].filled_boxes) == 1

    at_tables(store, test)
