"""The installable app: its web app manifest, and its service worker's release (the
version of the page's files and the addresses it keeps for offline use).

The worker (``static/sw.js``) is served at ``/sw.js`` with one line written by the
server: ``const RELEASE = {"version": ..., "fresh": [...], "kept": [...]};`` (Workbox's
precache-manifest pattern, done without a build step). The worker keeps every address of
both lists when it installs; it asks the server first for the ``fresh`` ones (the page and
the app's answers: the kept copy is for offline use) and answers the ``kept`` ones (the
page's files under their version, the advisor table under its version: the same bytes for
good) from its cache. Any change to a page file changes
the version (`PageFiles`), so the served worker's bytes change with it and the browser
installs it as an update.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from ..core import RuleSet
from ..core.language import CODES
from .page_files import PageFiles
from .routers.advisor import table_address

RELEASE_LINE: Final = (
    "const RELEASE = { version: null, fresh: [], kept: [] };  // written by the server"
)
"""The line of ``static/sw.js`` that the server replaces with the current release."""

CATALOG_ADDRESSES: Final = tuple(f"/api/i18n/{code}" for code in CODES)
"""Every language's translations (small): a page offline can still switch language."""
APP_ADDRESSES: Final = (
    "/",
    "/manifest.webmanifest",
    "/api/rules",
    "/api/bots",
    *CATALOG_ADDRESSES,
)
"""The page and the app's answers kept for offline use, asked from the server first."""


NOT_PRECACHED: Final = frozenset({"index.html", "sw.js"})
"""Page files the worker does not keep: the page is kept as ``/``, the worker is its own."""

NAME: Final = "Yahtzee"
DESCRIPTION: Final = (
    "Yahtzee with friends, bots and an exact advisor: tables online, real dice at the "
    "table, a daily game."
)
LIGHT_SURFACE: Final = "#ffffff"
"""``style.css``'s ``--surface`` (the top bar) in the light theme: the theme colour."""
DARK_SURFACE: Final = "#1b1f24"
"""``--surface`` in the dark theme (``index.html``'s dark ``theme-color``)."""
LIGHT_BACKGROUND: Final = "#f3efe6"
"""``--bg`` in the light theme: the installed app's splash screen."""


@dataclass(frozen=True, slots=True)
class Icon:
    """A PNG icon of the app in ``static/``."""

    name: str
    size: int
    purpose: str

    def entry(self, version: str) -> dict[str, str]:
        return {
            "src": f"/static/{version}/{self.name}",
            "sizes": f"{self.size}x{self.size}",
            "type": "image/png",
            "purpose": self.purpose,
        }


ICONS: Final = (
    Icon("icon-192.png", 192, "any"),
    Icon("icon-512.png", 512, "any"),
    Icon("icon-maskable-512.png", 512, "maskable"),
)
"""Made from ``favicon.svg`` by ``scripts/make_icons.py``."""


def manifest(version: str) -> dict[str, Any]:
    """The web app manifest, its icons under the page files' current version."""
    return {
        "id": "/",
        "name": NAME,
        "short_name": NAME,
        "description": DESCRIPTION,
        "lang": "en",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": LIGHT_BACKGROUND,
        "theme_color": LIGHT_SURFACE,
        "categories": ["games"],
        "icons": [icon.entry(version) for icon in ICONS],
    }


def official_advisor_table() -> str:
    """The official rules' advisor table under its versioned address (the same bytes for
    good; the address changes with the solver's or the file format's version), for hints
    offline."""
    return table_address(RuleSet.official())


@dataclass(frozen=True, slots=True)
class WorkerRelease:
    """What the worker of one version keeps: ``fresh`` (asked from the server first) and
    ``kept`` (answered from its cache), see the module's description."""

    version: str
    fresh: tuple[str, ...]
    kept: tuple[str, ...]

    @classmethod
    def of(cls, files: PageFiles) -> WorkerRelease:
        release = files.current()
        names = [name for name, _, _ in release.seen if name not in NOT_PRECACHED]
        files_kept = tuple(f"/static/{release.version}/{name}" for name in names)
        kept = (*files_kept, official_advisor_table())
        return cls(release.version, APP_ADDRESSES, kept)

    def line(self) -> str:
        """The worker's ``RELEASE`` line."""
        text = json.dumps({"version": self.version, "fresh": self.fresh, "kept": self.kept})
        return f"const RELEASE = {text};"


def service_worker(files: PageFiles) -> bytes:
    """``static/sw.js`` with the current release written into it."""
    text = (files.folder / "sw.js").read_text(encoding="utf-8")
    if RELEASE_LINE not in text:
        raise RuntimeError(f"static/sw.js has lost its release line: {RELEASE_LINE}")
    return text.replace(RELEASE_LINE, WorkerRelease.of(files).line()).encode()


__all__ = [
    "APP_ADDRESSES",
    "CATALOG_ADDRESSES",
    "DARK_SURFACE",
    "ICONS",
    "LIGHT_BACKGROUND",
    "LIGHT_SURFACE",
    "RELEASE_LINE",
    "Icon",
    "WorkerRelease",
    "manifest",
    "official_advisor_table",
    "service_worker",
]
