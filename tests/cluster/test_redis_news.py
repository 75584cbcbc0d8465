"""Two nodes' lobbies in one process, joined by a real Redis server: news flows, the
heartbeats see both nodes, and after Redis restarts they subscribe again and catch up
with what was committed meanwhile."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cluster.conftest import redis_prefix
from tests.services import LocalRedis, require
from yahtzee.core import Event, Keep, RuleSet
from yahtzee.service import ClusterLobby, RedisCluster, Table
from yahtzee.store import Store

WAIT_S = 15.0
TTL = 1.0


@pytest.fixture
def redis() -> Iterator[LocalRedis]:
    require("redis-server")
    with LocalRedis() as server:
        yield server


async def until(predicate: object, what: str) -> None:
    try:
        async with asyncio.timeout(WAIT_S):
            while not predicate():  # type: ignore[operator]
                await asyncio.sleep(0.02)
    except TimeoutError:
        raise AssertionError(f"{what}: not within {WAIT_S:g} s") from None


def test_news_through_redis_and_a_catch_up_after_redis_restarts(
    redis: LocalRedis, tmp_path: Path
) -> None:
    async def run() -> None:
        prefix = redis_prefix()
        seen: dict[str, list[int]] = {"a": [], "b": []}

        def recorder(name: str):  # type: ignore[no-untyped-def]
            def publish(table: Table, seq: int, events: tuple[Event, ...]) -> None:
                seen[name].extend(range(seq - len(events) + 1, seq + 1))

            return publish

        with Store(f"sqlite:///{tmp_path / 'site.db'}") as store:
            nodes = {
                n: RedisCluster(redis.url, n, prefix=prefix, lease_ttl=TTL) for n in ("a", "b")
            }
            lobbies = {
                n: ClusterLobby(store, recorder(n), seed=1, cluster=c) for n, c in nodes.items()
            }
            for name, cluster in nodes.items():
                await cluster.start(lobbies[name])
            try:
                await until(lambda: all(c.nodes == ("a", "b") for c in nodes.values()), "both live")
                table, token = await lobbies["a"].create("x", "Ann", [None], RuleSet.official())
                other = await lobbies["b"].by_invite(table.invite_token)
                await lobbies["b"].join(table.invite_token, "Bob")
                await lobbies["a"].start(table, token)
                await until(lambda: other.live is not None, "started on b too")
                assert table.live is not None and other.live is not None
                await table.live.act(Keep.NONE, 0)
                await until(lambda: seen["b"] == [2], "the roll reached b through Redis")

                redis.kill()
                await table.live.act(Keep.NONE, 0)  # committed while Redis is away
                redis.restart()
                await until(lambda: seen["b"] == [2, 3], "b caught up after Redis came back")
                assert other.live.session.game == table.live.session.game
                await until(lambda: all(c.nodes == ("a", "b") for c in nodes.values()), "beats")
            finally:
                for cluster in nodes.values():
                    await cluster.stop()

    asyncio.run(run())


class Heard:
    """A listener that keeps what it hears."""

    def __init__(self) -> None:
        self.news: list[dict[str, object]] = []

    async def on_message(self, message: dict[str, object]) -> None:
        self.news.append(message)

    async def on_tick(self, *, nodes_changed: bool) -> None:
        pass

    async def on_reconnect(self) -> None:
        pass


def test_news_queued_together_goes_out_in_few_messages_and_in_order(redis: LocalRedis) -> None:
    async def run() -> None:
        import redis.asyncio as aioredis

        prefix = redis_prefix()
        a, b = (RedisCluster(redis.url, n, prefix=prefix, lease_ttl=TTL) for n in ("a", "b"))
        heard_a, heard_b = Heard(), Heard()
        raw = aioredis.Redis.from_url(redis.url)
        watcher = raw.pubsub(ignore_subscribe_messages=True)
        await watcher.subscribe(a.channel)
        try:
            await a.start(heard_a)
            await b.start(heard_b)
            for i in range(600):  # one move after another, without yielding
                a.publish({"k": "ev", "t": "table", "i": i})
            await until(lambda: len(heard_b.news) >= 600, "every piece of news reached b")
            assert [n["i"] for n in heard_b.news] == list(range(600))
            assert all(n["n"] == "a" for n in heard_b.news)
            assert heard_a.news == []  # a node does not hear itself
            messages = 0
            deadline = asyncio.get_running_loop().time() + 1.0  # all sent by now: count them
            while asyncio.get_running_loop().time() < deadline:
                messages += await watcher.get_message(timeout=0.1) is not None
            assert 3 <= messages < 600 / 10, messages  # batches of at most BATCH (256)
        finally:
            await a.stop()
            await b.stop()
            await watcher.aclose()
            await raw.aclose()

    asyncio.run(run())
