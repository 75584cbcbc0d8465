"""The page itself and the health check."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

from ...solver.win_tables import current_build
from ..deps import HubDep
from ..models import Health, TableBuild

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
    return Health(solver="ready" if ready else "warming", node=node, table_build=_table_build())


def _table_build() -> TableBuild | None:
    """The build under way on this machine (a look at its state file and lock)."""
    state = current_build()
    job = state.current if state is not None else None
    if state is None or job is None:
        return None
    return TableBuild(
        rules=job.rules, kind=job.kind, done=job.done, total=job.total, pid=state.pid,
        expected_bytes=state.expected_bytes, expected_seconds=state.expected_seconds,
    )  # fmt: skip
