"""The installable app's shell: its service worker (``/sw.js``, at the site's root so that
its scope is the whole site) and its web app manifest (``/manifest.webmanifest``). Both
are asked again each time (``no-cache``) with their ``ETag``: a browser sees a new release
as soon as there is one, and an unchanged one costs a ``304``."""

from __future__ import annotations

import hashlib
import json

from fastapi import APIRouter, Request, Response

from ..page_files import HTTP_NOT_MODIFIED, REVALIDATE, PageFiles
from ..shell import manifest, service_worker

router = APIRouter()


@router.get("/sw.js", include_in_schema=False)
async def worker(request: Request) -> Response:
    """``static/sw.js`` with the current release written into it (`shell.service_worker`)."""
    files: PageFiles = request.app.state.page_files
    return _revalidated(request, service_worker(files), "text/javascript; charset=utf-8")


@router.get("/manifest.webmanifest", include_in_schema=False)
async def web_app_manifest(request: Request) -> Response:
    """The web app manifest (`shell.manifest`): name, colours, icons under the page files'
    current version."""
    files: PageFiles = request.app.state.page_files
    body = json.dumps(manifest(files.version()), separators=(",", ":")).encode()
    return _revalidated(request, body, "application/manifest+json")


def _revalidated(request: Request, body: bytes, media_type: str) -> Response:
    """``body`` with its ``ETag``, or ``304`` where the browser has those bytes already."""
    tag = f'"{hashlib.sha256(body).hexdigest()[:32]}"'
    headers = {"cache-control": REVALIDATE, "etag": tag}
    asked = request.headers.get("if-none-match", "")
    if tag in (t.strip().removeprefix("W/") for t in asked.split(",")):
        return Response(status_code=HTTP_NOT_MODIFIED, headers=headers)
    return Response(body, media_type=media_type, headers=headers)
