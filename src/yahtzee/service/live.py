"""A game session served to many clients at once (asyncio): one action at a time, each
committed (together with other tables' actions) before it is published, a bot's turn
committed at once and shown move by move, and a turn timer whose stand-in plays the rest
of the turn for a player who does not move in time (what it played is kept for the
player's return: `LiveGame.played_for`).

An action is applied in memory first and then committed; until the commit returns,
nobody may see it. `LiveGame.committed_game` is the game as committed (what a new
connection or a resync is shown); hints and the review wait for a commit under way.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar

from ..core import (
    Action,
    Entry,
    Event,
    Game,
    GameState,
    IllegalMove,
    Scored,
    Written,
    YahtzeeError,
)
from ..core.language import _
from ..store import REPEAT
from .beat import sleep_to_beat
from .group_commit import Committer
from .reviews import Reviewer
from .session import GameSession, Move
from .timeout import is_turn_by_turn
from .tray import Tray, follow, not_rolled, tray_of

if TYPE_CHECKING:
    from ..solver import Advice
    from ..solver.review import PlayerReview

log = logging.getLogger(__name__)

Publish = Callable[[int, tuple[Event, ...]], None]
"""Called with each committed move's events and the sequence number of its last one, in
order (the server queues them for the connections it holds). Never yields."""
CONFLICT_TRIES = 3
"""How often an intent is tried again after another node wrote first (each time against
the game as it then is: as if it had come later)."""


class Applied(Protocol):
    """What a move applied in memory appended: its events, and the log's length after."""

    @property
    def events(self) -> tuple[Event, ...]: ...

    @property
    def seq(self) -> int: ...


_Done = TypeVar("_Done", bound=Applied)


@dataclass(frozen=True, slots=True)
class Undid:
    """A placement taken back (`LiveGame.undo`): by whom, which, and the event."""

    seat: int
    placement: Scored | Written
    events: tuple[Event, ...]
    seq: int


@dataclass(frozen=True, slots=True)
class Step:
    """One move of a bot's turn as it is shown: its events, the sequence number of its last
    one, and the game's state and the dice as they were after it (the game itself is made
    from them only if asked for while the move is shown: `LiveGame.committed_game`)."""

    events: tuple[Event, ...]
    seq: int
    state: GameState
    tray: Tray


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A bot's turn, committed at once (`LiveGame._bot_turn`) and shown move by move."""

    steps: tuple[Step, ...]

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(event for step in self.steps for event in step.events)

    @property
    def seq(self) -> int:
        return self.steps[-1].seq


class Repeated(YahtzeeError):
    """This intent was recorded before (perhaps through another node): nothing is applied
    again, and it is answered with the sequence number it had."""

    default_code = "repeated"

    def __init__(self, seq: int) -> None:
        super().__init__("This intent was handled before.")
        self.seq = seq


class LiveGame:
    """One served game: its actions in order, its bots and its turn timer.

    On several server nodes only the table's owner serves it; while it ``drives`` the
    table (its lease holds) it runs the bots and the turn timer. Should another node
    have written first all the same, the records' compare-and-set refuses the write and
    this copy catches up from them."""

    def __init__(
        self,
        session: GameSession,
        committer: Committer,
        publish: Publish,
        *,
        bot_delay: float = 0.0,
        turn_timer: float | None = None,
        on_over: Callable[[], Awaitable[None]] | None = None,
        drives: Callable[[], bool] | None = None,
        reviews: Reviewer | None = None,
        undo_wait: float = 0.0,
        saves_holds: bool = False,
        clock: Callable[[], float] = time.time,
        deadline: float | None = None,
        on_moved: Callable[[], Awaitable[None]] | None = None,
        on_timed_out: Callable[[int], Awaitable[None]] | None = None,
    ) -> None:
        """``on_over()``: the game just ended (its record is finished). ``reviews``: where
        its review is made at low priority (by default at once, in a worker thread).
        ``undo_wait``: seconds a bot waits before it plays while the placement before it
        may still be taken back (`GameSession.bot_waits`), unless its player goes on
        (`go_on`) first; no wait by default. ``saves_holds``: each hold is saved with the
        record at once (`GameSession.select`: a game played in one process alone, resumed
        with the same dice held); by default holds are kept in memory only.

        The turn timer runs by ``clock`` (Unix time; the lobby's). A turn-by-turn game's
        (`timeout.is_turn_by_turn`) runs no task of its own: its deadline is applied by
        whoever calls `time_out` (the lobby's sweep); ``deadline``: the recorded deadline
        of the decision now (a game loaded from the records). ``on_moved()``: after each
        move committed here (the deadline to record, the player to tell);
        ``on_timed_out(seat)``: after the timer's stand-in played ``seat``'s turn."""
        self.session = session
        self.committer = committer
        self.publish = publish
        self.bot_delay = bot_delay
        self.turn_timer = turn_timer
        self.on_over = on_over
        self.drives: Callable[[], bool] = drives or (lambda: True)
        self.reviews = reviews
        self.undo_wait = undo_wait
        self.saves_holds = saves_holds
        self.clock = clock
        self.turn_by_turn = is_turn_by_turn(turn_timer)
        self.on_moved = on_moved
        self.on_timed_out = on_timed_out
        self._recorded_deadline = deadline
        self.bot_due: float | None = None
        """While a bot waits for the placement before it to be taken back or let go (see
        ``undo_wait``): when it plays (Unix time)."""
        self._going_on = asyncio.Event()
        self.lock = asyncio.Lock()
        self.committed_seq = len(session.game.event_log)
        """The events the store holds (the game as loaded or started is committed); while
        a bot's turn is being shown, those shown so far (the store holds the whole turn)."""
        self.deadline: float | None = None
        """When the turn timer decides for the player to act (by ``clock``), if it runs."""
        self._before: Game | None = None
        self._shown: tuple[int, GameState] | None = None  # a bot's move shown: (seq, state)
        self._bot: asyncio.Task[None] | None = None
        self._timer: asyncio.Task[None] | None = None
        self._timer_key: tuple[int, int] | None = None
        self._playing: set[asyncio.Task[None]] = set()
        """Timers that ran out, their stand-in playing: no new decision's timer cancels
        them (they may be committing)."""
        self._played_for: dict[int, list[Event]] = {}
        self._by_timer = range(0)  # the sequence numbers of the stand-in's last turn
        self._over_seen = session.is_over
        self._ending: asyncio.Future[None] | None = None  # recording the game's end
        self.tray: Tray = tray_of(session.game)
        """The dice as they lie, for the committed game: places and the places held."""

    def committed_game(self) -> Game:
        """The game as the store holds it: without an action applied but not yet
        committed (one is between `act`'s apply and its commit), and, while a bot's turn
        is being shown, as shown so far."""
        game = self.session.game
        if len(game.event_log) == self.committed_seq:
            return game
        before = self._before
        if before is None or len(before.event_log) != self.committed_seq:
            shown = self._shown
            if shown is not None and shown[0] == self.committed_seq:  # a bot's move shown
                before = game.as_it_was(shown[1], self.committed_seq)
            else:  # rare (a resync while a commit is under way): rebuilt from the events
                before = Game.replay(game.event_log[: self.committed_seq], game.dice_source)
            self._before = before
        return before

    def tray_for(self, game: Game) -> Tray:
        """The row of dice ``game`` shows (the committed game's as played here)."""
        return self.tray if len(game.event_log) == self.committed_seq else tray_of(game)

    def hold(self, seat: int, slots: tuple[int, ...]) -> int:
        """``seat`` holds the dice in ``slots`` (its choice before the next roll, kept
        until it rolls); the committed sequence number it is for."""
        game = self.committed_game()
        turn = game.turn
        if game.is_over or turn is None or game.current_player != seat:
            raise IllegalMove(_("It is not your turn."), code="not_your_turn")
        if turn.dice is None:
            raise not_rolled()
        if turn.rolls_left == 0:
            raise IllegalMove(_("There is no roll left to hold dice for."), code="no_rolls_left")
        self.tray = self.tray.holding(slots)
        if self.saves_holds:
            self.session.select(self.tray.held_in_order())
        self._played_for.pop(seat, None)
        return self.committed_seq

    def played_for(self, seat: int) -> tuple[Event, ...]:
        """What the turn timer's stand-in played for ``seat`` since its player last acted
        (rolled, held, placed or took back), in order: to tell the player on their return.
        Kept by the node that played it (in memory: a restart forgets it)."""
        return tuple(self._played_for.get(seat, ()))

    def by_timer(self, seq: int) -> bool:
        """Whether the event ``seq`` is one the turn timer's stand-in played (of its last
        turn)."""
        return seq in self._by_timer

    async def act(
        self,
        action: Action | Entry,
        seat: int,
        intent: str | None = None,
        held: tuple[int, ...] | None = None,
    ) -> Move:
        """Check, commit, then publish one action of ``seat``; then let bots and the timer
        go on. Raises the engine's error (nothing changes) for an action not allowed now,
        `Repeated` for an ``intent`` (a key unique per seat) recorded before.
        ``held``: for a roll, the places of the dice kept (they stay in place).

        When another node wrote first, this node catches up and tries the action again
        against the game as it now is (as if it had come later).

        Publishing never yields (it only queues messages), so moves go out in the order
        they were committed, and nobody's socket is waited for under the lock."""
        move = await self._commit(lambda: self.session.apply(action, seat), intent, held)
        self._played_for.pop(seat, None)  # the player is back
        return move

    async def undo(self, seat: int, intent: str | None = None) -> Undid:
        """``seat`` takes back its last placement (`GameSession.can_undo`), committed and
        published like any move (the log records the taking back)."""
        undid = await self._commit(lambda: self._take_back_placement(seat), intent, None)
        self._played_for.pop(seat, None)
        return undid

    def _take_back_placement(self, seat: int) -> Undid:
        session = self.session
        if not session.undo_on:
            raise IllegalMove(_("Taking back a placement is off in this game."), code="undo_off")
        log = session.game.event_log
        last = log[-1] if log else None
        if isinstance(last, Scored | Written) and session.is_bot(last.player):
            raise IllegalMove(_("A computer player's placement stays."), code="no_undo")
        before = len(log)
        placed = session.game.undo(player=seat)  # else the engine says why not (no_undo)
        after = session.game.event_log
        return Undid(seat, placed, tuple(after[before:]), len(after))

    async def _commit(
        self, apply: Callable[[], _Done], intent: str | None, held: tuple[int, ...] | None
    ) -> _Done:
        async with self.lock:
            move = await self._record(apply, intent)
            self.committed_seq = move.seq
            self.tray = follow(self.tray, self.session.game, move.events, held)
            self._restart_timer()
        self.publish(move.seq, move.events)
        await self._after()
        return move

    async def _record(self, apply: Callable[[], _Done], intent: str | None) -> _Done:
        """Under the lock: apply in memory and commit, as `act` says; the move recorded
        (`committed_seq` is still where it began)."""
        for _try in range(CONFLICT_TRIES):
            base = self.committed_seq
            try:
                move = apply()
            except IllegalMove:
                await self._repeated(intent)  # a resend of a move made meanwhile?
                raise
            if await self._saved(base, intent):
                return move
        raise IllegalMove(_("The table is busy: try again."), code="busy")

    async def _saved(self, base: int, intent: str | None) -> bool:
        """Under the lock: commit what was applied in memory after ``base``. False when
        another node wrote first (it is taken back, and this copy caught up with the
        records); `Repeated` when that was this intent."""
        try:
            outcome = await self.committer.commit(self.session, base, intent)
        except Exception:
            # not recorded: take it back, so that nothing unrecorded is ever shown
            self._take_back()
            raise
        if outcome.saved:
            return True
        self._take_back()
        await self._catch_up()
        if outcome.kind == REPEAT:
            raise Repeated(outcome.seq)
        return False

    async def _repeated(self, intent: str | None) -> None:
        """Under the lock: raise `Repeated` if this intent made a move already
        (through another node, say, before a reconnection), after catching up with it."""
        session = self.session
        if intent is None or session.store is None or session.game_id is None:
            return
        seq = await asyncio.to_thread(session.store.intent_seq, session.game_id, intent)
        if seq is not None:
            await self._catch_up()
            raise Repeated(seq)

    async def time_from_records(self) -> None:
        """After loading a game another node was playing: its turn timer runs from when
        the last event was recorded, not from now."""
        session = self.session
        if not self.turn_timer or session.store is None or session.game_id is None:
            return
        if self.turn_by_turn:  # its deadline is recorded with the table
            return
        _saved, at = await asyncio.to_thread(
            session.store.events_since, session.game_id, max(0, self.committed_seq - 1)
        )
        if at is not None:
            async with self.lock:
                self._timer_key = None  # a fresh start, at the recorded deadline
                self._restart_timer(at.timestamp() + self.turn_timer)

    async def _after(self) -> None:
        if self.session.is_over and not self._over_seen:
            self._over_seen = True
            # A task of its own: whoever made the last move may be gone the moment the
            # move is shown (a closed page cancels its handler), and the game's end must
            # be recorded all the same.
            self._ending = asyncio.ensure_future(self._record_end())
            await asyncio.shield(self._ending)
        self.schedule()
        if self.on_moved is not None:
            await self.on_moved()

    async def _record_end(self) -> None:
        """The game is over: the table's end (`on_over`) and the game's record and review."""
        async with self.lock:
            if self.on_over is not None:
                await self.on_over()
        if self.reviews is not None:
            self.reviews.later(self.session)
        else:
            await asyncio.to_thread(self.session.finish)

    def _take_back(self) -> None:
        """Back to the committed game (a move applied but not recorded is dropped)."""
        game = self.session.game
        if len(game.event_log) != self.committed_seq:
            self.session.game = self.committed_game()
            self._before = self._shown = None

    async def _catch_up(self) -> None:
        """Under the lock: on to what the records hold, from the committed game."""
        session = self.session
        if session.store is None or session.game_id is None:
            return
        fresh, at = await asyncio.to_thread(
            session.store.events_since, session.game_id, self.committed_seq
        )
        if not fresh:
            return
        before = self.committed_seq
        session.game.extend(fresh)
        deadline = at.timestamp() + self.turn_timer if at and self.turn_timer else None
        self._announce(before, deadline)

    def _announce(self, before: int, deadline: float | None) -> None:
        """Events after ``before`` were taken in: committed, timed, published."""
        game = self.session.game
        log = game.event_log
        self.committed_seq = len(log)
        self.tray = follow(self.tray, game, log[before:])
        self._restart_timer(deadline)
        self.publish(self.committed_seq, log[before:])

    async def hint(self, seat: int) -> Advice:
        """The advisor's options for ``seat``'s decision now (recorded as a hint used).
        The solver is loaded (or built) first, outside the game's lock: the table's moves
        never wait for it, only this answer does."""
        session = self.session
        if session.hints_allowed and not session.solver_ready:
            await asyncio.to_thread(session.solver)
        async with self.lock:  # a move being saved is not shown, not even through advice
            return await asyncio.to_thread(session.hint, seat)

    async def review(self) -> list[PlayerReview]:
        async with self.lock:  # after the last move's commit
            return await asyncio.to_thread(self.session.review)

    # Bots and the timer --------------------------------------------------------------

    def schedule(self) -> None:
        """Start the bot's move or the turn timer for whoever is to act now (on the node
        that drives this table)."""
        self._restart_timer()
        seat = self.session.current
        if self.session.is_over or seat is None or not self.session.is_bot(seat):
            if self.bot_due is not None and self._bot is not None:
                self._bot.cancel()  # the placement it waited on was taken back
            return
        if not self.drives():
            return
        if self._bot is None or self._bot.done():
            if self.undo_wait and self.session.bot_waits:
                self.bot_due = time.time() + self.undo_wait
                self._going_on.clear()
            self._bot = asyncio.create_task(self._bot_move(seat))

    @property
    def resting(self) -> bool:
        """Whether nothing moves here until a player acts or the deadline passes: no
        bot is to move, no move is being saved or shown, no stand-in is playing."""
        seat = self.session.current
        bot_to_move = seat is not None and not self.session.is_over and self.session.is_bot(seat)
        tasks = (self._bot, *self._playing)
        return (
            not bot_to_move
            and not self.lock.locked()
            and all(task is None or task.done() for task in tasks)
        )

    def go_on(self, seat: int) -> None:
        """``seat``'s player goes on: the bot that waits while that player's placement may
        still be taken back plays now (nothing while no bot waits)."""
        events = self.session.game.event_log
        last = events[-1] if events else None
        if self.bot_due is not None and isinstance(last, Scored | Written) and last.player == seat:
            self._going_on.set()

    def close(self) -> None:
        for task in (self._bot, self._timer, *self._playing):
            if task is not None:
                task.cancel()

    def stop_driving(self) -> None:
        """Another node drives this table now: its bot and timer tasks stop here."""
        for task in (self._bot, self._timer, *self._playing):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        self._bot = self._timer = None

    async def _bot_move(self, seat: int) -> None:
        if self.bot_due is not None:  # its player may still take the placement back
            try:
                async with asyncio.timeout_at(_loop_time(self.bot_due)):
                    await self._going_on.wait()
            except TimeoutError:
                pass
            finally:
                self.bot_due = None
        await sleep_to_beat(self.bot_delay)  # with the other tables' bots: one wakeup
        async with self.lock:
            if self.session.current != seat or not self.session.is_bot(seat):
                return
            if not self.drives():  # the lease lapsed meanwhile (the fence)
                return
            if self.session.bot_decides_quickly(seat):  # no thread hop for microseconds
                try:
                    turn = await self._record(lambda: self._bot_turn(seat), None)
                except IllegalMove:
                    return  # played meanwhile (through another node)
                except Exception:
                    log.exception("a computer turn at seat %d could not be recorded", seat)
                    return
                await self._reveal(turn)
                quick = True
            else:
                action = await asyncio.to_thread(self.session.bot_action, seat)
                quick = False
        self._bot = None
        if quick:
            await self._after()
        else:
            await self._safely(action, seat)

    def _bot_turn(self, seat: int) -> BotTurn:
        """The rest of the bot's turn at ``seat``, applied in memory (each decision in
        microseconds: `GameSession.bot_decides_quickly`), every move with the game and the
        dice as they lie after it, to be shown one by one."""
        steps: list[Step] = []
        try:
            while not self._step(seat, self.session.bot_action(seat), steps):
                pass
        except Exception:
            self._take_back()  # none of the turn stays applied
            raise
        return BotTurn(tuple(steps))

    async def _stand_in_turn(self, seat: int) -> BotTurn:
        """Under the lock: the rest of ``seat``'s turn as the timer's stand-in plays it,
        applied in memory like a bot's (`_bot_turn`); each decision in a worker thread
        unless it takes microseconds (`GameSession.stand_in_decides_quickly`)."""
        session, steps = self.session, list[Step]()
        quick = session.stand_in_decides_quickly(seat)
        try:
            while True:
                if quick:
                    action = session.stand_in(seat)
                else:
                    action = await asyncio.to_thread(session.stand_in, seat)
                if self._step(seat, action, steps):
                    return BotTurn(tuple(steps))
        except BaseException:  # (cancelled too)
            self._take_back()  # none of the turn stays applied
            raise

    def _step(self, seat: int, action: Action, steps: list[Step]) -> bool:
        """One move of a turn played for ``seat``, applied in memory and added to
        ``steps`` with the game and the dice after it; whether the turn is over."""
        session = self.session
        move = session.apply(action, seat)
        tray = follow(steps[-1].tray if steps else self.tray, session.game, move.events)
        steps.append(Step(move.events, move.seq, session.game.state, tray))
        placed = any(isinstance(event, Scored | Written) for event in move.events)
        return placed or session.current != seat or session.is_over

    async def _reveal(self, turn: BotTurn) -> None:
        """Under the lock: the bot's turn, committed at once, shown move by move
        `bot_delay` apart (on the server's beat: `sleep_to_beat`), each with the game as
        it was then (what a connection made meanwhile is shown too); the next player's
        timer starts with the last move.
        Stopped (another node drives the table, or it closes): the turn is taken in at
        once, unshown, so that the game served is the one recorded."""
        last = len(turn.steps) - 1
        try:
            for i, step in enumerate(turn.steps):
                if i:
                    await sleep_to_beat(self.bot_delay)
                self._show(step)
                if i == last:
                    self._restart_timer()
                self.publish(step.seq, step.events)
        finally:
            if self.committed_seq != turn.seq:
                self._show(turn.steps[-1])

    def _show(self, step: Step) -> None:
        self.committed_seq, self.tray = step.seq, step.tray
        shown = step.seq != len(self.session.game.event_log)  # (else the game is the step's)
        self._shown, self._before = (step.seq, step.state) if shown else None, None

    def _restart_timer(self, deadline: float | None = None) -> None:
        """The turn timer for the decision now (a human's, in a game with a timer): kept
        if it already runs for this decision, else started afresh (or at ``deadline``,
        when the move was committed elsewhere); `deadline` says when it runs out.
        Only the node that drives the table runs it."""
        seat = self.session.current
        seq = len(self.session.game.event_log)
        wanted = (
            bool(self.turn_timer)
            and not self.session.is_over
            and seat is not None
            and not self.session.is_bot(seat)
        )
        key = (seq, seat) if wanted and seat is not None else None
        running = self._timer is not None and not self._timer.done()
        if key is not None and key == self._timer_key:
            if running or not self.drives():
                return
            deadline = self.deadline  # the same decision, now driven here
        else:
            timer = self._timer  # (one whose stand-in plays finishes the turn)
            if timer is not None and timer not in (asyncio.current_task(), *self._playing):
                timer.cancel()
            self._timer, self._timer_key, self.deadline = None, key, None
        if key is None or seat is None or not self.turn_timer:
            return
        recorded, self._recorded_deadline = self._recorded_deadline, None
        if deadline is None:
            deadline = recorded if recorded is not None else self.clock() + self.turn_timer
        self.deadline = deadline
        if self.drives() and not self.turn_by_turn:
            after = max(0.0, deadline - self.clock())
            self._timer = asyncio.create_task(self._expire(seat, seq, after))

    async def time_out(self) -> bool:
        """The timeout rule for the decision now, if its deadline has passed by the clock
        (the lobby's sweep calls it for a turn-by-turn game, which runs no timer task of
        its own): the stand-in plays the rest of the turn (`_play_for`). Whether it did."""
        key, deadline = self._timer_key, self.deadline
        if key is None or deadline is None or self.clock() < deadline or not self.drives():
            return False
        seq, seat = key
        return await self._play_for(seat, seq)

    async def _expire(self, seat: int, seq: int, after: float) -> None:
        """``seat``'s decision ``seq`` has ``after`` seconds: then the stand-in plays the
        rest of the turn."""
        await asyncio.sleep(after)
        task = asyncio.current_task()
        assert task is not None
        self._playing.add(task)
        try:
            await self._play_for(seat, seq)
        finally:
            self._playing.discard(task)

    async def _play_for(self, seat: int, seq: int) -> bool:
        """The turn timer ran out at ``seat``'s decision ``seq``: the stand-in plays the
        whole rest of the turn (every roll left and the placement), committed at once and
        shown at the bots' pace, each move marked as the timer's (`by_timer`), and kept
        for the player's return (`played_for`); then ``on_timed_out(seat)``. Whether it
        played."""
        async with self.lock:
            session = self.session
            if len(session.game.event_log) != seq or session.current != seat:
                return False  # played meanwhile
            if session.is_bot(seat) or not self.drives():
                return False
            base = self.committed_seq
            try:
                turn = await self._stand_in_turn(seat)
                if not await self._saved(base, None):
                    return False  # played through another node (caught up with)
            except IllegalMove:
                return False
            except Exception:
                log.exception("the turn timer's move at seat %d could not be recorded", seat)
                return False
            self._played_for.setdefault(seat, []).extend(turn.events)
            self._by_timer = range(base + 1, turn.seq + 1)
            await self._reveal(turn)
        await self._after()
        if self.on_timed_out is not None:
            await self.on_timed_out(seat)
        return True

    async def _safely(self, action: Action, seat: int) -> None:
        """A bot's move (decided in a worker thread): one that came too late changes
        nothing."""
        try:
            await self.act(action, seat)
        except IllegalMove:
            pass
        except Exception:
            log.exception("a computer move at seat %d could not be recorded", seat)


def _loop_time(when: float) -> float:
    """The event loop's time at the Unix time ``when``."""
    return asyncio.get_running_loop().time() + max(0.0, when - time.time())
