"""The server: REST for the lobby, a WebSocket per client for play (FastAPI + uvicorn).

The routes live in `routers` (one router per resource) and reach, through `deps`, the
game service (the node's `Lobby`, on ``app.state.lobby``: every table's room, which owns
its game, bots, chat, presence, meter and records) and the WebSocket transport (the
`Hub`, on ``app.state.hub``: the connections, their caps, and each room's events
serialised for them; built first, as the lobby's listener). The origins the server answers for are
on ``app.state.allowed_hosts`` (`security`); a request body is at most
`MAX_BODY_BYTES` (`limits`). Every refusal is ``{"code", "message"}``: validation errors
(bodies are read strictly, JSON's own types only) are 400 ``bad_request`` with a sentence
a player can act on, and nothing answers with a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import sys
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware import Middleware
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from ..core import MAX_LEVEL, MAX_PLAYERS, MIN_LEVEL, IllegalMove, YahtzeeError
from ..core.language import N_, _, speaking
from ..service import (
    LOBBY_IDLE_S,
    MAX_TABLES_PER_CLIENT,
    Cluster,
    Forbidden,
    Lobby,
    open_lobby,
)
from ..service.accounts import Accounts, BadCredentials, SignedOut
from ..service.pushing import Pushing, open_pushing
from ..service.room import SERVER_ERROR
from ..service.sign_in_limits import SlowDown
from ..service.timeout import MAX_MISSED, MAX_TURN_TIMER_S
from ..store import Store
from .accounts import CrossSiteCheck
from .admission import RATE_PER_SECOND
from .hub import Hub
from .i18n import warm_catalogs
from .limits import BodyLimit
from .models import Refusal
from .page_files import CompressPage, PageFiles, mount_page_files
from .protocol import VERSION
from .routers import (
    account,
    advisor,
    app_shell,
    daily,
    i18n,
    lobby,
    me,
    offline_games,
    pages,
    passkeys,
    play,
    push,
    rules,
)
from .security import SECURITY_HEADERS, AllowedHosts, HostCheck, SecurityHeaders
from .speaking import SpeakLanguage, chosen_language

ROUTERS = (
    pages,
    app_shell,
    lobby,
    rules,
    advisor,
    daily,
    play,
    account,
    passkeys,
    me,
    offline_games,
    push,
    i18n,
)
"""The resources the app serves, each a router of its own."""
SWITCH_INTERVAL = 0.0005
GC_THRESHOLDS = (50_000, 50, 1000)
SWEEP_INTERVAL_S = 60.0
HTTP_BAD_REQUEST = 400
HTTP_UNAUTHORIZED = 401
HTTP_FORBIDDEN = 403
HTTP_NOT_FOUND = 404
HTTP_METHOD_NOT_ALLOWED = 405
HTTP_CONFLICT = 409
HTTP_GONE = 410
HTTP_TOO_MANY_REQUESTS = 429
NOT_FOUND = frozenset({"no_table", "no_sitting", "no_game", "no_day", "no_account", "no_rules"})
HTTP_SERVER_ERROR = 500

log = logging.getLogger(__name__)


def _status(error: YahtzeeError) -> int:
    if isinstance(error, SignedOut | BadCredentials):
        return HTTP_UNAUTHORIZED
    if isinstance(error, SlowDown):
        return HTTP_TOO_MANY_REQUESTS
    if isinstance(error, Forbidden):
        return HTTP_FORBIDDEN
    if error.code in NOT_FOUND:
        return HTTP_NOT_FOUND
    if error.code == "rematch_gone":
        return HTTP_GONE
    return HTTP_CONFLICT if isinstance(error, IllegalMove) else HTTP_BAD_REQUEST


def _refusal(status: int, code: str, message: str, headers: Any = None) -> JSONResponse:
    return JSONResponse(
        Refusal(code=code, message=message).model_dump(), status_code=status, headers=headers
    )


def _server_error(request: Request) -> str:
    """The refusal of a request that failed, in its language (the last-resort handler
    answers from outside `SpeakLanguage`)."""
    with speaking(chosen_language(request)):
        return _(SERVER_ERROR)


# Validation errors in words ------------------------------------------------------------

_FIELDS = {
    "host": N_("Your name"),
    "name": N_("Your name"),
    "rules": N_("The rules"),
    "seats": N_("The list of seats"),
    "hints": N_("Hints allowed"),
    "turn_timer": N_("The turn timer"),
    "timeout_rule": N_("The timeout rule"),
    "timeout_level": N_("The timeout bot's level"),
    "timeout_missed": N_("Missed turns before a seat is out"),
    "dice": N_("The dice"),
    "level": N_("The bot level"),
    "kind": N_("The kind of seat"),
    "seat": N_("The seat"),
    "table_id": N_("The table"),
    "invite": N_("The invite"),
    "authorization": N_("The Authorization header"),
}
"""What a player calls each field (translated where shown)."""


def _range(field: str) -> str | None:
    """What a field with a range must be, in words (None: it has none)."""
    if field == "turn_timer":
        return _("a whole number of seconds from 1 to {most} (three days)").format(
            most=MAX_TURN_TIMER_S
        )
    if field in ("timeout_level", "level"):
        return _("a whole number from {least} to {most}").format(least=MIN_LEVEL, most=MAX_LEVEL)
    if field == "timeout_missed":
        return _("a whole number from 1 to {most}").format(most=MAX_MISSED)
    return None


def _label(loc: Sequence[Any]) -> tuple[str, str]:
    """What a player calls the field at ``loc`` (and the field's own name)."""
    parts = [p for p in loc if p not in ("body", "path", "query", "header")]
    field = next((str(p) for p in reversed(parts) if isinstance(p, str)), "")
    if field in _FIELDS:
        label = _(_FIELDS[field])
    elif field:
        # Translators: {field} is the name of a field of the request, as sent ('dice').
        label = _("The field {field}").format(field=repr(field))
    else:
        label = _("The request")
    if "seats" in parts and field != "seats":
        index = next((p for p in parts if isinstance(p, int)), None)
        if index is not None:  # the host is seat 1, the others follow
            # Translators: {label} is what is wrong ("The bot level"), {seat} a number.
            label = _("{label} of seat {seat}").format(label=label, seat=index + 2)
    return label, field


def plain_message(errors: Sequence[Any]) -> str:
    """One sentence a player understands, for the first of pydantic's errors (in the
    language in force)."""
    if not errors:
        return _("The request is not valid.")
    error = errors[0]
    kind = str(error.get("type", ""))
    ctx = error.get("ctx") or {}
    label, field = _label(error.get("loc", ()))
    if kind == "json_invalid":
        reason = ctx.get("error", "")
        if reason:
            return _("The request is not valid JSON ({reason}).").format(reason=reason)
        return _("The request is not valid JSON.")
    if kind in ("model_attributes_type", "dict_type", "model_type") and not field:
        return _("The request must be a JSON object.")
    # (In the sentences below, {label} is what a player calls the field: "Your name".)
    if kind == "missing":
        return _("{label} is missing.").format(label=label)
    if kind == "string_too_short":
        if ctx.get("min_length") == 1:
            return _("{label} is empty.").format(label=label)
        return _("{label} is too short.").format(label=label)
    if kind == "string_too_long":
        most = ctx.get("max_length")
        return _("{label} is too long (at most {most} characters).").format(label=label, most=most)
    if kind == "too_long" and field == "seats":
        return _("A table has at most {most} seats, the host's included.").format(most=MAX_PLAYERS)
    allowed = _range(field)
    if allowed is not None and kind != "missing":
        return _("{label} must be {allowed}.").format(label=label, allowed=allowed)
    if kind in ("int_parsing", "int_type", "int_from_float"):
        return _("{label} must be a whole number.").format(label=label)
    if kind == "finite_number":
        return _("{label} must be a finite number.").format(label=label)
    if kind in ("string_type", "string_unicode"):
        return _("{label} must be text.").format(label=label)
    if kind in ("bool_parsing", "bool_type"):
        return _("{label} must be true or false.").format(label=label)
    if kind == "literal_error":
        expected = ctx.get("expected")
        if expected:
            # Translators: {allowed} lists the values allowed, as sent ("'bot' or 'out'").
            return _("{label} must be {allowed}.").format(label=label, allowed=expected)
        return _("{label} must be one of the choices.").format(label=label)
    if kind == "list_type":
        return _("{label} must be a list.").format(label=label)
    if kind in ("model_attributes_type", "dict_type", "model_type"):
        return _("{label} must be a JSON object.").format(label=label)
    if kind in ("greater_than_equal", "greater_than"):
        return _("{label} is too small.").format(label=label)
    if kind in ("less_than_equal", "less_than"):
        return _("{label} is too large.").format(label=label)
    return _("{label} is not valid.").format(label=label)


async def _push_turns(store: Store, lobby: Lobby, allow_local: bool | None) -> Pushing:
    """The server's Web Push, told of each turn the lobby's rooms pass to a person (the
    notifier reads the lobby's presence, so it is made after the lobby)."""
    pushing = await asyncio.to_thread(open_pushing, store, lobby.presence, allow_local=allow_local)
    lobby.turns = pushing.notifier
    return pushing


def create_app(
    database_url: str | None = None,
    *,
    bot_delay: float = 0.5,
    store: Store | None = None,
    rate: float = RATE_PER_SECOND,
    max_tables_per_client: int = MAX_TABLES_PER_CLIENT,
    seed: int | None = None,
    allowed_hosts: AllowedHosts | None = None,
    lobby_idle: float = LOBBY_IDLE_S,
    cluster: Cluster | None = None,
    push_allow_local: bool | None = None,
) -> FastAPI:
    """The application. Tables live in the store at ``database_url`` (or ``store``).
    ``seed`` (tests only) makes every table's dice and bots reproducible.
    ``allowed_hosts``: the origins it answers for (default `AllowedHosts.local`;
    ``yahtzee serve`` passes the address it listens on). A table that does not start
    expires ``lobby_idle`` seconds after its last change. ``cluster``: this server is one
    node of several (a `RedisCluster`), sharing the database."""
    node = cluster if cluster is not None else Cluster()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Store writes run in worker threads; a short GIL switch interval keeps them from
        # holding up the event loop (p99 intent-to-broadcast 160 ms -> 30 ms at N = 1000).
        switch = sys.getswitchinterval()
        sys.setswitchinterval(min(switch, SWITCH_INTERVAL))
        own = store is None
        opened = store if store is not None else await asyncio.to_thread(Store, database_url)
        hub = Hub(rate=rate)  # the rooms' listener: it serves the connections
        lobby = open_lobby(
            opened,
            hub,
            cluster=node,
            bot_delay=bot_delay,
            max_tables_per_client=max_tables_per_client,
            seed=seed,
            idle_timeout=lobby_idle,
        )
        pushing = await _push_turns(opened, lobby, push_allow_local)
        await asyncio.to_thread(lobby.load_unfinished)
        warming = asyncio.create_task(lobby.warm_up())  # the server answers meanwhile
        reading = asyncio.create_task(asyncio.to_thread(warm_catalogs))  # (the same)
        with _rare_collections():
            app.state.hub, app.state.lobby, app.state.pushing = hub, lobby, pushing
            app.state.accounts = Accounts(opened, clock=lobby.clock)
            lobby.resume_play()
            await node.start(lobby)
            sweeping = asyncio.create_task(_sweep(lobby))
            yield
            sweeping.cancel()
            await _leave(app, node)
            warming.cancel()
            await reading  # (a thread: it ends by itself, in well under a second)
            pushing.notifier.close()
            lobby.close()
            if own:
                opened.close()
            sys.setswitchinterval(switch)

    app = FastAPI(
        title="yahtzee",
        version=str(VERSION),
        lifespan=lifespan,
        description="Online Yahtzee tables. See docs/protocol.md.",
        docs_url=None,  # Swagger UI and ReDoc load from a CDN: the schema is enough
        redoc_url=None,
        # innermost (those added below wrap it): it compresses only the page's answers
        middleware=[Middleware(CompressPage)],
        responses={
            status: {"model": Refusal}
            for status in (
                HTTP_BAD_REQUEST,
                HTTP_UNAUTHORIZED,
                HTTP_FORBIDDEN,
                HTTP_NOT_FOUND,
                HTTP_CONFLICT,
                HTTP_TOO_MANY_REQUESTS,
            )
        },
    )
    allowed = allowed_hosts if allowed_hosts is not None else AllowedHosts.local()
    app.state.allowed_hosts = allowed

    @app.exception_handler(YahtzeeError)
    async def _refused(_request: Request, error: YahtzeeError) -> JSONResponse:
        wait = {"retry-after": str(error.retry_after)} if isinstance(error, SlowDown) else None
        return _refusal(_status(error), error.code, str(error), wait)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        return _refusal(HTTP_BAD_REQUEST, "bad_request", plain_message(error.errors()))

    @app.exception_handler(HTTPException)
    async def _http(_request: Request, error: HTTPException) -> JSONResponse:
        if error.status_code == HTTP_NOT_FOUND:
            code, message = "not_found", _("There is nothing at this address.")
        elif error.status_code == HTTP_METHOD_NOT_ALLOWED:
            code, message = "method_not_allowed", _("This address does not take that method.")
        else:
            code = "bad_request" if error.status_code == HTTP_BAD_REQUEST else "refused"
            message = str(error.detail) if isinstance(error.detail, str) else _("Refused.")
        return _refusal(error.status_code, code, message, error.headers)

    @app.exception_handler(Exception)
    async def _failed(request: Request, error: Exception) -> JSONResponse:
        log.exception("%s %s failed", request.method, request.url.path, exc_info=error)
        return _refusal(
            HTTP_SERVER_ERROR,
            "server_error",
            _server_error(request),
            SECURITY_HEADERS,  # this answer comes from outside the middleware below
        )

    _guard(app, allowed, node)
    app.state.page_files = mount_page_files(app, PageFiles())
    for resource in ROUTERS:
        app.include_router(resource.router)
    _relay_to_owners(app, node)
    return app


def _guard(app: FastAPI, allowed: AllowedHosts, node: Cluster) -> None:
    """The middleware around every route (the last added is the outermost)."""
    app.add_middleware(CrossSiteCheck)  # inside the ones below (the origin checked first)
    app.add_middleware(BodyLimit)  # inside the two below: its refusal is checked and dressed
    app.add_middleware(HostCheck, allowed=allowed)
    app.add_middleware(SecurityHeaders, node=node.node_id if node.clustered else None)
    app.add_middleware(SpeakLanguage)  # outermost: every answer in the player's language


async def _leave(app: FastAPI, node: Cluster) -> None:
    """The server stops: a node of several lets go of its tables, and stops relaying."""
    await node.stop()
    relay = getattr(app.state, "relay", None)
    if relay is not None:
        await relay.close()


def _relay_to_owners(app: FastAPI, node: Cluster) -> None:
    """A node of several relays what reaches it to the tables' owners (`relay`; only
    then is its code loaded)."""
    if not node.clustered:
        return
    from ..service.cluster.node import RedisCluster  # noqa: PLC0415
    from .relay import install  # noqa: PLC0415

    if isinstance(node, RedisCluster):
        install(app, node)


@contextlib.contextmanager
def _rare_collections() -> Iterator[None]:
    """The cyclic garbage collector's full passes over thousands of live games were the
    p99 tail (~170 ms at N = 1000): freeze what startup made, and collect rarely."""
    thresholds = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


async def _sweep(lobby: Lobby) -> None:
    """Now and then, the tables that waited too long in the lobby expire (whoever is
    still at them hears of it), the turn-by-turn tables whose move's time ran out get
    their timeout rule, and those resting are let go from memory."""
    while True:
        await asyncio.sleep(SWEEP_INTERVAL_S)
        try:
            await lobby.expire_idle()
        except Exception:
            log.exception("expiring idle tables failed")
        try:
            await lobby.sweep_deadlines()
            lobby.let_go_idle()
        except Exception:
            log.exception("sweeping turn-by-turn tables failed")


__all__ = ["create_app", "plain_message"]
