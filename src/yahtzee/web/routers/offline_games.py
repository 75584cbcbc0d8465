"""Finished offline games, uploaded by the signed-in account (REST, JSON): replayed
through the rules and kept as offline, unranked games. See docs/protocol.md, *Offline
games*."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ...service import offline_games
from ..accounts import SignedInDep
from ..deps import LobbyDep, StrictJSONRoute
from ..limits import OFFLINE_GAMES_PATH
from ..offline_models import OfflineGameBody, OfflineGameKept

HTTP_CREATED = 201
HTTP_OK = 200

router = APIRouter(route_class=StrictJSONRoute)


@router.post(OFFLINE_GAMES_PATH, status_code=HTTP_CREATED, response_model=OfflineGameKept)
async def upload(body: OfflineGameBody, account: SignedInDep, lobby: LobbyDep) -> JSONResponse:
    """Keep a finished offline game (``201``); the same upload again: ``200`` with the
    game kept before. ``400 illegal_game`` (a rule broken: which event and why),
    ``400 not_over``, ``400 unknown_rules``, ``409 id_taken`` (another game under this
    id), ``413 too_large``: nothing kept."""
    kept = await asyncio.to_thread(offline_games.upload, lobby.store, account, body.upload())
    answer = OfflineGameKept(game=kept.game_id)
    return JSONResponse(answer.model_dump(), status_code=HTTP_CREATED if kept.new else HTTP_OK)
