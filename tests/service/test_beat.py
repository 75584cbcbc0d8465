"""The server's beat (`service.beat`): paced waits end on a shared beat, never early."""

from __future__ import annotations

import asyncio

from hypothesis import given
from hypothesis import strategies as st

from yahtzee.service.beat import BEAT_S, next_beat, sleep_to_beat

WAIT_S = 10.0

times = st.floats(min_value=0.0, max_value=1e7, allow_nan=False)
delays = st.floats(min_value=1e-6, max_value=30.0, allow_nan=False)


@given(times, delays)
def test_a_paced_wait_ends_on_the_first_beat_after_it(now: float, delay: float) -> None:
    when = next_beat(now, delay)
    assert when >= now + delay  # never early
    assert when < now + delay + BEAT_S + 1e-6  # at most one beat late
    beats = when / BEAT_S
    assert abs(beats - round(beats)) < 1e-6  # on a beat


@given(times)
def test_no_delay_is_no_wait(now: float) -> None:
    assert next_beat(now, 0.0) == now


def test_waits_begun_apart_within_a_beat_end_together() -> None:
    """Two tables' bots that start waiting 10 ms apart wake in the same turn of the loop:
    the server wakes once for both."""

    async def main() -> tuple[list[float], list[float], list[int]]:
        loop = asyncio.get_running_loop()
        # start just after a beat, so that both waits' first beat is the same one
        await asyncio.sleep(next_beat(loop.time(), 1e-3) + 1e-3 - loop.time())
        began: list[float] = []
        woke: list[float] = []
        turns: list[int] = []  # the turn of the loop each woke in
        turn = 0

        def count() -> None:  # runs once in every turn of the loop
            nonlocal turn
            turn += 1
            if len(woke) < 2:
                loop.call_soon(count)

        async def wait() -> None:
            began.append(loop.time())
            await sleep_to_beat(0.1)
            woke.append(loop.time())
            turns.append(turn)

        first = asyncio.create_task(wait())
        await asyncio.sleep(0.01)
        second = asyncio.create_task(wait())
        loop.call_soon(count)
        await asyncio.wait_for(asyncio.gather(first, second), WAIT_S)
        return began, woke, turns

    began, woke, turns = asyncio.run(main())
    assert all(w - b >= 0.1 - 1e-9 for b, w in zip(began, woke, strict=True))
    assert next_beat(began[0], 0.1) == next_beat(began[1], 0.1)
    assert turns[0] == turns[1] > 1  # the same turn of the loop, not merely close


def test_an_unpaced_wait_only_yields() -> None:
    async def main() -> bool:
        other = asyncio.Event()
        asyncio.get_running_loop().call_soon(other.set)
        await asyncio.wait_for(sleep_to_beat(0.0), WAIT_S)
        return other.is_set()

    assert asyncio.run(main())


def test_a_cancelled_wait_leaves_no_timer() -> None:
    async def main() -> int:
        loop = asyncio.get_running_loop()
        task = asyncio.create_task(sleep_to_beat(5.0))
        await asyncio.sleep(0)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        return len(loop._scheduled)  # type: ignore[attr-defined]

    assert asyncio.run(main()) == 0
