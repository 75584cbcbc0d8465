"""A game session served to many clients at once (asyncio): one action at a time, each
committed (together with other tables' actions) before it is published, bots paced, and a
turn timer that moves for a player who does not.

An action is applied in memory first and then committed; until the commit returns,
nobody may see it. :meth:`LiveGame.committed_game` is the game as committed (what a new
connection or a resync is shown); hints and the review wait for a commit under way.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from ..core import Action, Game, IllegalMove
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
        self.committed_seq = len(session.game.event_log)
        """The events the store holds (the game as loaded or started is committed)."""
        self.deadline: float | None = None
        """When the turn timer decides for the player to act (Unix time), if it runs."""
        self._before: Game | None = None
        self._bot: asyncio.Task[None] | None = None
        self._timer: asyncio.Task[None] | None = None
        self._timer_key: tuple[int, int] | None = None

    def committed_game(self) -> Game:
        """The game as the store holds it: without an action applied but not yet
        committed (one is between :meth:`act`'s apply and its commit)."""
        game = self.session.game
        if len(game.event_log) == self.committed_seq:
            return game
        before = self._before
        if before is None or len(before.event_log) != self.committed_seq:
            # rare (a resync while a commit is under way): rebuilt from the committed events
            before = self._before = Game.replay(game.event_log[: self.committed_seq])
        return before

    async def act(self, action: Action, seat: int) -> Move:
        """Check, commit, then publish one action of ``seat``; then let bots and the timer
        go on. Raises the engine's error (nothing changes) for an action not allowed now.

        Publishing never yields (it only queues messages), so moves go out in the order
        they were committed, and nobody's socket is waited for under the lock."""
        async with self.lock:
            move = self.session.apply(action, seat)
            try:
                await self.committer.commit(self.session)
            except Exception:
                # not recorded: take it back, so that nothing unrecorded is ever shown
                await asyncio.to_thread(self.session.reload)
                raise
            self.committed_seq = move.seq
            self._restart_timer()
        await self.publish(move)
        if self.session.is_over:
            async with self.lock:
                await asyncio.to_thread(self.session.finish)
                if self.on_over is not None:
                    await self.on_over()
        self.schedule()
        return move

    async def hint(self, seat: int | None) -> Advice:
        if seat is None:
            raise IllegalMove("Spectators cannot ask for hints.", code="spectator")
        async with self.lock:  # a move being saved is not shown, not even through advice
            return await asyncio.to_thread(self.session.hint, seat)

    async def review(self) -> list[PlayerReview]:
        async with self.lock:  # after the last move's commit
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
        """The turn timer for the decision now (a human's, in a game with a timer): kept
        if it already runs for this decision, else started afresh; :attr:`deadline` says
        when it runs out."""
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
        if key is not None and key == self._timer_key and running:
            return
        if self._timer is not None and self._timer is not asyncio.current_task():
            self._timer.cancel()
        self._timer, self._timer_key, self.deadline = None, key, None
        if key is None or seat is None or not self.turn_timer:
            return
        self.deadline = time.time() + self.turn_timer
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
