"""Play (WebSocket): one client's connection, its checks, its intents and their answers."""

from __future__ import annotations

import time
from typing import assert_never
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ...core import Category, IllegalMove, Keep, Score, YahtzeeError, clean_text
from ...service import LiveGame, Table
from ..deps import SocketHubDep
from ..hub import Hub
from ..models import ChatMessage, ErrorMessage, HintMessage, ReviewMessage
from ..protocol import (
    MAX_CHAT,
    AnyIntent,
    ChatIntent,
    HintIntent,
    ResyncIntent,
    ReviewIntent,
    RollIntent,
    ScoreIntent,
    parse_intent,
)

CLOSE_UNKNOWN = 4401
CLOSE_ORIGIN = 4403

router = APIRouter()


def _same_origin(socket: WebSocket) -> bool:
    origin = socket.headers.get("origin")
    if origin is None:  # not a browser: nothing to forge
        return True
    return urlsplit(origin).netloc == socket.headers.get("host")


class _RateLimit:
    """A token bucket: ``rate`` messages a second, bursts of ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.allowance, self.stamp = burst, time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.allowance = min(self.burst, self.allowance + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True


@router.websocket("/ws/{table_id}")
async def play(socket: WebSocket, table_id: str, hub: SocketHubDep) -> None:
    """One client's connection: the full state first, then its intents and our events."""
    if not _same_origin(socket):
        await socket.close(code=CLOSE_ORIGIN, reason="origin not allowed")
        return
    table = hub.lobby.tables.get(table_id)
    seat = table.seat_of(socket.query_params.get("token")) if table else None
    if table is None or (
        seat is None and not hub.lobby.watching(table, socket.query_params.get("spectate"))
    ):
        await socket.close(code=CLOSE_UNKNOWN, reason="unknown table or token")
        return
    await socket.accept()
    hub.connect(table, socket, seat)
    await hub.send(socket, hub.snapshot(table, seat))
    await hub.push_lobby(table)
    limit = _RateLimit(hub.rate, hub.burst)
    try:
        while True:
            raw = await socket.receive()
            if raw.get("type") == "websocket.disconnect":
                break
            if not limit.allow():
                await hub.send(
                    socket,
                    ErrorMessage(code="rate_limited", message="Too many messages: slow down."),
                )
                continue
            try:
                intent = parse_intent(raw.get("text") or raw.get("bytes") or b"")
                await _handle(hub, table, seat, socket, intent)
            except YahtzeeError as error:
                await hub.send(socket, ErrorMessage(code=error.code, message=str(error)))
    except WebSocketDisconnect:
        pass
    finally:
        hub.disconnect(table, socket)
        await hub.push_lobby(table)


async def _handle(
    hub: Hub, table: Table, seat: int | None, socket: WebSocket, intent: AnyIntent
) -> None:
    match intent:
        case ResyncIntent():
            await hub.send(socket, hub.snapshot(table, seat))
        case ChatIntent():
            if seat is None:
                raise IllegalMove("Spectators cannot chat.", code="spectator")
            text = clean_text(intent.text, MAX_CHAT)
            if text:
                name = table.seats[seat].name
                await hub.broadcast(table, ChatMessage(seat=seat, name=name, text=text))
        case HintIntent():
            advice = await _live(table).hint(seat)
            await hub.send(socket, HintMessage.of(advice))
        case ReviewIntent():
            await hub.send(socket, ReviewMessage.of(await _live(table).review()))
        case RollIntent():
            keep = Keep.parse(intent.keep) if intent.keep.strip() else Keep.NONE
            await _live(table).act(keep, _player(seat))
        case ScoreIntent():
            await _live(table).act(Score(Category.parse(intent.box)), _player(seat))
        case _:
            assert_never(intent)


def _live(table: Table) -> LiveGame:
    if table.live is None:
        raise IllegalMove("The game has not started yet.", code="not_started")
    return table.live


def _player(seat: int | None) -> int:
    if seat is None:
        raise IllegalMove("Spectators cannot act.", code="spectator")
    return seat
