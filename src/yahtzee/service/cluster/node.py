"""A node of several, joined through Redis: its heartbeat and card, and the ownership
leases of the tables it serves.

Each live table has exactly one owner node, which alone applies its intents, runs its
bots and timer and sends its events; the others keep nothing of it and relay what reaches
them (`Elsewhere`). Ownership is a lease in Redis (`Keys.lease`, valued with the owner's
`Incarnation`), claimed with ``SET NX`` when a node is first asked for a table nobody
holds, and renewed at each heartbeat, all of a node's leases in one script. A node whose
heartbeat could not be renewed in time stops driving its tables (the fence) until it
can; a lease found lost is let go at once (`Listener.on_lost`). The records' sequence
compare-and-set stays the last guard: two nodes that both think they own a table cannot
both write one event.

When a node dies its heartbeat ages; after `LEASE_TTL_S` the others see it dead, and
each takes over (`Listener.on_adopt`) the dead node's tables that rendezvous hashing
(`preferred`) gives it, so every one of them moves again within about one lease and a
heartbeat.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import inspect
import logging
import secrets
import threading
import time
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlsplit

from ...core import InvalidInput
from . import Cluster, Elsewhere, Listener
from .wire import Incarnation, Keys, NodeCard

log = logging.getLogger(__name__)
_T = TypeVar("_T")

LEASE_TTL_S = 1.5
"""A lease not renewed for this long lapses; a node whose heartbeat is older is dead."""
PREFIX = "yz:"
CLAIMS_AT_ONCE = 256
"""Claims sent to Redis in one script call at most."""
REDIS_CONNECTIONS = 32
"""Connections to Redis the event loop uses at most (more requests wait for one)."""
FORGET_AFTER = 20
"""A dead node whose tables were all taken over is forgotten after this many leases."""

_CLAIM = """
local me, ttl, out = ARGV[1], ARGV[2], {}
for i = 2, #KEYS do
  local holder = redis.call('GET', KEYS[i])
  if holder == me then
    redis.call('PEXPIRE', KEYS[i], ttl)
  elseif not holder then
    redis.call('SET', KEYS[i], me, 'PX', ttl)
    redis.call('SADD', KEYS[1], ARGV[i + 1])
    holder = me
  end
  out[#out + 1] = holder
end
return out
"""
_RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  else
    lost[#lost + 1] = i
  end
end
return lost
"""
_LET_GO = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
redis.call('SREM', KEYS[2], ARGV[2])
return 1
"""


@dataclass(frozen=True, slots=True)
class _Beat:
    """What one heartbeat found: Redis's time, the relay key, every node's heartbeat
    and card, and the leases found lost."""

    now_ms: int
    relay_key: str
    members: list[tuple[Any, float]]
    cards: dict[Any, Any]
    lost: list[str]


_Claim = tuple[str, Incarnation | None, asyncio.Future[bytes | str]]
"""A claim waiting for its batch: the table, the dead owner it is taken from, the answer."""


def preferred(table_id: str, nodes: Sequence[str]) -> str | None:
    """The node that takes a table over when its owner dies: the highest hash of (node,
    table) (rendezvous hashing: when a node goes, only its tables move)."""
    if not nodes:
        return None

    def weight(node: str) -> bytes:
        return hashlib.blake2b(f"{node}|{table_id}".encode(), digest_size=8).digest()

    return max(nodes, key=weight)


class RedisCluster(Cluster):
    """A node of several (see the module's notes)."""

    clustered = True

    def __init__(
        self,
        url: str,
        node_id: str,
        *,
        address: str,
        prefix: str = PREFIX,
        lease_ttl: float = LEASE_TTL_S,
    ) -> None:
        """``address``: where the other nodes reach this one (``host:port``)."""
        super().__init__(node_id)
        self.url = url
        self.keys = Keys(prefix)
        self.lease_ttl = lease_ttl
        self.me = Incarnation.fresh(node_id)
        self.card = NodeCard(self.me, address)
        self.owned: set[str] = set()
        """The tables whose lease this node holds."""
        self.alive: dict[str, NodeCard] = {}
        """The live nodes' cards, as the last heartbeat saw them (by incarnation)."""
        self._fenced_at = 0.0
        """Until when (monotonic) this node's last renewal holds."""
        self._tasks: list[asyncio.Task[None]] = []
        self._redis: Any = None
        self._scripts: dict[str, Any] = {}
        self._claims: list[_Claim] = []
        self._claiming: asyncio.Task[None] | None = None
        self._renewer: Any = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self.relay_key = ""
        """The site's secret that marks a request as relayed by one of its nodes (drawn by
        the first node to start, read by the others)."""

    @property
    def ttl_ms(self) -> int:
        return int(self.lease_ttl * 1000)

    def owns(self, table_id: str) -> bool:
        return table_id in self.owned and time.monotonic() < self._fenced_at

    def _options(self, pool: type) -> dict[str, Any]:
        """The options of every Redis connection (from a ``pool`` class of redis-py's,
        threaded or asyncio): a lease's time to connect and to answer, and no
        maintenance-notification handshake. redis-py 7 and later ask for one at each new
        RESP3 connection; a server without it refuses, and the refusal left an exception
        with its traceback to the garbage collector each time.

        The asyncio pool gets no ``socket_timeout`` (redis-py 8 defaults it to 5 s): with
        one, redis-py sends each command under ``asyncio.wait_for``, which on Python 3.11
        swallows a cancellation that comes as the send completes, so a task stopped
        mid-command went on (a node's stop waited forever for its heartbeat's listener).
        Its answers are bounded by `_ask` instead."""
        from redis.asyncio import ConnectionPool  # noqa: PLC0415 (only clustered servers need it)

        answer = None if issubclass(pool, ConnectionPool) else self.lease_ttl
        options: dict[str, Any] = {
            "socket_timeout": answer, "socket_connect_timeout": self.lease_ttl,
        }  # fmt: skip
        if "maint_notifications_config" not in inspect.signature(pool).parameters:
            return options  # an older redis-py (or its asyncio side), which never asks
        from redis.maint_notifications import MaintNotificationsConfig  # noqa: PLC0415

        return options | {"maint_notifications_config": MaintNotificationsConfig(enabled=False)}

    async def _ask(self, call: Awaitable[_T]) -> _T:
        """A Redis command (or a pipeline's execution) from the event loop, answered
        within a lease, or `redis.TimeoutError` (a `RedisError`, as a socket's timeout
        would raise)."""
        import redis  # noqa: PLC0415 (loaded by now)

        try:
            async with asyncio.timeout(self.lease_ttl):
                return await call
        except TimeoutError:
            raise redis.TimeoutError(f"Redis did not answer within {self.lease_ttl:g} s") from None

    def check_reachable(self) -> None:
        """Ping Redis now (before the server starts): an `InvalidInput` that says
        where, without a password, when it does not answer."""
        import redis  # noqa: PLC0415 (only clustered servers need it)

        client = redis.Redis.from_url(self.url, **self._options(redis.ConnectionPool))
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
        import redis  # noqa: PLC0415 (only clustered servers need it)
        import redis.asyncio as aioredis  # noqa: PLC0415

        # a crowd of claims (a dead node's clients reconnecting at once) waits its turn
        # for a connection instead of failing with "too many connections"
        pool = aioredis.BlockingConnectionPool.from_url(
            self.url, max_connections=REDIS_CONNECTIONS, timeout=self.lease_ttl,
            **self._options(aioredis.ConnectionPool),
        )  # fmt: skip
        self._redis = aioredis.Redis(connection_pool=pool)
        self._renewer = redis.Redis.from_url(self.url, **self._options(redis.ConnectionPool))
        for name, text in (("claim", _CLAIM), ("release", _RELEASE)):
            self._scripts[name] = self._redis.register_script(text)
        loop = asyncio.get_running_loop()
        await self._after_beat(listener, await asyncio.to_thread(self._renew))  # before serving
        beats: asyncio.Queue[_Beat] = asyncio.Queue()
        self._tasks = [asyncio.create_task(self._hear(listener, beats))]
        self._thread = threading.Thread(
            target=self._renewing, args=(loop, beats), name="yahtzee-leases", daemon=True
        )
        self._thread.start()

    async def stop(self) -> None:
        """Leave at once: every lease let go and this node marked dead, so that at their
        next heartbeat the others take over its tables (those still in play move on)."""
        self._stopping.set()
        if self._thread is not None:
            await asyncio.to_thread(self._thread.join, self.lease_ttl * 2)
        tasks = [*self._tasks, *([self._claiming] if self._claiming is not None else [])]
        for task in tasks:
            task.cancel()
        if tasks:  # (bounded all the same: a task that swallowed its cancel would hang here)
            _, stuck = await asyncio.wait(tasks, timeout=self.lease_ttl * 2)
            for task in stuck:
                log.warning("%s did not stop when cancelled", task.get_coro())
        if self._renewer is not None:
            self._renewer.close()
        if self._redis is None:
            return
        held = sorted(self.owned)
        self.owned.clear()
        # (bounded: a node that stops never waits on Redis for long; what it leaves
        # behind lapses within a lease)
        with contextlib.suppress(Exception):
            async with asyncio.timeout(self.lease_ttl * 2):
                seconds, micros = await self._redis.time()
                silent = int(seconds) * 1000 + int(micros) // 1000 - self.ttl_ms - 1  # dead now
                async with self._redis.pipeline(transaction=True) as pipe:
                    for table_id in held:
                        pipe.eval(_LET_GO, 1, self.keys.lease(table_id), self.me.encode())
                    pipe.zadd(self.keys.nodes, {self.me.encode(): silent})
                    await pipe.execute()
        with contextlib.suppress(Exception):
            async with asyncio.timeout(self.lease_ttl * 2):
                await self._redis.aclose()

    # Leases --------------------------------------------------------------------------

    async def claim(self, table_id: str, previous: Incarnation | None = None) -> Elsewhere | None:
        """Hold the table's lease (renewed if this node holds it already): None; or where
        it is served, if another node holds it (nowhere known if Redis did not answer).
        ``previous``: the dead owner it is taken over from.

        Claims asked for at about the same time go to Redis in one script call: a crowd
        of clients reconnecting after a node died costs one round trip per batch, not
        one connection each."""
        done: asyncio.Future[bytes | str] = asyncio.get_running_loop().create_future()
        self._claims.append((table_id, previous, done))
        if self._claiming is None or self._claiming.done():
            self._claiming = asyncio.create_task(self._claim_batches())
        answer = await done
        if not answer:  # not known now who holds it
            return Elsewhere(table_id)
        holder = Incarnation.decode(answer)
        if holder == self.me:
            return None
        card = self.alive.get(holder.encode())
        return Elsewhere(table_id, holder.node, card.address if card is not None else None)

    async def _claim_batches(self) -> None:
        import redis  # noqa: PLC0415 (loaded by now)

        while self._claims:
            batch, self._claims = self._claims[:CLAIMS_AT_ONCE], self._claims[CLAIMS_AT_ONCE:]
            try:
                holders = await self._claim_all(batch)
            except redis.RedisError as error:  # not known now who holds them: try again
                log.warning("claiming %d tables failed (%s)", len(batch), error)
                _unanswered(batch)
                continue
            except BaseException:  # stopping: nobody waits forever
                _unanswered(batch + self._claims)
                raise
            for (_, _, done), holder in zip(batch, holders, strict=True):
                if not done.done():
                    done.set_result(holder)

    async def _claim_all(self, batch: list[_Claim]) -> list[Any]:
        me = self.me.encode()
        ids = [table_id for table_id, _, _ in batch]
        keys = [self.keys.owned(self.me), *map(self.keys.lease, ids)]
        holders: list[Any] = await self._ask(
            self._scripts["claim"](keys=keys, args=[me, self.ttl_ms, *ids])
        )
        won = [(t, p) for (t, p, _), h in zip(batch, holders, strict=True) if _text(h) == me]
        self.owned.update(t for t, _ in won)
        taken_over = [(t, p) for t, p in won if p is not None]
        if taken_over:  # crossed off the dead owners' lists
            async with self._redis.pipeline(transaction=False) as pipe:
                for table_id, previous in taken_over:
                    pipe.srem(self.keys.owned(previous), table_id)
                await self._ask(pipe.execute())
        return holders

    async def release(self, table_id: str) -> None:
        """Let go of a table's lease (another node may claim it at once)."""
        self.owned.discard(table_id)
        await self._ask(
            self._scripts["release"](
                keys=[self.keys.lease(table_id), self.keys.owned(self.me)],
                args=[self.me.encode(), table_id],
            )
        )

    # The heartbeat -------------------------------------------------------------------

    def _renewing(self, loop: asyncio.AbstractEventLoop, beats: asyncio.Queue[_Beat]) -> None:
        """The heartbeat's own thread: renewals keep their time however busy the event
        loop is (a node serving at its limit must not lose its leases for it)."""
        while not self._stopping.wait(self.lease_ttl / 3):
            try:
                beat = self._renew()
            except Exception as error:
                log.warning("the heartbeat to Redis failed (%s)", error)
                continue
            try:
                loop.call_soon_threadsafe(beats.put_nowait, beat)
            except RuntimeError:  # the loop has closed: the server is stopping
                return

    def _renew(self) -> _Beat:
        """Renew this node's heartbeat and every lease it holds (by Redis's clock), and
        read who else lives (in the heartbeat's thread)."""
        started = time.monotonic()
        seconds, micros = self._renewer.time()
        now_ms = int(seconds) * 1000 + int(micros) // 1000
        held = sorted(self.owned)  # (copied at once in C, under the GIL)
        with self._renewer.pipeline(transaction=False) as pipe:
            # (the card and the relay key each time: a Redis that lost its data has them
            # again at the next beat)
            pipe.set(self.keys.relay_key, secrets.token_hex(16), nx=True)
            pipe.get(self.keys.relay_key)
            pipe.hset(self.keys.cards, self.me.encode(), self.card.encode())
            pipe.zadd(self.keys.nodes, {self.me.encode(): now_ms})
            pipe.zrangebyscore(self.keys.nodes, "-inf", "+inf", withscores=True)
            pipe.hgetall(self.keys.cards)
            if held:
                keys = [self.keys.lease(t) for t in held]
                pipe.eval(_RENEW, len(keys), *keys, self.me.encode(), self.ttl_ms)
            found = pipe.execute()
        self._fenced_at = started + self.lease_ttl
        lost = [held[i - 1] for i in found[6]] if held else []
        return _Beat(now_ms, _text(found[1]), found[4], found[5], lost)

    async def _hear(self, listener: Listener, beats: asyncio.Queue[_Beat]) -> None:
        while True:
            beat = await beats.get()
            try:
                await self._after_beat(listener, beat)
            except Exception as error:
                log.warning("a heartbeat's news could not be taken in (%s)", error)

    async def _after_beat(self, listener: Listener, beat: _Beat) -> None:
        """On the event loop: let go of lost leases, let the lobby look at its tables,
        and take over the dead nodes' tables."""
        self.relay_key = beat.relay_key
        live, dead = self._sort(beat.members, beat.cards, beat.now_ms)
        lost = [t for t in beat.lost if t in self.owned]
        if lost:  # (one claimed again since the renewal is ours after all)
            holders = await self._ask(self._redis.mget([self.keys.lease(t) for t in lost]))
            me = self.me.encode()
            lapsed = [t for t, h in zip(lost, holders, strict=True) if h is None]
            lost = [
                t for t, h in zip(lost, holders, strict=True) if h is not None and _text(h) != me
            ]
            lost += await self._take_back(lapsed)
        if lost:
            self.owned.difference_update(lost)
            await listener.on_lost(lost)
        await listener.on_tick()
        for who, stale_ms in dead:
            await self._take_over(listener, who, stale_ms, live)

    async def _take_back(self, lapsed: list[str]) -> list[str]:
        """Claim again the leases that lapsed (a heartbeat came late: a busy machine)
        while no other node took them; those another node was quicker to claim are
        returned, lost. (Nobody held them meanwhile, so nobody else wrote; and the records'
        compare-and-set would refuse a stale write all the same.)"""
        answers = await asyncio.gather(*map(self.claim, lapsed), return_exceptions=True)
        lost = [t for t, a in zip(lapsed, answers, strict=True) if isinstance(a, Elsewhere)]
        if lapsed:
            log.warning("took back %d lapsed leases of %d", len(lapsed) - len(lost), len(lapsed))
        return lost

    def _sort(
        self, members: list[tuple[Any, float]], cards: dict[Any, Any], now_ms: int
    ) -> tuple[list[str], list[tuple[Incarnation, float]]]:
        """The live incarnations (their cards kept), and the dead ones with how long
        (ms) they have been silent."""
        live: list[str] = []
        dead: list[tuple[Incarnation, float]] = []
        alive: dict[str, NodeCard] = {}
        for raw, score in members:
            try:
                who = Incarnation.decode(raw)
            except InvalidInput:
                continue
            silent = now_ms - score
            if silent <= self.ttl_ms:
                live.append(who.encode())
                card = cards.get(raw) or cards.get(who.encode().encode())
                with contextlib.suppress(InvalidInput):
                    if card is not None:
                        alive[who.encode()] = NodeCard.decode(card)
            else:
                dead.append((who, silent))
        self.alive = alive
        return live, dead

    async def _take_over(
        self, listener: Listener, dead: Incarnation, silent_ms: float, live: list[str]
    ) -> None:
        """A dead node's tables: those rendezvous hashing gives this node, taken over;
        the node forgotten once nothing of it is left."""
        tables = sorted(
            t.decode() if isinstance(t, bytes) else str(t)
            for t in await self._ask(self._redis.smembers(self.keys.owned(dead)))
        )
        leases = [self.keys.lease(t) for t in tables]
        holders = await self._ask(self._redis.mget(leases)) if tables else []
        gone = dead.encode()
        found = list(zip(tables, holders, strict=True))
        taken = [t for t, h in found if h is not None and _text(h) != gone]
        if taken:  # claimed meanwhile (by a client's request): crossed off
            await self._ask(self._redis.srem(self.keys.owned(dead), *taken))
        free = [t for t, h in found if h is None]
        mine = [t for t in free if preferred(t, live) == self.me.encode()]
        if mine:
            await listener.on_adopt([(t, dead) for t in mine])
        if not tables or silent_ms > FORGET_AFTER * self.ttl_ms:
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.zrem(self.keys.nodes, dead.encode())
                pipe.hdel(self.keys.cards, dead.encode())
                pipe.delete(self.keys.owned(dead))
                await self._ask(pipe.execute())


def _unanswered(claims: list[_Claim]) -> None:
    for _, _, done in claims:
        if not done.done():
            done.set_result("")  # nobody known holds it


def _text(raw: Any) -> str:
    return raw.decode() if isinstance(raw, bytes) else str(raw)


__all__ = ["LEASE_TTL_S", "PREFIX", "RedisCluster", "preferred"]
