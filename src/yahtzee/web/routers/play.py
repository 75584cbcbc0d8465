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

from ...core import Category, IllegalMove, InvalidInput, Keep, Score, YahtzeeError, clean_text
from ...service import LiveGame, Owned, Repeated, Table
from ...service.meter import play_notes
from ...service.tray import check_slots
from ..connection import (
    CLOSE_MOVED,
    CLOSE_ORIGIN,
    CLOSE_SEAT_GONE,
    CLOSE_TOO_MANY,
    CLOSE_UNKNOWN,
    Connection,
)
from ..deps import SocketHubDep
from ..entries import handle_entry, no_holding
from ..hub import Hub
from ..messages import AckMessage, ErrorMessage, HintMessage, ReviewMessage
from ..protocol import (
    MAX_CHAT,
    AnyIntent,
    ChatIntent,
    DiceIntent,
    HintIntent,
    HoldIntent,
    PingIntent,
    ProtocolError,
    ResyncIntent,
    ReviewIntent,
    RollIntent,
    ScoreIntent,
    UndoIntent,
    WriteIntent,
    parse_hello,
    parse_intent,
)
from ..security import AllowedHosts, origin_allowed, relayed

log = logging.getLogger("yahtzee.web")

URL_SECRETS = ("token", "spectate", "watch")
MOVING_WAIT_S = 6.0
"""How long a connection for a table that is moving between nodes waits to be served."""
MOVING_POLL_S = 0.25
MOVING_POLL_MAX_S = 0.5
"""(Polls are cheap: the claims of a crowd go to Redis together.)"""
NODE_HEADER = b"x-yahtzee-node"
"""Which server node answered (behind a load balancer, for operators and tests)."""

router = APIRouter()


def _allowed(socket: WebSocket) -> bool:
    if relayed(socket.scope):  # a node of the site relayed it, having checked it
        return True
    allowed: Any = getattr(socket.app.state, "allowed_hosts", None)
    hosts = allowed if isinstance(allowed, AllowedHosts) else AllowedHosts.local()
    return origin_allowed(socket.headers, hosts)


@router.websocket("/ws/{table_id}")
async def play(socket: WebSocket, table_id: str, hub: SocketHubDep) -> None:
    """One client's connection: its hello, the state, then its intents and our events."""
    cluster = hub.lobby.cluster
    await socket.accept(
        headers=[(NODE_HEADER, cluster.node_id.encode())] if cluster.clustered else None
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
                table = await _hello(hub, socket, connection, table_id)
            except Relayed as relayed:  # another node served it (or none could, in time)
                connection.close(relayed.code, "the table's server node closed the connection")
                return
            refused = await hub.join(table, connection) if table is not None else None
            if table is None:
                connection.close(CLOSE_UNKNOWN, "unknown table or token")
            elif refused is not None:
                connection.close(CLOSE_TOO_MANY, refused)
            else:
                await _serve(hub, table, connection, socket)
    finally:
        hub.leave(connection)
        await connection.stop()


async def _hello(
    hub: Hub, socket: WebSocket, connection: Connection, table_id: str
) -> Table | None:
    """The table the first message opens, with ``connection.seat`` set (None: a
    spectator); None for no hello in time, a bad one, or an unknown table or token."""
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
    table = await _find(hub, socket, connection, table_id, _data(raw))
    if table is None:
        return None
    if hello.token is not None:
        seat = table.seat_of(hello.token)
        if seat is None:
            return None
        connection.seat, connection.token_hash = seat, table.seats[seat].token_hash
        return table
    return table if hub.lobby.watching(table, hello.watch) else None


class Relayed(Exception):
    """The connection was relayed to the table's owner and has ended (``code``: how), or
    no node could serve the table within `MOVING_WAIT_S`."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


async def _find(
    hub: Hub, socket: WebSocket, connection: Connection, table_id: str, hello: str | bytes
) -> Table | None:
    """The table, if this node serves it; else the connection is relayed to its owner
    (`Relayed` when that ends). While the table moves (its owner just died: its lease
    has not lapsed yet) the connection waits here, up to `MOVING_WAIT_S`, rather than
    send its client into reconnecting with a growing backoff."""
    relay = getattr(socket.app.state, "relay", None)
    deadline = time.monotonic() + MOVING_WAIT_S
    pause = MOVING_POLL_S
    while True:
        try:
            return await hub.lobby.find(table_id)
        except Owned as owned:
            if relay is None or relayed(socket.scope):  # never relayed twice
                raise Relayed(CLOSE_MOVED) from None
            code = await relay.socket(socket, connection, owned, hello)
            if code is not None:
                raise Relayed(code) from None
        if time.monotonic() >= deadline:
            raise Relayed(CLOSE_MOVED)
        await asyncio.sleep(pause)  # (a crowd reconnecting at once asks less and less often)
        pause = min(pause * 2, MOVING_POLL_MAX_S)


def _data(raw: Message) -> str | bytes:
    text = raw.get("text")
    return text if text is not None else raw.get("bytes") or b""


async def _serve(hub: Hub, table: Table, connection: Connection, socket: WebSocket) -> None:
    while not connection.closing:
        raw = await socket.receive()
        if raw["type"] != "websocket.receive" or connection.closing:
            return
        hub.heard(table, connection)
        await _receive(hub, table, connection, _data(raw))


async def _receive(hub: Hub, table: Table, connection: Connection, data: str | bytes) -> None:
    """One message: checked, limited, handled once per id, answered."""
    intent: AnyIntent | None = None
    refused: ProtocolError | None = None
    try:
        intent = parse_intent(data)
        key = intent.id
    except ProtocolError as error:
        key, refused = error.id, error
    if not hub.rate_limit(connection).allow():
        message = "Too many messages: slow down."
        hub.send(connection, ErrorMessage(code="rate_limited", message=message, id=key))
        return
    if intent is None:
        assert refused is not None
        hub.send(connection, ErrorMessage(code=refused.code, message=str(refused), id=key))
        return
    if not hub.still_seated(table, connection):
        connection.close(CLOSE_SEAT_GONE, "this seat was handed to a bot")
        return
    if key is None:
        answer, _ = await _answer(hub, table, connection, intent)
        if answer is not None:
            hub.send(connection, answer)
        return
    answers = hub.answers(connection)
    earlier = answers.get(key)
    if earlier is not None:  # a repeat: the same answer, nothing applied again
        text = earlier if isinstance(earlier, str) else await asyncio.shield(earlier)
    else:
        future = answers.begin(key)
        failed = ErrorMessage(code="server_error", message="The server stopped.", id=key)
        text, done = failed.model_dump_json(), False
        try:
            answer, done = await _answer(hub, table, connection, intent)
            text = (answer or failed).model_dump_json()
        finally:
            answers.end(key, future, text, keep=done)
    hub.sent["answer"] += 1
    connection.offer(text)


async def _answer(
    hub: Hub, table: Table, connection: Connection, intent: AnyIntent
) -> tuple[AckMessage | ErrorMessage | None, bool]:
    """Handle an intent: its acknowledgement (None without an id) and whether it was
    handled, or the error that refused it (nothing changed)."""
    try:
        seq = await _handle(hub, table, connection, intent)
    except Repeated as repeat:  # handled before, perhaps through another node
        return (AckMessage(id=intent.id, seq=repeat.seq) if intent.id else None), True
    except YahtzeeError as error:
        return ErrorMessage(code=error.code, message=str(error), id=intent.id), False
    except Exception:
        log.exception("an intent at table %s failed", table.id)
        message = "Something went wrong on the server; try again."
        return ErrorMessage(code="server_error", message=message, id=intent.id), False
    return (AckMessage(id=intent.id, seq=seq) if intent.id is not None else None), True


async def _handle(hub: Hub, table: Table, connection: Connection, intent: AnyIntent) -> int:
    """Do what the intent asks; the committed sequence number after it."""
    seat = connection.seat
    match intent:
        case PingIntent():
            hub.pong(connection)
        case ResyncIntent():
            hub.send(connection, await hub.state(table, seat))
        case ChatIntent():
            if seat is None:
                raise IllegalMove("Spectators cannot chat.", code="spectator")
            text = clean_text(intent.text, MAX_CHAT)
            if text:
                await hub.chat(table, seat, text)
        case HintIntent():
            advice = await _live(table).hint(seat)
            hub.send(connection, HintMessage.of(advice))
        case ReviewIntent():
            reviews = await _live(table).review()
            notes = play_notes(_live(table).session)
            hub.send(connection, ReviewMessage.of(reviews, notes))
        case HoldIntent():
            no_holding(table)
            return hub.hold(table, _player(seat), check_slots(intent.held))
        case DiceIntent() | WriteIntent() | UndoIntent():
            return await handle_entry(table, _player(seat), intent, _key(seat, intent.id))
        case RollIntent():
            live = _live(table)
            keep, held = _roll_keep(live, intent)
            return (await live.act(keep, _player(seat), _key(seat, intent.id), held)).seq
        case ScoreIntent():
            action = Score(Category.parse(intent.box))
            return (await _live(table).act(action, _player(seat), _key(seat, intent.id))).seq
        case _:
            assert_never(intent)
    return table.live.committed_seq if table.live is not None else 0


def _roll_keep(live: LiveGame, intent: RollIntent) -> tuple[Keep, tuple[int, ...] | None]:
    """The dice a roll keeps, and their places when it names them."""
    named = Keep.parse(intent.keep) if intent.keep.strip() else None
    if intent.held is None:
        return (named or Keep.NONE), None
    held = check_slots(intent.held)
    tray = live.tray_for(live.committed_game())
    if held and not tray.faces:
        raise IllegalMove("Roll the dice before holding any.", code="not_rolled")
    keep = Keep.of(tray.faces[slot] for slot in held)
    if named is not None and named != keep:
        raise InvalidInput(f"The dice held ({keep}) are not the dice named ({named}).")
    return keep, held


def _key(seat: int | None, intent_id: str | None) -> str | None:
    """An intent's key in the records (unique per game): its seat and its id."""
    return None if intent_id is None else f"{seat}:{intent_id}"


def _live(table: Table) -> LiveGame:
    if table.live is None:
        raise IllegalMove("The game has not started yet.", code="not_started")
    return table.live


def _player(seat: int | None) -> int:
    if seat is None:
        raise IllegalMove("Spectators cannot act.", code="spectator")
    return seat
