"""The server: REST for the lobby, a WebSocket per client for play (FastAPI + uvicorn)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Header, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from ..core import IllegalMove, Keep, RuleSet, Score, YahtzeeError
from ..core.events import event_to_dict
from ..store import Store
from .protocol import (
    VERSION,
    ProtocolError,
    game_state,
)
from .tables import MAX_TABLES_PER_CLIENT, Forbidden, LiveTable, TableManager

RATE_PER_SECOND = 10.0
SWITCH_INTERVAL = 0.0005
GC_THRESHOLDS = (50_000, 50, 1000)
RATE_BURST = 20.0


class SeatRequest(BaseModel):
    kind: str = Field(pattern="^(human|bot)$")
    level: int | None = Field(default=None, ge=1, le=5)


class CreateTable(BaseModel):
    host: str = Field(min_length=1, max_length=40)
    rules: str = "official"
    seats: list[SeatRequest] = Field(default_factory=list, max_length=7)
    hints: bool = True
    turn_timer: int | None = Field(default=None, ge=1, le=600)


class JoinTable(BaseModel):
    name: str = Field(min_length=1, max_length=40)


class BotSeat(BaseModel):
    level: int = Field(default=3, ge=1, le=5)


def _status(error: YahtzeeError) -> int:
    if isinstance(error, Forbidden):
        return 403
    if error.code == "no_table":
        return 404
    return 409 if isinstance(error, IllegalMove) else 400


def _bearer(authorization: str | None) -> str | None:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None


class Server:
    """The live tables, their connections and their bots."""

    def __init__(
        self,
        store: Store,
        bot_delay: float,
        rate: float = RATE_PER_SECOND,
        max_tables_per_client: int = MAX_TABLES_PER_CLIENT,
    ) -> None:
        self.manager = TableManager(store, max_tables_per_client)
        self.store = store
        self.bot_delay = bot_delay
        self.rate = rate
        self.locks: dict[str, asyncio.Lock] = {}
        self.bot_tasks: dict[str, asyncio.Task[None]] = {}
        self.timers: dict[str, asyncio.Task[None]] = {}
        self.pending: list[tuple[str, Any, asyncio.Future[None]]] = []
        self.committing: asyncio.Task[None] | None = None

    async def commit(self, game_id: str, game: Any) -> None:
        """Wait until the game's new events are committed. Requests that arrive together
        share one transaction (group commit), so tables do not queue on the write lock."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.pending.append((game_id, game, done))
        if self.committing is None or self.committing.done():
            self.committing = asyncio.create_task(self._commit_loop())
        await done

    async def _commit_loop(self) -> None:
        while self.pending:
            batch, self.pending = self.pending, []
            latest = {game_id: game for game_id, game, _ in batch}
            try:
                await run_in_threadpool(self.store.save_many, list(latest.items()))
                failed: BaseException | None = None
            except Exception as error:  # one bad game must not fail the others
                failed = error
            for game_id, game, done in batch:
                if failed is None:
                    done.set_result(None)
                    continue
                try:
                    await run_in_threadpool(self.store.save, game_id, game)
                    done.set_result(None)
                except Exception as error:
                    done.set_exception(error)

    def lock(self, table: LiveTable) -> asyncio.Lock:
        return self.locks.setdefault(table.id, asyncio.Lock())

    def snapshot(self, table: LiveTable, seat: int | None) -> dict[str, Any]:
        game = table.game
        return {
            "v": VERSION,
            "type": "state",
            "seq": len(game.event_log) if game else 0,
            "table": table.lobby(),
            "you": {"seat": seat, "role": "spectator" if seat is None else "player"},
            "game": game_state(game) if game else None,
        }

    async def broadcast(self, table: LiveTable, message: dict[str, Any]) -> None:
        for socket in list(table.connections):
            with contextlib.suppress(Exception):
                await socket.send_json(message)

    async def push_lobby(self, table: LiveTable) -> None:
        for socket, seat in list(table.connections.items()):
            with contextlib.suppress(Exception):
                await socket.send_json(self.snapshot(table, seat))

    async def apply(self, table: LiveTable, seat: int | None, action: Keep | Score) -> None:
        """Check, commit, then broadcast one action of ``seat``."""
        game, game_id = table.game, table.game_id
        if game is None or game_id is None:
            raise IllegalMove("The game has not started yet.", code="not_started")
        if seat is None:
            raise Forbidden("Spectators cannot act.", code="spectator")
        async with self.lock(table):
            before = len(game.event_log)
            game.check(action, seat)
            game.play(action, player=seat)
            try:
                await self.commit(game_id, game)
            except Exception:
                # the event could not be committed: take it back, so nothing unrecorded shows
                table.game = await run_in_threadpool(self.store.load, game_id)
                raise
            if game.is_over:
                await run_in_threadpool(self.manager.finish, table)
            events = [event_to_dict(e) for e in game.event_log[before:]]
            for offset, event in enumerate(events, start=before + 1):
                await self.broadcast(
                    table,
                    {
                        "v": VERSION,
                        "type": "event",
                        "seq": offset,
                        "event": event,
                        "game": game_state(game),
                    },
                )
        self.schedule_bots(table)

    def schedule_bots(self, table: LiveTable) -> None:
        self._schedule_timer(table)
        game = table.game
        if game is None or game.is_over or table.id in self.bot_tasks:
            return
        seat = game.current_player
        if seat is None or table.seats[seat].bot is None:
            return
        task = asyncio.create_task(self._bot_turns(table))
        self.bot_tasks[table.id] = task

    def _schedule_timer(self, table: LiveTable) -> None:
        """With a turn timer, a human who does not act in time has the decision made for
        them (as a level-3 bot would), one decision at a time."""
        old = self.timers.pop(table.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        game = table.game
        if not table.turn_timer or game is None or game.is_over:
            return
        seat = game.current_player
        if seat is None or table.seats[seat].bot is not None:
            return
        self.timers[table.id] = asyncio.create_task(self._expire(table, seat, len(game.event_log)))

    async def _expire(self, table: LiveTable, seat: int, seq: int) -> None:
        await asyncio.sleep(float(table.turn_timer or 0))
        game = table.game
        if game is None or len(game.event_log) != seq or game.current_player != seat:
            return
        self.timers.pop(table.id, None)
        action = await run_in_threadpool(self._bot_action, table, seat, "level3")
        await self.apply(table, seat, action)

    async def _bot_turns(self, table: LiveTable) -> None:
        try:
            while table.game and not table.game.is_over:
                seat = table.game.current_player
                if seat is None or table.seats[seat].bot is None:
                    return
                await asyncio.sleep(self.bot_delay)
                action = await run_in_threadpool(self._bot_action, table, seat)
                self.bot_tasks.pop(table.id, None)
                await self.apply(table, seat, action)
                return
        finally:
            self.bot_tasks.pop(table.id, None)

    @staticmethod
    def _bot_action(table: LiveTable, seat: int, stand_in: str | None = None) -> Keep | Score:
        assert table.game is not None
        situation = table.game.situation()
        if situation is None:
            return Keep.NONE
        if stand_in is not None:
            from ..solver import strategy  # noqa: PLC0415

            chosen: Keep | Score = strategy(stand_in, table.rules).choose(situation)
            return chosen
        if seat not in table.bots:
            from ..solver import strategy  # noqa: PLC0415 - numba loads with the first bot
            from ..solver.solver import cached_solver  # noqa: PLC0415

            cached_solver(table.rules, progress=False)
            table.bots[seat] = strategy(table.seats[seat].bot or "optimal", table.rules)
        action: Keep | Score = table.bots[seat].choose(situation)
        return action


def create_app(  # noqa: PLR0915 - the routes are defined together, over one server
    database_url: str | None = None,
    *,
    bot_delay: float = 0.5,
    store: Store | None = None,
    rate: float = RATE_PER_SECOND,
    max_tables_per_client: int = MAX_TABLES_PER_CLIENT,
) -> FastAPI:
    """The application. Tables live in the store at ``database_url`` (or ``store``)."""
    holder: dict[str, Server] = {}

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        # Store writes run in worker threads; a short GIL switch interval keeps them from
        # holding up the event loop (p99 intent-to-broadcast 160 ms -> 30 ms at N = 1000).
        switch = sys.getswitchinterval()
        sys.setswitchinterval(min(switch, SWITCH_INTERVAL))
        own = store is None
        opened: Store = store if store is not None else await run_in_threadpool(Store, database_url)
        server = Server(opened, bot_delay, rate, max_tables_per_client)
        await run_in_threadpool(server.manager.load_unfinished)
        await run_in_threadpool(_warm_up)  # bots and hints answer at once from the start
        # The cyclic garbage collector's full passes over thousands of live games were the
        # p99 tail (~170 ms at N = 1000): freeze what startup made, and collect rarely.
        thresholds = gc.get_threshold()
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        holder["server"] = server
        for table in server.manager.tables.values():
            server.schedule_bots(table)
        yield
        for task in [*server.bot_tasks.values(), *server.timers.values()]:
            task.cancel()
        if own:
            opened.close()
        sys.setswitchinterval(switch)
        gc.set_threshold(*thresholds)
        gc.unfreeze()

    app = FastAPI(
        title="yahtzee",
        version=str(VERSION),
        lifespan=lifespan,
        description="Online Yahtzee tables. See docs/protocol.md.",
    )

    def server() -> Server:
        return holder["server"]

    @app.exception_handler(YahtzeeError)
    async def _refused(_: Request, error: YahtzeeError) -> JSONResponse:
        return JSONResponse({"code": error.code, "message": str(error)}, status_code=_status(error))

    static = Path(__file__).parent / "static"
    app.mount("/static", StaticFiles(directory=static), name="static")

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(static / "index.html", headers={"cache-control": "no-store"})

    @app.get("/api/health")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        rules = RuleSet.named(body.rules)
        owner = request.client.host if request.client else "unknown"
        table, token = await run_in_threadpool(
            server().manager.create,
            owner,
            body.host,
            [s.model_dump() for s in body.seats],
            rules,
            body.hints,
            body.turn_timer,
        )
        return {
            "table": table.lobby(),
            "seat": 0,
            "token": token,
            "invite": table.invite_token,
            "spectate": table.spectator_token,
        }

    @app.post("/api/join/{invite}")
    async def join(invite: str, body: JoinTable) -> dict[str, Any]:
        table, seat, token = await run_in_threadpool(server().manager.join, invite, body.name)
        await server().push_lobby(table)
        return {"table": table.lobby(), "seat": seat, "token": token}

    @app.get("/api/tables/{table_id}")
    async def lobby(table_id: str) -> dict[str, Any]:
        return server().manager.get(table_id).lobby()

    @app.post("/api/tables/{table_id}/start")
    async def start(
        table_id: str, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        s = server()
        table = s.manager.get(table_id)
        async with s.lock(table):
            await run_in_threadpool(s.manager.start, table, _bearer(authorization))
        await s.push_lobby(table)
        s.schedule_bots(table)
        return table.lobby()

    @app.post("/api/tables/{table_id}/seats/{seat}/bot")
    async def to_bot(
        table_id: str, seat: int, body: BotSeat, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        s = server()
        table = s.manager.get(table_id)
        await run_in_threadpool(
            s.manager.hand_to_bot, table, _bearer(authorization), seat, body.level
        )
        await s.push_lobby(table)
        s.schedule_bots(table)
        return table.lobby()

    @app.websocket("/ws/{table_id}")
    async def play(socket: WebSocket, table_id: str) -> None:
        from .connection import session  # noqa: PLC0415 - connection imports this module

        await session(server(), socket, table_id)

    return app


def _warm_up() -> None:
    """Load the official solver and its compiled kernels before the first table needs them."""
    from ..core import Dice, Situation  # noqa: PLC0415
    from ..solver import strategy  # noqa: PLC0415
    from ..solver.solver import cached_solver  # noqa: PLC0415

    rules = RuleSet.official()
    cached_solver(rules, progress=False)
    strategy("level3", rules).choose(Situation(Dice.parse("12345"), 2))


__all__ = ["ProtocolError", "create_app"]
