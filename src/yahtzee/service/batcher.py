"""The same question asked by many at about the same time, answered together: a crowd (a
dead node's tables and their pages, say) costs a few reads of the records, not one each."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Batcher(Generic[K, V]):
    """Each `ask` waits for its key's answer. The keys asked while a batch is being read
    go into the next one, up to ``most`` at once. ``read`` answers a list of keys with a
    dict that holds each of them (a worker thread's job). A batch whose reading fails is
    read again one key at a time, so that a bad key fails only its own asks. When the
    reading is cancelled (the server stops), whoever still waits gets ``stopped(key)``
    (raised if it is an exception)."""

    def __init__(
        self,
        read: Callable[[list[K]], dict[K, V]],
        most: int,
        stopped: Callable[[K], V | BaseException] = lambda key: asyncio.CancelledError(),
    ) -> None:
        self.read = read
        self.most = most
        self.stopped = stopped
        self._pending: list[tuple[K, asyncio.Future[V]]] = []
        self._task: asyncio.Task[None] | None = None

    async def ask(self, key: K) -> V:
        done: asyncio.Future[V] = asyncio.get_running_loop().create_future()
        self._pending.append((key, done))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run())
        return await done

    async def _run(self) -> None:
        while self._pending:
            batch = self._pending[: self.most]
            del self._pending[: self.most]
            try:
                found = await asyncio.to_thread(self.read, [key for key, _ in batch])
            except Exception:  # one bad key must not fail the others: one by one
                for key, done in batch:
                    try:
                        alone = await asyncio.to_thread(self.read, [key])
                        _answer(done, key, alone)
                    except Exception as error:
                        _settle(done, error)
                continue
            except BaseException:  # stopping: nobody waits forever
                for key, done in batch + self._pending:
                    _settle(done, self.stopped(key))
                self._pending.clear()
                raise
            for key, done in batch:
                _answer(done, key, found)


def _answer(done: asyncio.Future[V], key: K, found: dict[K, V]) -> None:
    _settle(done, found[key] if key in found else KeyError(f"no answer for {key!r}"))


def _settle(done: asyncio.Future[V], outcome: V | BaseException) -> None:
    if done.done():  # (its asker gave up)
        return
    if isinstance(outcome, BaseException):
        done.set_exception(outcome)
    else:
        done.set_result(outcome)


__all__ = ["Batcher"]
