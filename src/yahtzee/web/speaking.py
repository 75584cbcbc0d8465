"""The language each request and each connection is answered in (issue 55).

The player's language is the first of these that is present: the query's ``lang``
(``?lang=de``), the cookie ``lang`` (the page sets it from its picker), the request's
``Accept-Language``; else English. A ``lang`` (query or cookie) that names no language of
ours is English, as ``--lang xx`` is on the command line. `SpeakLanguage` (an ASGI
middleware, outermost but for the server's last-resort error handler) handles every HTTP
request and every WebSocket connection within `core.language.speaking` of that choice: every
refusal, validation message and text the server makes for it is in its language. A
WebSocket's choice is made at its handshake and holds for the whole connection (its
commands are carried out in the connection's own task, so the room's refusals are made in
the player's language too).
"""

from __future__ import annotations

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from ..core.language import ENGLISH, accepted, choose, match, speaking

PARAMETER = "lang"
"""The query parameter and the cookie that name the player's language."""


def chosen_language(connection: HTTPConnection) -> str:
    """The code of the language a request (or a WebSocket's handshake) asks for (see the
    module's notes); never fails: anything malformed is English."""
    try:
        for asked in (connection.query_params.get(PARAMETER), connection.cookies.get(PARAMETER)):
            if asked is not None and asked.strip():
                return match(asked) or ENGLISH
        return choose(accepted(connection.headers.get("accept-language")))
    except (KeyError, ValueError, UnicodeError):  # a head that cannot be read
        return ENGLISH


def scope_language(scope: Scope) -> str:
    """`chosen_language` of an ASGI scope."""
    return chosen_language(HTTPConnection(scope))


class SpeakLanguage:
    """Handles each HTTP request and WebSocket connection speaking its player's language
    (`chosen_language`)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        with speaking(scope_language(scope)):
            await self.app(scope, receive, send)


__all__ = ["PARAMETER", "SpeakLanguage", "chosen_language", "scope_language"]
