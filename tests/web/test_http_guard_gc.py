"""The guarded HTTP protocol (and the uvicorn protocol and the watch it holds) leave
nothing for the cyclic garbage collector: a server under load pauses for as long as the
collector walks, so a connection's objects should go when it does, by their reference
counts.

The server runs in this process (uvicorn on uvloop, as ``yahtzee serve`` runs it) so that
the collector's findings can be read; the clients are real sockets in a worker thread."""

from __future__ import annotations

import asyncio
import gc
import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from websockets.sync.client import connect

from yahtzee.web.head_limits import HeadWatch
from yahtzee.web.http_guard import GuardedHttp

uvloop = pytest.importorskip("uvloop")

WHOLE_S = 30.0
CONNECTIONS = 20


async def _app(
    scope: dict[str, Any], receive: Callable[..., Any], send: Callable[..., Any]
) -> None:
    """Answers ``ok`` over HTTP, and accepts a WebSocket, says ``ok`` and closes it."""
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
    elif scope["type"] == "http":
        await receive()
        headers = [(b"content-length", b"2")]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": b"ok"})
    else:
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": "ok"})
        await send({"type": "websocket.close", "code": 1000})


def _http(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as client:
        client.sendall(b"GET / HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n")
        while client.recv(65536):
            pass


def _websocket(port: int) -> None:
    with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=5, close_timeout=5) as client:
        assert client.recv(timeout=5) == "ok"


@contextmanager
def _collector_saves_all() -> Iterator[list[Any]]:
    """Automatic collection off; what a collection then finds unreachable is kept in the
    list given (``gc.DEBUG_SAVEALL``). Everything restored after, also on failure."""
    was_enabled = gc.isenabled()
    gc.disable()
    gc.collect()
    gc.garbage.clear()
    gc.set_debug(gc.DEBUG_SAVEALL)
    found: list[Any] = []
    try:
        yield found
        gc.collect()
        found.extend(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was_enabled:
            gc.enable()


def _left_for_the_collector(client: Callable[[int], None]) -> list[str]:
    """The types of the protocol objects that ``CONNECTIONS`` connections of ``client``
    left unreachable in cycles."""

    async def serve() -> list[str]:
        config = uvicorn.Config(  # (the WebSocket protocol uvicorn picks, as `serve`'s)
            _app, host="127.0.0.1", port=0, http=GuardedHttp, log_level="warning",
            lifespan="on",
        )  # fmt: skip
        server = uvicorn.Server(config)
        serving = asyncio.create_task(server.serve())
        try:
            async with asyncio.timeout(WHOLE_S):
                while not server.started:
                    await asyncio.sleep(0.01)
                port = server.servers[0].sockets[0].getsockname()[1]
                await asyncio.to_thread(client, port)  # the first: imports, caches
                with _collector_saves_all() as garbage:
                    for _ in range(CONNECTIONS):
                        await asyncio.to_thread(client, port)
                    while server.server_state.connections:  # every one closed here too
                        await asyncio.sleep(0.01)
                    await asyncio.sleep(0.05)
        finally:
            server.should_exit = True
            await serving
        kept = (GuardedHttp, HttpToolsProtocol, HeadWatch)
        return [type(o).__name__ for o in garbage if isinstance(o, kept)]

    return uvloop.run(serve())  # type: ignore[no-any-return]


def test_http_connections_leave_no_protocol_for_the_collector() -> None:
    assert _left_for_the_collector(_http) == []


def test_regression_an_upgraded_connections_http_protocol_is_not_left_in_a_cycle() -> None:
    """After the upgrade to a WebSocket, uvicorn's HTTP protocol was dropped still holding
    its parser, which holds it back: one cycle (with the request's scope and headers) per
    WebSocket for the collector to find."""
    assert _left_for_the_collector(_websocket) == []
