"""The installable app's shell, in process: the service worker at ``/sw.js`` carries the
current release (the page files' version and every address it keeps for offline use) and
changes with any page file; the web app manifest names the app, its colours and its icons
under the current version. Both are revalidated each time (``no-cache``, ``ETag``, 304)."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from yahtzee.core import RuleSet
from yahtzee.core.language import CODES
from yahtzee.web import shell
from yahtzee.web.app import create_app
from yahtzee.web.page_files import REVALIDATE, STATIC, PageFiles
from yahtzee.web.routers.advisor import table_address
from yahtzee.web.shell import APP_ADDRESSES, ICONS, RELEASE_LINE

RELEASE = re.compile(r"^const RELEASE = (\{.*\});$", re.MULTILINE)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """The app on a copy of the page's files (no lifespan: these routes need no store)."""
    folder = tmp_path / "static"
    shutil.copytree(STATIC, folder)
    app = create_app(f"sqlite:///{tmp_path / 'shell.db'}")
    app.state.page_files = PageFiles(folder)
    yield TestClient(app)


def release_of(text: str) -> dict[str, Any]:
    found = RELEASE.search(text)
    assert found, text[:800]
    release: dict[str, Any] = json.loads(found.group(1))
    return release


def test_the_worker_is_served_with_its_release(client: TestClient) -> None:
    files: PageFiles = client.app.state.page_files  # type: ignore[attr-defined]
    version = files.version()
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "text/javascript; charset=utf-8"
    assert answer.headers["cache-control"] == REVALIDATE
    assert "service-worker-allowed" not in answer.headers  # its scope is its own folder, "/"
    assert RELEASE_LINE not in answer.text
    release = release_of(answer.text)
    assert release["version"] == version
    assert release["fresh"] == list(APP_ADDRESSES)
    assert set(APP_ADDRESSES) == {
        "/", "/manifest.webmanifest", "/api/rules", "/api/bots",
        *(f"/api/i18n/{code}" for code in CODES),
    }  # fmt: skip
    kept = release["kept"]
    names = sorted(p.name for p in files.folder.iterdir() if p.name not in ("index.html", "sw.js"))
    assert sorted(a.removeprefix(f"/static/{version}/") for a in kept if "/static/" in a) == names
    assert f"/static/{version}/app.js" in kept and len(kept) == len(set(kept))
    assert 'self.addEventListener("push"' in answer.text  # the pushes (issue 52) still shown
    again = client.get("/sw.js", headers={"if-none-match": answer.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["cache-control"] == REVALIDATE


def test_any_changed_page_file_makes_a_new_worker(client: TestClient) -> None:
    files: PageFiles = client.app.state.page_files  # type: ignore[attr-defined]
    first = client.get("/sw.js")
    style = files.folder / "style.css"
    style.write_text(style.read_text() + "\n/* changed */\n")
    second = client.get("/sw.js", headers={"if-none-match": first.headers["etag"]})
    assert second.status_code == 200 and second.headers["etag"] != first.headers["etag"]
    old, new = release_of(first.text), release_of(second.text)
    assert new["version"] == files.version() != old["version"]
    assert f"/static/{new['version']}/style.css" in new["kept"]


def test_the_manifest_makes_the_app_installable(client: TestClient) -> None:
    files: PageFiles = client.app.state.page_files  # type: ignore[attr-defined]
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/manifest+json"
    assert answer.headers["cache-control"] == REVALIDATE
    manifest = answer.json()
    assert manifest["name"] == manifest["short_name"] == "Yahtzee"
    assert manifest["description"]
    opened = (manifest["start_url"], manifest["scope"], manifest["display"])
    assert opened == ("/", "/", "standalone")
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    icons = {(i["sizes"], i["purpose"]): i for i in manifest["icons"]}
    assert set(icons) == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for icon in manifest["icons"]:
        assert icon["type"] == "image/png"
        assert icon["src"].startswith(f"/static/{files.version()}/")
        image = client.get(icon["src"])
        assert image.status_code == 200 and image.headers["content-type"] == "image/png"
    assert {i.name for i in ICONS} <= {p.name for p in files.folder.iterdir()}
    again = client.get("/manifest.webmanifest", headers={"if-none-match": answer.headers["etag"]})
    assert again.status_code == 304


def test_the_page_names_the_manifest_and_its_theme_colours(client: TestClient) -> None:
    page = client.get("/").text
    version = client.app.state.page_files.version()  # type: ignore[attr-defined]
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert f'<link rel="apple-touch-icon" href="/static/{version}/apple-touch-icon.png">' in page
    css = (STATIC / "style.css").read_text()
    light = re.search(r"--surface: (#[0-9a-f]{6})", css)
    dark = re.search(r"color-scheme: dark\)\s*\{\s*:root\s*\{[^}]*--surface: (#[0-9a-f]{6})", css)
    assert light and dark
    for scheme, colour in (("light", light.group(1)), ("dark", dark.group(1))):
        media = f"(prefers-color-scheme: {scheme})"
        assert f'<meta name="theme-color" content="{colour}" media="{media}">' in page
    manifest = client.get("/manifest.webmanifest").json()
    assert manifest["theme_color"] == light.group(1)


def test_the_official_advisor_table_is_kept_under_its_versioned_address(
    client: TestClient,
) -> None:
    release = release_of(client.get("/sw.js").text)
    table = table_address(RuleSet.official())
    assert table == shell.official_advisor_table() and "?v=" in table
    assert release["kept"][-1] == table and table not in release["fresh"]
