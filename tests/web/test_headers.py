"""Security headers on every answer, the Host and Origin check on every HTTP request, and
no page that loads from another site."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from yahtzee.web.app import create_app
from yahtzee.web.security import CONTENT_SECURITY_POLICY, AllowedHosts

EXPECTED = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
}
SERVED = AllowedHosts.for_server("127.0.0.1", 8765)


def test_the_policy_is_the_agreed_one() -> None:
    assert CONTENT_SECURITY_POLICY == (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    )


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/", 200),
        ("GET", "/static/app.js", 200),
        ("GET", "/static/style.css", 200),
        ("GET", "/static/missing.png", 404),
        ("GET", "/api/health", 200),
        ("GET", "/openapi.json", 200),
        ("GET", "/api/tables/nope", 404),
        ("POST", "/api/tables", 400),
        ("PUT", "/api/health", 405),
    ],
)
def test_every_answer_carries_the_security_headers(
    client: TestClient, method: str, path: str, status: int
) -> None:
    answer = client.request(method, path)
    assert answer.status_code == status
    for name, value in EXPECTED.items():
        assert answer.headers.get(name) == value, (path, name)


def test_no_documentation_page_from_a_cdn(client: TestClient) -> None:
    for path in ("/docs", "/redoc", "/docs/oauth2-redirect"):
        assert client.get(path).status_code == 404
    schema = client.get("/openapi.json").json()
    assert "/api/tables/{table_id}" in schema["paths"]
    assert "delete" in schema["paths"]["/api/tables/{table_id}"]


@pytest.fixture
def served(db: str) -> Iterator[tuple[TestClient, TestClient]]:
    """The same app reached as 127.0.0.1:8765 (where it listens) and as evil.example:8765."""
    app = create_app(db, bot_delay=0, allowed_hosts=SERVED)
    assert app.state.allowed_hosts is SERVED
    with (
        TestClient(app, base_url="http://127.0.0.1:8765") as own,
        TestClient(app, base_url="http://evil.example:8765") as evil,
    ):
        yield own, evil


def test_a_rebound_host_name_is_refused(served: tuple[TestClient, TestClient]) -> None:
    own, evil = served
    assert own.get("/api/health").status_code == 200
    evil_origin = {"origin": "http://evil.example:8765"}
    for answer in (
        evil.get("/api/health"),
        evil.get("/", headers=evil_origin),
        evil.post("/api/tables", json={"host": "Ann"}, headers=evil_origin),
    ):
        assert answer.status_code == 403
        assert answer.json()["code"] == "bad_origin"
        assert answer.headers["x-frame-options"] == "DENY"


def test_an_origin_must_match_in_scheme_host_and_port(
    served: tuple[TestClient, TestClient],
) -> None:
    own, _ = served
    body = {"host": "Ann"}
    for origin in ("http://evil.example:8765", "https://127.0.0.1:8765", "null"):
        answer = own.post("/api/tables", json=body, headers={"origin": origin})
        assert answer.status_code == 403, origin
    for origin in ("http://127.0.0.1:8765", "http://localhost:8765"):
        answer = own.post("/api/tables", json=body, headers={"origin": origin})
        assert answer.status_code == 201, origin
