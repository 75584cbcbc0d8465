"""The terminal game's background threads: daemon threads, so that quitting never waits.

Work handed to a thread (the solver loading, the room's hints and bots, the win meter,
the review: ``asyncio.to_thread`` in async workers) runs on the event loop's default
executor, and Python waits for that executor's threads before
the program ends: quitting while a rule set's tables were still being built left a blank
terminal for as long as the build took (about 20 s). Here each piece of work gets a daemon
thread of its own, which does not hold the program up; what it was writing is written
atomically (the solver's cache), so nothing half-done is left behind.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


class DaemonThreads(ThreadPoolExecutor):
    """An executor that runs each call on a new daemon thread and never waits on shutdown
    (the few calls a player's actions make do not need a pool; asyncio takes only a
    ThreadPoolExecutor as a loop's default, whose own threads are never started here)."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        future: Future[T] = Future()

        def run() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                result = fn(*args, **kwargs)
            except BaseException as error:
                future.set_exception(error)
            else:
                future.set_result(result)

        threading.Thread(target=run, name="yahtzee-work", daemon=True).start()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Nothing to wait for: the threads end with the program."""


__all__ = ["DaemonThreads"]
