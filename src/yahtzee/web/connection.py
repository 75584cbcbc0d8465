"""One client's WebSocket: its checks (origin, token), its intents and their answers."""

from __future__ import annotations

import contextlib
import time
from typing import Any
from urllib.parse import urlsplit

from fastapi import WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

from ..core import Category, IllegalMove, InvalidInput, Keep, Score, YahtzeeError
from .app import RATE_BURST, Server
from .protocol import (
    VERSION,
    ChatIntent,
    HintIntent,
    ResyncIntent,
    ReviewIntent,
    RollIntent,
    clean_text,
    error_message,
    parse_intent,
)
from .tables import LiveTable


def _same_origin(socket: WebSocket) -> bool:
    origin = socket.headers.get("origin")
    if origin is None:  # not a browser: nothing to forge
        return True
    return urlsplit(origin).netloc == socket.headers.get("host")


async def session(server: Server, socket: WebSocket, table_id: str) -> None:
    """One client's connection: the full state first, then its intents and our events."""
    if not _same_origin(socket):
        await socket.close(code=4403, reason="origin not allowed")
        return
    table = server.manager.tables.get(table_id)
    token = socket.query_params.get("token")
    spectate = socket.query_params.get("spectate")
    seat = table.seat_of(token) if table else None
    watching = table is not None and spectate is not None and spectate == table.spectator_token
    if table is None or (seat is None and not watching):
        await socket.close(code=4401, reason="unknown table or token")
        return
    await socket.accept()
    table.connections[socket] = seat
    await socket.send_json(server.snapshot(table, seat))
    await server.push_lobby(table)
    burst = max(RATE_BURST, 2 * server.rate)
    allowance, stamp = burst, time.monotonic()
    try:
        while True:
            raw = await socket.receive()
            if raw.get("type") == "websocket.disconnect":
                break
            text: str | bytes = raw.get("text") or raw.get("bytes") or b""
            now = time.monotonic()
            allowance = min(burst, allowance + (now - stamp) * server.rate)
            stamp = now
            if allowance < 1:
                await socket.send_json(
                    error_message("rate_limited", "Too many messages: slow down.")
                )
                continue
            allowance -= 1
            try:
                await _handle(server, table, seat, socket, parse_intent(text))
            except YahtzeeError as error:
                await socket.send_json(error_message(error.code, str(error)))
    except WebSocketDisconnect:
        pass
    finally:
        table.connections.pop(socket, None)
        with contextlib.suppress(Exception):
            await server.push_lobby(table)


async def _handle(
    server: Server, table: LiveTable, seat: int | None, socket: WebSocket, intent: Any
) -> None:
    if isinstance(intent, ResyncIntent):
        await socket.send_json(server.snapshot(table, seat))
    elif isinstance(intent, ChatIntent):
        if seat is None:
            raise InvalidInput("Spectators cannot chat.", code="spectator")
        text = clean_text(intent.text, 200)
        if text:
            await server.broadcast(
                table,
                {
                    "v": VERSION,
                    "type": "chat",
                    "seat": seat,
                    "name": table.seats[seat].name,
                    "text": text,
                },
            )
    elif isinstance(intent, HintIntent):
        await socket.send_json(await run_in_threadpool(_hint, table, seat))
    elif isinstance(intent, ReviewIntent):
        await socket.send_json(await run_in_threadpool(_review, table))
    elif isinstance(intent, RollIntent):
        keep = Keep.parse(intent.keep) if intent.keep.strip() else Keep.NONE
        await server.apply(table, seat, keep)
    else:
        await server.apply(table, seat, Score(Category.parse(intent.box)))


def _hint(table: LiveTable, seat: int | None) -> dict[str, Any]:
    if not table.hints_allowed:
        raise IllegalMove("Hints are off at this table.", code="hints_off")
    game = table.game
    situation = game.situation() if game else None
    if game is None or situation is None or seat != game.current_player:
        raise IllegalMove("Hints are for the player whose dice are showing.", code="not_your_turn")
    from ..solver.solver import cached_solver  # noqa: PLC0415

    advice = cached_solver(table.rules, progress=False).advise(situation)
    best = advice.best.value
    options = [
        {"action": o.text, "value": o.value, "regret": best - o.value} for o in advice.options[:5]
    ]
    return {"v": VERSION, "type": "hint", "situation": str(situation), "options": options}


def _review(table: LiveTable) -> dict[str, Any]:
    game = table.game
    if game is None or not game.is_over:
        raise IllegalMove("The review comes when the game is over.", code="not_over")
    from ..solver.review import review  # noqa: PLC0415
    from ..solver.solver import cached_solver  # noqa: PLC0415

    cached_solver(table.rules, progress=False)
    humans = [s.seat for s in table.seats if s.bot is None]
    players = []
    for p in review(game, humans):
        worst = [
            {
                "round": d.round,
                "dice": d.situation.dice.spaced(),
                "chosen": d.text,
                "best": d.best_text,
                "loss": d.loss,
            }
            for d in p.costliest(3)
        ]
        players.append(
            {
                "seat": p.player,
                "name": p.name,
                "total_loss": p.total_loss,
                "decisions": len(p.decisions),
                "costliest": worst,
            }
        )
    return {"v": VERSION, "type": "review", "players": players}
