"""A deadline for each request's headers, which uvicorn does not have: its
``timeout_keep_alive`` covers only the wait between two requests, and a client that opens
a connection and sends nothing, or its headers a byte at a time (slowloris), holds it for
as long as it likes.

`HeaderDeadline` is uvicorn's httptools protocol (the one ``uvicorn[standard]`` runs)
with a timer: started when the connection opens, when a request's first byte comes and
when an answer is complete (the next request's wait), stopped once the request's headers
are complete. The time counts from then, not between bytes. When it runs out the
connection is closed, after ``408 too_slow`` to a request that had begun.
"""

from __future__ import annotations

import asyncio
from typing import ClassVar, Final

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .security import SECURITY_HEADERS, refusal_body

HEADER_TIMEOUT_S: Final = 10.0


def timeout_answer(seconds: float) -> bytes:
    """The whole HTTP answer to a request whose headers took too long."""
    body = refusal_body(
        "too_slow", f"The request's headers did not come within {seconds:g} seconds."
    )
    lines = [
        "HTTP/1.1 408 Request Timeout",
        "content-type: application/json",
        f"content-length: {len(body)}",
        "connection: close",
        *(f"{name}: {value}" for name, value in SECURITY_HEADERS.items()),
    ]
    return "\r\n".join(lines).encode() + b"\r\n\r\n" + body


class HeaderDeadline(HttpToolsProtocol):
    """uvicorn's httptools protocol, with `header_timeout` seconds for each request's
    headers (`with_header_timeout` makes one with another)."""

    header_timeout: ClassVar[float] = HEADER_TIMEOUT_S
    _deadline: asyncio.TimerHandle | None = None
    _begun = False
    """Whether a request's first byte has come (and not yet its last header)."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._begun = True
        if self._deadline is None:  # pipelined behind a request still being answered
            self._start()

    def on_headers_complete(self) -> None:
        self._begun = False
        self._stop()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        waiting = bool(self.pipeline)  # a request that came whole meanwhile starts now
        super().on_response_complete()
        if not waiting and not self.transport.is_closing():
            self._start()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop()
        super().connection_lost(exc)

    def handle_websocket_upgrade(self) -> None:
        """The WebSocket protocol takes the connection over; this one lets go of its
        parser, which holds it back (uvicorn drops it only at `connection_lost`, which an
        upgraded connection never calls here): else each WebSocket left a cycle, with the
        request's scope and headers, for the garbage collector to find. (Its deadline
        stopped already, with the request's headers.)"""
        super().handle_websocket_upgrade()
        self.parser = None  # type: ignore[assignment]

    def _start(self) -> None:
        self._stop()
        self._deadline = self.loop.call_later(self.header_timeout, self._too_slow)

    def _stop(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        answering = self.cycle is not None and not self.cycle.response_complete
        if self._begun and not answering:
            self.transport.write(timeout_answer(self.header_timeout))
        self.transport.close()


def with_header_timeout(seconds: float) -> type[HeaderDeadline]:
    """`HeaderDeadline` with ``seconds`` for each request's headers (for uvicorn's
    ``http`` option)."""

    class Deadline(HeaderDeadline):
        header_timeout = seconds

    return Deadline


__all__ = ["HEADER_TIMEOUT_S", "HeaderDeadline", "timeout_answer", "with_header_timeout"]
