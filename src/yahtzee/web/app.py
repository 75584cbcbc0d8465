"""The server: REST for the lobby, a WebSocket per client for play (FastAPI + uvicorn).

The routes live in :mod:`.routers` (one router per resource); the live-table hub, on
``app.state.hub``, reaches them through :mod:`.deps`; the game service behind the hub owns
every game, its bots, its records and its reviews.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import sys
from collections.abc import AsyncIterator

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from ..core import IllegalMove, YahtzeeError
from ..service import MAX_TABLES_PER_CLIENT, Forbidden
from ..store import Store
from .hub import RATE_PER_SECOND, Hub
from .models import Refusal
from .protocol import VERSION
from .routers import lobby, pages, play

SWITCH_INTERVAL = 0.0005
GC_THRESHOLDS = (50_000, 50, 1000)
HTTP_BAD_REQUEST = 400
HTTP_FORBIDDEN = 403
HTTP_NOT_FOUND = 404
HTTP_CONFLICT = 409


def _status(error: YahtzeeError) -> int:
    if isinstance(error, Forbidden):
        return HTTP_FORBIDDEN
    if error.code == "no_table":
        return HTTP_NOT_FOUND
    return HTTP_CONFLICT if isinstance(error, IllegalMove) else HTTP_BAD_REQUEST


def create_app(
    database_url: str | None = None,
    *,
    bot_delay: float = 0.5,
    store: Store | None = None,
    rate: float = RATE_PER_SECOND,
    max_tables_per_client: int = MAX_TABLES_PER_CLIENT,
    seed: int | None = None,
) -> FastAPI:
    """The application. Tables live in the store at ``database_url`` (or ``store``).
    ``seed`` (tests only) makes every table's dice and bots reproducible."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Store writes run in worker threads; a short GIL switch interval keeps them from
        # holding up the event loop (p99 intent-to-broadcast 160 ms -> 30 ms at N = 1000).
        switch = sys.getswitchinterval()
        sys.setswitchinterval(min(switch, SWITCH_INTERVAL))
        own = store is None
        opened = store if store is not None else await asyncio.to_thread(Store, database_url)
        hub = Hub(
            opened,
            bot_delay=bot_delay,
            rate=rate,
            max_tables_per_client=max_tables_per_client,
            seed=seed,
        )
        await asyncio.to_thread(hub.lobby.load_unfinished)
        warming = asyncio.create_task(hub.warm_up())  # the server answers meanwhile
        # The cyclic garbage collector's full passes over thousands of live games were the
        # p99 tail (~170 ms at N = 1000): freeze what startup made, and collect rarely.
        thresholds = gc.get_threshold()
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        app.state.hub = hub
        hub.lobby.resume_play()
        yield
        warming.cancel()
        hub.lobby.close()
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
        responses={
            status: {"model": Refusal}
            for status in (HTTP_BAD_REQUEST, HTTP_FORBIDDEN, HTTP_NOT_FOUND, HTTP_CONFLICT)
        },
    )

    @app.exception_handler(YahtzeeError)
    async def _refused(_: Request, error: YahtzeeError) -> JSONResponse:
        refusal = Refusal(code=error.code, message=str(error))
        return JSONResponse(refusal.model_dump(), status_code=_status(error))

    app.mount("/static", StaticFiles(directory=pages.STATIC), name="static")
    app.include_router(pages.router)
    app.include_router(lobby.router)
    app.include_router(play.router)
    return app


__all__ = ["create_app"]
