"""Accounts over HTTP (in-process): sign up, sign in (password, recovery code), the session
cookie, sign out here and everywhere, the cross-site check, and a signed-in player's seats.
Every refusal is a documented error that changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import select

from yahtzee.service.accounts import BAD_CREDENTIALS
from yahtzee.service.sign_in_limits import FREE_PER_NAME
from yahtzee.store.schema import seats as game_seats
from yahtzee.store.schema import table_seats
from yahtzee.web.app import create_app

SITE = "http://testserver"
PASSWORD = "correct horse battery"


def cheap_hashing(client: TestClient) -> None:
    """argon2id at its smallest cost (the tests hash many passwords)."""
    client.app.state.accounts.hasher = PasswordHasher(  # type: ignore[attr-defined]
        time_cost=1, memory_cost=64, parallelism=1
    )


@contextmanager
def site_client(db: str, signed_up: str | None = None) -> Iterator[TestClient]:
    """A browser on a new app over ``db`` (cheap hashing), signed up as ``signed_up``."""
    with TestClient(create_app(db, bot_delay=0, rate=1e6), headers={"origin": SITE}) as c:
        cheap_hashing(c)
        if signed_up is not None:
            sign_up(c, signed_up)
        yield c


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with site_client(db) as c:
        yield c


def browser(client: TestClient) -> TestClient:
    """A second browser on the same server (its own cookies)."""
    return TestClient(client.app, headers={"origin": SITE})


def sign_up(client: TestClient, name: str = "Ann", **extra: Any) -> dict[str, Any]:
    response = client.post(
        "/api/account/sign-up", json={"name": name, "password": PASSWORD, **extra}
    )
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def refusal(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert body["code"] == code
    return body


def test_sign_up_signs_in_with_an_http_only_lax_cookie(client: TestClient) -> None:
    made = sign_up(client)
    assert made["account"]["name"] == "Ann"
    assert len(made["recovery_codes"]) == 10
    cookie = client.cookies.jar
    (only,) = list(cookie)
    assert only.name == "yz_session"
    assert only.has_nonstandard_attr("HttpOnly")
    me = client.get("/api/account")
    assert me.status_code == 200, me.text
    body = me.json()
    assert body["account"] == made["account"]
    assert body["password"] is True
    assert body["recovery_codes_left"] == 10
    assert [s["current"] for s in body["sessions"]] == [True]


def test_the_cookie_is_secure_and_host_only_behind_https(db: str) -> None:
    with TestClient(
        create_app(db, bot_delay=0), base_url="https://testserver",
        headers={"origin": "https://testserver"},
    ) as c:  # fmt: skip
        cheap_hashing(c)
        response = c.post("/api/account/sign-up", json={"name": "Ann", "password": PASSWORD})
        assert response.status_code == 201
        header = response.headers["set-cookie"]
        assert header.startswith("__Host-yz_session=")
        for part in ("HttpOnly", "Path=/", "SameSite=lax", "Secure"):
            assert part.lower() in header.lower()
        assert c.get("/api/account").status_code == 200


def test_a_name_like_an_accounts_is_taken(client: TestClient) -> None:
    sign_up(client, "Vera1")
    other = browser(client)
    refusal(
        other.post("/api/account/sign-up", json={"name": "VERAl", "password": PASSWORD}),
        400,
        "name_taken",
    )
    refusal(other.get("/api/account"), 401, "signed_out")


def test_a_short_password_is_refused(client: TestClient) -> None:
    refusal(
        client.post("/api/account/sign-up", json={"name": "Ann", "password": "short"}),
        400,
        "weak_password",
    )
    assert client.cookies.get("yz_session") is None


def test_sign_in_errors_do_not_tell_whether_the_account_exists(client: TestClient) -> None:
    sign_up(browser(client), "Ann")
    wrong = refusal(
        client.post("/api/account/sign-in", json={"name": "Ann", "password": "not it at all"}),
        401,
        "bad_credentials",
    )
    unknown = refusal(
        client.post("/api/account/sign-in", json={"name": "Nobody", "password": PASSWORD}),
        401,
        "bad_credentials",
    )
    assert wrong == unknown == {"code": "bad_credentials", "message": BAD_CREDENTIALS}
    signed = client.post("/api/account/sign-in", json={"name": "ann", "password": PASSWORD})
    assert signed.status_code == 200, signed.text
    assert signed.json()["account"]["name"] == "Ann"
    assert client.get("/api/account").status_code == 200


def test_a_recovery_code_signs_in_once(client: TestClient) -> None:
    code = sign_up(browser(client))["recovery_codes"][0]
    typed = code.lower().replace("-", " ")
    body = {"name": "Ann", "recovery_code": typed}
    assert client.post("/api/account/sign-in", json=body).status_code == 200
    assert client.get("/api/account").json()["recovery_codes_left"] == 9
    refusal(browser(client).post("/api/account/sign-in", json=body), 401, "bad_credentials")


def test_failed_sign_ins_slow_down_the_next(client: TestClient) -> None:
    sign_up(browser(client))
    wrong = {"name": "Ann", "password": "not the password"}
    for _ in range(FREE_PER_NAME):
        refusal(client.post("/api/account/sign-in", json=wrong), 401, "bad_credentials")
    slowed = client.post("/api/account/sign-in", json={"name": "Ann", "password": PASSWORD})
    refusal(slowed, 429, "slow_down")
    assert int(slowed.headers["retry-after"]) >= 1
    assert client.cookies.get("yz_session") is None


def test_sign_out_ends_this_session_only(client: TestClient) -> None:
    sign_up(client)
    elsewhere = browser(client)
    assert (
        elsewhere.post("/api/account/sign-in", json={"name": "Ann", "password": PASSWORD})
    ).status_code == 200
    kept = client.cookies.get("yz_session")
    assert client.post("/api/account/sign-out").status_code == 204
    refusal(client.get("/api/account"), 401, "signed_out")
    stolen = browser(client)
    stolen.cookies.set("yz_session", kept or "")
    refusal(stolen.get("/api/account"), 401, "signed_out")  # an ended session acts no more
    assert elsewhere.get("/api/account").status_code == 200
    refusal(client.post("/api/account/sign-out"), 401, "signed_out")


def test_sign_out_everywhere_ends_every_session(client: TestClient) -> None:
    sign_up(client)
    elsewhere = browser(client)
    elsewhere.post("/api/account/sign-in", json={"name": "Ann", "password": PASSWORD})
    assert len(client.get("/api/account").json()["sessions"]) == 2
    assert client.post("/api/account/sign-out-everywhere").status_code == 204
    refusal(client.get("/api/account"), 401, "signed_out")
    refusal(elsewhere.get("/api/account"), 401, "signed_out")


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "http://localhost"},  # an origin the server answers for, not this one
        {"origin": "http://localhost", "sec-fetch-site": "same-site"},
        {},  # no origin at all
    ],
)
def test_a_cookie_write_from_elsewhere_is_refused(
    client: TestClient, headers: dict[str, str]
) -> None:
    sign_up(client)
    secret = client.cookies.get("yz_session")
    other = TestClient(client.app, headers=headers)
    other.cookies.set("yz_session", secret or "")
    refusal(other.post("/api/account/sign-out-everywhere"), 403, "cross_site")
    assert client.get("/api/account").status_code == 200  # nothing changed
    # without the cookie the same request is a guest's (no session to act for)
    guest = TestClient(client.app, headers=headers)
    refusal(guest.post("/api/account/sign-out"), 401, "signed_out")


def test_the_browsers_fetch_metadata_passes(client: TestClient) -> None:
    sign_up(client)
    same = TestClient(client.app, headers={"sec-fetch-site": "same-origin"})
    same.cookies.set("yz_session", client.cookies.get("yz_session") or "")
    assert same.post("/api/account/sign-out").status_code == 204


def _accounts_at(client: TestClient, rows: Any, key: Any, value: str) -> list[str | None]:
    """Each seat's account, in seat order, of the rows whose ``key`` is ``value``."""
    store = client.app.state.lobby.store  # type: ignore[attr-defined]
    with store.engine.connect() as c:
        query = select(rows.c.account_id).where(key == value).order_by(rows.c.seat)
        return list(c.execute(query).scalars())


def seat_accounts(client: TestClient, table_id: str) -> list[str | None]:
    return _accounts_at(client, table_seats, table_seats.c.table_id, table_id)


def game_seat_accounts(client: TestClient, game_id: str) -> list[str | None]:
    return _accounts_at(client, game_seats, game_seats.c.game_id, game_id)


def test_a_signed_in_players_seats_are_the_accounts(client: TestClient) -> None:
    ann = sign_up(client)["account"]["id"]
    bob_browser = browser(client)
    bob = sign_up(bob_browser, "Bob")["account"]["id"]
    created = client.post(
        "/api/tables", json={"host": "Ann", "seats": [{"kind": "human"}, {"kind": "human"}]}
    ).json()
    table_id = created["table"]["id"]
    bob_browser.post(f"/api/join/{created['invite']}", json={"name": "Bob"})
    TestClient(client.app).post(f"/api/join/{created['invite']}", json={"name": "Guest"})
    assert seat_accounts(client, table_id) == [ann, bob, None]
    assert client.app.state.lobby.tables[table_id].seats[1].account == bob  # type: ignore[attr-defined]
    started = client.post(
        f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {created['token']}"}
    )
    assert started.status_code == 200, started.text
    game_id = client.app.state.lobby.tables[table_id].session.game_id  # type: ignore[attr-defined]
    assert game_seat_accounts(client, game_id) == [ann, bob, None]


def test_a_guest_who_signs_up_keeps_the_seats_of_the_browser(client: TestClient) -> None:
    guest = client.post("/api/tables", json={"host": "Ann", "seats": [{"kind": "bot"}]}).json()
    table_id = guest["table"]["id"]
    started = client.post(
        f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {guest['token']}"}
    )
    assert started.status_code == 200
    assert seat_accounts(client, table_id) == [None, None]
    ann = sign_up(client, seats=[guest["token"], "not a token"])["account"]["id"]
    assert seat_accounts(client, table_id) == [ann, None]
    game_id = client.app.state.lobby.tables[table_id].session.game_id  # type: ignore[attr-defined]
    assert game_seat_accounts(client, game_id) == [ann, None]
    assert client.app.state.lobby.tables[table_id].seats[0].account == ann  # type: ignore[attr-defined]


def test_a_signed_in_players_daily_game_is_the_accounts(client: TestClient) -> None:
    ann = sign_up(client)["account"]["id"]
    started = client.post("/api/daily", json={"name": "Ann"})
    assert started.status_code in {200, 201}, started.text
    table_id = started.json()["table"]["id"]
    assert seat_accounts(client, table_id) == [ann]
    assert game_seat_accounts(client, table_id) == [ann]  # (a daily table's id is its game's)


def test_rename_password_and_new_recovery_codes(client: TestClient) -> None:
    old_codes = sign_up(client)["recovery_codes"]
    sign_up(browser(client), "Bob")
    refusal(client.patch("/api/account", json={"name": "BOB"}), 400, "name_taken")
    renamed = client.patch("/api/account", json={"name": "Annie"})
    assert renamed.json()["name"] == "Annie"
    refusal(client.post("/api/account/password", json={"password": "short"}), 400, "weak_password")
    assert (
        client.post("/api/account/password", json={"password": "a new password"}).status_code == 204
    )
    other = browser(client)
    refusal(
        other.post("/api/account/sign-in", json={"name": "Annie", "password": PASSWORD}),
        401,
        "bad_credentials",
    )
    body = {"name": "Annie", "password": "a new password"}
    assert other.post("/api/account/sign-in", json=body).status_code == 200
    codes = client.post("/api/account/recovery-codes", json={}).json()["recovery_codes"]
    assert len(codes) == 10 and not set(codes) & set(old_codes)
    refusal(
        browser(client).post(
            "/api/account/sign-in", json={"name": "Annie", "recovery_code": old_codes[0]}
        ),
        401,
        "bad_credentials",
    )
    assert (
        browser(client)
        .post("/api/account/sign-in", json={"name": "Annie", "recovery_code": codes[0]})
        .status_code
        == 200
    )


def test_the_export_holds_the_account_and_its_games(client: TestClient) -> None:
    ann = sign_up(client)["account"]["id"]
    created = client.post("/api/tables", json={"host": "Ann", "seats": [{"kind": "bot"}]}).json()
    table_id = created["table"]["id"]
    client.post(
        f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {created['token']}"}
    )
    answer = client.get("/api/account/export")
    assert answer.status_code == 200
    assert "attachment" in answer.headers["content-disposition"]
    data = answer.json()
    assert data["format"] == "yahtzee-account"
    assert data["account"]["id"] == ann
    assert [s["table"] for s in data["seats"]] == [table_id]
    (game,) = data["games"]
    assert game["seats"][0]["player"] == "Ann"
    assert game["events"]
    assert "secret" not in answer.text and "hash" not in answer.text
    refusal(browser(client).get("/api/account/export"), 401, "signed_out")


def test_deleting_the_account_leaves_the_opponents_games(client: TestClient) -> None:
    ann_browser = browser(client)
    ann = sign_up(ann_browser)["account"]["id"]
    bob_browser = browser(client)
    bob = sign_up(bob_browser, "Bob")["account"]["id"]
    created = ann_browser.post(
        "/api/tables", json={"host": "Ann", "seats": [{"kind": "human"}]}
    ).json()
    table_id = created["table"]["id"]
    bob_browser.post(f"/api/join/{created['invite']}", json={"name": "Bob"})
    ann_browser.post(
        f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {created['token']}"}
    )
    assert seat_accounts(client, table_id) == [ann, bob]
    assert ann_browser.delete("/api/account").status_code == 204
    refusal(ann_browser.get("/api/account"), 401, "signed_out")
    refusal(
        browser(client).post("/api/account/sign-in", json={"name": "Ann", "password": PASSWORD}),
        401,
        "bad_credentials",
    )
    assert seat_accounts(client, table_id) == [None, bob]
    view = client.get(f"/api/tables/{table_id}").json()
    assert [s["name"] for s in view["seats"]] == ["Ann", "Bob"]
    game_id = view["game_id"]
    assert game_seat_accounts(client, game_id) == [None, bob]
    assert bob_browser.get("/api/account/export").json()["games"][0]["id"] == game_id
