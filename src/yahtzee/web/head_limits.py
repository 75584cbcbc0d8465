"""How large a request's head may be, and `HeadWatch`, which holds each request of a
connection to it as its bytes come, before uvicorn reads them. (uvicorn has no such
limits: a 100 KB header and 3,000 headers were served, and a header streamed for as
long as its deadline allowed was held whole, megabytes of it.)

The limits are those of nginx's ``large_client_header_buffers 4 8k``, which sets nginx
the same way in front of a site of several nodes (deploy/nginx/yahtzee.conf.template):
a request line and each header line at most 8 KB, 32 KB of header lines in all, and at
most 100 of them (Apache's ``LimitRequestFields``). A request over them is refused
before the rest of it is read: ``414 url_too_long`` for its request line, ``431
headers_too_large`` for its headers (the trailer fields of a chunked body count as
headers), ``400 bad_request`` for a second ``Host`` and for bytes that are not HTTP.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final, NoReturn

import httptools

from .security import refusal_answer

MAX_LINE_BYTES: Final = 8 * 1024
MAX_HEADERS: Final = 100
MAX_HEADER_BYTES: Final = 4 * MAX_LINE_BYTES
VERSION_BYTES: Final = len(" HTTP/1.1")
"""What a request line holds beside its method and its target."""
HTTP_BAD_REQUEST: Final = 400
HTTP_URI_TOO_LONG: Final = 414
HTTP_HEADERS_TOO_LARGE: Final = 431


@dataclass(frozen=True, slots=True)
class HeadLimits:
    """The most a request's head may hold, in bytes as sent (a header line is its name,
    ``": "`` and its value; its CRLF counts in `header_bytes`)."""

    line: int = MAX_LINE_BYTES
    """The request line: method, target and version."""
    field: int = MAX_LINE_BYTES
    """One header line."""
    fields: int = MAX_HEADERS
    """Header lines in a request (its trailer fields included)."""
    header_bytes: int = MAX_HEADER_BYTES
    """Every header line together."""

    @property
    def held(self) -> int:
        """The most of a request's head that is read before it is refused."""
        return self.line + self.header_bytes


@dataclass(frozen=True, slots=True)
class HeadRefusal:
    """The answer to a request over a limit (the documented refusal)."""

    status: int
    code: str
    message: str

    def answer(self) -> bytes:
        return refusal_answer(self.status, self.code, self.message)


def line_too_long(limits: HeadLimits) -> HeadRefusal:
    return HeadRefusal(
        HTTP_URI_TOO_LONG, "url_too_long", f"A request line is at most {limits.line} bytes."
    )


def too_many_headers(limits: HeadLimits) -> HeadRefusal:
    return HeadRefusal(
        HTTP_HEADERS_TOO_LARGE,
        "headers_too_large",
        f"A request has at most {limits.fields} header lines.",
    )


def header_too_large(limits: HeadLimits) -> HeadRefusal:
    return HeadRefusal(
        HTTP_HEADERS_TOO_LARGE,
        "headers_too_large",
        f"A header line is at most {limits.field} bytes.",
    )


def headers_too_large(limits: HeadLimits) -> HeadRefusal:
    return HeadRefusal(
        HTTP_HEADERS_TOO_LARGE,
        "headers_too_large",
        f"A request's header lines are at most {limits.header_bytes} bytes in all.",
    )


SECOND_HOST: Final = HeadRefusal(HTTP_BAD_REQUEST, "bad_request", "A request names its Host once.")
NOT_HTTP: Final = HeadRefusal(HTTP_BAD_REQUEST, "bad_request", "This is not an HTTP request.")


class Phase(enum.Enum):
    """Where a connection's bytes are, in its current request."""

    IDLE = "between requests"
    HEAD = "its request line and headers"
    BODY = "its body"
    CHUNK = "a chunk's size line read, not its data: the last chunk's trailer fields"


HOLDING: Final = frozenset({Phase.HEAD, Phase.CHUNK})
"""The phases whose bytes the parser holds until a header line is whole."""


class _Refused(Exception):
    """Raised from a parser callback to stop at a request over a limit."""


class HeadWatch:
    """Parses a connection's requests, with httptools' parser as uvicorn does, to hold
    each one's head to `limits`. `feed` takes the bytes as they come and answers the
    refusal of the first request over a limit (None: they may go on to uvicorn).

    The parser hands over a request line as it comes, a header line once it is whole;
    bytes of a head it holds are counted as they come, from the first bytes in which
    the head began, so that no more than `HeadLimits.held` of them (and one read of the
    socket) is held before the refusal. `close` lets go of the parser."""

    def __init__(self, limits: HeadLimits) -> None:
        self.limits = limits
        self.phase = Phase.IDLE
        self.heads_begun = 0
        self.heads_whole = 0
        self._changes = 0
        """Phase changes so far: whether all of a feed's bytes were of one phase."""
        self._line = 0
        self._fields = 0
        self._field_bytes = 0
        self._hosts = 0
        self._handed = 0
        """Bytes of the current phase the parser has handed over."""
        self._held = 0
        """Bytes of the current phase that came, at least those the parser holds."""
        self._refusal: HeadRefusal | None = None
        self._parser: httptools.HttpRequestParser | None = httptools.HttpRequestParser(self)
        self._parser.set_dangerous_leniencies(lenient_data_after_close=True)  # as uvicorn's

    def feed(self, data: bytes) -> HeadRefusal | None:
        """Parse ``data``, the next bytes of the connection: the refusal of a request over
        a limit, or None."""
        assert self._parser is not None, "the watch was closed"
        changes = self._changes
        try:
            self._parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            return None  # the rest is another protocol's (uvicorn's parser stops there too)
        except httptools.HttpParserError:
            return self._refusal or NOT_HTTP
        if self.phase in HOLDING:
            self._held = self._held + len(data) if changes == self._changes else self._handed
            if self._held > self.limits.held:
                return headers_too_large(self.limits)
        return None

    def close(self) -> None:
        """Let go of the parser (which holds this watch: a cycle otherwise)."""
        self._parser = None

    # The parser's callbacks

    def on_message_begin(self) -> None:
        self._enter(Phase.HEAD)
        self.heads_begun += 1
        self._line = self._fields = self._field_bytes = self._hosts = 0

    def on_url(self, url: bytes) -> None:
        if not self._line:
            assert self._parser is not None
            self._line = len(self._parser.get_method()) + 1 + VERSION_BYTES
        self._line += len(url)
        self._handed += len(url)
        if self._line > self.limits.line:
            self._refuse(line_too_long(self.limits))

    def on_header(self, name: bytes, value: bytes) -> None:
        size = len(name) + 2 + len(value)
        self._fields += 1
        self._field_bytes += size + 2
        self._handed += size + 2
        limits = self.limits
        if self._fields > limits.fields:
            self._refuse(too_many_headers(limits))
        if size > limits.field:
            self._refuse(header_too_large(limits))
        if self._field_bytes > limits.header_bytes:
            self._refuse(headers_too_large(limits))
        if len(name) == len(b"host") and name.lower() == b"host":
            self._hosts += 1
            if self._hosts > 1:
                self._refuse(SECOND_HOST)

    def on_headers_complete(self) -> None:
        self.heads_whole += 1
        self._enter(Phase.BODY)

    def on_chunk_header(self) -> None:
        self._enter(Phase.CHUNK)

    def on_body(self, body: bytes) -> None:  # (its bytes are uvicorn's)
        self._enter(Phase.BODY)

    def on_chunk_complete(self) -> None:
        self._enter(Phase.BODY)

    def on_message_complete(self) -> None:
        self._enter(Phase.IDLE)

    def _enter(self, phase: Phase) -> None:
        if phase is not self.phase:
            self.phase = phase
            self._changes += 1
            self._handed = 0

    def _refuse(self, refusal: HeadRefusal) -> NoReturn:
        self._refusal = refusal
        raise _Refused


__all__ = [
    "HOLDING",
    "MAX_HEADERS",
    "MAX_HEADER_BYTES",
    "MAX_LINE_BYTES",
    "NOT_HTTP",
    "SECOND_HOST",
    "HeadLimits",
    "HeadRefusal",
    "HeadWatch",
    "Phase",
    "header_too_large",
    "headers_too_large",
    "line_too_long",
    "too_many_headers",
]
