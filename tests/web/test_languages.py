"""The server in the player's language (issue 55): each request and connection speaks the
language its ``?lang=``, cookie ``lang`` or ``Accept-Language`` asks for (English
otherwise), its refusals included; ``GET /api/i18n/{code}`` serves a catalog as data."""

from __future__ import annotations

import gettext
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from fastapi.testclient import TestClient
from starlette.requests import HTTPConnection

from tests.web.conftest import new_table, started_table
from tests.web.helpers import answer, joined, next_of
from yahtzee.core import language
from yahtzee.web import i18n
from yahtzee.web.app import create_app
from yahtzee.web.speaking import chosen_language

GERMAN = {
    "No such table (or it has ended).": "Kein solcher Tisch (oder er ist zu Ende).",
    "{label} is missing.": "{label} fehlt.",
    "Your name": "Dein Name",
    "It is not your turn.": "Du bist nicht am Zug.",
    "Spectators cannot act.": "Zuschauer spielen nicht mit.",
    "That message is not valid JSON.": "Diese Nachricht ist kein gültiges JSON.",
}


class FakeGerman(gettext.NullTranslations):
    """A catalog that knows a few of the server's sentences in German."""

    def gettext(self, message: str) -> str:
        return GERMAN.get(message, message)


@pytest.fixture
def german(monkeypatch: pytest.MonkeyPatch) -> None:
    """German speaks `GERMAN`; every other language is English."""

    def translations(code: str) -> gettext.NullTranslations:
        return FakeGerman() if code == "de" else gettext.NullTranslations()

    monkeypatch.setattr(language, "translations", translations)


@pytest.fixture
def shell_client() -> Iterator[TestClient]:
    """The app without its lifespan (the catalogs need no store)."""
    yield TestClient(create_app("sqlite://"))


# The language of a request --------------------------------------------------------


def asking(query: str = "", *headers: tuple[str, str]) -> str:
    scope: dict[str, Any] = {
        "type": "http",
        "query_string": query.encode(),
        "headers": [(name.encode(), value.encode()) for name, value in headers],
    }
    return chosen_language(HTTPConnection(scope))


COOKIE_SV = ("cookie", "lang=sv; other=1")
HEADER_NL = ("accept-language", "nl-BE,nl;q=0.9,en;q=0.8")


def test_the_query_comes_before_the_cookie_before_the_header() -> None:
    assert asking("lang=de", COOKIE_SV, HEADER_NL) == "de"
    assert asking("", COOKIE_SV, HEADER_NL) == "sv"
    assert asking("", HEADER_NL) == "nl"
    assert asking("") == "en"
    assert asking("lang=de-AT") == "de"
    assert asking("lang=", COOKIE_SV) == "sv"  # an empty one is none
    assert asking("", ("accept-language", "fr;q=0.2, da;q=0.9")) == "da"


@pytest.mark.parametrize(
    ("query", "headers"),
    [
        ("lang=xx", [HEADER_NL]),  # asked for, not spoken: English, as --lang xx
        ("lang=C", []),
        ("lang=%00%ff", []),
        ("", [("cookie", "lang=POSIX")]),
        ("", [("accept-language", "C")]),
        ("", [("accept-language", "xx-YY, *;q=0.5, ;;;q=abc")]),
        ("", [("accept-language", "de;q=0")]),
        ("", [("cookie", "=;;lang")]),
    ],
)
def test_junk_is_english(query: str, headers: list[tuple[str, str]]) -> None:
    assert asking(query, *headers) == "en"


# Refusals in the player's language --------------------------------------------------


@pytest.mark.usefixtures("german")
def test_an_http_refusal_speaks_the_players_language(client: TestClient) -> None:
    english = client.get("/api/tables/nope")
    assert english.status_code == 404
    assert english.json() == {"code": "no_table", "message": "No such table (or it has ended)."}
    for asked in (
        {"params": {"lang": "de"}},
        {"headers": {"cookie": "lang=de"}},
        {"headers": {"accept-language": "de-CH, en;q=0.5"}},
    ):
        found = client.get("/api/tables/nope", **asked)
        assert found.status_code == 404
        assert found.json() == {"code": "no_table", "message": GERMAN[english.json()["message"]]}


@pytest.mark.usefixtures("german")
def test_a_validation_message_speaks_the_players_language(client: TestClient) -> None:
    assert client.post("/api/tables", json={}).json()["message"] == "Your name is missing."
    german = client.post("/api/tables?lang=de", json={})
    assert german.status_code == 400
    assert german.json() == {"code": "bad_request", "message": "Dein Name fehlt."}


@pytest.mark.usefixtures("german")
def test_a_websocket_refusal_speaks_its_connections_language(client: TestClient) -> None:
    host, bob = started_table(client)  # Ann moves first
    table_id = host["table"]["id"]
    with (
        joined(client, table_id, token=bob["token"], headers={"cookie": "lang=de"}) as german,
        joined(client, table_id, watch=host["spectate"]) as english,
    ):
        next_of(german, "state")
        next_of(english, "state")
        german.send_json({"v": 1, "type": "hold", "held": [0], "id": "r1"})
        english.send_json({"v": 1, "type": "roll", "id": "r2"})
        refused = answer(german, "r1")
        assert (refused["code"], refused["message"]) == ("not_your_turn", "Du bist nicht am Zug.")
        refused = answer(english, "r2")
        assert (refused["code"], refused["message"]) == ("spectator", "Spectators cannot act.")
        german.send_text("{not json")
        assert next_of(german, "error")["message"] == "Diese Nachricht ist kein gültiges JSON."
        english.send_text("{not json")
        assert next_of(english, "error")["message"] == "That message is not valid JSON."


@pytest.mark.usefixtures("german")
def test_a_table_in_english_stays_english(client: TestClient) -> None:
    host = new_table(client)
    assert client.get(f"/api/tables/{host['table']['id']}").status_code == 200
    assert language.current() == "en"  # nothing leaks out of a request


# GET /api/i18n/{code} ---------------------------------------------------------------


def compiled(folder: Path, code: str = "de") -> Path:
    """A small German catalog, compiled as ``scripts/catalogs.py compile`` does."""
    catalog = Catalog(locale=code)
    catalog.add("Roll", "Würfeln")
    catalog.add("Chance", "Chance", context="american box")
    catalog.add("Full House", "Full House", context="yatzy box")
    catalog.add(("{n} point", "{n} points"), ("{n} Punkt", "{n} Punkte"))
    catalog.add("Untranslated", "")
    path = folder / f"{code}.mo"
    with path.open("wb") as file:
        write_mo(file, catalog)
    return path


@pytest.fixture
def catalogs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``catalog_path`` points into ``tmp_path`` (``de.mo`` written there)."""
    monkeypatch.setattr(i18n, "catalog_path", lambda code: tmp_path / f"{code}.mo")
    compiled(tmp_path)
    return tmp_path


LANGUAGES = [{"code": spoken.code, "name": spoken.name} for spoken in language.LANGUAGES]


def test_a_catalog_is_served_as_data(shell_client: TestClient, catalogs: Path) -> None:
    found = shell_client.get("/api/i18n/de")
    assert found.status_code == 200
    assert found.headers["content-type"] == "application/json"
    assert found.json() == {
        "language": "de",
        "languages": LANGUAGES,
        "messages": {
            "Roll": "Würfeln",
            "american box\u0004Chance": "Chance",
            "yatzy box\u0004Full House": "Full House",
            "{n} point": ["{n} Punkt", "{n} Punkte"],
        },
    }
    assert {"code": "sv", "name": "Svenska"} in found.json()["languages"]
    assert shell_client.get("/api/i18n/de-AT").json() == found.json()


def test_a_catalog_is_revalidated_by_its_etag(shell_client: TestClient, catalogs: Path) -> None:
    found = shell_client.get("/api/i18n/de")
    assert found.headers["cache-control"] == "no-cache"
    tag = found.headers["etag"]
    again = shell_client.get("/api/i18n/de", headers={"if-none-match": tag})
    assert again.status_code == 304
    assert again.headers["etag"] == tag
    other = shell_client.get("/api/i18n/en")
    assert other.headers["etag"] != tag
    assert shell_client.get("/api/i18n/en", headers={"if-none-match": tag}).status_code == 200


@pytest.mark.parametrize("code", ["en", "xx", "C", "dex", "d!", "%20", "sv-" + "x" * 300])
def test_another_code_is_english_never_an_error(
    shell_client: TestClient, catalogs: Path, code: str
) -> None:
    found = shell_client.get(f"/api/i18n/{code}")
    assert found.status_code == 200, found.text
    body = found.json()
    if code.startswith("sv"):
        assert body["language"] == "en"  # (no Swedish catalog here: English, see below)
    else:
        assert body == {"language": "en", "languages": LANGUAGES, "messages": {}}


@pytest.mark.parametrize("broken", [None, b"", b"not a catalog", b"\xde\x12\x04\x95" + b"\0" * 8])
def test_a_catalog_missing_or_unreadable_is_english_with_a_warning(
    shell_client: TestClient,
    catalogs: Path,
    caplog: pytest.LogCaptureFixture,
    broken: bytes | None,
) -> None:
    if broken is not None:
        (catalogs / "sv.mo").write_bytes(broken)
    with caplog.at_level(logging.WARNING, logger="yahtzee.web"):
        found = shell_client.get("/api/i18n/sv")
    assert found.status_code == 200
    assert found.json() == {"language": "en", "languages": LANGUAGES, "messages": {}}
    assert any("sv catalog cannot be read" in record.getMessage() for record in caplog.records)


def test_a_catalog_changed_on_disk_is_read_again(shell_client: TestClient, catalogs: Path) -> None:
    before = shell_client.get("/api/i18n/de").json()["messages"]
    catalog = Catalog(locale="de")
    catalog.add("Roll", "Würfeln!")
    with (catalogs / "de.mo").open("wb") as file:
        write_mo(file, catalog)
    after = shell_client.get("/api/i18n/de").json()["messages"]
    assert before["Roll"] == "Würfeln"
    assert after == {"Roll": "Würfeln!"}


def test_the_real_catalogs_are_served(shell_client: TestClient) -> None:
    """Whatever catalogs the package holds now (compiled or not): served, never an error."""
    for spoken in language.LANGUAGES:
        found = shell_client.get(f"/api/i18n/{spoken.code}")
        assert found.status_code == 200
        assert found.json()["language"] in (spoken.code, "en")
