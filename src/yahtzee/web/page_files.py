"""The page's files (``static/``): named by their version, cached, compressed.

The page (``index.html``, served at ``/``) names its files under ``/static/VERSION/``,
``VERSION`` the hash of every file's name and bytes; its ES modules import each other by
relative names, so those resolve under the same version. A file asked for under the
current version is the same bytes for good: it is cached for a year, ``immutable``, and a
later visit asks for none of them. Change any file and the version changes with it, so the
page names new addresses and every module is fetched again. Any other address of a file
(``/static/app.js``, or a version that is not the current one: a page of a node not yet
updated) is ``no-cache``: kept, but asked again each time with its ``ETag``, and answered
``304`` while it is unchanged.

The page and its files are gzip-compressed for a client that accepts it (Starlette's
`GZipMiddleware`), from `COMPRESS_FROM` bytes, and so are the language catalogs
(``/api/i18n/``: public words, 170 KB a language, 50 KB gzipped); not the rest of the API
(its answers carry seat tokens beside names a player chose, what the BREACH attack reads
through compressed sizes) and not WebSockets.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import MutableHeaders
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

STATIC: Final = Path(__file__).resolve().parent / "static"
IMMUTABLE: Final = "public, max-age=31536000, immutable"
REVALIDATE: Final = "no-cache"
COMPRESS_FROM: Final = 1024
"""bytes: a smaller answer is sent as it is (it would gain next to nothing)."""
COMPRESS_LEVEL: Final = 6
HTTP_OK: Final = 200
HTTP_NOT_MODIFIED: Final = 304
_FILE_ADDRESS = re.compile(r'(?P<attr>(?:src|href)=")/static/')


@dataclass(frozen=True, slots=True)
class Release:
    """The files as last seen: each one's name, size and time of change; their version;
    and the page naming them under it."""

    seen: tuple[tuple[str, int, int], ...]
    version: str
    index: bytes


class PageFiles:
    """The files of a folder and their version (the first 16 hex digits of the SHA-256 of
    their names and bytes). The version is worked out again whenever a file's size or
    time of change differs from the last look (a file edited under a running server), so
    one address never stands for two contents."""

    def __init__(self, folder: Path = STATIC) -> None:
        self.folder = folder
        self._known: Release | None = None

    def version(self) -> str:
        return self.current().version

    def index(self) -> bytes:
        """``index.html`` with its files' addresses under the current version."""
        return self.current().index

    def current(self) -> Release:
        with os.scandir(self.folder) as entries:  # one stat a file
            stats = sorted((e.name, e.stat()) for e in entries if e.is_file())
        seen = tuple((name, s.st_size, s.st_mtime_ns) for name, s in stats)
        known = self._known
        if known is None or known.seen != seen:
            digest = hashlib.sha256()
            for name, _ in stats:
                for part in (name.encode(), (self.folder / name).read_bytes()):
                    digest.update(len(part).to_bytes(8, "big") + part)
            version = digest.hexdigest()[:16]
            page = (self.folder / "index.html").read_text(encoding="utf-8")
            index = _FILE_ADDRESS.sub(rf"\g<attr>/static/{version}/", page).encode()
            known = self._known = Release(seen, version, index)
        return known


class CacheControl:
    """Sets ``Cache-Control`` on the files it serves (and on their 304s): `IMMUTABLE`
    under the current version (the path parameter ``version`` of its mount), else
    `REVALIDATE`. Errors pass as they are."""

    def __init__(self, app: ASGIApp, files: PageFiles) -> None:
        self.app = app
        self.files = files

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        asked = scope.get("path_params", {}).get("version")
        current = asked is not None and asked == self.files.version()
        policy = IMMUTABLE if current else REVALIDATE

        async def sending(message: Message) -> None:
            status = message.get("status") if message["type"] == "http.response.start" else None
            if status in (HTTP_OK, HTTP_NOT_MODIFIED):
                headers = MutableHeaders(scope=message)
                headers["cache-control"] = policy
                if status == HTTP_NOT_MODIFIED:  # what its 200 says (RFC 9110, 15.4.5)
                    headers["vary"] = "Accept-Encoding"
            await send(message)

        await self.app(scope, receive, sending)


class CompressPage:
    """gzip for the page (``/``), its files (``/static/``) and the language catalogs
    (``/api/i18n/``) only, for a client that accepts it (see the module's description)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=COMPRESS_FROM, compresslevel=COMPRESS_LEVEL)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if path == "/" or path.startswith(("/static/", "/api/i18n/")):
            await self.gzip(scope, receive, send)
        else:
            await self.app(scope, receive, send)


def mount_page_files(app: FastAPI, files: PageFiles) -> PageFiles:
    """``/static/VERSION/NAME`` and ``/static/NAME`` (the first one first: it is the
    more specific); ``files``, for the page's route."""
    served = StaticFiles(directory=files.folder)
    app.mount("/static/{version}", CacheControl(served, files), name="versioned")
    app.mount("/static", CacheControl(served, files), name="static")
    return files


__all__ = [
    "COMPRESS_FROM",
    "IMMUTABLE",
    "REVALIDATE",
    "STATIC",
    "CacheControl",
    "CompressPage",
    "PageFiles",
    "Release",
    "mount_page_files",
]
