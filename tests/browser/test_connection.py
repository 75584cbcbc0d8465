"""The page's connection: hello first, secrets out of the address bar and the console,
refusals that stop the reconnect loop and say why, the lost connection in a banner."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import httpx
import pytest

from tests.browser.support import (
    PHONE,
    create_table,
    open_page,
    start,
    stored_token,
    table_id,
    text_of,
    wait_text,
)
from tests.server_process import ServerProcess

SOCKETS = re.compile(r".*/ws/.*")


def seat_in_storage(page: Any, table: str, token: str) -> None:
    page.evaluate(
        "([t, k]) => localStorage.setItem('yahtzee:' + t, JSON.stringify({seat: 0, token: k}))",
        [table, token],
    )


@pytest.mark.parametrize(
    ("code", "says"),
    [
        (4401, "not known to the server"),
        (4403, "refused this page"),
        (4409, "handed your seat to a bot"),
        (4429, "Too many connections"),
    ],
)
def test_a_refusal_stops_reconnecting_and_says_why(
    browser: Any, server: ServerProcess, code: int, says: str
) -> None:
    page = open_page(browser, server.base)
    seat_in_storage(page, "t1", "secret-token")
    opened: list[Any] = []
    first: list[dict[str, Any]] = []

    def refuse(socket: Any) -> None:
        opened.append(socket)

        def on_message(message: str | bytes) -> None:
            if not first:
                first.append(json.loads(message))
            socket.close(code=code, reason="refused")

        socket.on_message(on_message)

    page.route_web_socket(SOCKETS, refuse)
    page.goto(f"{server.base}/?table=t1")
    wait_text(page, "#banner-text", says)
    assert first == [{"v": 1, "type": "hello", "token": "secret-token"}]
    time.sleep(2.5)  # a retry loop would have tried again 3 times by now
    assert len(opened) == 1
    assert "reconnecting" not in text_of(page, "#banner").lower()
    box = page.locator("#banner").bounding_box()
    assert box is not None and box["y"] < 10, box  # at the top, not below the fold
    if code == 4429:  # a crowd may thin out: the player may try again, once per press
        page.click("#retry")
        page.wait_for_function("(n) => n > 0", arg=len(opened))
        wait_text(page, "#banner-text", says)
        assert len(opened) == 2
    if code == 4409:  # the seat is gone: its token is forgotten
        assert page.evaluate("() => localStorage.getItem('yahtzee:t1')") is None


def test_the_real_server_refuses_an_unknown_token_once(browser: Any, server: ServerProcess) -> None:
    ann = open_page(browser, server.base)
    create_table(ann, friends=1)
    table = table_id(ann)
    stranger = open_page(browser, server.base)
    seat_in_storage(stranger, table, "not-a-token")
    stranger.goto(f"{server.base}/?table={table}")
    wait_text(stranger, "#banner-text", "not known to the server")
    time.sleep(2.5)
    assert len(stranger.sockets) == 1
    assert stranger.locator("#banner").is_visible()


def test_secrets_stay_out_of_the_address_bar_and_the_console(
    browser: Any, server: ServerProcess
) -> None:
    ann = open_page(browser, server.base)
    invite = create_table(ann, friends=1)
    key = invite.split("join=")[1]
    token = stored_token(ann)
    assert ann.url == f"{server.base}/?table={table_id(ann)}"
    watch = ann.input_value("#watch-link")
    watch_key = re.search(r"watch=([^&]+)", watch).group(1)  # type: ignore[union-attr]

    bob = open_page(browser, None)
    sent: list[str] = []
    bob.on("websocket", lambda socket: socket.on("framesent", lambda p: sent.append(str(p))))
    bob.goto(invite)
    assert key not in bob.url and bob.url.endswith("/?join")
    bob.fill("#join-name", "Bob")
    bob.click("#join-table")
    bob.wait_for_selector("#lobby:not([hidden])")
    bob_token = stored_token(bob)
    assert bob.url == f"{server.base}/?table={table_id(ann)}"
    # The first message on the socket is the hello with the token; the URL has none.
    assert sent and json.loads(sent[0]) == {"v": 1, "type": "hello", "token": bob_token}
    assert all(bob_token not in s.url and token not in s.url for s in bob.sockets)

    fan = open_page(browser, watch)
    fan.wait_for_selector("#lobby:not([hidden])")
    assert watch_key not in fan.url and fan.url.endswith(f"/?table={table_id(ann)}")
    assert fan.locator("#links").is_hidden()  # the links are the host's to give

    ann.wait_for_selector("#start:enabled")
    start(ann)
    for page in (ann, bob, fan):
        logged = "\n".join(page.console_lines)
        for secret in (token, bob_token, key, watch_key):
            assert secret not in logged
        assert "pageerror" not in logged


def test_both_forms_of_the_spectator_link_open_the_table(
    browser: Any, server: ServerProcess
) -> None:
    ann = open_page(browser, server.base)
    create_table(ann, friends=1)
    table = table_id(ann)
    watch = ann.input_value("#watch-link")
    key = re.search(r"watch=([^&]+)", watch).group(1)  # type: ignore[union-attr]
    assert watch == f"{server.base}/?watch={key}&table={table}"  # the canonical form
    for link in (watch, f"{server.base}/?table={table}&watch={key}"):
        fan = open_page(browser, link)
        fan.wait_for_selector("#lobby:not([hidden])")
        assert fan.locator("#chat-note").is_visible()
        assert fan.locator("#chat-form").is_hidden()
        assert fan.locator("#start").is_hidden()
        fan.context.close()
    cut = open_page(browser, f"{server.base}/?watch={key}")
    wait_text(cut, "#banner-text", "cut short")
    assert key not in cut.url


def test_copy_buttons_put_the_links_on_the_clipboard(browser: Any, server: ServerProcess) -> None:
    ann = open_page(browser, None)
    ann.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.base)
    ann.goto(server.base)
    invite = create_table(ann, friends=1)
    ann.click("#copy-invite")
    wait_text(ann, "#copy-invite", "Copied")
    assert ann.evaluate("() => navigator.clipboard.readText()") == invite
    ann.click("#copy-watch")
    wait_text(ann, "#copy-watch", "Copied")
    assert ann.evaluate("() => navigator.clipboard.readText()") == ann.input_value("#watch-link")


def test_a_lost_connection_shows_a_banner_at_the_top(browser: Any, server: ServerProcess) -> None:
    ann = open_page(browser, server.base, PHONE)
    create_table(ann)
    start(ann)
    ann.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    server.kill()
    wait_text(ann, "#banner-text", "Connection lost")
    for selector in ("#banner", "#turn", "#roll"):  # on screen, wherever the page was scrolled
        box = ann.locator(selector).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE[1], selector
    banner = ann.locator("#banner").bounding_box()
    assert banner is not None and banner["y"] < 10
    assert ann.is_disabled("#roll")
    server.start()
    ann.wait_for_selector("#banner", state="hidden", timeout=30_000)
    ann.wait_for_selector("#roll[aria-disabled='false']")
    token = stored_token(ann)
    assert all(token not in line for line in ann.console_lines)  # the failed connects too


def test_the_favicon_is_served(server: ServerProcess) -> None:
    answer = httpx.get(f"{server.base}/favicon.ico", timeout=10)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("image/svg+xml")
    assert b"<svg" in answer.content
