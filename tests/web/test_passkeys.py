"""Passkeys over HTTP (in-process, a software authenticator): sign up and sign in; a
passkey of another site, an answer from another origin's page, a spent or unknown
ceremony, all refused with nothing changed; a passkey sign-in is never slowed; add and
remove passkeys (never the last way in)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.passkey_device import Device
from tests.web.test_accounts import PASSWORD, SITE, browser, cheap_hashing, refusal, sign_up
from yahtzee.service.sign_in_limits import FREE_PER_NAME
from yahtzee.web.app import create_app

PREFIX = "/api/account/passkeys"


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db, bot_delay=0, rate=1e6), headers={"origin": SITE}) as c:
        cheap_hashing(c)
        yield c


def passkey_sign_up(
    client: TestClient, device: Device, name: str = "Ann", origin: str = SITE, **extra: Any
) -> Any:
    begun = client.post(f"{PREFIX}/sign-up/options", json={"name": name})
    assert begun.status_code == 200, begun.text
    options = begun.json()["options"]
    assert options["rp"]["id"] == "testserver"
    assert options["authenticatorSelection"]["residentKey"] == "required"
    answer = device.create(options, origin)
    return client.post(
        f"{PREFIX}/sign-up",
        json={"ceremony": begun.json()["ceremony"], "name": name, "credential": answer, **extra},
    )


def passkey_sign_in(
    client: TestClient, device: Device, origin: str = SITE, rp_id: str | None = None
) -> Any:
    begun = client.post(f"{PREFIX}/sign-in/options", json={}).json()
    answer = device.get(begun["options"], origin, rp_id)
    return client.post(
        f"{PREFIX}/sign-in", json={"ceremony": begun["ceremony"], "credential": answer}
    )


def test_sign_up_and_in_with_a_passkey(client: TestClient) -> None:
    device = Device()
    made = passkey_sign_up(client, device)
    assert made.status_code == 201, made.text
    assert len(made.json()["recovery_codes"]) == 10
    me = client.get("/api/account").json()
    assert me["password"] is False
    assert [k["label"] for k in me["passkeys"]] == ["Passkey"]
    other = browser(client)
    signed = passkey_sign_in(other, device)
    assert signed.status_code == 200, signed.text
    assert signed.json()["account"] == made.json()["account"]
    assert other.get("/api/account").json()["passkeys"][0]["used_at"] is not None


def test_an_answer_from_another_origin_is_refused(client: TestClient) -> None:
    device = Device()
    made = passkey_sign_up(client, device, origin="http://evil.example")
    refusal(made, 400, "passkey_refused")
    assert "another site" in made.json()["message"]
    refusal(client.get("/api/account"), 401, "signed_out")  # no account was made
    assert passkey_sign_up(client, Device()).status_code == 201  # the name is still free
    signed = passkey_sign_in(browser(client), device_of(client), origin="http://evil.example")
    refusal(signed, 400, "passkey_refused")


def device_of(client: TestClient) -> Device:
    """A device with a passkey of the account signed in on ``client``'s browser."""
    device = Device()
    begun = client.post(f"{PREFIX}/options", json={}).json()
    added = client.post(
        PREFIX,
        json={"ceremony": begun["ceremony"], "credential": device.create(begun["options"], SITE)},
    )
    assert added.status_code == 201, added.text
    return device


def test_a_passkey_of_another_site_is_refused(client: TestClient) -> None:
    device = Device()
    # the same device holds a passkey made for another site (by its page there)
    device.create({"rp": {"id": "evil.example"}, "user": {"id": "x"}, "challenge": "AA"}, SITE)
    assert passkey_sign_up(client, device).status_code == 201
    other = browser(client)
    refusal(passkey_sign_in(other, device, rp_id="evil.example"), 400, "passkey_refused")
    refusal(other.get("/api/account"), 401, "signed_out")


def test_a_ceremony_is_used_once(client: TestClient) -> None:
    device = Device()
    passkey_sign_up(client, device)
    other = browser(client)
    begun = other.post(f"{PREFIX}/sign-in/options", json={}).json()
    answer = device.get(begun["options"], SITE)
    body = {"ceremony": begun["ceremony"], "credential": answer}
    assert other.post(f"{PREFIX}/sign-in", json=body).status_code == 200
    refusal(browser(client).post(f"{PREFIX}/sign-in", json=body), 400, "ceremony_expired")
    body["ceremony"] = "made up"
    refusal(browser(client).post(f"{PREFIX}/sign-in", json=body), 400, "ceremony_expired")


def test_an_expired_ceremony_is_refused(client: TestClient) -> None:
    device = Device()
    accounts = client.app.state.accounts  # type: ignore[attr-defined]
    begun = client.post(f"{PREFIX}/sign-up/options", json={"name": "Ann"}).json()
    real = accounts.clock
    accounts.clock = lambda: real() + 3600
    try:
        made = client.post(
            f"{PREFIX}/sign-up",
            json={"ceremony": begun["ceremony"], "name": "Ann",
                  "credential": device.create(begun["options"], SITE)},
        )  # fmt: skip
    finally:
        accounts.clock = real
    refusal(made, 400, "ceremony_expired")


def test_a_passkey_sign_in_is_never_slowed(client: TestClient) -> None:
    device = Device()
    passkey_sign_up(client, device)
    client.post("/api/account/password", json={"password": PASSWORD})
    guesser = browser(client)
    wrong = {"name": "Ann", "password": "not the password"}
    for _ in range(FREE_PER_NAME):
        guesser.post("/api/account/sign-in", json=wrong)
    refusal(guesser.post("/api/account/sign-in", json=wrong), 429, "slow_down")
    assert passkey_sign_in(guesser, device).status_code == 200
    # ... and it clears the name's failures: the owner's password works again at once
    owner = browser(client)
    signed = owner.post("/api/account/sign-in", json={"name": "Ann", "password": PASSWORD})
    assert signed.status_code == 200, signed.text


def test_add_and_remove_passkeys_but_never_the_last_way_in(client: TestClient) -> None:
    first = Device()
    passkey_sign_up(client, first)
    (only,) = client.get("/api/account").json()["passkeys"]
    refusal(client.delete(f"{PREFIX}/{only['id']}"), 409, "last_way_in")
    second = device_of(client)
    assert len(client.get("/api/account").json()["passkeys"]) == 2
    assert client.delete(f"{PREFIX}/{only['id']}").status_code == 204
    refusal(passkey_sign_in(browser(client), first), 400, "passkey_refused")
    assert passkey_sign_in(browser(client), second).status_code == 200
    refusal(client.delete(f"{PREFIX}/{only['id']}"), 400, "no_passkey")


def test_passkeys_need_a_host_name(db: str) -> None:
    with TestClient(
        create_app(db, bot_delay=0), base_url="http://127.0.0.1:8000",
        headers={"origin": "http://127.0.0.1:8000"},
    ) as c:  # fmt: skip
        refusal(
            c.post(f"{PREFIX}/sign-up/options", json={"name": "Ann"}), 400, "passkeys_unavailable"
        )


def test_signing_up_with_a_taken_name_is_refused_before_the_passkey(client: TestClient) -> None:
    sign_up(client, "Ann")
    refusal(
        browser(client).post(f"{PREFIX}/sign-up/options", json={"name": "ANN"}), 400, "name_taken"
    )
