"""Scripted players for the server tests, and a WebSocket receive that cannot hang."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

import anyio
from starlette.testclient import TestClient, WebSocketTestSession
from starlette.types import Message
from starlette.websockets import WebSocketDisconnect

RECEIVE_TIMEOUT = 10.0


class Socket(Protocol):
    """What the scripted players need: ``send_json``, and either a Starlette test session
    or something with ``recv(timeout=...)`` (a ``websockets`` client) for ``receive_json``."""

    def send_json(self, data: Any) -> None: ...


async def _receive_within(socket: WebSocketTestSession, timeout: float) -> Message:
    with anyio.fail_after(timeout):
        return await socket._send_rx.receive()


def receive_json(socket: Any, timeout: float = RECEIVE_TIMEOUT) -> Any:
    """The next message from ``socket`` as JSON; an AssertionError when none comes within
    ``timeout`` seconds. A close raises WebSocketDisconnect, as ``receive_json`` does."""
    if not isinstance(socket, WebSocketTestSession):
        try:
            text = socket.recv(timeout=timeout)
        except TimeoutError:
            raise AssertionError(f"no message within {timeout:g} s") from None
        return json.loads(text)
    # The deadline runs in the session's event loop; the second one, here, holds even when
    # that loop is stuck (a blocking call in the server).
    future = socket.portal.start_task_soon(_receive_within, socket, timeout)
    try:
        message = future.result(timeout=timeout + 5)
    except TimeoutError:  # concurrent.futures.TimeoutError is TimeoutError
        future.cancel()
        raise AssertionError(f"no message within {timeout:g} s") from None
    if message["type"] == "websocket.close":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason", ""))
    if message["type"] != "websocket.send":  # a denial response: Starlette raises for it
        socket._raise_on_close(message)
    text = message.get("text")
    return json.loads(text if text is not None else message["bytes"].decode())


def hello(socket: Socket, *, token: str | None = None, watch: str | None = None) -> None:
    """The first message of a connection: a seat's token or the spectator key."""
    socket.send_json(
        {"v": 1, "type": "hello", **({"token": token} if token is not None else {"watch": watch})}
    )


@contextmanager
def joined(
    client: TestClient,
    table_id: str,
    *,
    token: str | None = None,
    watch: str | None = None,
    headers: dict[str, str] | None = None,
) -> Iterator[WebSocketTestSession]:
    """A test-client connection to the table that has said hello (closed on the way out)."""
    with client.websocket_connect(f"/ws/{table_id}", headers=dict(headers or {})) as ws:
        hello(ws, token=token, watch=watch)
        yield ws


@contextmanager
def seated(
    base: str, table_id: str, *, token: str | None = None, watch: str | None = None
) -> Iterator[Any]:
    """A real WebSocket connection (``tests.live_server.client``) that has said hello."""
    from tests.live_server import client

    with client(f"ws://{base}/ws/{table_id}") as ws:
        hello(ws, token=token, watch=watch)
        yield ws


def next_of(socket: Any, *types: str, timeout: float = RECEIVE_TIMEOUT) -> dict[str, Any]:
    """The next message of one of ``types`` (others are skipped), each within ``timeout``."""
    for _ in range(500):
        message = receive_json(socket, timeout)
        if message["type"] in types:
            return message  # type: ignore[no-any-return]
    raise AssertionError(f"no {types} message")


def say_lines(ws: Any, count: int) -> None:
    """Send ``count`` chat lines ("line 0", "line 1", ...), each seen coming back."""
    for n in range(count):
        ws.send_json({"type": "chat", "text": f"line {n}"})
        assert next_of(ws, "chat")["text"] == f"line {n}"


def answer(ws: Any, key: str) -> dict[str, Any]:
    """The ack or error that answers the intent with id ``key`` (other messages skipped)."""
    for _ in range(100):
        message = next_of(ws, "ack", "error")
        if message.get("id") == key:
            return message
    raise AssertionError(f"no answer to {key}")


def intent_for(game: dict[str, Any]) -> dict[str, Any]:
    """A simple legal move: roll once, then fill the first legal box."""
    if game["dice"] is None:
        return {"v": 1, "type": "roll"}
    return {"v": 1, "type": "score", "box": game["placements"][0]["box"]}


def play_out(sockets: dict[int, Socket], watcher: Any, game: dict[str, Any]) -> dict[str, Any]:
    """Humans (``sockets`` by seat) act in turn; bots act on their own; ``watcher`` sees
    every event. Returns the final game state."""
    for _ in range(2000):
        if game["phase"] == "over":
            return game
        seat = game["current"]
        if seat in sockets:
            sockets[seat].send_json(intent_for(game))
        message = next_of(watcher, "event", "error")
        assert message["type"] == "event", message
        game = message["game"]
    raise AssertionError("the game did not end")
