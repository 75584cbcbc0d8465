"""The size limit of a request body, below the routes: a client that sends (or says it
will send) more than `MAX_BODY_BYTES` gets ``413 too_large`` and its connection is closed,
the rest of its body unread. Every body the lobby takes is a few hundred bytes; an offline
game's upload (every event of a game of up to eight) is the one larger body
(`LARGER_BODIES`)."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..core.language import _
from .security import send_refusal

MAX_BODY_BYTES: Final = 16 * 1024
HTTP_TOO_LARGE: Final = 413
OFFLINE_GAMES_PATH: Final = "/api/me/offline-games"
MAX_OFFLINE_GAME_BYTES: Final = 128 * 1024
"""An uploaded offline game at most: eight players' 865 events (about 100 bytes each)."""
LARGER_BODIES: Final[Mapping[str, int]] = {OFFLINE_GAMES_PATH: MAX_OFFLINE_GAME_BYTES}
"""The paths whose bodies may be larger than `MAX_BODY_BYTES`, and their limits."""


def declared_length(scope: Scope) -> int | None:
    """The body's size as its ``Content-Length`` says (None without one: a chunked body,
    or none at all)."""
    for name, value in scope["headers"]:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None  # the server's parser refuses it before it gets here
    return None


class BodyLimit:
    """Refuses a request whose body is over ``limit`` bytes: at once when its
    ``Content-Length`` says so, else as soon as what has come of it (a chunked body)
    passes the limit. Below the limit the body is read here (at most ``limit`` bytes
    held) and handed on to the app as it came. ``larger``: paths with a limit of their
    own."""

    def __init__(
        self,
        app: ASGIApp,
        limit: int = MAX_BODY_BYTES,
        larger: Mapping[str, int] = LARGER_BODIES,
    ) -> None:
        self.app = app
        self.limit = limit
        self.larger = larger

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.larger.get(scope["path"], self.limit)
        declared = declared_length(scope)
        if declared is not None and declared > limit:
            await self._refuse(send, limit)
            return
        came: deque[Message] = deque()
        size = 0
        while True:
            message = await receive()
            came.append(message)
            if message["type"] != "http.request":  # the client left: the app hears it
                break
            size += len(message.get("body", b""))
            if size > limit:
                await self._refuse(send, limit)
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            return came.popleft() if came else await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send, limit: int) -> None:
        await send_refusal(
            send,
            HTTP_TOO_LARGE,
            "too_large",
            _("A request's body is at most {most} bytes.").format(most=limit),
            close=True,
        )


__all__ = [
    "HTTP_TOO_LARGE",
    "LARGER_BODIES",
    "MAX_BODY_BYTES",
    "MAX_OFFLINE_GAME_BYTES",
    "OFFLINE_GAMES_PATH",
    "BodyLimit",
    "declared_length",
]
