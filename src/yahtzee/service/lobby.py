"""Online tables: seats with secret tokens, the lobby, and the games they play.

The lobby is the authority: it rolls the dice (a cryptographic source), seats players by
secret tokens (only their hashes are recorded), starts each table's game as a
`LiveGame`, and records every table, so that a restarted server serves every
unfinished table again from its event log, and every finished one read-only.

A table that never starts expires `LOBBY_IDLE_S` after its last change (created, a
seat taken or handed to a bot), and its host can cancel it before it starts; a daily
game's table left unfinished expires when its day is over (UTC, by the lobby's clock).
Either way it is gone, and no longer counts against its owner's quota
(`MAX_TABLES_PER_CLIENT`), which counts daily tables as any other.
Once a game is over nothing at its table changes any more (``finished``).

A turn-by-turn table (`timeout`: more than `TURN_BY_TURN_S` a decision) keeps its
decision's deadline in the records, written right after each move; `sweep_deadlines`
loads every table whose deadline passed and applies its timeout rule, by the lobby's
clock. Such a table in play that nobody is at and whose bots are not playing is let go
from memory `UNLOAD_AFTER_S` later (`let_go_idle`), and loaded from the records again
when a request or a connection comes for it (`locate`); a restart loads none of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING

from ..core import (
    MAX_PLAYERS,
    BotSpec,
    DiceSource,
    IllegalMove,
    InvalidInput,
    RandomDice,
    RuleSet,
    SeatDice,
    YahtzeeError,
    player_name,
)
from ..core.language import _
from ..store import Seat, Store
from ..store import accounts as account_records
from ..store import daily as daily_records
from ..store import tables as records
from ..store.resume import Resumable
from . import daily
from .chat import Chats
from .cluster import Cluster, Elsewhere, Moved
from .group_commit import GroupCommit
from .live import LiveGame
from .meters import WinMeters
from .presence import Presence
from .reviews import Reviews
from .room import Hall, TableRoom
from .room_events import RoomEvent, RoomListener
from .session import NO_BOTS_ENTERED, GameSession, warm_up
from .table import MAX_ID, SeatState, Table, check_entered, check_name_free, new_token, token_hash
from .timeout import TURN_BY_TURN_S, TimeoutRule, check_turn_timer
from .turns import NoTurns, TurnListener

if TYPE_CHECKING:
    from .cluster.wire import Incarnation

MAX_TABLES_PER_CLIENT = 20
"""Tables in the lobby or in play that one client (address) may have at once."""
LOBBY_IDLE_S = 30 * 60
"""A table that does not start expires this long after its last change."""
START_TRIES = 3
"""Starts tried, each after news of a change through another node, before giving up."""
FINISHED_LOADED_S = 24 * 60 * 60
"""Tables finished this recently are served again at startup; older ones when asked for."""
UNLOAD_AFTER_S = 120.0
"""A turn-by-turn table in play that nobody is at and no bot plays is let go from memory
after this long so (`Lobby.let_go_idle`)."""

log = logging.getLogger(__name__)

MAX_CLAIMED = 200
"""Seat tokens a browser may hand over at once when its guest signs in."""


class Forbidden(YahtzeeError):
    default_code = "forbidden"


class Lobby:
    """Every table this server serves, in memory and in the records, each by its room
    (`room`); ``listener`` hears every room's events."""

    def __init__(
        self,
        store: Store,
        listener: RoomListener,
        *,
        bot_delay: float = 0.0,
        max_tables_per_client: int = MAX_TABLES_PER_CLIENT,
        seed: int | None = None,
        idle_timeout: float = LOBBY_IDLE_S,
        clock: Callable[[], float] = time.time,
        cluster: Cluster | None = None,
        turns: TurnListener | None = None,
        unload_after: float = UNLOAD_AFTER_S,
    ) -> None:
        """``seed`` (tests and demonstrations only) makes every table's dice and bots
        reproducible; by default the dice come from a cryptographic source. A table in
        the lobby expires ``idle_timeout`` seconds after its last change (by ``clock``,
        which every turn timer follows too). ``turns`` hears whenever a human seat is to
        move (`turns.TurnListener`); ``unload_after``: see `let_go_idle`."""
        self.store = store
        self.listener = listener
        self.bot_delay = bot_delay
        self.max_tables_per_client = max_tables_per_client
        self.seed = seed
        self.idle_timeout = idle_timeout
        self.clock = clock
        self.committer = GroupCommit(store)
        self.reviews = Reviews()
        self.tables: dict[str, Table] = {}
        self.cluster = cluster or Cluster()
        self.presence = Presence(self._tell)
        self.chats = Chats(store, self._tell, self.presence.watched)
        self.meters = WinMeters(self._tell, self.presence.watched, self.serves)
        self.hall = Hall(
            listener, self.presence, self.meters, self.chats, self.serves, store, clock
        )
        self._rooms: dict[str, TableRoom] = {}
        self._after_moves: set[asyncio.Task[None]] = set()
        """What follows each move (`_turn_passed`), under way."""
        self.turns: TurnListener = turns or NoTurns()
        self.unload_after = unload_after
        self._quiet: dict[str, float] = {}
        """Since when (by ``clock``) each table that may be let go has been so."""
        self._waking: dict[str, asyncio.Future[Table | None]] = {}
        self._all_here = True
        """Every open table is in memory (no turn-by-turn table left in the records only):
        a client's open tables are counted here, not in the records (`_quota`)."""
        self.solver_ready = asyncio.Event()
        """Set once the solver is ready (`warm_up`)."""
        self._swept: date | None = None
        """The day whose start this node last expired the records' daily tables of."""

    def _dice(self) -> DiceSource:
        """Each seat's own dice from a fresh secret seed (committed to; see
        `core.seat_dice`); the tests' ``seed``'s. A game resumed from the records goes on
        with its own seed, drawn as its start event says (`store.resume`)."""
        return SeatDice() if self.seed is None else RandomDice(self.seed)

    def room(self, table: Table) -> TableRoom:
        """The table's room (made on first use): what its players and spectators talk to."""
        room = self._rooms.get(table.id)
        if room is None or room.table is not table:
            room = self._rooms[table.id] = TableRoom(table, self.hall)
        return room

    def serves(self, table: Table) -> bool:
        """Whether the table is one this lobby serves (not ended, nor replaced)."""
        return self.tables.get(table.id) is table

    def _tell(self, table_id: str, event: RoomEvent) -> None:
        self.listener.heard(table_id, event)

    def _serve(self, table: Table, session: GameSession, deadline: float | None = None) -> None:
        """Play ``session`` at ``table`` (``deadline``: the decision's as recorded, for a
        turn-by-turn game loaded from the records)."""

        async def over() -> None:
            await self.finish(table)

        def drives() -> bool:
            return self.cluster.owns(table.id)

        async def moved() -> None:
            # the records and the notification follow the move even if the connection
            # that made it goes meanwhile (its task cancelled): awaited, not owned by it
            task = asyncio.create_task(self._turn_passed(table))
            self._after_moves.add(task)
            task.add_done_callback(self._after_moves.discard)
            await asyncio.shield(task)

        async def timed_out(seat: int) -> None:
            await self.room(table).timed_out(seat)

        session.stand_in_bot = table.timeout.bot
        self.room(table).serve(
            lambda publish: LiveGame(
                session,
                self.committer,
                publish,
                bot_delay=self.bot_delay,
                turn_timer=table.turn_timer,
                on_over=over,
                drives=drives,
                reviews=self.reviews,
                clock=self.clock,
                deadline=deadline,
                on_moved=moved,
                on_timed_out=timed_out,
            )
        )

    async def _turn_passed(self, table: Table) -> None:
        """After a move committed here (and at the start): a turn-by-turn table's
        deadline recorded, and `turns` told when a human's turn has just begun."""
        live = table.live
        if live is None:
            return
        try:
            if table.turn_by_turn:
                await self._record_deadline(live, table.id)
            game = live.committed_game()
            seat, turn = game.current_player, game.turn
            if game.is_over or seat is None or turn is None or live.session.is_bot(seat):
                return
            if turn.dice is None:  # the turn has just begun
                await self.turns.to_move(table, seat)
        except Exception:
            log.exception("after a move at table %s", table.id)

    async def _record_deadline(self, live: LiveGame, table_id: str) -> None:
        """The deadline of the decision now, recorded (under the game's lock: the records
        end with the last one)."""
        async with live.lock:
            deadline = None if live.session.is_over else live.deadline
            await asyncio.to_thread(records.set_deadline, self.store, table_id, deadline)

    def _keep(self, table: Table) -> None:
        """Serve a table just recorded (a server alone keeps every table)."""
        self.tables[table.id] = table

    # Loading after a restart -------------------------------------------------------

    def load_unfinished(self) -> int:
        """Serve every table of the records in the lobby or in play again, and those
        finished within `FINISHED_LOADED_S` (read-only); a lobby idle too long
        expires now (call before serving, outside the event loop)."""
        since = self.clock() - FINISHED_LOADED_S
        found = records.open_tables(self.store, finished_since=since, timer_at_most=TURN_BY_TURN_S)
        if records.away_tables(self.store, TURN_BY_TURN_S):
            self._all_here = False  # turn-by-turn tables in play: loaded when asked for
        for row in found:
            table = self._table_of(row)
            if self._idle(table):
                table.status = records.EXPIRED
                records.set_table_status(
                    self.store, table.id, table.status, row.game_id, self.clock()
                )
                continue
            self.tables[row.id] = table
        return len(self.tables)

    def _table_of(self, row: records.TableRecord) -> Table:
        return self._tables_of([row])[0]

    def _tables_of(self, rows: Sequence[records.TableRecord]) -> list[Table]:
        """The tables of these records, each game resumed (outside the event loop; a
        few statements for them all)."""
        game_ids = [row.game_id for row in rows if row.game_id]
        days = daily_records.daily_games(self.store, game_ids)
        found = self.store.resumables(game_ids, self._dice)
        served = []
        for row in rows:
            table = Table.of_record(row)
            if row.game_id:
                if row.game_id not in found:
                    raise InvalidInput(f"No game with id {row.game_id!r} in the records.")
                table.daily = days.get(row.game_id)
                session = self._session_of(row, found[row.game_id], table.daily)
                self._serve(table, session, row.deadline)
            served.append(table)
        return served

    def _resume(self, row: records.TableRecord) -> GameSession:
        """A table's game from the records (outside the event loop)."""
        assert row.game_id is not None
        daily = daily_records.is_daily_game(self.store, row.game_id)
        resumed = self.store.resumable(row.game_id, self._dice())
        return self._session_of(row, resumed, daily)

    def _session_of(
        self, row: records.TableRecord, found: Resumable, daily: date | None
    ) -> GameSession:
        """A table's game from what the records hold (a daily game: no undo)."""
        assert row.game_id is not None
        session = GameSession.of_record(
            found, self.store, row.game_id, seed=self.seed, hints=row.hints_allowed,
            undo=False if daily is not None else None,
        )  # fmt: skip
        for state in row.seats:  # seats handed to bots play as bots
            if state.bot is not None and session.seats[state.seat].bot is None:
                session.hand_to_bot(state.seat, state.bot)
        return session

    # What a cluster tells its lobby (nothing, for a server alone) ------------------

    async def on_tick(self) -> None:
        pass

    async def on_lost(self, table_ids: list[str]) -> None:
        pass

    async def on_adopt(self, tables: list[tuple[str, Incarnation]]) -> None:
        pass

    def resume_play(self) -> None:
        """Let every served game's bots and timers go on (inside the event loop)."""
        for table in self.tables.values():
            self.play(table)

    def close(self) -> None:
        """The server stops: every game's bots and timer, and every reading under way."""
        for table in self.tables.values():
            if table.live is not None:
                table.live.close()
        self.presence.close()
        self.chats.close()
        self.meters.close()
        self.reviews.close()
        self.committer.close()

    async def warm_up(self) -> None:
        """Get the solver ready while the server already answers: the official table
        (shipped with the package), a bot's first move and the compiled kernels (compiled
        aside, in a child process). Games play meanwhile, on numpy turns; `solver_ready`
        is set once it is done.

        It runs in a thread of its own that the server's end does not wait for: the first
        start after an install compiles for tens of seconds, and a Ctrl-C then stops the
        server at once (the event loop's own threads would be waited for)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()

        def tell() -> None:
            if not done.done():
                done.set_result(None)

        def work() -> None:
            try:
                warm_up(compile_kernels=True)
            finally:
                with contextlib.suppress(RuntimeError):  # the loop closed: nobody waits
                    loop.call_soon_threadsafe(tell)

        threading.Thread(target=work, name="solver warm-up", daemon=True).start()
        try:
            await done
        finally:
            self.solver_ready.set()

    # Finding tables ------------------------------------------------------------------

    def today(self) -> date:
        """The day (UTC) by the lobby's clock: the daily game's."""
        return datetime.fromtimestamp(self.clock(), UTC).date()

    def _idle(self, table: Table) -> bool:
        """Whether a table in the lobby has waited too long, or a daily game's table in
        play has outlived its day (either is gone)."""
        if table.daily is not None:
            return table.status == records.PLAYING and table.daily < self.today()
        return table.status == records.LOBBY and (
            self.clock() - table.active_at >= self.idle_timeout
        )

    def get(self, table_id: str) -> Table:
        """A table served now (``no_table`` if there is none)."""
        table = self.tables.get(table_id)
        if table is None or self._idle(table):
            raise InvalidInput(_("No such table (or it has ended)."), code="no_table")
        return table

    async def locate(self, table_id: str) -> Table | Elsewhere | None:
        """Where a table is served: here (the table: one served now, or a finished one
        from the records, served read-only from now on), by another node of the site
        (`Elsewhere`: the cluster's answer, `Cluster.claim`), or nowhere (None: no such
        table, or it has ended). A server alone serves every table."""
        return await self._here(table_id)

    async def find(self, table_id: str) -> Table | None:
        """`locate`, for a table that must be served here: `Moved` (the request goes to
        the table's node) when another node serves it."""
        place = await self.locate(table_id)
        if isinstance(place, Elsewhere):
            raise Moved(place)
        return place

    async def _here(self, table_id: str) -> Table | None:
        """A table served now, or a finished one from the records (served read-only from
        now on); None if there is neither."""
        table = self.tables.get(table_id)
        if table is not None:
            return None if self._idle(table) else table
        if len(table_id) > MAX_ID:
            return None
        pending = self._waking.get(table_id)
        if pending is None:  # (once, however many ask at the same moment)
            pending = asyncio.ensure_future(self._load_here(table_id))
            self._waking[table_id] = pending
            pending.add_done_callback(lambda _: self._waking.pop(table_id, None))
        return await asyncio.shield(pending)

    async def _load_here(self, table_id: str) -> Table | None:
        """A table from the records: a finished one (read-only), or one in play that was
        let go (a turn-by-turn table: its game goes on, at its recorded deadline)."""
        row = await asyncio.to_thread(records.load_table, self.store, table_id)
        if row is None or row.status not in (records.FINISHED, records.PLAYING):
            return None
        loaded = await asyncio.to_thread(self._table_of, row)
        table = self.tables.setdefault(table_id, loaded)
        if table is loaded and row.status == records.PLAYING:
            self.play(table)
        return table

    async def lookup(self, table_id: str) -> Table:
        """`find`, or ``no_table``."""
        table = await self.find(table_id)
        if table is None:
            raise InvalidInput(_("No such table (or it has ended)."), code="no_table")
        return table

    async def by_invite(self, invite: str) -> Table:
        for table in self.tables.values():
            if self._idle(table):
                continue
            if secrets.compare_digest(table.invite_token.encode(), invite.encode()):
                return table
        if not self._all_here:  # a turn-by-turn table in play, let go
            found = await asyncio.to_thread(records.table_by_invite, self.store, invite)
            loaded = await self._here(found) if found is not None else None
            if loaded is not None:
                return loaded
        raise self._bad_invite()

    @staticmethod
    def _bad_invite() -> InvalidInput:
        return InvalidInput(
            _("This invite link is not valid (or its table has ended)."), code="no_table"
        )

    def watching(self, table: Table, spectate: str | None) -> bool:
        """Whether ``spectate`` is the key (never for a daily game before its day ends)."""
        if table.daily is not None and table.daily >= daily.today():
            return False
        return spectate is not None and secrets.compare_digest(
            table.spectator_token.encode(), spectate.encode()
        )

    async def create(
        self,
        owner: str,
        host: str,
        seats: Sequence[BotSpec | None],
        rules: RuleSet,
        *,
        hints: bool = True,
        turn_timer: int | None = None,
        entered: bool = False,
        timeout: TimeoutRule | None = None,
        account: str | None = None,
    ) -> tuple[Table, str]:
        """A new table; the host takes seat 0, each other seat is open for a friend (None)
        or a bot. Returns the table and the host's secret token. ``entered``: the players
        roll real dice and enter them (people only, and no turn timer: nothing could
        move for them). ``turn_timer``: seconds per decision (1 to three days; above
        `TURN_BY_TURN_S` the table is played turn by turn); ``timeout``: what happens
        when a decision's time runs out (by default a level-3 bot plays that turn);
        ``account``: the signed-in host's account (None: a guest)."""
        if not 1 <= 1 + len(seats) <= MAX_PLAYERS:
            raise InvalidInput(_("A table has 1 to {most} seats.").format(most=MAX_PLAYERS))
        check_turn_timer(turn_timer)
        if entered:
            check_entered(seats, turn_timer)
        token = new_token()
        host_name = player_name(host)
        check_name_free(host_name, [bot.seat_name(n) for n, bot in enumerate(seats, 1) if bot])
        states = [SeatState(0, host_name, None, token_hash(token), account=account)]
        for index, bot in enumerate(seats, start=1):
            states.append(SeatState(index, bot.seat_name(index) if bot else None, bot))
        table = Table(
            str(uuid.uuid4()), rules, hints, turn_timer, new_token(), new_token(), owner,
            records.LOBBY, states, active_at=self.clock(), entered=entered,
            timeout=timeout or TimeoutRule(),
        )  # fmt: skip
        await self._record_new(table)
        self._keep(table)
        return table, token

    async def check_quota(self, owner: str) -> None:
        """``too_many_tables`` if ``owner`` has reached the quota already (before a new
        daily attempt is recorded; `_record_new` counts again as it records the table)."""
        quota = self._quota(owner)
        if quota is not None and (
            await asyncio.to_thread(records.count_open, self.store, owner, quota.active_since)
            >= quota.limit
        ):
            raise self._over_quota()

    async def _record_new(self, table: Table) -> None:
        """Record a new table, unless its owner has reached the quota."""
        quota = self._quota(table.owner)
        if not await asyncio.to_thread(records.create_table, self.store, table.record(), quota):
            raise self._over_quota()

    def _quota(self, owner: str) -> records.Quota | None:
        """Before a new table is recorded: the quota the records are to count it against,
        in the transaction that records it; None when this node counts it (one node alone
        has every table in memory, until a turn-by-turn table is let go: `_all_here`):
        over the quota, ``too_many_tables``."""
        if not self._all_here:
            return records.Quota(self.clock() - self.idle_timeout, self.max_tables_per_client)
        if (
            sum(
                1
                for t in self.tables.values()
                if t.owner == owner
                and t.status in (records.LOBBY, records.PLAYING)
                and not self._idle(t)
            )
            >= self.max_tables_per_client
        ):
            raise self._over_quota()
        return None

    def _over_quota(self) -> Forbidden:
        return Forbidden(
            _("At most {most} open tables per client.").format(most=self.max_tables_per_client),
            code="too_many_tables",
        )

    async def _apply(self, table: Table, row: records.TableRecord) -> None:
        """The records' version of a table another node changed (one node alone never
        finds its records changed)."""

    async def join(
        self, invite: str, name: str, account: str | None = None
    ) -> tuple[Table, int, str]:
        """Take the first open seat of the invite's table as ``name`` (``account``: the
        signed-in player's; None: a guest). Returns the table, the seat and its token."""
        table = await self.by_invite(invite)
        async with table.lock:
            self._require_open(table)
            if table.status != records.LOBBY:
                raise IllegalMove(
                    _("The game has started; only its players can come back."), code="started"
                )
            clean = player_name(name)
            check_name_free(clean, [s.name for s in table.seats])
            free = next((s for s in table.seats if s.open and not s.reserved), None)
            if free is None and any(s.reserved for s in table.seats):
                raise IllegalMove(
                    _("Every seat is kept for the players of the last game."), code="table_full"
                )
            if free is None:
                raise IllegalMove(_("Every seat is taken."), code="table_full")
            token = new_token()
            if not await self.take_seat(
                table, SeatState(free.seat, clean, None, token_hash(token), account=account)
            ):
                raise IllegalMove(_("That seat was just taken: try again."), code="table_full")
        await self.room(table).changed()
        return table, free.seat, token

    async def take_seat(self, table: Table, taken: SeatState) -> bool:
        """A player takes an open seat (``taken``: its name and token hash): recorded only
        if the seat is still open in the records, else False and the table read again
        (another node took it meanwhile)."""
        active_at = self.clock()
        if not await asyncio.to_thread(
            records.save_table_seat, self.store, table.id, taken.record(), active_at,
            only_if_open=True,
        ):  # fmt: skip
            return False
        seat = table.seats[taken.seat]
        seat.name, seat.token_hash, table.active_at = taken.name, taken.token_hash, active_at
        seat.account = taken.account
        return True

    async def claim_seats(self, account: str, tokens: Sequence[str]) -> int:
        """A guest who signs up or in hands over the seats their browser holds (by their
        tokens, at most `MAX_CLAIMED`): those nobody's yet become the account's, at their
        tables and in the tables' games (daily games too). Returns how many did."""
        digests = {token_hash(t) for t in tokens[:MAX_CLAIMED] if t}
        claimed = await asyncio.to_thread(
            account_records.claim_seats, self.store, account, sorted(digests)
        )
        for table in self.tables.values():
            for seat in table.seats:
                if seat.account is None and seat.token_hash in digests:
                    seat.account = account
        return claimed

    def forget_account(self, account: str) -> None:
        """A deleted account's seats here are no longer anyone's (as in the records)."""
        for table in self.tables.values():
            for seat in table.seats:
                if seat.account == account:
                    seat.account = None

    def _require_host(self, table: Table, token: str | None) -> None:
        if table.seat_of(token) != 0:
            raise Forbidden(_("Only the host can do that."), code="not_host")

    def _require_open(self, table: Table) -> None:
        """Nothing changes at a table whose game is over, or that has ended."""
        session = table.session
        if table.status == records.FINISHED or (session is not None and session.is_over):
            raise IllegalMove(
                _("This game is over: its record stays as it was played."), code="finished"
            )
        if table.status in records.ENDED or self._idle(table):
            raise InvalidInput(_("No such table (or it has ended)."), code="no_table")

    async def start(self, table: Table, token: str | None) -> None:
        """The host starts the game once every seat is taken: everyone at the table is
        shown it, then its bots and timer go (`play`)."""
        self._require_host(table, token)
        async with table.lock:
            for _try in range(START_TRIES):
                refused = self._start_refusal(table)
                if refused is not None:
                    raise refused
                seats = [Seat(s.name or f"Seat {s.seat + 1}", s.bot) for s in table.seats]
                game_id = str(uuid.uuid4())
                session = GameSession.prepared(
                    seats, table.rules, self.store, game_id, seed=self.seed,
                    dice=self._dice(), hints=table.hints_allowed, entered=table.entered,
                )  # fmt: skip
                active_at = self.clock()
                # one transaction: the game recorded, and the table in play if it is still
                # as this node has it (else the records' version, and the checks again)
                found = await asyncio.to_thread(
                    records.start_table, self.store, table.id,
                    [s.record() for s in table.seats], game_id=game_id,
                    game=session.game, seats=seats, seed=self.seed, active_at=active_at,
                )  # fmt: skip
                if found is None:
                    break
                await self._apply(table, found)  # changed through another node meanwhile
            else:
                raise IllegalMove(_("The table changed while starting: try again."), code="busy")
            self._serve(table, session)
            table.status, table.active_at = records.PLAYING, active_at
        await self.room(table).changed()
        self.play(table)
        await self._turn_passed(table)

    def _start_refusal(self, table: Table) -> YahtzeeError | None:
        """Why the table cannot start as this node has it (None: it can)."""
        try:
            self._require_open(table)
        except YahtzeeError as error:
            return error
        if table.status != records.LOBBY:
            return IllegalMove(_("The game has already started."), code="started")
        waited = [s.name for s in table.seats if s.reserved]
        if waited:
            return IllegalMove(
                _("{name} has not taken their seat yet: wait, or hand it to a bot.").format(
                    name=waited[0]
                ),
                code="seats_open",
            )
        if any(s.open for s in table.seats):
            return IllegalMove(_("Every seat needs a player or a bot first."), code="seats_open")
        return None

    def play(self, table: Table) -> None:
        """Let the table's bots and turn timer go on (after its players saw the change)."""
        if table.live is not None:
            table.live.schedule()

    async def hand_to_bot(self, table: Table, token: str | None, seat: int, bot: BotSpec) -> None:
        """The host hands a human seat (abandoned, or never taken) to a bot
        (`TableRoom.seat_to_bot`). Not once the game is over."""
        self._require_host(table, token)
        if not 0 < seat < len(table.seats):
            raise InvalidInput(_("No such seat (the host's own seat stays human)."))
        if table.entered:
            raise IllegalMove(_(NO_BOTS_ENTERED), code="bots_need_rolled_dice")
        async with table.lock:
            self._require_open(table)
            await self.room(table).seat_to_bot(seat, bot)
        await self.room(table).changed()  # (the seat's connections are let go)
        self.play(table)

    async def cancel(self, table: Table, token: str | None) -> None:
        """The host calls off a table that has not started: it is gone."""
        self._require_host(table, token)
        async with table.lock:
            self._require_open(table)
            if table.status != records.LOBBY:
                raise IllegalMove(
                    _("The game has started; it ends when it is over."), code="started"
                )
            await self._end(table, records.CANCELLED)
        await self._gone(table)

    async def expire_idle(self) -> list[Table]:
        """Every table in the lobby idle too long, and every daily table past its day,
        expires (it is gone); returns those this node served. Once a day, the records'
        daily tables of days over expire too (those no node serves: in a cluster they
        still counted against their owners' quota)."""
        expired = []
        for table in [t for t in self.tables.values() if self._idle(t)]:
            ended = False
            async with table.lock:
                if self._idle(table):
                    await self._end(table, records.EXPIRED)
                    expired.append(table)
                    ended = True
            if ended:
                await self._gone(table)
        today = self.today()
        if self._swept != today:
            await asyncio.to_thread(records.expire_days_over, self.store, today, self.clock())
            self._swept = today
        return expired

    async def sweep_deadlines(self) -> list[Table]:
        """Every turn-by-turn table in play whose decision's deadline has passed (by the
        lobby's clock), in memory or in the records only: loaded (on a node of several,
        claimed: one another node serves is its own to sweep) and its timeout rule
        applied. Returns the tables it applied to."""
        due = await asyncio.to_thread(records.due_tables, self.store, self.clock())
        applied = []
        for table_id in due:
            try:
                place = await self.locate(table_id)
            except Moved:
                continue
            if not isinstance(place, Table) or place.live is None:
                continue
            if await place.live.time_out():
                applied.append(place)
            else:  # the records were behind: the deadline as it is
                await self._record_deadline(place.live, table_id)
        return applied

    def let_go_idle(self) -> list[Table]:
        """Let go from memory every turn-by-turn table in play that nobody is at, whose
        bots are not playing and that nothing changes, once so for `unload_after` seconds
        (by the lobby's clock): it is loaded from the records again when asked for
        (`locate`), or when its deadline passes (`sweep_deadlines`). Returns those let go."""
        now, gone = self.clock(), []
        for table in list(self.tables.values()):
            if not self._resting(table):
                self._quiet.pop(table.id, None)
            elif now - self._quiet.setdefault(table.id, now) >= self.unload_after:
                self._let_go(table)
                gone.append(table)
        return gone

    def _resting(self, table: Table) -> bool:
        live = table.live
        return (
            table.turn_by_turn
            and table.status == records.PLAYING
            and live is not None
            and live.resting
            and not table.lock.locked()
            and not self.presence.watched(table.id)
        )

    def _let_go(self, table: Table) -> None:
        """The table leaves memory (the records hold it whole); whoever may still be
        listening reconnects, and finds it loaded again."""
        self._all_here = False
        self._quiet.pop(table.id, None)
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        room = self._rooms.pop(table.id, None)
        if table.live is not None:
            table.live.close()
        if room is not None:
            room.moved_away()

    async def _gone(self, table: Table) -> None:
        """A table that ended: whoever is at it is told, and its room goes."""
        await self.room(table).changed()
        if not self.serves(table):
            self._rooms.pop(table.id, None)

    async def _end(self, table: Table, status: str) -> None:
        table.status = status
        table.active_at = self.clock()
        self.tables.pop(table.id, None)
        game_id = table.session.game_id if table.session else None  # a daily table's
        if table.live is not None:
            table.live.close()
        await asyncio.to_thread(
            records.set_table_status, self.store, table.id, status, game_id, table.active_at
        )

    async def finish(self, table: Table) -> None:
        """The table's game is over: the table recorded as finished (and a daily game's
        result)."""
        table.status = records.FINISHED
        table.active_at = self.clock()
        game_id = table.session.game_id if table.session else None
        await asyncio.to_thread(
            records.set_table_status, self.store, table.id, table.status, game_id,
            table.active_at,
        )  # fmt: skip
        if table.daily is not None and table.session is not None:  # its result, from the game
            await asyncio.to_thread(daily.finish_daily, self.store, table.session)
