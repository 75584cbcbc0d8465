"""A game session served to many clients at once (asyncio): one action at a time, each
committed (together with other tables' actions) before it is published, bots paced, and a
turn timer that moves for a player who does not.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from ..core import Action, IllegalMove
from ..store import Store
from .session import GameSession, Move

if TYPE_CHECKING:
    from ..solver import Advice
    from ..solver.review import PlayerReview

log = logging.getLogger(__name__)

Publish = Callable[[Move], Awaitable[None]]
"""Called with each committed move, in order (the server broadcasts it)."""


class GroupCommit:
    """Saves the sessions that ask at about the same time in one transaction, so that
    many tables do not queue on the database's write lock one by one."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._pending: list[tuple[GameSession, asyncio.Future[None]]] = []
        self._task: asyncio.Task[None] | None = None

    async def commit(self, session: GameSession) -> None:
        """Return once the session's new events are committed (raise if they cannot be)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((session, done))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run())
        await done

    async def _run(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            latest = {s.game_id: s.game for s, _ in batch if s.game_id is not None}
            try:
                await asyncio.to_thread(self.store.save_many, list(latest.items()))
            except Exception:  # one bad game must not fail the others: save one by one
                for session, done in batch:
                    try:
                        await asyncio.to_thread(session.save)
                        done.set_result(None)
                    except Exception as error:
                        done.set_exception(error)
                continue
            for _, done in batch:
                done.set_result(None)


class LiveGame:
    """One served game: its actions in order, its bots and its turn timer."""

    def __init__(
        self,
        session: GameSession,
        committer: GroupCommit,
        publish: Publish,
        *,
        bot_delay: float = 0.0,
        turn_timer: float | None = None,
        on_over: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.session = session
        self.committer = committer
        self.publish = publish
        self.bot_delay = bot_delay
        self.turn_timer = turn_timer
        self.on_over = on_over
        self.lock = asyncio.Lock()
        self._bot: asyncio.Task[None] | None = None
        self._timer: asyncio.Task[None] | None = None

    async def act(self, action: Action, seat: int) -> Move:
        """Check, commit, then publish one action of ``seat``; then let bots and the timer
        go on. Raises the engine's error (nothing changes) for an action not allowed now."""
        async with self.lock:
            move = self.session.apply(action, seat)
            try:
                await self.committer.commit(self.session)
            except Exception:
                # not recorded: take it back, so that nothing unrecorded is ever shown
                await asyncio.to_thread(self.session.reload)
                raise
            if self.session.is_over:
                await asyncio.to_thread(self.session.finish)
                if self.on_over is not None:
                    await self.on_over()
            await self.publish(move)
        self.schedule()
        return move

    async def hint(self, seat: int | None) -> Advice:
        if seat is None:
            raise IllegalMove("Spectators cannot ask for hints.", code="spectator")
        return await asyncio.to_thread(self.session.hint, seat)

    async def review(self) -> list[PlayerReview]:
        return await asyncio.to_thread(self.session.review)

    # Bots and the timer --------------------------------------------------------------

    def schedule(self) -> None:
        """Start the bot's move or the turn timer for whoever is to act now."""
        self._restart_timer()
        seat = self.session.current
        if self.session.is_over or seat is None or not self.session.is_bot(seat):
            return
        if self._bot is None or self._bot.done():
            self._bot = asyncio.create_task(self._bot_move(seat))

    def close(self) -> None:
        for task in (self._bot, self._timer):
            if task is not None:
                task.cancel()

    async def _bot_move(self, seat: int) -> None:
        await asyncio.sleep(self.bot_delay)
        async with self.lock:
            if self.session.current != seat or not self.session.is_bot(seat):
                return
            action = await asyncio.to_thread(self.session.bot_action, seat)
        self._bot = None
        await self._safely(action, seat)

    def _restart_timer(self) -> None:
        if self._timer is not None and self._timer is not asyncio.current_task():
            self._timer.cancel()
        self._timer = None
        seat = self.session.current
        if not self.turn_timer or self.session.is_over or seat is None:
            return
        if self.session.is_bot(seat):
            return
        seq = len(self.session.game.event_log)
        self._timer = asyncio.create_task(self._expire(seat, seq, self.turn_timer))

    async def _expire(self, seat: int, seq: int, after: float) -> None:
        await asyncio.sleep(after)
        async with self.lock:
            game = self.session.game
            if len(game.event_log) != seq or game.current_player != seat:
                return
            action = await asyncio.to_thread(self.session.stand_in, seat)
        await self._safely(action, seat)

    async def _safely(self, action: Action, seat: int) -> None:
        """A bot's or the timer's move: one that came too late changes nothing."""
        try:
            await self.act(action, seat)
        except IllegalMove:
            pass
        except Exception:
            log.exception("a computer move at seat %d could not be recorded", seat)
