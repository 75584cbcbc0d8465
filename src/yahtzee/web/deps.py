"""Shared state for the routes: the hub lives on ``app.state`` and is handed out here;
and the strict JSON reading of every request body.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from fastapi import Depends, Header, Request, Response, WebSocket
from fastapi.routing import APIRoute

from ..core.language import _
from ..service import Lobby
from .hub import Hub

# The dependencies are coroutines: FastAPI runs a plain function in its thread pool,
# which a crowd of reconnecting clients would fill, queueing every handshake behind it.


async def hub_of(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def socket_hub(websocket: WebSocket) -> Hub:
    hub: Hub = websocket.app.state.hub
    return hub


async def lobby_of(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


async def socket_lobby(websocket: WebSocket) -> Lobby:
    lobby: Lobby = websocket.app.state.lobby
    return lobby


async def bearer(authorization: Annotated[str | None, Header()] = None) -> str | None:
    """The secret token of ``Authorization: Bearer TOKEN`` (None without one)."""
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[len("bearer ") :].strip()
    return None


HubDep = Annotated[Hub, Depends(hub_of)]
SocketHubDep = Annotated[Hub, Depends(socket_hub)]
LobbyDep = Annotated[Lobby, Depends(lobby_of)]
SocketLobbyDep = Annotated[Lobby, Depends(socket_lobby)]
TokenDep = Annotated[str | None, Depends(bearer)]


# Strict JSON ------------------------------------------------------------------------


class _NotJSON(ValueError):
    """A number JSON does not allow (its message says which)."""


def _no_constant(name: str) -> Any:
    raise _NotJSON(_("{name} is not a number JSON allows").format(name=name))


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotJSON(_("{number} is too large a number").format(number=text[:20]))
    return value


def strict_json(body: bytes | str) -> Any:
    """JSON as RFC 8259 has it: no ``NaN``, ``Infinity`` or numbers too large for a
    float (``1e400``). `json.JSONDecodeError` for anything else."""
    text = body.decode("utf-8", errors="replace") if isinstance(body, bytes) else body
    try:
        return json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise json.JSONDecodeError(_("it is nested too deeply"), text[:200], 0) from None
    except _NotJSON as error:  # the two above
        raise json.JSONDecodeError(str(error), text[:200], 0) from None
    except ValueError:  # an integer of thousands of digits
        reason = _("a number has too many digits")
        raise json.JSONDecodeError(reason, text[:200], 0) from None


class _StrictRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = strict_json(await self.body())
        return self._json


class StrictJSONRoute(APIRoute):
    """A route whose JSON body is read by `strict_json`: ``NaN``, ``Infinity`` and
    ``1e400`` are refused (400) instead of reaching the models as floats."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(_StrictRequest(request.scope, request.receive))

        return strict
