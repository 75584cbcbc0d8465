"""Bounded waits for the tests: what a test waits for either comes in time or the test
fails with a clear message; it never hangs."""

from __future__ import annotations

import asyncio
import queue
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO, Any, TypeVar

T = TypeVar("T")

POLL = 0.05


def wait_until(
    predicate: Callable[[], T], *, timeout: float, what: str, interval: float = POLL
) -> T:
    """Poll ``predicate`` every ``interval`` seconds until it returns something true, and
    return that; fail after ``timeout`` seconds. Only for states with no event to await."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"{what}: not within {timeout:g} s\n{threads_now()}")
        time.sleep(interval)


def threads_now() -> str:
    """Where each thread of this process is (its innermost frames): what a wait that ran
    out was waiting behind."""
    names = {thread.ident: thread.name for thread in threading.enumerate()}
    lines = []
    for ident, frame in sys._current_frames().items():
        stack = traceback.extract_stack(frame)[-4:]
        where = " <- ".join(f"{f.name} ({f.filename.rsplit('/', 1)[-1]}:{f.lineno})"
                            for f in reversed(stack))  # fmt: skip
        lines.append(f"  thread {names.get(ident, ident)}: {where}")
    return "threads:\n" + "\n".join(lines)


async def until(predicate: Callable[[], object], what: str, timeout: float) -> None:
    """On an event loop: poll ``predicate`` every 10 ms until it is true; fail after
    ``timeout`` seconds. Only for states with no event to await."""
    try:
        async with asyncio.timeout(timeout):
            while not predicate():
                await asyncio.sleep(0.01)
    except TimeoutError:
        raise AssertionError(f"not within {timeout:g} s: {what}") from None


class LineReader:
    """The lines a process writes to a pipe, read by a thread of their own, so that a test
    waits for the next one with a deadline. ``""`` is the end of the stream."""

    def __init__(self, stream: IO[str]) -> None:
        self._lines: queue.Queue[str] = queue.Queue()
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream: IO[str]) -> None:
        try:
            for line in stream:
                self._lines.put(line)
        except (OSError, ValueError):  # the pipe was closed under the reader
            pass
        finally:
            self._lines.put("")

    def next_line(self, timeout: float = 30.0) -> str:
        """The next line, or ``""`` at the end; fails after ``timeout`` seconds."""
        try:
            return self._lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no line from the process within {timeout:g} s") from None

    def rest(self, timeout: float = 30.0) -> list[str]:
        """Every line up to the end (the process has exited or been killed)."""
        lines: list[str] = []
        while line := self.next_line(timeout):
            lines.append(line)
        return lines


def end(proc: subprocess.Popen[Any]) -> None:
    """Kill ``proc`` if it still runs, reap it, and close its pipes."""
    if proc.poll() is None:
        proc.kill()
    try:
        proc.wait(timeout=30)
    finally:
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


@contextmanager
def ended(*procs: subprocess.Popen[Any]) -> Iterator[None]:
    """Every process in ``procs`` is killed and reaped on the way out, whatever happened."""
    try:
        yield
    finally:
        for proc in procs:
            end(proc)
