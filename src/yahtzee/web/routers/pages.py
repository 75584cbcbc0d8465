"""The page itself and the health check."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

from ..deps import HubDep
from ..models import Health

STATIC = Path(__file__).resolve().parent.parent / "static"

router = APIRouter()


@router.get("/", include_in_schema=False)
async def page() -> FileResponse:
    return FileResponse(STATIC / "index.html", headers={"cache-control": "no-store"})


@router.get("/favicon.ico", include_in_schema=False)
async def favicon() -> FileResponse:
    """The page's icon (a die) where browsers look for it first."""
    return FileResponse(
        STATIC / "favicon.svg",
        media_type="image/svg+xml",
        headers={"cache-control": "public, max-age=86400"},
    )


@router.get("/api/health", response_model_exclude_none=True)
async def health(hub: HubDep) -> Health:
    ready = hub.solver_ready.is_set()
    cluster = hub.lobby.cluster
    node = cluster.node_id if cluster.clustered else None
    return Health(solver="ready" if ready else "warming", node=node)
