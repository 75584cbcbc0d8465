"""The page itself and the health check."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request, Response
from fastapi.responses import FileResponse

from ...solver.win_tables import current_build
from ..deps import LobbyDep
from ..models import Health, TableBuild
from ..page_files import STATIC, PageFiles

router = APIRouter()


@router.get("/", include_in_schema=False)
async def page(request: Request) -> Response:
    """The page, naming its files under their current version (`page_files`); never
    kept, so that it always names the current one."""
    files: PageFiles = request.app.state.page_files
    return Response(
        files.index(), media_type="text/html; charset=utf-8", headers={"cache-control": "no-store"}
    )


@router.get("/favicon.ico", include_in_schema=False)
async def favicon() -> FileResponse:
    """The page's icon (a die) where browsers look for it first."""
    return FileResponse(
        STATIC / "favicon.svg",
        media_type="image/svg+xml",
        headers={"cache-control": "public, max-age=86400"},
    )


@router.get("/api/health", response_model_exclude_none=True)
async def health(lobby: LobbyDep, table: str | None = None) -> Health:
    """Whether the server answers, and its solver is ready; on a node of several, its
    name, how many tables it serves, and (``?table=ID``) whether it serves that one."""
    ready = lobby.solver_ready.is_set()
    cluster = lobby.cluster
    solver: Literal["warming", "ready"] = "ready" if ready else "warming"
    if not cluster.clustered:
        return Health(solver=solver, table_build=_table_build())
    tables = lobby.tables
    serves = None if table is None else table in tables and cluster.owns(table)
    return Health(
        solver=solver, node=cluster.node_id, tables=len(tables), serves=serves,
        table_build=_table_build(),
    )  # fmt: skip


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
