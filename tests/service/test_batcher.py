"""Asks made at about the same time, answered together (`Batcher`)."""

from __future__ import annotations

import asyncio
import threading

import pytest

from yahtzee.service.batcher import Batcher

WAIT_S = 10.0


class Reader:
    """A read that records each batch it is given; ``bad`` keys make a batch fail."""

    def __init__(self, bad: frozenset[int] = frozenset(), missing: int | None = None) -> None:
        self.batches: list[list[int]] = []
        self.bad, self.missing = bad, missing
        self.entered = threading.Event()
        self.go_on = threading.Event()
        self.go_on.set()

    def __call__(self, keys: list[int]) -> dict[int, str]:
        self.batches.append(keys)
        self.entered.set()
        assert self.go_on.wait(WAIT_S)
        if self.bad & set(keys):
            raise ValueError(f"cannot read {sorted(self.bad & set(keys))}")
        return {k: f"value {k}" for k in keys if k != self.missing}


def run(test: object) -> None:
    asyncio.run(asyncio.wait_for(test, WAIT_S))  # type: ignore[arg-type]


def test_asks_made_together_are_read_together_up_to_most_at_once() -> None:
    async def go() -> None:
        read = Reader()
        batcher = Batcher(read, most=4)
        answers = await asyncio.gather(*(batcher.ask(k) for k in range(10)))
        assert answers == [f"value {k}" for k in range(10)]
        assert read.batches == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]

    run(go())


def test_a_bad_key_fails_its_own_ask_only() -> None:
    async def go() -> None:
        read = Reader(bad=frozenset({2}), missing=3)
        batcher = Batcher(read, most=8)
        answers = await asyncio.gather(*(batcher.ask(k) for k in range(5)), return_exceptions=True)
        assert answers[:2] == ["value 0", "value 1"] and answers[4] == "value 4"
        assert isinstance(answers[2], ValueError)
        assert isinstance(answers[3], KeyError)  # read, but not answered
        assert read.batches == [[0, 1, 2, 3, 4], [0], [1], [2], [3], [4]]

    run(go())


def test_asks_waiting_when_the_reading_stops_get_the_stopped_answer() -> None:
    async def go() -> None:
        read = Reader()
        read.go_on.clear()
        batcher: Batcher[int, str] = Batcher(read, most=2, stopped=lambda k: f"stopped {k}")
        asks = [asyncio.create_task(batcher.ask(k)) for k in range(3)]
        await asyncio.to_thread(read.entered.wait, WAIT_S)
        assert batcher._task is not None
        batcher._task.cancel()  # (the server stops)
        read.go_on.set()
        assert await asyncio.gather(*asks) == ["stopped 0", "stopped 1", "stopped 2"]

    run(go())


def test_an_ask_given_up_does_not_hold_up_the_others() -> None:
    async def go() -> None:
        read = Reader()
        read.go_on.clear()
        batcher = Batcher(read, most=4)
        first = asyncio.create_task(batcher.ask(1))
        second = asyncio.create_task(batcher.ask(2))
        await asyncio.to_thread(read.entered.wait, WAIT_S)
        first.cancel()
        read.go_on.set()
        assert await second == "value 2"
        with pytest.raises(asyncio.CancelledError):
            await first

    run(go())
