"""``GET /api/advisor/{rules}/table``: the advisor's table file, gzipped once and kept,
cached for good under its versioned address, made in a worker thread."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from fastapi.testclient import TestClient

from yahtzee.core import RuleSet
from yahtzee.solver import cached_solver
from yahtzee.solver.loaded_once import LoadedOnce
from yahtzee.solver.web_table import decode
from yahtzee.web.routers import advisor
from yahtzee.web.routers.advisor import table_address

OFFICIAL = "/api/advisor/official/table"
WAIT_S = 30.0
BUILT: list[str] = []
ENTERED = threading.Event()


def test_the_official_table_under_its_versioned_address(client: TestClient) -> None:
    address = table_address(RuleSet.official())
    assert address == f"{OFFICIAL}?v=1.1.joker-forced-bonus-100"
    answer = client.get(address, headers={"Accept-Encoding": "gzip"})
    assert answer.status_code == 200
    assert answer.headers["content-encoding"] == "gzip"
    assert answer.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert answer.headers["content-location"] == address
    sent = len(answer.content)  # httpx has decompressed it: the file itself
    table = decode(answer.content, RuleSet.official())
    where = table != 0
    expected = cached_solver(RuleSet.official()).table
    assert np.abs(table - expected)[where].max() < 1e-5
    assert int(answer.headers["content-length"]) < 900_000 < sent  # gzipped on the wire
    etag = answer.headers["etag"]
    again = client.get(address, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.headers["etag"] == etag


def test_without_its_version_the_file_is_revalidated(client: TestClient) -> None:
    versioned = client.get(table_address(RuleSet.official()))
    for address in (OFFICIAL, f"{OFFICIAL}?v=0.0.old"):
        answer = client.get(address)
        assert answer.status_code == 200 and answer.content == versioned.content
        assert answer.headers["cache-control"] == "no-cache"
        assert answer.headers["etag"] == versioned.headers["etag"]
    plain = client.get(OFFICIAL, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == versioned.content


def test_an_unknown_rule_set_is_not_found(client: TestClient) -> None:
    answer = client.get("/api/advisor/no-such-rules/table")
    assert answer.status_code == 404
    assert answer.json()["code"] == "no_rules"
    assert "Unknown rule set" in answer.json()["message"]


@pytest.fixture
def held_build(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """The solver of a rule set whose file is not made yet waits for the event (set on
    the way out, also on failure)."""
    release = threading.Event()
    ENTERED.clear()
    BUILT.clear()

    def held(rules: RuleSet) -> object:
        ENTERED.set()
        assert release.wait(WAIT_S), "the test never released the build"
        BUILT.append(rules.name)
        return cached_solver(RuleSet.official())

    monkeypatch.setattr(advisor, "cached_solver", held)
    monkeypatch.setattr(advisor, "_FILES", LoadedOnce())
    yield release
    release.set()


def test_a_table_being_made_holds_up_nothing_else(
    client: TestClient, held_build: threading.Event
) -> None:
    with ThreadPoolExecutor(2) as pool:
        asked = [pool.submit(client.get, "/api/advisor/no-joker/table") for _ in range(2)]
        assert ENTERED.wait(WAIT_S)  # a build is under way
        assert client.get("/api/rules").status_code == 200  # and the loop is free
        assert not any(a.done() for a in asked)
        held_build.set()
        answers = [a.result(timeout=WAIT_S) for a in asked]
    assert [a.status_code for a in answers] == [200, 200]
    assert answers[0].content == answers[1].content
    assert decode(answers[0].content, RuleSet.named("no-joker")).any()
    assert BUILT == ["no-joker"]  # made once for both
