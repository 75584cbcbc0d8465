"""How a live game's moves are committed (`Committer`): the group commit of a server's
tables, the sessions that ask at about the same time saved in one transaction
(`Store.save_many`), each as a compare-and-set; or a game played in one process alone
(the terminal, plain mode), each move saved at once (`LocalCommit`)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Protocol

from ..store import SAVED, Commit, Outcome, Store

if TYPE_CHECKING:
    from .session import GameSession


class Committer(Protocol):
    """What commits a live game's moves (see the module's notes)."""

    async def commit(self, session: GameSession, base: int, intent: str | None = None) -> Outcome:
        """The outcome once the session's events after ``base`` are committed, or found
        in conflict (raise if they cannot be saved)."""

    def close(self) -> None: ...


class LocalCommit:
    """The moves of a game played in this process alone (the terminal, plain mode): each
    saved at once on the caller's thread (a local database's write, a millisecond; none
    for a game not recorded), never in conflict with another writer."""

    async def commit(self, session: GameSession, base: int, intent: str | None = None) -> Outcome:
        session.save()
        return Outcome(SAVED, len(session.game.event_log))

    def close(self) -> None:
        pass


class GroupCommit:
    """Saves the sessions that ask at about the same time in one transaction, so that
    many tables do not queue on the database's write lock one by one. Each is written
    only if the records still end where its move began (see `Store.save_many`)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._pending: list[tuple[Commit, asyncio.Future[Outcome]]] = []
        self._task: asyncio.Task[None] | None = None
        # its own thread: commits never queue behind other work in the default pool
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="group-commit")

    async def _save(self, commits: list[Commit]) -> dict[str, Outcome]:
        if self.store.saves_on_loop:  # PostgreSQL: no thread hop per batch
            return await self.store.save_many_on_loop(commits)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, self.store.save_many, commits)

    def close(self) -> None:
        self._thread.shutdown(wait=False)

    async def commit(self, session: GameSession, base: int, intent: str | None = None) -> Outcome:
        """The outcome once the session's events after ``base`` are committed, or found
        in conflict (raise if they cannot be saved)."""
        assert session.game_id is not None
        done: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
        self._pending.append((Commit(session.game_id, session.game, base, intent), done))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run())
        return await done

    async def _run(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                outcomes = await self._save([c for c, _ in batch])
            except Exception:  # one bad game must not fail the others: save one by one
                for commit, done in batch:
                    try:
                        alone = await self._save([commit])
                        _answer(done, alone[commit.game_id])
                    except Exception as error:
                        if not done.done():
                            done.set_exception(error)
                continue
            for commit, done in batch:
                _answer(done, outcomes[commit.game_id])


def _answer(done: asyncio.Future[Outcome], outcome: Outcome) -> None:
    """A commit's outcome to its caller, unless the caller went meanwhile (its wait
    cancelled: a closed connection, a node stopping): the batch's other games are still
    answered, and the next batches still run."""
    if not done.done():
        done.set_result(outcome)


__all__ = ["Committer", "GroupCommit", "LocalCommit"]
