"""A table's room: the one object a live table is served by, on the server and in the
terminal alike (as Colyseus's ``Room`` is: state, clients, handlers and clock in one place).

A `TableRoom` owns its table (seats and settings, `Table`), its game once started (the
`LiveGame`: the tray and the holds, the bots, the turn timer, the hints and the review),
its chat, who is at it (`Presence`) and its win-chance meter (`WinMeters`). It takes a
typed command from a seat or a spectator (`commands`) and answers a typed outcome: every
refusal is made here, with the code the protocol documents, and a refused command changes
nothing. It publishes one ordered stream of typed events (`room_events`) to the node's
listener: the server's hub serialises them for its connections, the terminal's screen
draws them.

A face only parses (its input into a command), authenticates (a token into a seat) and
shows (the events and outcomes); a new kind of command is one case here.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ..core import (
    BotSpec,
    EnterDice,
    Event,
    IllegalMove,
    InvalidInput,
    Keep,
    YahtzeeError,
    clean_text,
)
from ..core import Dice as FiveDice
from ..core import Score as ScoreBox
from ..core import Write as WriteBox
from ..core.language import N_, _
from ..store import Store
from ..store import tables as records
from . import commands
from .chat import MAX_CHAT, Chats
from .commands import Command, Outcome
from .live import LiveGame, Publish, Repeated
from .meter import play_notes
from .meters import WinMeters
from .presence import Member, Presence
from .room_events import (
    Held,
    MovedAway,
    Played,
    RoomEvent,
    RoomListener,
    RoomView,
    TableChanged,
    TimedOut,
)
from .tray import check_slots, not_rolled

if TYPE_CHECKING:
    from .table import SeatState, Table

log = logging.getLogger(__name__)

SERVER_ERROR: Final = N_("Something went wrong on the server; try again.")
NOT_STARTED: Final = N_("The game has not started yet.")


@dataclass(frozen=True, slots=True)
class Hall:
    """What the rooms of one node share: the listener they publish to, who is at each
    table, the win meters, the chats (None: a room without chat, the terminal's),
    whether a table is still the one served (not ended, nor replaced), and the records
    its seats are kept in (None: a table not recorded, the terminal's) with the clock of
    their changes."""

    listener: RoomListener
    presence: Presence
    meters: WinMeters
    chats: Chats | None
    served: Callable[[Table], bool]
    store: Store | None = None
    clock: Callable[[], float] = time.time


@dataclass(frozen=True, slots=True)
class Arrival:
    """What a member is shown as it arrives: the table whole, and what the turn timer's
    stand-in played for its seat while it was gone (if anything)."""

    view: RoomView
    played_for: tuple[Event, ...]


class TableRoom:
    """One live table (see the module's notes)."""

    def __init__(self, table: Table, hall: Hall) -> None:
        self.table = table
        self.hall = hall

    @property
    def id(self) -> str:
        return self.table.id

    @property
    def live(self) -> LiveGame | None:
        """The table's game once started."""
        return self.table.live

    @property
    def seq(self) -> int:
        """The committed sequence number (0 before the game starts)."""
        live = self.table.live
        return live.committed_seq if live is not None else 0

    def serve(self, start: Callable[[Publish], LiveGame]) -> LiveGame:
        """Play a game at this table: ``start(publish)`` makes its `LiveGame` (its session,
        committer, bots, timer), whose committed moves are published here."""
        self.table.live = start(self._published)
        return self.table.live

    # Who is here ---------------------------------------------------------------------

    async def ready(self) -> None:
        """The table's chat read from the records (unless cached): before `arrive`."""
        if self.hall.chats is not None:
            await self.hall.chats.ready(self.id)

    def arrive(self, member: Member) -> Arrival:
        """``member`` (a seat's, or a spectator's) is at the table from now on: what it is
        shown (call `ready` first)."""
        self.hall.presence.arrive(self.id, member)
        return Arrival(self.view(member.seat), self._played_for(member.seat))

    def depart(self, member: Member) -> None:
        self.hall.presence.leave(self.id, member)

    def heard(self, member: Member) -> tuple[Event, ...]:
        """Something came from ``member``: it is here. Back after it was away, what the
        turn timer's stand-in played for its seat meanwhile (if anything)."""
        if self.hall.presence.heard(self.id, member):
            return self._played_for(member.seat)
        return ()

    def connected(self) -> frozenset[int]:
        """The seats whose players are here."""
        return frozenset(self.hall.presence.seats(self.id))

    def _played_for(self, seat: int | None) -> tuple[Event, ...]:
        live = self.table.live
        return live.played_for(seat) if live is not None and seat is not None else ()

    def view(self, seat: int | None) -> RoomView:
        """The table whole as committed, as ``seat`` (None: a spectator) is shown it (the
        chat as cached: see `ready`)."""
        live = self.table.live
        game = live.committed_game() if live is not None else None
        meters = self.hall.meters
        meter = meters.last(self.id)
        if game is not None and meters.due(self.id, game.cards, over=game.is_over):
            meters.refresh(self.table)  # what it finds follows as a `MeterRead`
        chats = self.hall.chats
        return RoomView(
            seq=self.seq,
            table=self.table,
            seat=seat,
            game=game,
            tray=live.tray_for(game) if live is not None and game is not None else None,
            undo_on=live is not None and live.session.undo_on,
            chat=chats.shown(self.id) if chats is not None else (),
            deadline=live.deadline if live is not None else None,
            connected=self.connected(),
            spectators=self.hall.presence.spectators(self.id),
            meter=meter.reading if meter is not None else None,
            meter_current=meter is not None and game is not None and meter.cards == game.cards,
        )

    # Commands ------------------------------------------------------------------------

    async def handle(
        self, seat: int | None, command: Command, intent: str | None = None
    ) -> Outcome:
        """Carry out ``seat``'s command (None: a spectator's), or refuse it with the
        documented code (nothing changed). ``intent``: the command's id, unique per seat
        in a game: a command recorded before under it is answered as it was, not carried
        out again (sent again, or through another node)."""
        try:
            key = None if intent is None else f"{seat}:{intent}"
            return await self._carry_out(seat, command, key)
        except Repeated as repeat:  # carried out before, perhaps through another node
            return commands.Done(repeat.seq)
        except YahtzeeError as error:
            return commands.Refused(error.code, str(error))
        except Exception:
            log.exception("a command at table %s failed", self.id)
            return commands.Refused("server_error", _(SERVER_ERROR))

    async def _carry_out(self, seat: int | None, command: Command, key: str | None) -> Outcome:
        match command:
            case commands.Resync():
                await self.ready()
                return commands.Resynced(self.seq, self.view(seat))
            case commands.Chat():
                await self._say(_seated(seat, _("Spectators cannot chat.")), command.text)
            case commands.Hint():
                live = self._live()
                player = _seated(seat, _("Spectators cannot ask for hints."))
                return commands.Advised(self.seq, await live.hint(player))
            case commands.Review():
                live = self._live()
                players = await live.review()
                return commands.Reviewed(self.seq, players, tuple(play_notes(live.session)))
            case commands.Hold():
                return commands.Done(self._hold(seat, command.held))
            case commands.Roll():
                live = self._live()
                keep, held = self._keep(live, command)
                done = (await live.act(keep, _player(seat), key, held)).seq
                return await self._moved(_player(seat), done)
            case commands.Score():
                live = self._live()
                box = ScoreBox(live.session.game.rules.edition.parse_box(command.box))
                done = (await live.act(box, _player(seat), key)).seq
                return await self._moved(_player(seat), done)
            case commands.Dice() | commands.Write() | commands.Undo():
                done = await self._entry(_player(seat), command, key)
                return await self._moved(_player(seat), done)
            case commands.Resign():
                await self._resign(_player(seat))
            case commands.GoOn():
                self._live().go_on(_player(seat))
        return commands.Done(self.seq)

    def _live(self) -> LiveGame:
        """The game in play (``not_started`` before it starts)."""
        if self.table.live is None:
            raise IllegalMove(_(NOT_STARTED), code="not_started")
        return self.table.live

    def _hold(self, seat: int | None, held: tuple[int, ...]) -> int:
        """The player to move holds these dice: kept, and shown to everyone at the table;
        the committed sequence number it is for."""
        if self.table.entered:
            raise IllegalMove(
                _("At a table of real dice you hold your own dice: enter the five dice showing."),
                code="dice_entered",
            )
        player = _player(seat)
        slots = check_slots(held)
        seq = self._live().hold(player, slots)
        self._tell(Held(seq, player, slots))
        return seq

    @staticmethod
    def _keep(live: LiveGame, roll: commands.Roll) -> tuple[Keep, tuple[int, ...] | None]:
        """The dice a roll keeps, and their places when it names them."""
        named = Keep.parse(roll.keep) if roll.keep.strip() else None
        if roll.held is None:
            return (named or Keep.NONE), None
        held = check_slots(roll.held)
        tray = live.tray_for(live.committed_game())
        if held and not tray.faces:
            raise not_rolled()
        keep = Keep.of(tray.faces[slot] for slot in held)
        if named is not None and named != keep:
            raise InvalidInput(
                _("The dice held ({held}) are not the dice named ({named}).").format(
                    held=keep, named=named
                )
            )
        return keep, held

    async def _entry(
        self, seat: int, entry: commands.Dice | commands.Write | commands.Undo, key: str | None
    ) -> int:
        """A table of real dice: the dice showing, quick score entry, or taking a placement
        back, put through the game like a roll or a placement; the sequence number after."""
        live = self._live()
        match entry:
            case commands.Dice():
                dice = EnterDice(_read_dice(entry.dice), entry.roll)
                return (await live.act(dice, seat, key)).seq
            case commands.Write():
                box_of = live.session.game.rules.edition.parse_box
                write = WriteBox(box_of(entry.box), entry.points)
                return (await live.act(write, seat, key)).seq
            case commands.Undo():
                return (await live.undo(seat, key)).seq

    async def _say(self, seat: int, text: str) -> None:
        """A player's chat line: recorded, then shown to everyone at the table."""
        line = clean_text(text, MAX_CHAT)
        chats = self.hall.chats
        if not line:
            return
        if chats is None:
            raise IllegalMove(_("There is no chat at this table."), code="no_chat")
        await chats.say(self.id, seat, self.table.seats[seat].name, line)

    # Seats ---------------------------------------------------------------------------

    async def seat_to_bot(self, seat: int, bot: BotSpec) -> None:
        """A bot plays ``seat`` from now on (its player left, or never came): recorded,
        and the seat's token acts for it no more. Before the game starts the bot is named
        by its seat (``Bot 3 (level 3)``); in a game under way it plays on under the name
        the cards show. Call under the table's lock; then `changed`."""
        table = self.table
        state = table.seats[seat]
        if table.live is not None:  # (refused in a game of entered dice: nothing changed)
            table.live.session.hand_to_bot(seat, bot)
        state.bot, state.token_hash = bot, None
        if table.status == records.LOBBY or not state.name:
            state.name = bot.seat_name(seat)
        table.active_at = self.hall.clock()
        await self._save_seat(state)

    async def _moved(self, seat: int, seq: int) -> commands.Done:
        """``seat``'s player moved: its count of missed turns starts again (recorded)."""
        state = self.table.seats[seat]
        if state.missed:
            async with self.table.lock:
                state.missed = 0
                await self._save_seat(state)
        return commands.Done(seq)

    async def timed_out(self, seat: int) -> None:
        """``seat``'s time ran out and the timer's stand-in played its turn: one more
        missed turn in a row, and the table's timeout rule says whether the seat is out
        now (a bot of the rule's level plays it on); everyone at the table is told
        (`TimedOut`)."""
        table, rule = self.table, self.table.timeout
        state = table.seats[seat]
        async with table.lock:
            if state.bot is not None or not self.hall.served(table):
                return  # resigned or handed on meanwhile, or the table ended
            state.missed += 1
            out = rule.outs(state.missed)
            if out:
                state.out = True
                await self.seat_to_bot(seat, rule.bot)
            else:
                await self._save_seat(state)
        self._tell(TimedOut(seat, state.name, rule.rule, state.missed, out))
        if out:
            await self.changed()  # (the seat's connections are let go)
            self._live().schedule()

    async def _save_seat(self, state: SeatState) -> None:
        if self.hall.store is not None:
            await asyncio.to_thread(
                records.save_table_seat, self.hall.store, self.table.id, state.record(),
                self.table.active_at,
            )  # fmt: skip

    async def _resign(self, seat: int) -> None:
        """The player leaves the game for good: the timeout rule's bot plays the seat on."""
        live = self._live()
        if self.table.daily is not None:
            raise IllegalMove(
                _("A daily game is yours alone: leave it, and it ends with the day."),
                code="daily_alone",
            )
        async with self.table.lock:
            if live.committed_game().is_over:
                raise IllegalMove(_("The game is over: its record stays."), code="game_over")
            await self.seat_to_bot(seat, self.table.timeout.bot)
        await self.changed()  # (the seat's connections are let go)
        live.schedule()

    # Events --------------------------------------------------------------------------

    def _tell(self, event: RoomEvent) -> None:
        self.hall.listener.heard(self.id, event)

    def _published(self, seq: int, events: tuple[Event, ...]) -> None:
        """A committed move of the game (``seq``: its last event's), in order: told with
        the game as committed after it; the meter is read again when due."""
        live = self.table.live
        assert live is not None
        game = live.committed_game()  # (a bot's turn is shown move by move)
        session = live.session
        self._tell(
            Played(seq, events, game, live.tray, session.undo_on, live.deadline, live.by_timer(seq))
        )
        meters, watched = self.hall.meters, self.hall.presence.watched(self.id)
        if watched and meters.due(self.id, game.cards, over=game.is_over):
            meters.refresh(self.table)  # a game over: its watchers are told the meter ends
        elif game.is_over and not watched:
            meters.drop(self.id)

    async def changed(self) -> None:
        """The table changed (a seat, its status, its game started) or has ended: told to
        its listeners, with the state for those who have not seen its game yet."""
        gone = not self.hall.served(self.table)
        if self.hall.presence.watched(self.id) and not gone:
            await self.ready()  # for a state (cached: a member read it)
        live = self.table.live
        if live is not None and not gone:
            live.schedule()  # the turn timer's deadline is part of the state
        self._tell(TableChanged(self.table, self.connected(), gone))
        if gone:
            self._forget()

    def moved_away(self) -> None:
        """Another node serves the table now: its listeners here are told (they
        reconnect there); its chat and meter here are forgotten (should it come back,
        they are read again: lines may be said there meanwhile)."""
        self._tell(MovedAway())
        self._forget()

    def _forget(self) -> None:
        if self.hall.chats is not None:
            self.hall.chats.forget(self.id)
        self.hall.meters.forget(self.id)


def _player(seat: int | None) -> int:
    return _seated(seat, _("Spectators cannot act."))


def _seated(seat: int | None, refusal: str) -> int:
    if seat is None:
        raise IllegalMove(refusal, code="spectator")
    return seat


def _read_dice(text: str) -> FiveDice:
    """Five dice from the players' text (``bad_dice`` saying what is allowed)."""
    try:
        return FiveDice.parse(text)
    except InvalidInput as error:
        raise InvalidInput(str(error), code="bad_dice") from None


__all__ = ["NOT_STARTED", "Arrival", "Hall", "TableRoom"]
