"""Keepalive pings on the beat (`web.keepalive.BeatKeepalive`, the WebSocket protocol
``yahtzee serve`` gives uvicorn): connections opened apart are pinged together, on a
beat, never before their interval, and go on being pinged while they answer.

uvicorn serves in this test's event loop; the clients are raw sockets that read the
server's frames (a ping is an unmasked frame of opcode 9) and answer each ping."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from typing import Any, ClassVar

import uvicorn

from yahtzee.service.beat import next_beat
from yahtzee.web.keepalive import BeatKeepalive

INTERVAL_S = 0.2
BEAT_S = 0.5
PINGS = 2  # each client's
WAIT_S = 20.0
HANDSHAKE = (
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)


class QuickBeat(BeatKeepalive):
    ping_beat: ClassVar[float] = BEAT_S


async def _app(
    scope: dict[str, Any], receive: Callable[..., Any], send: Callable[..., Any]
) -> None:
    """Accepts a WebSocket and keeps it open until the client goes."""
    assert scope["type"] == "websocket"
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    while (await receive())["type"] != "websocket.disconnect":
        pass


async def _client(port: int, pings: list[float], opened: list[float]) -> None:
    """Opens a WebSocket, then answers ``PINGS`` pings, noting when each came."""
    loop = asyncio.get_running_loop()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        opened.append(loop.time())
        writer.write(HANDSHAKE)
        head = await reader.readuntil(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101"), head
        opened.append(loop.time())
        while len(pings) < PINGS:
            first, size = await reader.readexactly(2)
            payload = await reader.readexactly(size & 0x7F)
            if first & 0x0F == 0x9:  # a ping: a pong with the same payload (masked by zeros)
                pings.append(loop.time())
                writer.write(bytes([0x8A, 0x80 | len(payload)]) + bytes(4) + payload)
                await writer.drain()
    finally:
        writer.close()


def test_connections_opened_apart_are_pinged_together_on_the_beat() -> None:
    async def main() -> tuple[list[list[float]], list[list[float]]]:
        loop = asyncio.get_running_loop()
        listener = socket.create_server(("127.0.0.1", 0))
        port = listener.getsockname()[1]
        config = uvicorn.Config(
            _app, ws=QuickBeat, ws_ping_interval=INTERVAL_S, ws_ping_timeout=WAIT_S,
            lifespan="off", log_level="warning",
        )  # fmt: skip
        server = uvicorn.Server(config)
        serving = asyncio.create_task(server.serve(sockets=[listener]))
        try:
            while not server.started:
                await asyncio.sleep(0.01)
            # just after a beat: both clients' first pings fall due before the next one
            await asyncio.sleep(next_beat(loop.time(), 1e-3, BEAT_S) + 0.02 - loop.time())
            pings: list[list[float]] = [[], []]
            opened: list[list[float]] = [[], []]
            first = asyncio.create_task(_client(port, pings[0], opened[0]))
            await asyncio.sleep(0.15)
            second = asyncio.create_task(_client(port, pings[1], opened[1]))
            await asyncio.wait_for(asyncio.gather(first, second), WAIT_S)
            return pings, opened
        finally:
            server.should_exit = True
            await asyncio.wait_for(serving, WAIT_S)

    pings, opened = asyncio.run(main())
    for times, (asked, answered) in zip(pings, opened, strict=True):
        assert len(times) == PINGS  # pinged again after each pong
        assert times[0] >= asked + INTERVAL_S  # never before the interval
        assert times[0] <= next_beat(answered, INTERVAL_S, BEAT_S) + 0.1  # (+ the way here)
        for at in times:  # each on a beat
            assert (at + 0.05) % BEAT_S < 0.15, (at, at % BEAT_S)
    for a, b in zip(*pings, strict=True):  # opened 0.15 s apart, pinged together
        assert abs(a - b) < 0.05
