"""Relaying to a table's owner, on a site of several nodes (loaded only there).

Each live table has one owner node. The load balancer sends a table's requests to one
node by a hash of the table's id, and that node claims whatever nobody owns, so nearly
every request arrives where it is served. For one that does not (a node just joined or
died, an invite link, which names no table) the lobby answers where the table is served
(`Elsewhere`; a request that needed the table by another way meets `Moved`), and it is
relayed from here, the way lila-ws's socket nodes relay to the one authority of a game:

- a REST request is sent on to the owner as it came (`relay_request`), its answer
  returned as the owner gave it;
- a WebSocket is connected to the owner after its hello (`relay_socket`), which is sent
  on, and from then on every message is passed both ways until either side closes. The
  relaying node keeps no game state: only the two sockets.

A relayed request carries the site's relay key (`RELAY_KEY_HEADER`) and the client's
address (`CLIENT_HEADER`), so that the owner counts the client, not the relaying node,
against its caps, and does not check again what the relaying node checked (`RelayTrust`).
A relayed request is never relayed again: if the owner has lost the table meanwhile, it
answers 503 ``moved`` (a WebSocket: close code 4503), and the client tries again.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import time
from collections.abc import MutableMapping
from typing import Any, Final

import httpx
from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from ..core.language import _, current
from ..service.cluster import CLIENT_HEADER, RELAY_HEADER, RELAY_KEY_HEADER, Elsewhere, Moved
from ..service.cluster.node import RedisCluster
from .connection import CLOSE_MOVED, Connection
from .models import Refusal
from .security import RELAYED, relayed
from .speaking import PARAMETER

log = logging.getLogger("yahtzee.web")

RELAY_TIMEOUT_S: Final = 10.0
UNREACHABLE_S: Final = 1.0
HTTP_UNAVAILABLE: Final = 503
CLOSE_ABNORMAL: Final = 1006
"""The owner's connection broke without a close frame (it died): the client tries again."""
RETRY_AFTER_S: Final = "1"
_DROPPED: Final = frozenset(
    {
        "connection", "keep-alive", "transfer-encoding", "upgrade", "content-length",
        "x-forwarded-for", "x-forwarded-proto", "x-real-ip",
        RELAY_HEADER, RELAY_KEY_HEADER, CLIENT_HEADER,
    }
)  # fmt: skip
_ANSWER_DROPPED: Final = frozenset({"connection", "keep-alive", "transfer-encoding"})
_PASSED_ON: Final = ("origin", "user-agent", "x-forwarded-proto")


class RelayTrust:
    """Takes a request relayed by one of the site's nodes (with the site's relay key)
    as the client's: its address from `CLIENT_HEADER`, marked `RELAYED`. A request with a
    wrong key has the relay headers taken off (it is anybody's)."""

    def __init__(self, app: ASGIApp, cluster: RedisCluster) -> None:
        self.app = app
        self.cluster = cluster

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            headers: list[tuple[bytes, bytes]] = scope["headers"]
            found = {k.decode("latin-1"): v.decode("latin-1") for k, v in headers}
            key = found.get(RELAY_KEY_HEADER)
            if key is not None or RELAY_HEADER in found or CLIENT_HEADER in found:
                trusted = (
                    bool(self.cluster.relay_key)
                    and key is not None
                    and (hmac.compare_digest(key.encode(), self.cluster.relay_key.encode()))
                )
                scope = dict(scope)
                if trusted:
                    client = found.get(CLIENT_HEADER) or "unknown"
                    scope["client"] = (client[:64], 0)
                    scope[RELAYED] = True
                else:
                    marks = {RELAY_HEADER, RELAY_KEY_HEADER, CLIENT_HEADER}
                    scope["headers"] = [
                        (k, v) for k, v in headers if k.decode("latin-1") not in marks
                    ]
        await self.app(scope, receive, send)


def _relay_headers(cluster: RedisCluster, client: str) -> dict[str, str]:
    return {
        RELAY_HEADER: cluster.me.encode(),
        RELAY_KEY_HEADER: cluster.relay_key,
        CLIENT_HEADER: client,
    }


def _moved() -> JSONResponse:
    return JSONResponse(
        Refusal(
            code="moved", message=_("This table is moving to another server node: try again.")
        ).model_dump(),
        status_code=HTTP_UNAVAILABLE,
        headers={"retry-after": RETRY_AFTER_S},
    )


class Relay:
    """This node's relays to the owners of tables it does not serve."""

    def __init__(self, cluster: RedisCluster) -> None:
        self.cluster = cluster
        self._client: httpx.AsyncClient | None = None
        self.relayed: dict[str, int] = {"http": 0, "websocket": 0}
        """Requests and WebSockets relayed so far (what a test or an operator counts)."""
        self._unreachable: dict[str, float] = {}
        """Owners' addresses that just refused a relay, until when (monotonic) they are not
        tried again (a dead node's, until its lease lapses and another node claims)."""

    def _reachable(self, address: str) -> bool:
        until = self._unreachable.get(address)
        if until is None:
            return True
        if time.monotonic() < until:
            return False
        del self._unreachable[address]
        return True

    def _failed(self, owned: Elsewhere, what: str, error: Exception) -> None:
        """A relay to ``owned``'s node failed: said once, and not tried again for a while."""
        address = owned.address or ""
        if address not in self._unreachable:
            log.warning("relaying %s to node %s failed: %s", what, owned.node, error)
        self._unreachable[address] = time.monotonic() + UNREACHABLE_S

    def _http(self) -> httpx.AsyncClient:
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=RELAY_TIMEOUT_S)
        return self._client

    async def close(self) -> None:
        if self._client is not None:
            await self._client.aclose()

    async def request(self, request: Request, owned: Elsewhere) -> Response:
        """Send a REST request on to the table's owner; its answer as it gave it."""
        if owned.address is None or relayed(request.scope) or not self._reachable(owned.address):
            return _moved()
        client = request.client.host if request.client else "unknown"
        headers = {k: v for k, v in request.headers.items() if k not in _DROPPED}
        headers.update(_relay_headers(self.cluster, client))
        query = f"?{request.url.query}" if request.url.query else ""
        url = f"http://{owned.address}{request.url.path}{query}"
        try:
            answer = await self._http().request(
                request.method,
                url,
                headers=headers,
                content=await request.body(),
            )
        except httpx.HTTPError as error:
            self._failed(owned, url, error)
            return _moved()
        self.relayed["http"] += 1
        kept = [(k, v) for k, v in answer.headers.multi_items() if k not in _ANSWER_DROPPED]
        response = Response(answer.content, status_code=answer.status_code)
        response.raw_headers = [
            (k.encode("latin-1"), v.encode("latin-1"))
            for k, v in kept
            if k.lower() != "content-length"
        ] + [(b"content-length", str(len(answer.content)).encode())]
        return response

    async def socket(
        self, socket: WebSocket, connection: Connection, owned: Elsewhere, hello: str | bytes
    ) -> int | None:
        """Connect the (accepted) WebSocket to the table's owner, send its hello on, and
        pass every message both ways until either side closes; the close code it ended
        with, or None when the owner could not be reached (it may have just died)."""
        if owned.address is None or not self._reachable(owned.address):
            return None
        client = socket.client.host if socket.client else "unknown"
        headers = _relay_headers(self.cluster, client)
        for name in _PASSED_ON:
            value = socket.headers.get(name)
            if value is not None:
                headers[name] = value
        # (the owner answers in the language this connection speaks: it has no cookies)
        url = f"ws://{owned.address}{socket.url.path}?{PARAMETER}={current()}"
        try:
            upstream = await connect(
                url,
                additional_headers=headers,
                open_timeout=RELAY_TIMEOUT_S,
                compression=None,
                max_size=None,
            )
        except (OSError, InvalidHandshake, TimeoutError) as error:
            self._failed(owned, "a connection", error)
            return None
        self.relayed["websocket"] += 1
        async with upstream:
            await upstream.send(hello)
            return await _pipe(socket, connection, upstream)


async def _pipe(socket: WebSocket, connection: Connection, upstream: ClientConnection) -> int:
    """Both ways until one side closes: the owner's close code (or 1000). What the owner
    sends is queued like any message of this node's (a client that does not read is
    closed)."""

    async def down() -> int:
        try:
            async for message in upstream:
                text = message if isinstance(message, str) else message.decode("utf-8", "replace")
                if not connection.offer(text):
                    return CLOSE_MOVED
        except ConnectionClosed:
            pass
        code = upstream.close_code
        return code if code is not None and code != CLOSE_ABNORMAL else CLOSE_MOVED

    async def up() -> int:
        while True:
            raw: MutableMapping[str, Any] = await socket.receive()
            if raw["type"] != "websocket.receive":
                return 1000
            text, data = raw.get("text"), raw.get("bytes")
            with contextlib.suppress(ConnectionClosed):
                await upstream.send(text if text is not None else data or b"")

    tasks = [asyncio.ensure_future(down()), asyncio.ensure_future(up())]
    done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    return next(iter(done)).result()


def install(app: FastAPI, cluster: RedisCluster) -> Relay:
    """Relay to the owners on this app: requests that meet `Moved`, and trust relayed
    ones (call after every other middleware is added: `RelayTrust` goes outermost)."""
    relay = Relay(cluster)

    @app.exception_handler(Moved)
    async def _elsewhere(request: Request, moved: Moved) -> Response:
        return await relay.request(request, moved.elsewhere)

    app.add_middleware(RelayTrust, cluster=cluster)
    app.state.relay = relay
    return relay


__all__ = ["Relay", "RelayTrust", "install"]
