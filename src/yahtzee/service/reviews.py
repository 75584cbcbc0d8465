"""Finished games' reviews, made at low priority.

A finished game's review (each human's decisions against the optimal ones, kept with
its record for the statistics) costs a node more than any move. It is not made at the
moment the game ends, when the table's players, and often every other table's, are
acting: `Reviews` makes them one at a time in a worker thread, each after a pause, so
that a burst of games ending together never stands ahead of anyone's intent. A player
who asks for the review (the ``review`` intent) gets it at once, computed then.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import TYPE_CHECKING, Final, Protocol

if TYPE_CHECKING:
    from .session import GameSession

log = logging.getLogger(__name__)

PAUSE_S: Final = 0.05
"""The pause before each review (the event loop serves what waits meanwhile)."""


class Reviewer(Protocol):
    """Where a live game's review is made once it ends (`LiveGame`)."""

    def later(self, session: GameSession) -> None:
        """Review this finished game (never waits)."""


class ReviewedWhenShown:
    """A game played in one process alone (the terminal): its game-over screen makes the
    review as it shows it (and keeps it with the record), so nothing is made here."""

    def later(self, session: GameSession) -> None:
        pass


class Reviews:
    """The reviews still to make, made one after another (see the module's notes)."""

    def __init__(self, pause: float = PAUSE_S) -> None:
        self.pause = pause
        self._waiting: deque[GameSession] = deque()
        self._task: asyncio.Task[None] | None = None
        self.made = 0

    def later(self, session: GameSession) -> None:
        """Review this finished game when there is time (never waits)."""
        self._waiting.append(session)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run())

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    async def _run(self) -> None:
        while self._waiting:
            await asyncio.sleep(self.pause)
            session = self._waiting.popleft()
            try:
                await asyncio.to_thread(session.finish)
                self.made += 1
            except Exception:
                log.exception("the review of game %s could not be recorded", session.game_id)

    async def drain(self) -> None:
        """Until every review waiting is made (tests, and a server that stops)."""
        while self._task is not None and not self._task.done():
            await asyncio.shield(self._task)

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()


__all__ = ["PAUSE_S", "ReviewedWhenShown", "Reviewer", "Reviews"]
