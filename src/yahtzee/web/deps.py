"""Shared state for the routes: the hub lives on ``app.state`` and is handed out here."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request, WebSocket

from .hub import Hub


def hub_of(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def socket_hub(websocket: WebSocket) -> Hub:
    hub: Hub = websocket.app.state.hub
    return hub


def bearer(authorization: Annotated[str | None, Header()] = None) -> str | None:
    """The secret token of ``Authorization: Bearer TOKEN`` (None without one)."""
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[len("bearer ") :].strip()
    return None


HubDep = Annotated[Hub, Depends(hub_of)]
SocketHubDep = Annotated[Hub, Depends(socket_hub)]
TokenDep = Annotated[str | None, Depends(bearer)]
