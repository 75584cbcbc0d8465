"""Web Push's REST API in process: the application server key, and subscriptions kept
only when they point at a push service on the public internet (no server-side request
forgery), each refusal the documented error with nothing kept."""

from __future__ import annotations

import base64
from collections.abc import Iterator

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from fastapi import Request
from fastapi.testclient import TestClient

from tests.web.test_accounts import cheap_hashing, sign_up
from yahtzee.service.accounts import Account
from yahtzee.service.push import VAPID_KEY_ENV, VapidKey, b64url
from yahtzee.web.accounts import signed_in
from yahtzee.web.app import create_app

PUBLIC = "https://93.184.215.14/push/v1/abc"
"""A push endpoint on a public address (an address: nothing is resolved)."""


async def account_header(request: Request) -> Account:
    """Stands in for the signed-in account: the test names it in a header."""
    name = request.headers["x-test-account"]
    return Account(name, name)


def browser_keys() -> dict[str, str]:
    point = ec.generate_private_key(ec.SECP256R1()).public_key()
    p256dh = b64url(point.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))
    return {"p256dh": p256dh, "auth": b64url(b"0123456789abcdef")}


def app_client(db: str, **options: object) -> TestClient:
    app = create_app(db, bot_delay=0, rate=1e6, **options)  # type: ignore[arg-type]
    app.dependency_overrides[signed_in] = account_header
    return TestClient(app)


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with app_client(db) as test_client:
        yield test_client


def as_(account: str) -> dict[str, str]:
    return {"x-test-account": account}


def kept(client: TestClient, account: str = "ann") -> list[dict[str, str]]:
    answer = client.get("/api/push/subscriptions", headers=as_(account))
    assert answer.status_code == 200, answer.text
    found: list[dict[str, str]] = answer.json()["subscriptions"]
    return found


def test_the_key_is_an_uncompressed_p256_point_kept_across_restarts(db: str) -> None:
    with app_client(db) as first:
        key = first.get("/api/push/key").json()["key"]
    point = base64.urlsafe_b64decode(key + "=" * (-len(key) % 4))
    assert len(point) == 65 and point[0] == 4
    ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    with app_client(db) as again:
        assert again.get("/api/push/key").json()["key"] == key


def test_the_key_given_by_the_environment_is_the_one_used(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    given = VapidKey.generate()
    monkeypatch.setenv(VAPID_KEY_ENV, given.private_key)
    with app_client(db) as client:
        assert client.get("/api/push/key").json() == {"key": given.public_key}


def test_a_subscription_is_kept_listed_and_removed(client: TestClient) -> None:
    body = {"endpoint": PUBLIC, "expirationTime": None, "keys": browser_keys()}
    answer = client.post("/api/push/subscriptions", json=body, headers=as_("ann"))
    assert answer.status_code == 204, answer.text
    assert [s["service"] for s in kept(client)] == ["93.184.215.14"]
    assert kept(client, "bob") == []
    gone = client.request("DELETE", "/api/push/subscriptions", json={"endpoint": PUBLIC},
                          headers=as_("ann"))  # fmt: skip
    assert gone.status_code == 204
    assert kept(client) == []


def test_a_signed_in_browser_subscribes_its_account_signed_out_or_cross_site_nothing_is_kept(
    db: str,
) -> None:
    site = {"origin": "http://testserver"}
    with TestClient(create_app(db, bot_delay=0, rate=1e6), headers=site) as client:
        cheap_hashing(client)
        body = {"endpoint": PUBLIC, "keys": browser_keys()}
        answer = client.post("/api/push/subscriptions", json=body)
        assert answer.status_code == 401 and answer.json()["code"] == "signed_out"
        assert client.get("/api/push/key").status_code == 200
        sign_up(client, "Ann")
        no_origin = TestClient(client.app, cookies=client.cookies)  # a form from elsewhere
        answer = no_origin.post("/api/push/subscriptions", json=body)
        assert answer.status_code == 403 and answer.json()["code"] == "cross_site"
        assert client.get("/api/push/subscriptions").json() == {"subscriptions": []}
        assert client.post("/api/push/subscriptions", json=body).status_code == 204
        [kept_one] = client.get("/api/push/subscriptions").json()["subscriptions"]
        assert kept_one["service"] == "93.184.215.14"
        client.post("/api/account/sign-out")
        answer = client.request("DELETE", "/api/push/subscriptions", json={"endpoint": PUBLIC})
        assert answer.status_code == 401 and answer.json()["code"] == "signed_out"


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://127.0.0.1/push",  # loopback
        "https://127.8.9.1:8443/push",
        "https://10.1.2.3/push",  # private
        "https://192.168.0.10/push",
        "https://172.16.5.4/push",
        "https://169.254.169.254/latest/meta-data",  # link-local (cloud metadata)
        "https://[::1]/push",  # IPv6 loopback
        "https://[fe80::1]/push",
        "https://[fd00::1]/push",
        "https://[::ffff:10.0.0.1]/push",  # IPv4 inside IPv6
        "https://0.0.0.0/push",
        "https://224.0.0.1/push",  # multicast
        "https://100.64.0.1/push",  # shared (carrier NAT)
        "https://localhost/push",  # a name that resolves to loopback
        "http://93.184.215.14/push",  # not https
        "https://user@93.184.215.14/push",
        "ftp://93.184.215.14/push",
        "not a url",
        "https://no-such-host.invalid/push",
    ],
)
def test_an_endpoint_off_the_public_internet_is_refused_and_nothing_kept(
    client: TestClient, endpoint: str
) -> None:
    body = {"endpoint": endpoint, "keys": browser_keys()}
    answer = client.post("/api/push/subscriptions", json=body, headers=as_("ann"))
    assert answer.status_code == 400, answer.text
    refusal = answer.json()
    assert refusal["code"] == "bad_subscription"
    assert refusal["message"].startswith("This push subscription cannot be used: ")
    assert kept(client) == []


@pytest.mark.parametrize(
    "keys",
    [
        {"p256dh": b64url(b"\x04" + bytes(64)), "auth": b64url(bytes(16))},  # not on the curve
        {"p256dh": b64url(bytes(65)), "auth": b64url(bytes(16))},
        {"p256dh": "not base64 !", "auth": b64url(bytes(16))},
        {"p256dh": browser_keys()["p256dh"], "auth": b64url(bytes(15))},
        {"p256dh": browser_keys()["p256dh"], "auth": "é"},
    ],
)
def test_keys_that_are_not_a_p256_point_and_16_bytes_are_refused(
    client: TestClient, keys: dict[str, str]
) -> None:
    body = {"endpoint": PUBLIC, "keys": keys}
    answer = client.post("/api/push/subscriptions", json=body, headers=as_("ann"))
    assert answer.status_code == 400, answer.text
    assert answer.json()["code"] == "bad_subscription"
    assert kept(client) == []


def test_a_body_out_of_shape_is_a_bad_request(client: TestClient) -> None:
    for body in ({"endpoint": PUBLIC}, {"endpoint": 5, "keys": browser_keys()},
                 {"endpoint": "https://x/" + "a" * 2000, "keys": browser_keys()}):  # fmt: skip
        answer = client.post("/api/push/subscriptions", json=body, headers=as_("ann"))
        assert answer.status_code == 400 and answer.json()["code"] == "bad_request"
    assert kept(client) == []


def test_the_tests_setting_allows_loopback_only(db: str) -> None:
    with app_client(db, push_allow_local=True) as client:
        for endpoint in ("http://127.0.0.1:9/push", "https://[::1]:9/push"):
            body = {"endpoint": endpoint, "keys": browser_keys()}
            answer = client.post("/api/push/subscriptions", json=body, headers=as_("ann"))
            assert answer.status_code == 204, answer.text
        for endpoint in ("https://10.1.2.3/push", "http://93.184.215.14/push"):
            body = {"endpoint": endpoint, "keys": browser_keys()}
            answer = client.post("/api/push/subscriptions", json=body, headers=as_("ann"))
            assert answer.json()["code"] == "bad_subscription"
        assert len(kept(client)) == 2
