"""One client's connection: a bounded queue of messages and the one task that sends them.

Nobody ever waits on a client's socket: the hub puts each message on the connection's
queue (`Connection.offer`, never awaited) and the connection's own sender task
writes them out. A client that does not read fills its queue; it is then closed (1013)
and a warning is logged, while everyone else goes on. A close that cannot be written
(the client's buffers are full) is given `CLOSE_WAIT` seconds, then the connection
is cut.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Protocol

if TYPE_CHECKING:
    from ..service import TableRoom

log = logging.getLogger("yahtzee.web")

CLOSE_SLOW: Final = 1013
"""The client did not read its messages (its queue filled up): try again later."""
CLOSE_UNKNOWN: Final = 4401
"""No hello with a known token or spectator key (within `HELLO_TIMEOUT`), an unknown
table, or a token in the URL."""
CLOSE_ORIGIN: Final = 4403
"""A browser page from another origin (or a ``Host`` this server does not answer for)."""
CLOSE_SEAT_GONE: Final = 4409
"""The seat was handed to a bot: its token no longer acts for it."""
CLOSE_TOO_MANY: Final = 4429
"""Too many connections from this address, or at this table."""
CLOSE_MOVED: Final = 4503
"""The table is served by another node now (or for a moment by none, while it moves):
reconnect, and the site routes the connection to its owner."""

QUEUE_SIZE: Final = 128
"""Messages waiting for one client before it counts as not reading."""
CLOSE_WAIT: Final = 2.0
ANSWERS_KEPT: Final = 32
"""Intent ids remembered per seat (a repeat of an older one is applied again)."""


class Socket(Protocol):
    """What a connection sends through (Starlette's ``WebSocket``)."""

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


@dataclass(frozen=True, slots=True)
class _Close:
    code: int
    reason: str


class Answers:
    """The answers to the last intents that carried an id, by id: a repeat (a double
    click, a client that resends after reconnecting) gets the same answer and changes
    nothing. An intent still being handled is waited for (its future); one handled is kept
    as its answer's text only (a future each, 32 a connection, was work for the garbage
    collector)."""

    def __init__(self, kept: int = ANSWERS_KEPT) -> None:
        self.kept = kept
        self._found: OrderedDict[str, asyncio.Future[str] | str] = OrderedDict()

    def get(self, key: str) -> asyncio.Future[str] | str | None:
        """The answer to the intent ``key`` (a future while it is being handled)."""
        return self._found.get(key)

    def begin(self, key: str) -> asyncio.Future[str]:
        future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self._found[key] = future
        while len(self._found) > self.kept:
            self._found.popitem(last=False)
        return future

    def end(self, key: str, future: asyncio.Future[str], answer: str, *, keep: bool) -> None:
        """The intent was handled (``keep``) or refused: a refused one is tried afresh
        next time (it changed nothing)."""
        if not future.done():
            future.set_result(answer)
        if self._found.get(key) is future:
            if keep:
                self._found[key] = answer  # (in its place: the order stays)
            else:
                del self._found[key]


class RateLimit:
    """A token bucket: ``rate`` messages a second, bursts of ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.allowance, self.stamp = burst, time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.allowance = min(self.burst, self.allowance + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True

    @property
    def full(self) -> bool:
        """Whether it has refilled (forgetting it changes nothing)."""
        elapsed = time.monotonic() - self.stamp
        return self.allowance + elapsed * self.rate >= self.burst


class Connection:
    """One client: who it is (once it said hello), and its outbound queue."""

    def __init__(self, socket: Socket, address: str, *, queue_size: int = QUEUE_SIZE) -> None:
        self.socket = socket
        self.address = address
        self.table_id: str | None = None
        self.room: TableRoom | None = None
        """The room of the table it joined (see `Hub.join`)."""
        self.seat: int | None = None
        self.token_hash: str | None = None
        """The hash of the token it said hello with (a seat handed on has another)."""
        self.saw_game = False
        """Whether it was sent a state with the game (else it gets one when it starts)."""
        self.admitted = False
        self.closing = False
        self.heard = time.monotonic()
        """When a message last came from the client (`time.monotonic`): see
        `service.presence`."""
        self.away = False
        """Nothing came from the client for a while (`AWAY_AFTER_S`): it is not counted as
        here until something does."""
        self.limit = queue_size
        self.answers = Answers()  # a spectator's ids (a seat's live on the hub)
        self._queue: asyncio.Queue[str | _Close] = asyncio.Queue()
        self._sender = asyncio.create_task(self._send_all())
        self._closer: asyncio.Task[None] | None = None
        self._close_queued = False

    def __repr__(self) -> str:
        who = "spectator" if self.seat is None else f"seat {self.seat}"
        return f"<Connection {self.address} table {self.table_id} {who}>"

    def offer(self, text: str) -> bool:
        """Queue one message (never waits). A client whose queue is full is closed."""
        if self.closing:
            return False
        if self._queue.qsize() >= self.limit:
            log.warning(
                "closing %r: %d messages waiting, it does not read", self, self._queue.qsize()
            )
            self.close(CLOSE_SLOW, "too slow: messages piled up", now=True)
            return False
        self._queue.put_nowait(text)
        return True

    def close(self, code: int, reason: str, *, now: bool = False) -> None:
        """Close after what is queued (or ``now``, dropping it); nothing more is queued."""
        if self.closing:
            return
        self.closing = True
        if now:
            self._sender.cancel()
            self._closer = asyncio.create_task(self._close(code, reason))
        else:
            self._close_queued = True
            self._queue.put_nowait(_Close(code, reason))

    async def stop(self) -> None:
        """The client is gone (or is being closed): a close under way gets its time, then
        the sender ends."""
        self.closing = True
        closing = self._closer if self._closer is not None else None
        if closing is None and self._close_queued:
            closing = self._sender
        if closing is not None and not closing.done():
            await asyncio.wait([closing], timeout=CLOSE_WAIT * 2)
        tasks = [t for t in (self._sender, self._closer) if t is not None and not t.done()]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=CLOSE_WAIT)

    async def _send_all(self) -> None:
        try:
            while True:
                item = await self._queue.get()
                if isinstance(item, _Close):
                    await self._close(item.code, item.reason)
                    return
                await self.socket.send_text(item)
        except asyncio.CancelledError:
            raise
        except Exception:  # the client is gone
            self.closing = True

    async def _close(self, code: int, reason: str) -> None:
        # (``asyncio.timeout``, never ``wait_for``: on Python 3.11 ``wait_for`` swallows a
        # cancellation that comes as its work completes, and the cancelled task goes on)
        try:
            async with asyncio.timeout(CLOSE_WAIT):
                await self.socket.close(code, reason)
        except TimeoutError:
            log.warning("cutting %r: its close could not be sent", self)
            self._abort()
        except Exception:  # already gone
            return

    def _abort(self) -> None:
        """Cut the connection (its close frame could not even be written). The ASGI
        interface has no call for it: reach the server's transport where it is known
        (uvicorn), else leave it to the server's keep-alive."""
        receive = getattr(self.socket, "_receive", None)
        transport = getattr(getattr(receive, "__self__", None), "transport", None)
        abort = getattr(transport, "abort", None)
        if callable(abort):
            abort()


__all__ = [
    "CLOSE_MOVED",
    "CLOSE_ORIGIN",
    "CLOSE_SEAT_GONE",
    "CLOSE_SLOW",
    "CLOSE_TOO_MANY",
    "CLOSE_UNKNOWN",
    "Answers",
    "Connection",
    "RateLimit",
]
