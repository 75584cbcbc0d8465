""" "Your turn" notifications through a real push service on loopback (`tests.push_service`):
the push is decrypted with the browser's keys to read its text, its VAPID token checked
against the server's key; one per turn, none while the player's page is open on the
table, gathered when several games wait, and a subscription the service says is gone is
dropped."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.push_service import Browser, PushService, vapid_claims
from tests.store.test_push_records import table_in_play
from yahtzee.core import RuleSet
from yahtzee.core import language as lang
from yahtzee.service.notifier import TAG, Notified, Notifier
from yahtzee.service.presence import Presence
from yahtzee.service.push import PushSubscriptions, VapidKey
from yahtzee.service.table import SeatState, Table
from yahtzee.store import Store
from yahtzee.store import push as records

SUBJECT = "mailto:push-test@yahtzee.invalid"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(f"sqlite:///{tmp_path / 'records.db'}") as opened:
        yield opened


@pytest.fixture
def service() -> Iterator[PushService]:
    with PushService().running() as running:
        yield running


def notifier_on(store: Store, key: VapidKey | None = None) -> Notifier:
    """A node's notifier (``key``: a new one by default), its push services on loopback."""
    subscriptions = PushSubscriptions(store, allow_local=True)
    presence = Presence(lambda *_: None)
    chosen = key or VapidKey.generate()
    return Notifier(store, presence, chosen, subscriptions, subject=SUBJECT)


def subscribe(notifier: Notifier, account: str, browser: Browser, language: str = "en") -> None:
    """The page of ``account`` in ``browser`` subscribes, speaking ``language``."""
    keys = browser.subscription()["keys"]
    with lang.speaking(language):
        added = notifier.subscriptions.add(account, browser.endpoint, keys["p256dh"], keys["auth"])
        asyncio.run(added)


def notify(
    notifier: Notifier, table_id: str, turn: int, account: str | None, **kw: object
) -> Notified:
    options = {"here": False, "others": ["Bob"], **kw}
    return asyncio.run(notifier.notify(table_id, turn, account, **options))  # type: ignore[arg-type]


def test_the_push_reads_your_turn_with_the_tables_page_and_a_valid_vapid_token(
    store: Store, service: PushService
) -> None:
    notifier = notifier_on(store)
    browser = service.browser()
    subscribe(notifier, "ann", browser)
    table = table_in_play(store)
    assert notify(notifier, table, 12, "ann", others=["Bob", "Cleo"]) == Notified(sent=1)
    push = service.next()
    assert push.path == browser.path
    assert browser.read(push) == {
        "title": "Your turn",
        "body": "It is your turn in your game against Bob and Cleo.",
        "url": f"/?table={table}",
        "tag": TAG,
        "count": 1,
    }
    claims = vapid_claims(push, notifier.key.public_key, service.origin)
    assert claims["sub"] == SUBJECT
    assert push.headers["ttl"] == str(24 * 60 * 60)
    assert push.headers["topic"] and push.headers["urgency"] == "normal"


def test_each_browser_is_notified_in_the_language_of_its_page(
    store: Store, service: PushService
) -> None:
    notifier = notifier_on(store)
    german, swedish, english = service.browser(), service.browser(), service.browser()
    subscribe(notifier, "ann", german, "de")
    subscribe(notifier, "ann", swedish, "sv")
    subscribe(notifier, "ann", english)
    table = table_in_play(store)
    with lang.speaking("fr"):  # the language of the move that passed the turn: not used
        assert notify(notifier, table, 7, "ann", others=[None]).sent == 3
    read = {}
    for _push in range(3):
        push = service.next()
        browser = next(b for b in (german, swedish, english) if b.path == push.path)
        read[browser.path] = browser.read(push)
    for browser, code in ((german, "de"), (swedish, "sv"), (english, "en")):
        with lang.speaking(code):
            title = lang._("Your turn")
            body = lang._("It is your turn in your game against {name}.").format(
                name=lang._("a bot")
            )
        assert (read[browser.path]["title"], read[browser.path]["body"]) == (title, body)
    assert read[german.path]["title"] != read[english.path]["title"] == "Your turn"
    assert read[swedish.path]["title"] != "Your turn"


def test_one_push_per_turn_and_none_for_an_earlier_turn(store: Store, service: PushService) -> None:
    notifier = notifier_on(store)
    browser = service.browser()
    subscribe(notifier, "ann", browser)
    table = table_in_play(store)
    assert notify(notifier, table, 5, "ann").sent == 1
    assert notify(notifier, table, 5, "ann") == Notified()
    assert notify(notifier, table, 3, "ann") == Notified()
    service.next()
    service.nothing_more()


def test_no_push_while_the_players_page_is_open_on_the_table(
    store: Store, service: PushService
) -> None:
    notifier = notifier_on(store)
    subscribe(notifier, "ann", service.browser())
    table = table_in_play(store)
    assert notify(notifier, table, 5, "ann", here=True) == Notified()
    assert notify(notifier, table, 5, "ann") == Notified()  # that turn is done with
    service.nothing_more()


def test_several_games_waiting_make_one_gathered_notification(
    store: Store, service: PushService
) -> None:
    notifier = notifier_on(store)
    browser = service.browser()
    subscribe(notifier, "ann", browser)
    first, second, third = (table_in_play(store) for _ in range(3))
    notify(notifier, first, 4, "ann")
    notify(notifier, second, 4, "ann")
    notify(notifier, third, 4, None)  # a guest's turn there: not Ann's game waiting
    notify(notifier, third, 6, "ann")
    seen = [browser.read(service.next()) for _ in range(3)]
    assert [n["count"] for n in seen] == [1, 2, 3]
    assert seen[2]["title"] == "Your turn in 3 games"
    assert seen[2]["url"] == f"/?table={third}"
    assert {n["tag"] for n in seen} == {TAG}  # each replaces the one before on the device
    notify(notifier, second, 8, None)  # the turn there moved on to a guest
    notify(notifier, first, 9, "ann")
    assert browser.read(service.next())["count"] == 2


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_says_is_gone_is_dropped(
    store: Store, service: PushService, status: int
) -> None:
    notifier = notifier_on(store)
    gone, kept = service.browser(), service.browser()
    subscribe(notifier, "ann", gone)
    subscribe(notifier, "ann", kept)
    service.answers[gone.path] = status
    assert notify(notifier, table_in_play(store), 5, "ann") == Notified(sent=1, dropped=1)
    assert [s.endpoint for s in records.subscriptions_of(store, "ann")] == [kept.endpoint]


def test_other_failures_are_kept_and_never_reach_the_game(
    store: Store, service: PushService, caplog: pytest.LogCaptureFixture
) -> None:
    notifier = notifier_on(store)
    failing, unreachable = service.browser(), Browser("http://127.0.0.1:9/push/closed")
    subscribe(notifier, "ann", failing)
    subscribe(notifier, "ann", unreachable)
    service.answers[failing.path] = 500
    assert notify(notifier, table_in_play(store), 5, "ann") == Notified(failed=2)
    assert len(records.subscriptions_of(store, "ann")) == 2
    assert "a push service answered 500" in caplog.text
    assert "could not be reached" in caplog.text


def test_the_push_goes_to_the_address_checked_naming_the_host(
    store: Store, service: PushService
) -> None:
    """A subscription by name: the send connects to the address the name was resolved to
    and checked at (here a name no DNS knows), and names the host (as a TLS handshake's
    SNI and certificate check do)."""
    notifier = notifier_on(store)
    notifier.subscriptions.resolve = lambda host, port: ["127.0.0.1"] if host == "push.test" else []
    browser = Browser(f"http://push.test:{service.port}/push/by-name")
    subscribe(notifier, "ann", browser)
    assert notify(notifier, table_in_play(store), 5, "ann").sent == 1
    push = service.next()
    assert push.headers["host"] == f"push.test:{service.port}"
    vapid_claims(push, notifier.key.public_key, f"http://push.test:{service.port}")
    assert browser.read(push)["title"] == "Your turn"


def test_to_move_notifies_the_seats_account_in_the_background(
    store: Store, service: PushService
) -> None:
    """The turn listener's seam: the seat's account (a guest's seat has none) is notified
    for the table's turn (its committed event count), after `to_move` returned."""
    notifier = notifier_on(store)
    browser = service.browser()
    subscribe(notifier, "ann", browser)
    table_id = table_in_play(store)
    seats = [SeatState(0, "Ann"), SeatState(1, "Bob"), SeatState(2, "Cleo")]
    seats[0].account = "ann"  # type: ignore[attr-defined]  # (SeatState.account: accounts)
    table = Table(
        table_id, RuleSet.named("official"), True, None, "i", "s", "o", "playing", seats,
        live=SimpleNamespace(committed_seq=17),  # type: ignore[arg-type]
    )  # fmt: skip

    async def run() -> None:
        await notifier.to_move(table, 1)  # Bob, a guest: his turn is claimed, no push
        await notifier.idle()
        table.live = SimpleNamespace(committed_seq=21)  # type: ignore[assignment]
        await notifier.to_move(table, 0)
        await notifier.idle()

    asyncio.run(run())
    assert browser.read(service.next())["body"] == (
        "It is your turn in your game against Bob and Cleo."
    )
    service.nothing_more()


def test_a_subscription_whose_host_now_resolves_to_a_private_address_is_not_used(
    store: Store, service: PushService
) -> None:
    notifier = notifier_on(store)
    subscribe(notifier, "ann", service.browser())
    notifier.subscriptions.resolve = lambda host, port: ["10.0.0.7"]  # the name moved
    assert notify(notifier, table_in_play(store), 5, "ann") == Notified(failed=1)
    service.nothing_more()
