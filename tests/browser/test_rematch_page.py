"""Rematch together (issue 26, item 4), as the players meet it: the host's Rematch makes the
new table, the friend's game-over screen offers their seat at once, one tap takes it, and
both are at the same new table."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx

from tests.browser.support import (
    PHONE,
    axe_path,
    axe_violations,
    open_page,
    stored_token,
    table_id,
    wait_text,
    with_axe,
)
from tests.server_process import ServerProcess
from tests.web.helpers import intent_for, next_of, seated
from yahtzee.web.admission import RATE_PER_SECOND


def finished_game(base: str) -> tuple[str, str, str]:
    """Ann (host) and Bob play a whole game (each rolls once and fills the first legal
    box); the table's id and their tokens."""
    with httpx.Client(base_url=base, timeout=10) as api:
        made = api.post("/api/tables", json={"host": "Ann", "seats": [{"kind": "human"}]}).json()
        bob = api.post(f"/api/join/{made['invite']}", json={"name": "Bob"}).json()
        table = made["table"]["id"]
        auth = {"Authorization": f"Bearer {made['token']}"}
        assert api.post(f"/api/tables/{table}/start", headers=auth).is_success
    play_out(base, table, made["token"], bob["token"])
    return table, made["token"], bob["token"]


def play_out(base: str, table: str, ann_token: str, bob_token: str) -> None:
    """Ann and Bob play the started game at ``table`` to its end."""
    where = base.split("//")[1]
    with (
        seated(where, table, token=ann_token) as ann,
        seated(where, table, token=bob_token) as bo,
    ):
        sockets = [ann, bo]
        game = next_of(ann, "state")["game"]
        next_of(bo, "state")
        for turn in range(200):
            if game["phase"] == "over":
                break
            actor = sockets[game["current"]]
            actor.send_json({**intent_for(game), "id": f"t{turn}"})
            while True:  # every event up to this intent's answer (the socket's backlog too)
                answer = next_of(actor, "event", "ack", "error")
                if answer["type"] == "event":
                    game = answer["game"]
                elif answer.get("id") == f"t{turn}":
                    break
            if answer["type"] == "error":  # faster than a person: the rate limit's pause
                assert answer["code"] == "rate_limited", answer
                time.sleep(1 / RATE_PER_SECOND)


def at_game_over(browser: Any, base: str, table: str, seat: int, token: str, **kw: Any) -> Any:
    page = open_page(browser, base, **kw)
    with_axe(page, axe_path())
    page.evaluate(
        "([id, seat, token, name]) => localStorage.setItem('yahtzee:' + id,"
        " JSON.stringify({ seat, token, name }))",
        [table, seat, token, ["Ann", "Bob"][seat]],
    )
    page.goto(f"{base}/?table={table}")
    page.wait_for_selector("#over:not([hidden])")
    return page


def test_the_host_and_the_friend_land_at_the_same_new_table(
    browser: Any, server: ServerProcess, artifacts: Path
) -> None:
    old, ann_token, bob_token = finished_game(server.base)
    ann = at_game_over(browser, server.base, old, 0, ann_token)
    bob = at_game_over(browser, server.base, old, 1, bob_token, size=PHONE)
    assert bob.locator("#rematch-note").is_hidden()
    ann.click("#rematch")
    ann.wait_for_selector("#lobby:not([hidden])")
    new = table_id(ann)
    assert new != old
    wait_text(ann, "#lobby-seats", "Bob")
    assert ann.locator("#invite-part").is_hidden()  # every seat is kept: nobody to invite
    # Bob, still on the game-over screen, is offered his seat without reloading
    bob.wait_for_selector("#rematch-note:not([hidden])")
    wait_text(bob, "#rematch", "Take your seat")
    assert axe_violations(bob, "the rematch offered") == []
    bob.click("#rematch")
    bob.wait_for_selector("#lobby:not([hidden])")
    assert table_id(bob) == new  # the same table, never a second one
    ann.wait_for_selector("#start:enabled")
    ann.click("#start")
    for page in (ann, bob):
        page.wait_for_selector("#play:not([hidden])")
        wait_text(page, "#turn", "Round 1 of 13")
    with httpx.Client(base_url=server.base, timeout=10) as api:
        lobby = api.get(f"/api/tables/{new}").json()
    assert lobby["sitting"] == old and [s["name"] for s in lobby["seats"]] == ["Ann", "Bob"]
    # the second game played out: both see the sitting's standings beside the game's
    play_out(server.base, new, stored_token(ann), stored_token(bob))
    with httpx.Client(base_url=server.base, timeout=10) as api:
        sitting = api.get(f"/api/sittings/{old}").json()
    assert len(sitting["games"]) == 2
    for seat, standing in enumerate(sitting["standings"]):
        assert standing["total"] == sum(game["totals"][seat] for game in sitting["games"])
        assert standing["won"] == sum(seat in game["winners"] for game in sitting["games"])
    for page in (ann, bob):
        page.wait_for_selector("#sitting:not([hidden])")
        for standing in sitting["standings"]:
            wait_text(page, "#sitting-standings", str(standing["total"]))
    assert axe_violations(ann, "the sitting's standings") == []
    bob.screenshot(path=str(artifacts / "web-sitting-phone.png"), full_page=True)
    # the sitting's pad, to print: a page of its own, its style allowed, nothing refused
    with ann.context.expect_page() as opened:
        ann.click("#sitting-pad")
    pad = opened.value
    refused: list[str] = []
    pad.on("console", lambda line: refused.append(line.text))
    pad.wait_for_selector("tr.running")
    running = [int(t) for t in pad.locator("tr.running td").all_text_contents()]
    totals = [[game["totals"][seat] for game in sitting["games"]] for seat in range(2)]
    assert running == [sum(t[: g + 1]) for t in totals for g in range(2)]
    border = pad.evaluate("() => getComputedStyle(document.querySelector('td')).borderTopStyle")
    assert border == "solid"  # the page's own style applies under its policy
    pad.screenshot(path=str(artifacts / "web-sitting-pad.png"))
    assert not [line for line in refused + ann.console_lines if "Content Security" in line]
