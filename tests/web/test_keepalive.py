"""Keepalive pings with uvicorn's public options (`web.serving.websocket_options`, what
``yahtzee serve`` gives uvicorn): a connection is pinged every interval while it answers,
and one whose pong does not come in time is closed.

uvicorn serves in this test's event loop (with short times); the clients are raw sockets
that read the server's frames (a ping is an unmasked frame of opcode 9, a close one of
opcode 8)."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from typing import Any

import uvicorn

from yahtzee.web.serving import websocket_options

INTERVAL_S = 0.2
TIMEOUT_S = 0.5
PINGS = 3
WAIT_S = 20.0
HANDSHAKE = (
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)
PING, CLOSE = 0x9, 0x8


async def _app(
    scope: dict[str, Any], receive: Callable[..., Any], send: Callable[..., Any]
) -> None:
    """Accepts a WebSocket and keeps it open until the client goes."""
    assert scope["type"] == "websocket"
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    while (await receive())["type"] != "websocket.disconnect":
        pass


async def _client(port: int, *, answer: bool) -> list[tuple[int, float]]:
    """Opens a WebSocket and notes the opcode and time of each frame that comes (answering
    each ping with a pong when ``answer``), until ``PINGS`` pings came or the server
    closed the connection."""
    loop = asyncio.get_running_loop()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    frames: list[tuple[int, float]] = []
    try:
        writer.write(HANDSHAKE)
        head = await reader.readuntil(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101"), head
        frames.append((0, loop.time()))  # open
        while sum(op == PING for op, _ in frames) < PINGS:
            try:
                first, size = await reader.readexactly(2)
            except asyncio.IncompleteReadError:
                break  # closed without a close frame
            payload = await reader.readexactly(size & 0x7F)
            frames.append((first & 0x0F, loop.time()))
            if first & 0x0F == CLOSE:
                break
            if first & 0x0F == PING and answer:  # a pong, same payload (masked by zeros)
                writer.write(bytes([0x8A, 0x80 | len(payload)]) + bytes(4) + payload)
                await writer.drain()
    finally:
        writer.close()
    return frames


def test_a_connection_is_pinged_while_it_answers_and_closed_when_it_does_not() -> None:
    async def main() -> tuple[list[tuple[int, float]], list[tuple[int, float]]]:
        listener = socket.create_server(("127.0.0.1", 0))
        port = listener.getsockname()[1]
        options = websocket_options(ping_interval=INTERVAL_S, ping_timeout=TIMEOUT_S)
        config = uvicorn.Config(_app, lifespan="off", log_level="warning", **options)
        server = uvicorn.Server(config)
        serving = asyncio.create_task(server.serve(sockets=[listener]))
        try:
            async with asyncio.timeout(WAIT_S):
                while not server.started:
                    await asyncio.sleep(0.01)
                return await asyncio.gather(_client(port, answer=True), _client(port, answer=False))
        finally:
            server.should_exit = True
            await asyncio.wait_for(serving, WAIT_S)

    answering, silent = asyncio.run(main())
    pings = [at for op, at in answering if op == PING]
    assert len(pings) == PINGS and CLOSE not in [op for op, _ in answering]
    opened = answering[0][1]
    assert pings[0] >= opened + INTERVAL_S * 0.9  # not before the interval
    assert [op for op, _ in silent[1:]] == [PING, CLOSE]  # one ping unanswered: closed
    assert silent[2][1] - silent[1][1] >= TIMEOUT_S * 0.9  # after the pong's deadline
