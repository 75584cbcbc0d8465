"""A real uvicorn server in a thread of the test process, and real WebSocket clients."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn
from websockets.sync.client import ClientConnection, connect

from tests.server_process import START_TIMEOUT, free_port
from yahtzee.web.app import create_app
from yahtzee.web.serving import websocket_options


class Server(uvicorn.Server):
    """uvicorn that says when its startup is over (started or failed)."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.ready = threading.Event()
        self.error: BaseException | None = None

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        try:
            await super().startup(sockets)
        finally:
            self.ready.set()

    def run_in_thread(self) -> None:
        try:
            self.run()
        except BaseException as error:  # SystemExit from a failed startup too
            self.error = error
        finally:
            self.ready.set()  # it may have ended before its startup did


@contextmanager
def running(db: str, port: int | None = None, **options: Any) -> Iterator[str]:
    """A uvicorn server in a thread (``create_app(db, **options)``, bots without delay),
    stopped on the way out whatever happened. Yields ``host:port``."""
    app = create_app(db, **{"bot_delay": 0, "rate": 1e6, **options})
    port = port or free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", **websocket_options()
    )  # as `yahtzee serve` runs it
    server = Server(config)
    thread = threading.Thread(target=server.run_in_thread, daemon=True)
    thread.start()
    try:
        assert server.ready.wait(START_TIMEOUT), f"uvicorn did not start within {START_TIMEOUT} s"
        assert server.started, f"uvicorn stopped during its startup: {server.error!r}"
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        if thread.is_alive():  # connections that will not close: stop without them
            server.force_exit = True
            thread.join(timeout=10)


class Client:
    """A websockets connection with the helpers' send_json; receive_json(client) works
    through its recv(timeout=...)."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws

    def send_json(self, data: Any) -> None:
        self.ws.send(json.dumps(data))

    def recv(self, timeout: float) -> str | bytes:
        return self.ws.recv(timeout=timeout)


@contextmanager
def client(url: str) -> Iterator[Client]:
    """A connection to ``url``, closed on the way out."""
    with connect(url, open_timeout=10, close_timeout=5) as ws:
        yield Client(ws)


__all__ = ["Client", "Server", "client", "free_port", "running"]
