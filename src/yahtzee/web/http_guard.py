"""``yahtzee serve``'s HTTP protocol: uvicorn's own (httptools), held to the request
limits of `head_limits` and to a deadline for each request's headers, neither of which
uvicorn has.

`GuardedHttp` is an asyncio protocol, which uvicorn makes for each connection (its
``http`` option), around an instance of uvicorn's httptools protocol. Each read of the
socket goes through a `HeadWatch` first and on to uvicorn only when it holds no request
over a limit; such a request is answered with its refusal, nothing more of the
connection is read, and it is closed a moment later (`LINGER_S`). uvicorn's protocol is
driven through asyncio's protocol methods only, nothing of it subclassed. When uvicorn
hands the connection to a WebSocket (it sets the WebSocket's protocol on the
transport), the watch and the deadline end.

The deadline: uvicorn's ``timeout_keep_alive`` covers only the wait from an answer to
the next request's first byte, and a client that opens a connection and sends nothing,
or its headers a byte at a time (slowloris), would hold it for as long as it liked. The
deadline starts when the connection opens and when a request's first byte comes (or
bytes that begin none: blank lines between requests), and stops once the request's
headers are whole: the time counts from then, not between bytes. When it runs out the
connection is closed, after ``408 too_slow`` to a request that had begun.
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar, Final, cast

from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState

from .head_limits import HeadLimits, HeadRefusal, HeadWatch, Phase
from .security import refusal_answer

HEADER_TIMEOUT_S: Final = 10.0
LINGER_S: Final = 1.0
"""How long a refused connection stays open, unread, after its answer: a socket closed
with bytes unread resets the connection, and the reset can reach the client before it
has read the answer."""
HTTP_TIMEOUT: Final = 408


class HandedOver(ConnectionError):
    """What uvicorn's HTTP protocol is told when the connection went over to a
    WebSocket's protocol: its part of the connection is over, the connection is not
    (so it does not close it)."""


class GuardedHttp(asyncio.Protocol):
    """uvicorn's httptools protocol behind `limits` and `header_timeout` seconds for
    each request's headers (`guarded_http` makes one with others)."""

    header_timeout: ClassVar[float] = HEADER_TIMEOUT_S
    limits: ClassVar[HeadLimits] = HeadLimits()

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        self._http = HttpToolsProtocol(
            config=config, server_state=server_state, app_state=app_state, _loop=_loop
        )
        self._transport: asyncio.Transport | None = None
        self._watch: HeadWatch | None = None
        self._timer: asyncio.TimerHandle | None = None
        """The deadline, or the close of a refused connection."""

    # asyncio's protocol methods

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = cast(asyncio.Transport, transport)
        self._watch = HeadWatch(self.limits)
        self._http.connection_made(self._transport)
        self._start()

    def data_received(self, data: bytes) -> None:
        watch, transport = self._watch, self._transport
        if watch is None or transport is None:
            return  # refused: what still comes (uvicorn may resume reading) is dropped
        idle, began, whole = watch.phase is Phase.IDLE, watch.heads_begun, watch.heads_whole
        refusal = watch.feed(data)
        if refusal is not None:
            self._refuse(refusal)
            return
        self._http.data_received(data)
        if transport.get_protocol() is not self:
            self._let_go()
            return
        if watch.heads_whole != whole:
            self._stop()
        blank = idle and watch.phase is Phase.IDLE and watch.heads_begun == began
        if (watch.phase is Phase.HEAD or blank) and self._timer is None:
            self._start()

    def eof_received(self) -> bool | None:
        self._http.eof_received()
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        self._end_watch()
        self._http.connection_lost(exc)

    def pause_writing(self) -> None:
        self._http.pause_writing()

    def resume_writing(self) -> None:
        self._http.resume_writing()

    # The guard

    def _refuse(self, refusal: HeadRefusal) -> None:
        """Answer ``refusal``, read nothing more and close the connection after
        `LINGER_S` (uvicorn's protocol hears of it then, at `connection_lost`). The
        answer goes out at once, as uvicorn's own 400 to bytes it cannot parse does: a
        client that pipelined the request behind one still being answered gets it in the
        middle of that answer."""
        transport = self._transport
        assert transport is not None
        self._end_watch()
        transport.pause_reading()
        transport.write(refusal.answer())
        self._timer = asyncio.get_running_loop().call_later(LINGER_S, transport.close)

    def _let_go(self) -> None:
        """A WebSocket's protocol has the connection now: the watch ends (the deadline
        stopped with the request's headers), and uvicorn's HTTP protocol is told that its
        part is over, so that it lets go of its parser, which holds it in a cycle (it
        lets go at `connection_lost`, which an upgraded connection never calls there)."""
        self._end_watch()
        self._http.connection_lost(HandedOver())

    def _end_watch(self) -> None:
        self._stop()
        if self._watch is not None:
            self._watch.close()
            self._watch = None

    def _start(self) -> None:
        self._stop()
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(self.header_timeout, self._too_slow)

    def _stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _too_slow(self) -> None:
        self._timer = None
        transport = self._transport
        if transport is None or transport.is_closing():
            return
        if self._watch is not None and self._watch.phase is Phase.HEAD:
            transport.write(
                refusal_answer(
                    HTTP_TIMEOUT,
                    "too_slow",
                    f"The request's headers did not come within {self.header_timeout:g} seconds.",
                )
            )
        transport.close()


def guarded_http(
    header_timeout: float = HEADER_TIMEOUT_S, limits: HeadLimits | None = None
) -> type[GuardedHttp]:
    """`GuardedHttp` with ``header_timeout`` seconds for each request's headers and
    ``limits`` (for uvicorn's ``http`` option)."""

    class Guarded(GuardedHttp):
        pass

    Guarded.header_timeout = header_timeout
    Guarded.limits = limits or HeadLimits()
    return Guarded


__all__ = ["HEADER_TIMEOUT_S", "LINGER_S", "GuardedHttp", "HandedOver", "guarded_http"]
