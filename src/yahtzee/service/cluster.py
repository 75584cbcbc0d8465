"""Several server nodes sharing one database and one Redis server.

The database is the record: every move is appended there under a compare-and-set on its
sequence number (`save_many`), so two nodes can never both write
one event. Redis only carries news between the nodes, and who is alive:

- after a commit, the node publishes the move on one channel; every other node that holds
  the table takes it in (`LiveGame.sync`) and forwards it to its connections. A node
  that missed a message (Redis gone for a moment) finds the gap at the next one, or at the
  periodic check against the database, and reads the missing events from there;
- each node renews a heartbeat in a sorted set (scored by Redis's own clock); a table's
  bots and turn timer run on the live node that rendezvous hashing picks for it
  (`owner`), so when a node dies the others take its tables over within about one
  lease. A node that cannot renew its heartbeat stops driving tables until it can. Two
  nodes that both think they drive a table cannot both move it: the sequence check lets
  only one write.

Without Redis the server is one node alone (`Cluster`): it drives every table and
has nobody to tell.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import time
from collections.abc import Sequence
from typing import Any, Protocol
from urllib.parse import urlsplit

from ..core import InvalidInput

log = logging.getLogger(__name__)

LEASE_TTL_S = 3.0
"""A node whose heartbeat is older than this is taken for dead."""
PREFIX = "yz:"
RETRY_S = 0.5
"""How long a node waits before it tries Redis again."""
BATCH = 256
"""News sent as one Redis message at most (those queued while the last one was sent)."""


class Listener(Protocol):
    """What a node's lobby hears from the cluster."""

    async def on_message(self, message: dict[str, Any]) -> None:
        """News from another node (a move, a lobby change, a chat line)."""

    async def on_tick(self, *, nodes_changed: bool) -> None:
        """Now and then (each heartbeat): check for missed news; take over the tables
        this node drives now."""

    async def on_reconnect(self) -> None:
        """News may have been missed while Redis was away: catch up."""


def owner(table_id: str, nodes: Sequence[str]) -> str | None:
    """The node that drives a table's bots and timer: the highest hash of (node, table)
    (rendezvous hashing: when a node goes, only its tables move)."""
    if not nodes:
        return None

    def weight(node: str) -> bytes:
        return hashlib.blake2b(f"{node}|{table_id}".encode(), digest_size=8).digest()

    return max(nodes, key=weight)


class Cluster:
    """One node alone: it drives every table and has nobody to tell."""

    clustered = False

    def __init__(self, node_id: str = "solo") -> None:
        self.node_id = node_id

    def owns(self, table_id: str) -> bool:
        return True

    def alive(self, node: str) -> bool:
        """Whether a node is live (as the last heartbeat saw)."""
        return node == self.node_id

    def publish(self, message: dict[str, Any]) -> None:
        """Tell the other nodes (never yields)."""

    async def start(self, listener: Listener) -> None:
        pass

    def check_reachable(self) -> None:
        """Raise `InvalidInput` if what the cluster needs does not answer (a node
        alone needs nothing)."""

    async def stop(self) -> None:
        pass


class RedisCluster(Cluster):
    """A node of several, joined through Redis (see the module's notes)."""

    clustered = True

    def __init__(
        self, url: str, node_id: str, *, prefix: str = PREFIX, lease_ttl: float = LEASE_TTL_S
    ) -> None:
        super().__init__(node_id)
        self.url = url
        self.prefix = prefix
        self.lease_ttl = lease_ttl
        self.nodes: tuple[str, ...] = ()
        """The live nodes, as the last heartbeat saw them."""
        self._fenced_at = 0.0
        """Until when (monotonic) this node's own heartbeat holds."""
        self._outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._redis: Any = None

    @property
    def channel(self) -> str:
        return f"{self.prefix}news"

    @property
    def members_key(self) -> str:
        return f"{self.prefix}nodes"

    def owns(self, table_id: str) -> bool:
        if time.monotonic() > self._fenced_at:
            return False  # our heartbeat may have lapsed: another node may drive it
        return owner(table_id, self.nodes) == self.node_id

    def alive(self, node: str) -> bool:
        return node in self.nodes

    def publish(self, message: dict[str, Any]) -> None:
        self._outbox.put_nowait({**message, "n": self.node_id})

    def check_reachable(self) -> None:
        """Ping Redis now (before the server starts): an `InvalidInput` that says
        where, without a password, when it does not answer."""
        import redis  # noqa: PLC0415 (only clustered servers need it)

        client = redis.Redis.from_url(
            self.url, socket_timeout=self.lease_ttl, socket_connect_timeout=self.lease_ttl
        )
        try:
            client.ping()
        except redis.RedisError as error:
            where = urlsplit(self.url)
            place = where.path if where.scheme == "unix" else f":{where.port or 6379}"
            shown = f"{where.scheme}://{where.hostname or ''}{place}"
            raise InvalidInput(
                f"Cannot reach Redis at {shown}: {error}. Is it running, and is the URL right?"
            ) from None
        finally:
            client.close()

    async def start(self, listener: Listener) -> None:
        import redis.asyncio as aioredis  # noqa: PLC0415 (only clustered servers need it)

        self._redis = aioredis.Redis.from_url(
            self.url, socket_timeout=self.lease_ttl, socket_connect_timeout=self.lease_ttl
        )
        await self._beat(listener)  # the first heartbeat before serving
        subscribed = asyncio.Event()
        self._tasks = [
            asyncio.create_task(self._send()),
            asyncio.create_task(self._listen(listener, subscribed)),
            asyncio.create_task(self._heartbeat(listener)),
        ]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(subscribed.wait(), self.lease_ttl)

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._redis is not None:
            with contextlib.suppress(Exception):  # leave at once: the others take over
                await self._redis.zrem(self.members_key, self.node_id)
            await self._redis.aclose()

    async def _send(self) -> None:
        """Publish queued news in order: what queued meanwhile goes out as one message
        (``{"n": node, "b": [news, ...]}``, at most `BATCH` news), so that the
        other nodes parse one Redis message for many moves."""
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty() and len(batch) < BATCH:
                batch.append(self._outbox.get_nowait())
            text = json.dumps(
                batch[0] if len(batch) == 1 else {"n": self.node_id, "b": batch},
                separators=(",", ":"),
            )
            try:
                await self._redis.publish(self.channel, text)
            except Exception as error:  # the others catch up from the database
                log.warning("publishing to Redis failed (%s); %d messages lost", error, len(batch))
                await asyncio.sleep(RETRY_S)

    async def _listen(self, listener: Listener, subscribed: asyncio.Event) -> None:
        """Hear the other nodes; after Redis comes back, subscribe again and catch up."""
        first = True
        while True:
            pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel)
                subscribed.set()
                if not first:
                    await listener.on_reconnect()
                first = False
                while True:
                    raw = await pubsub.get_message(timeout=1.0)
                    if raw is None or raw.get("type") != "message":
                        continue
                    message = json.loads(raw["data"])
                    if not isinstance(message, dict) or message.get("n") == self.node_id:
                        continue
                    batch = message.get("b")
                    for news in batch if isinstance(batch, list) else [message]:
                        if isinstance(news, dict):
                            await listener.on_message(news)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("listening to Redis failed (%s); trying again", error)
                await asyncio.sleep(RETRY_S)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    async def _heartbeat(self, listener: Listener) -> None:
        while True:
            await asyncio.sleep(self.lease_ttl / 3)
            try:
                await self._beat(listener)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("the heartbeat to Redis failed (%s)", error)

    async def _beat(self, listener: Listener) -> None:
        """Renew this node's heartbeat (by Redis's clock), see who else lives, and let
        the lobby take over what this node drives now."""
        started = time.monotonic()
        seconds, micros = await self._redis.time()
        now_ms = int(seconds) * 1000 + int(micros) // 1000
        ttl_ms = int(self.lease_ttl * 1000)
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.zadd(self.members_key, {self.node_id: now_ms})
            pipe.zremrangebyscore(self.members_key, "-inf", now_ms - 20 * ttl_ms)
            pipe.zrangebyscore(self.members_key, now_ms - ttl_ms, "+inf")
            _, _, members = await pipe.execute()
        self._fenced_at = started + self.lease_ttl
        nodes = tuple(sorted(m.decode() if isinstance(m, bytes) else str(m) for m in members))
        changed = nodes != self.nodes
        self.nodes = nodes
        await listener.on_tick(nodes_changed=changed)


__all__ = ["LEASE_TTL_S", "Cluster", "Listener", "RedisCluster", "owner"]
