"""Hostile clients against a real ``yahtzee serve`` process: values of the wrong JSON type,
a name that only looks different, a body too large, headers that never end. Each gets its
documented refusal, nothing changes, and everyone else is served meanwhile. (A crowd of
spectators: `test_connections`.)"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.live_server import client
from tests.raw_http import WAIT, answer_of, connect, read_one, read_to_the_end, request
from tests.server_process import ServerProcess
from tests.web.helpers import next_of, seated
from yahtzee.web.limits import MAX_BODY_BYTES

HEADER_TIMEOUT = 1.0
"""The server's --header-timeout here: short, so the tests that wait for it are quick."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("hostile") / "server.db"
    process = ServerProcess(f"sqlite:///{db}", extra_args=["--header-timeout", str(HEADER_TIMEOUT)])
    try:
        process.start()
        yield process
    finally:
        process.stop()


@pytest.fixture
def http(server: ServerProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base, timeout=WAIT) as client:
        yield client


def tables_recorded(server: ServerProcess) -> int:
    with sqlite3.connect(server.url.removeprefix("sqlite:///")) as db:
        count: int = db.execute("SELECT count(*) FROM tables").fetchone()[0]
    return count


def new_table(http: httpx.Client, host: str = "Ann", **body: Any) -> dict[str, Any]:
    made = http.post("/api/tables", json={"host": host, **body})
    assert made.status_code == 201, made.text
    table: dict[str, Any] = made.json()
    return table


def refused(answer: httpx.Response, status: int, code: str) -> str:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert set(body) == {"code", "message"} and body["code"] == code, body
    message: str = body["message"]
    return message


# Strict types ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"host": True}, "Your name must be text."),
        ({"host": 5}, "Your name must be text."),
        ({"host": "A", "turn_timer": True}, "The turn timer must be a whole number"),
        ({"host": "A", "turn_timer": 30.0}, "The turn timer must be a whole number"),
        ({"host": "A", "turn_timer": "30"}, "The turn timer must be a whole number"),
        ({"host": "A", "hints": 1}, "Hints allowed must be true or false."),
        ({"host": "A", "hints": 0}, "Hints allowed must be true or false."),
        ({"host": "A", "hints": "yes"}, "Hints allowed must be true or false."),
        ({"host": "A", "rules": 1}, "The rules must be text."),
        ({"host": "A", "seats": [{"kind": "bot", "level": True}]}, "The bot level of seat 2"),
        ({"host": "A", "seats": [{"kind": "bot", "level": 3.0}]}, "The bot level of seat 2"),
        ({"host": "A", "seats": [{"kind": "bot", "level": "3"}]}, "The bot level of seat 2"),
    ],
)
def test_a_new_table_takes_json_types_only(
    server: ServerProcess, http: httpx.Client, body: dict[str, Any], said: str
) -> None:
    before = tables_recorded(server)
    assert refused(http.post("/api/tables", json=body), 400, "bad_request").startswith(said)
    assert tables_recorded(server) == before


def test_joining_and_handing_to_a_bot_take_json_types_only(http: httpx.Client) -> None:
    host = new_table(http, seats=[{"kind": "human"}])
    table = host["table"]
    auth = {"Authorization": f"Bearer {host['token']}"}
    for name in (5, True, ["Bob"]):
        refused(http.post(f"/api/join/{host['invite']}", json={"name": name}), 400, "bad_request")
    for level in (True, 3.0, "3"):
        message = refused(
            http.post(
                f"/api/tables/{table['id']}/seats/1/bot", json={"level": level}, headers=auth
            ),
            400,
            "bad_request",
        )
        assert message == "The bot level must be a whole number from 1 to 5."
    assert http.get(f"/api/tables/{table['id']}").json() == table  # seat 1 still open


def test_websocket_messages_take_json_types_only(server: ServerProcess, http: httpx.Client) -> None:
    host = new_table(http)
    table_id = host["table"]["id"]
    auth = {"Authorization": f"Bearer {host['token']}"}
    assert http.post(f"/api/tables/{table_id}/start", headers=auth).status_code == 200
    base = server.base.removeprefix("http://")
    for version in (True, 1.0, "1"):  # Python takes the first two for 1
        with client(f"ws://{base}/ws/{table_id}") as ws:
            ws.send_json({"v": version, "type": "hello", "token": host["token"]})
            with pytest.raises(ConnectionClosed) as closed:
                next_of(ws, "state", timeout=WAIT)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    with seated(base, table_id, token=host["token"]) as ann:
        state = next_of(ann, "state", timeout=WAIT)
        hostile = [
            ({"v": True, "type": "roll", "id": "a"}, "bad_version"),
            ({"v": 1.0, "type": "roll", "id": "b"}, "bad_version"),
            ({"v": "1", "type": "roll", "id": "c"}, "bad_version"),
            ({"v": 1, "type": "roll", "keep": 335, "id": "d"}, "bad_message"),
            ({"v": 1, "type": "score", "box": 12, "id": "e"}, "bad_message"),
            ({"v": 1, "type": "chat", "text": 5, "id": "f"}, "bad_message"),
        ]
        for intent, code in hostile:
            ann.send_json(intent)
            error = next_of(ann, "error", "event", "ack", timeout=WAIT)
            assert (error["type"], error["code"], error["id"]) == ("error", code, intent["id"])
        ann.send_json({"v": 1, "type": "resync"})
        again = next_of(ann, "state", timeout=WAIT)
        assert (again["seq"], again["game"], again["chat"]) == (
            state["seq"],
            state["game"],
            state["chat"],
        )


# Names -------------------------------------------------------------------------------


def test_a_name_that_only_looks_different_is_taken(
    server: ServerProcess, http: httpx.Client
) -> None:
    """After NFKC and case folding: capitals, fullwidth letters, the ligature fi and an
    invisible joiner make no other name; a bot's name counts too."""
    host = new_table(http, "Fifi", seats=[{"kind": "human"}, {"kind": "bot", "level": 3}])
    table = host["table"]
    assert table["seats"][2]["name"] == "Bot 3 (level 3)"
    alike = ["FIFI", "\ufb01\ufb01", "\uff26\uff49\uff46\uff49", "Fi\u200dfi"]
    for name in [*alike, "BOT 3 (LEVEL 3)", "Bot \uff13 (level 3)"]:
        message = refused(
            http.post(f"/api/join/{host['invite']}", json={"name": name}), 400, "name_taken"
        )
        assert "taken at this table" in message and "capitals" in message, message
    assert http.get(f"/api/tables/{table['id']}").json() == table  # seat 1 still open
    before = tables_recorded(server)
    made = http.post(
        "/api/tables", json={"host": "bot 2 (LEVEL 3)", "seats": [{"kind": "bot", "level": 3}]}
    )
    refused(made, 400, "name_taken")  # the game could not start with two such names
    assert tables_recorded(server) == before
    bob = http.post(f"/api/join/{host['invite']}", json={"name": "Bob"})
    assert bob.status_code == 200 and bob.json()["seat"] == 1


def test_a_name_that_looks_like_a_seated_one_is_refused(
    server: ServerProcess, http: httpx.Client
) -> None:
    """The Unicode confusables skeleton: ``Ann`` with a Cyrillic A beside ``Ann``, or a
    host named like a bot with Cyrillic letters, is refused ``name_look_alike``, naming
    the seated name; the seat stays open and nothing is recorded."""
    host = new_table(http, "Ann", seats=[{"kind": "human"}])
    table = host["table"]
    for name in ("\u0410nn", "\u0391nn", "\u0410\uff4e\uff4e"):  # Cyrillic A, Greek A, wide n
        message = refused(
            http.post(f"/api/join/{host['invite']}", json={"name": name}), 400, "name_look_alike"
        )
        assert "looks just like Ann's" in message, message
    assert http.get(f"/api/tables/{table['id']}").json() == table  # seat 1 still open
    before = tables_recorded(server)
    made = http.post(
        "/api/tables",
        json={"host": "B\u043et 2 (level 3)", "seats": [{"kind": "bot", "level": 3}]},
    )
    assert "Bot 2 (level 3)" in refused(made, 400, "name_look_alike")
    assert tables_recorded(server) == before
    anna = http.post(f"/api/join/{host['invite']}", json={"name": "Anna"})
    assert anna.status_code == 200 and anna.json()["seat"] == 1


def test_the_daily_attempt_is_one_a_person_whatever_the_spelling(
    server: ServerProcess, http: httpx.Client
) -> None:
    """Vera1, VERA1, vera1 and a fullwidth Vera1 (and one with a Cyrillic e) are one
    person: with the attempt's token the same game goes on, without it the attempt is
    taken (``daily_played``); one attempt in the records, under the spelling it was begun
    with. (Once played out it is final under every spelling: `test_daily_web`.)"""
    spellings = ["VERA1", "vera1", "\uff36era1", "V\u0435ra1"]
    first = http.post("/api/daily", json={"name": "Vera1"})
    assert first.status_code == 200, first.text
    started = first.json()
    table_id, token = started["table"]["id"], started["token"]
    auth = {"Authorization": f"Bearer {token}"}
    for name in spellings:
        again = http.post("/api/daily", json={"name": name}, headers=auth)
        assert again.status_code == 200 and again.json()["table"]["id"] == table_id, name
        assert again.json()["table"]["seats"][0]["name"] == "Vera1"
        message = refused(http.post("/api/daily", json={"name": name}), 409, "daily_played")
        assert f"{name} (as Vera1) has begun" in message, message
    with sqlite3.connect(server.url.removeprefix("sqlite:///")) as db:
        rows = db.execute(
            "SELECT p.name, r.game_id FROM daily_results AS r JOIN players AS p "
            "ON p.id = r.player_id"
        ).fetchall()
    assert [r for r in rows if r[0] in ("Vera1", *spellings)] == [("Vera1", table_id)]


# The body limit and the header deadline (raw sockets) ---------------------------------


def post_head(server: ServerProcess, path: str, framing: str) -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        f"Content-Type: application/json\r\n{framing}\r\n\r\n"
    ).encode()


def test_a_body_over_the_limit_is_refused_unread(server: ServerProcess, http: httpx.Client) -> None:
    """413 ``too_large`` and the connection closed, whether the Content-Length says so or
    a chunked body grows past the limit: the server answers before the body ends."""
    host = new_table(http, seats=[{"kind": "human"}])
    table = host["table"]
    join = f"/api/join/{host['invite']}"
    with connect(server.port) as sock:  # says 10 MB, sends one byte
        sock.sendall(post_head(server, join, "Content-Length: 10000000") + b"{")
        status, headers, body = answer_of(read_to_the_end(sock))
    assert (status, body["code"], headers["connection"]) == (413, "too_large", "close")
    assert str(MAX_BODY_BYTES) in body["message"]
    with connect(server.port) as sock:  # chunked, past the limit, never ended
        sock.sendall(post_head(server, join, "Transfer-Encoding: chunked"))
        chunk = b" " * 1024
        for _ in range(MAX_BODY_BYTES // len(chunk) + 1):
            sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        status, _, body = answer_of(read_to_the_end(sock))
    assert (status, body["code"]) == (413, "too_large")
    assert http.get(f"/api/tables/{table['id']}").json() == table  # seat 1 still open
    padded = json.dumps({"name": "Bob"}).ljust(MAX_BODY_BYTES)  # at the limit: served
    answer = http.post(join, content=padded, headers={"content-type": "application/json"})
    assert answer.status_code == 200 and answer.json()["seat"] == 1


def test_headers_that_never_end_are_cut(server: ServerProcess, http: httpx.Client) -> None:
    """A connection that sends nothing is closed after --header-timeout; one that trickles
    header lines (each well within the time) gets 408 ``too_slow`` after it too: the time
    counts from the start. Everyone else is served meanwhile, a player's WebSocket (past
    its headers long since) stays open."""
    host = new_table(http)
    base = server.base.removeprefix("http://")
    with (
        seated(base, host["table"]["id"], token=host["token"]) as ann,
        connect(server.port) as silent,
        connect(server.port) as slow,
    ):
        next_of(ann, "state", timeout=WAIT)
        started = time.monotonic()
        slow.sendall(f"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n".encode())
        slow.settimeout(HEADER_TIMEOUT / 5)
        got = b""
        while time.monotonic() - started < WAIT:
            assert http.get("/api/health").status_code == 200
            try:
                slow.sendall(b"X-Slow: yes\r\n")
                chunk = slow.recv(65536)
            except TimeoutError:
                continue
            except ConnectionError:  # cut while this line was on its way
                break
            if not chunk:
                break
            got += chunk
        cut_after = time.monotonic() - started
        assert silent.recv(1) == b""  # closed long since, with nothing said
        ann.send_json({"v": 1, "type": "resync"})
        assert next_of(ann, "state", timeout=WAIT)["you"]["seat"] == 0
    assert HEADER_TIMEOUT * 0.9 <= cut_after < HEADER_TIMEOUT + 2, cut_after
    status, headers, body = answer_of(got)
    assert (status, body["code"], headers["connection"]) == (408, "too_slow", "close")


def test_blank_lines_between_requests_do_not_hold_a_connection(server: ServerProcess) -> None:
    """After an answer, bytes that begin no request (blank lines, which a server takes
    before a request) start the header deadline as a request's first byte does: the
    connection is closed, without an answer, though they keep coming."""
    with connect(server.port) as sock:
        sock.sendall(request(f"127.0.0.1:{server.port}"))
        assert answer_of(read_one(sock))[0] == 200
        sock.settimeout(HEADER_TIMEOUT / 5)
        started, got, closed = time.monotonic(), b"", False
        while not closed and time.monotonic() - started < WAIT:
            try:
                sock.sendall(b"\r\n")
                chunk = sock.recv(65536)
            except TimeoutError:
                continue
            except ConnectionError:
                chunk = b""
            closed = not chunk
            got += chunk
    assert closed, "the connection was not closed"
    assert got == b""
