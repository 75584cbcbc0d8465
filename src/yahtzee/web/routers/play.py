"""Play (WebSocket): one client's connection, its checks, its intents and their answers.

Every connection is accepted first, so that a refusal reaches the browser as a close code
(an HTTP refusal of the handshake would not say why): 4403 for another origin, 4429 over
the caps, 4401 without a good ``hello`` (the seat's token or the spectator key, never in
the URL) within `HELLO_TIMEOUT` seconds.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, assert_never

from fastapi import APIRouter, WebSocket
from starlette.types import Message

from ...core.language import _
from ...service import Lobby, Table, TableRoom, commands
from ...service.cluster import NODE_HEADER, Elsewhere
from ..connection import (
    CLOSE_MOVED,
    CLOSE_ORIGIN,
    CLOSE_SEAT_GONE,
    CLOSE_TOO_MANY,
    CLOSE_UNKNOWN,
    Connection,
)
from ..deps import SocketHubDep, SocketLobbyDep
from ..hub import Hub
from ..messages import AckMessage, ErrorMessage, HintMessage, ReviewMessage, StateMessage
from ..protocol import AnyIntent, ProtocolError, parse_hello, parse_intent
from ..security import AllowedHosts, origin_allowed, relayed

log = logging.getLogger("yahtzee.web")

URL_SECRETS = ("token", "spectate", "watch")
MOVING_WAIT_S = 6.0
"""How long a connection for a table that is moving between nodes waits to be served."""
MOVING_POLL_S = 0.25
MOVING_POLL_MAX_S = 0.5
"""(Polls are cheap: the claims of a crowd go to Redis together.)"""

router = APIRouter()


def _allowed(socket: WebSocket) -> bool:
    if relayed(socket.scope):  # a node of the site relayed it, having checked it
        return True
    allowed: Any = getattr(socket.app.state, "allowed_hosts", None)
    hosts = allowed if isinstance(allowed, AllowedHosts) else AllowedHosts.local()
    return origin_allowed(socket.headers, hosts)


@router.websocket("/ws/{table_id}")
async def play(socket: WebSocket, table_id: str, hub: SocketHubDep, lobby: SocketLobbyDep) -> None:
    """One client's connection: its hello, the state, then its intents and our events."""
    cluster = lobby.cluster
    await socket.accept(
        headers=[(NODE_HEADER.encode(), cluster.node_id.encode())] if cluster.clustered else None
    )
    address = socket.client.host if socket.client else "unknown"
    connection = Connection(socket, address)
    try:
        if not _allowed(socket):
            connection.close(CLOSE_ORIGIN, "origin not allowed")
        elif any(name in socket.query_params for name in URL_SECRETS):
            connection.close(CLOSE_UNKNOWN, "send the token in the hello message, not the URL")
        elif not hub.admit(connection):
            connection.close(CLOSE_TOO_MANY, "too many connections from this address")
        else:
            try:
                room = await _hello(hub, lobby, socket, connection, table_id)
            except Relayed as relayed:  # another node served it (or none could, in time)
                connection.close(relayed.code, "the table's server node closed the connection")
                return
            refused = await hub.join(room, connection) if room is not None else None
            if room is None:
                connection.close(CLOSE_UNKNOWN, "unknown table or token")
            elif refused is not None:
                connection.close(CLOSE_TOO_MANY, refused)
            else:
                await _serve(hub, room, connection, socket)
    finally:
        hub.leave(connection)
        await connection.stop()


async def _hello(
    hub: Hub, lobby: Lobby, socket: WebSocket, connection: Connection, table_id: str
) -> TableRoom | None:
    """The room of the table the first message opens, with ``connection.seat`` set (None:
    a spectator); None for no hello in time, a bad one, or an unknown table or token."""
    try:
        async with asyncio.timeout(hub.hello_timeout):  # (not wait_for: see `web.connection`)
            raw = await socket.receive()
    except TimeoutError:
        return None
    if raw["type"] != "websocket.receive":
        return None
    try:
        hello = parse_hello(_data(raw))
    except ProtocolError:
        return None
    table = await _find(lobby, socket, connection, table_id, _data(raw))
    if table is None:
        return None
    if hello.token is not None:
        seat = table.seat_of(hello.token)
        if seat is None:
            return None
        connection.seat, connection.token_hash = seat, table.seats[seat].token_hash
    elif not lobby.watching(table, hello.watch):
        return None
    return lobby.room(table)


class Relayed(Exception):
    """The connection was relayed to the table's owner and has ended (``code``: how), or
    no node could serve the table within `MOVING_WAIT_S`."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


async def _find(
    lobby: Lobby, socket: WebSocket, connection: Connection, table_id: str, hello: str | bytes
) -> Table | None:
    """The table, if this node serves it; else the connection is relayed to where the
    lobby says it is served (`Relayed` when that ends). While the table moves (its owner
    just died: its lease has not lapsed yet) the connection waits here, up to
    `MOVING_WAIT_S`, rather than send its client into reconnecting with a growing
    backoff."""
    relay = getattr(socket.app.state, "relay", None)
    deadline = time.monotonic() + MOVING_WAIT_S
    pause = MOVING_POLL_S
    while True:
        place = await lobby.locate(table_id)
        if not isinstance(place, Elsewhere):
            return place
        if relay is None or relayed(socket.scope):  # never relayed twice
            raise Relayed(CLOSE_MOVED)
        code = await relay.socket(socket, connection, place, hello)
        if code is not None:
            raise Relayed(code)
        if time.monotonic() >= deadline:
            raise Relayed(CLOSE_MOVED)
        await asyncio.sleep(pause)  # (a crowd reconnecting at once asks less and less often)
        pause = min(pause * 2, MOVING_POLL_MAX_S)


def _data(raw: Message) -> str | bytes:
    text = raw.get("text")
    return text if text is not None else raw.get("bytes") or b""


async def _serve(hub: Hub, room: TableRoom, connection: Connection, socket: WebSocket) -> None:
    while not connection.closing:
        raw = await socket.receive()
        if raw["type"] != "websocket.receive" or connection.closing:
            return
        hub.heard_from(connection)
        await _receive(hub, room, connection, _data(raw))


async def _receive(hub: Hub, room: TableRoom, connection: Connection, data: str | bytes) -> None:
    """One message: checked, limited, handled once per id, answered."""
    intent: AnyIntent | None = None
    refused: ProtocolError | None = None
    try:
        intent = parse_intent(data)
        key = intent.id
    except ProtocolError as error:
        key, refused = error.id, error
    if not hub.rate_limit(connection).allow():
        message = _("Too many messages: slow down.")
        hub.send(connection, ErrorMessage(code="rate_limited", message=message, id=key))
        return
    if intent is None:
        assert refused is not None
        hub.send(connection, ErrorMessage(code=refused.code, message=str(refused), id=key))
        return
    if not hub.still_seated(room, connection):
        connection.close(CLOSE_SEAT_GONE, "this seat was handed to a bot")
        return
    if key is None:
        answer, _done = await _answer(hub, room, connection, intent)
        if answer is not None:
            hub.send(connection, answer)
        return
    answers = hub.answers(connection)
    earlier = answers.get(key)
    if earlier is not None:  # a repeat: the same answer, nothing applied again
        text = earlier if isinstance(earlier, str) else await asyncio.shield(earlier)
    else:
        future = answers.begin(key)
        failed = ErrorMessage(code="server_error", message=_("The server stopped."), id=key)
        text, done = failed.model_dump_json(), False
        try:
            answer, done = await _answer(hub, room, connection, intent)
            text = (answer or failed).model_dump_json()
        finally:
            answers.end(key, future, text, keep=done)
    hub.sent["answer"] += 1
    connection.offer(text)


async def _answer(
    hub: Hub, room: TableRoom, connection: Connection, intent: AnyIntent
) -> tuple[AckMessage | ErrorMessage | None, bool]:
    """The room's outcome of an intent: its acknowledgement (None without an id) and
    whether it was carried out, or the error that refused it (nothing changed); what it
    answers besides (a hint, the review, the state) is sent first."""
    command = intent.command()
    if command is None:  # a ping: the connection's own
        hub.pong(connection)
        return _ack(intent, room.seq), True
    outcome = await room.handle(connection.seat, command, intent.id)
    shown: HintMessage | ReviewMessage | StateMessage | None = None
    match outcome:
        case commands.Refused():
            return ErrorMessage(code=outcome.code, message=outcome.message, id=intent.id), False
        case commands.Advised():
            shown = HintMessage.of(outcome.advice)
        case commands.Reviewed():
            shown = ReviewMessage.of(outcome.players, list(outcome.notes))
        case commands.Resynced():
            shown = StateMessage.of(outcome.view)
        case commands.Done():
            pass
        case _:
            assert_never(outcome)
    if shown is not None:
        hub.send(connection, shown)
    return _ack(intent, outcome.seq), True


def _ack(intent: AnyIntent, seq: int) -> AckMessage | None:
    return AckMessage(id=intent.id, seq=seq) if intent.id is not None else None
