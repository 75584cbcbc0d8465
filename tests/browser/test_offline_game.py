"""The whole game offline (issue 53, item 2), in Chromium at phone size: the app visited
once (its worker installs and takes control), then the context offline, and each test
opens the app from a cold start (a new page, no network) and plays a table of this device
(``static/local_table.js``: the page's own rules engine, advisor and bots behind the same
messages as the server's WebSocket):

* a whole game against a level-3 bot, with a hint, to the end and its review;
* the page closed mid-turn (after a roll, two dice held) and opened again: the same roll;
* pass-and-play: three people on one phone, the page handing it to whoever is to move;
* real dice: three rounds entered on the entry pad.

At a table of the device the page offers neither Resign (the room refuses it) nor turn
notifications (nobody else moves there).

Until the new-game screen offers it (offlineui), a test makes the device table through the
page's module (`createDeviceTable`) and keeps its seats as the page does, then opens
``/?table=device-...`` as the page would. One server and one browser context for the
module."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.support import faces, held, open_page, rolls_left, score_best, text_of
from tests.browser.support import roll as roll_dice
from tests.live_server import running
from yahtzee.core import YatzyBox

PHONE = (390, 844)
YATZY = "yatzy+fh5"  # a rule set whose table the release does not keep
BOX_ROWS = "#scorecard tbody tr.upper-box, #scorecard tbody tr.lower-box"
BUILD_MS = 180_000  # a rule set's table built by the server from empty caches
CONTROLLED = "() => navigator.serviceWorker.controller !== null"
# The page's own module (under its versioned address): a device table made and its seats
# kept as the page keeps them (the first as the device's own, the others as pad seats).
CREATE = """async (options) => {
  const app = [...document.scripts].find((s) => s.src.includes("/static/")).src;
  const folder = app.slice(0, app.lastIndexOf("/") + 1);
  const { createDeviceTable } = await import(folder + "local_table.js");
  const made = await createDeviceTable(options);
  const id = made.table.id;
  const [own, ...more] = made.seats;
  localStorage.setItem("yahtzee:" + id, JSON.stringify(own));
  localStorage.setItem("yahtzee-pad:" + id, JSON.stringify(more));
  return id;
}"""
STORED = """async (id) => {
  const app = [...document.scripts].find((s) => s.src.includes("/static/")).src;
  const folder = app.slice(0, app.lastIndexOf("/") + 1);
  const { loadTable } = await import(folder + "device_store.js");
  const record = await loadTable(id);
  return { held: record.tray.held, slots: record.tray.slots, events: record.events.length };
}"""
YOUR_TURN_OR_OVER = """() => !document.getElementById("over").hidden
  || document.getElementById("turn").textContent.includes("your turn")"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = tmp_path_factory.mktemp("offline-db") / "offline.db"
    with running(f"sqlite:///{database}") as address:
        yield f"http://{address}"


@pytest.fixture(scope="module")
def offline(_chromium: Any, site: str) -> Iterator[Any]:
    """The app's context after one visit online (its worker in control), now offline."""
    page = open_page(_chromium, site, PHONE, service_workers="allow")
    context = page.context
    try:
        page.wait_for_selector("#create:not([hidden])")
        page.evaluate("async () => { await navigator.serviceWorker.ready; }")
        page.wait_for_function(CONTROLLED)
        page.close()
        context.set_offline(True)
        yield context
    finally:
        context.close()


def cold_start(context: Any, site: str) -> Any:
    """The app opened with no network (as from the home-screen icon): a new page at ``/``."""
    page = context.new_page()
    page.errors = []
    page.sockets = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("websocket", lambda socket: page.sockets.append(socket))  # noqa: PLW0108
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{site}/")
    page.wait_for_selector("#create:not([hidden])")
    return page


def open_table(page: Any, site: str, table: str) -> None:
    page.goto(f"{site}/?table={table}")
    page.wait_for_selector("#play:not([hidden])")


def device_table(page: Any, site: str, players: list[dict[str, Any]], **options: Any) -> str:
    table: str = page.evaluate(CREATE, {"rules": "official", "players": players, **options})
    assert table.startswith("device-")
    open_table(page, site, table)
    return table


def test_a_whole_game_against_a_bot_offline_with_a_hint_and_the_review(
    offline: Any, site: str
) -> None:
    page = cold_start(offline, site)
    ann, robo = {"name": "Ann", "bot": None}, {"name": "Robo", "bot": "level3"}
    device_table(page, site, [ann, robo], botDelay=0)
    page.wait_for_function(YOUR_TURN_OR_OVER)
    roll_dice(page)
    page.click("#hint")
    page.wait_for_selector("#hint-box:not([hidden]) li.best")
    assert page.locator("#hint-box li").count() == 5
    assert text_of(page, "#status") != "Loading the advisor..."  # (said while it loaded)
    score_best(page)
    for _ in range(12):
        page.wait_for_function(YOUR_TURN_OR_OVER)
        roll_dice(page)
        score_best(page)
    page.wait_for_selector("#over:not([hidden])")
    assert "Game over" in text_of(page, "#turn")
    page.wait_for_selector("#review:not([hidden]) .review-player")
    assert "Ann:" in text_of(page, "#review h3")
    assert page.locator("#standings li").count() == 2
    assert page.sockets == [] and page.errors == []  # no server, nothing broken


def test_a_page_closed_mid_turn_opens_at_the_same_roll(offline: Any, site: str) -> None:
    page = cold_start(offline, site)
    table = device_table(page, site, [{"name": "Bea", "bot": None}])
    page.wait_for_selector("#roll[aria-disabled='false']")
    # (this browser can have turn notifications: the part is drawn, and hidden here)
    page.wait_for_selector("#notify-part[data-offered]", state="attached")
    assert page.locator("#notify-part").is_hidden()
    assert page.locator("#resign").is_hidden()
    roll_dice(page)
    page.click("#dice .die >> nth=1")
    page.click("#dice .die >> nth=3")
    page.wait_for_function(
        f"async () => (await ({STORED})('{table}')).held.join() === '1,3'", polling=100
    )
    before = (faces(page), held(page), rolls_left(page))
    assert before[1] == [False, True, False, True, False]
    page.close()  # killed mid-turn

    again = cold_start(offline, site)
    open_table(again, site, table)
    again.wait_for_selector("#dice .die[data-face]:not([data-face=''])")
    assert (faces(again), held(again), rolls_left(again)) == before
    roll_dice(again)  # and it plays on: the held dice stay in their places
    assert [faces(again)[1], faces(again)[3]] == [before[0][1], before[0][3]]
    assert again.errors == []


def test_pass_and_play_with_three_people_on_one_phone(offline: Any, site: str) -> None:
    page = cold_start(offline, site)
    names = ["Ann", "Bob", "Cy"]
    device_table(page, site, [{"name": n, "bot": None} for n in names])
    for round_ in (1, 2):
        for name in names:
            page.wait_for_function(
                "(t) => document.getElementById('turn').textContent === t",
                arg=f"Round {round_} of 13: {name}'s turn",
            )
            page.wait_for_selector("#roll[aria-disabled='false']")
            roll_dice(page)
            score_best(page)
    page.wait_for_function(
        "() => document.getElementById('turn').textContent === 'Round 3 of 13: Ann\\'s turn'"
    )
    assert page.errors == []


def test_real_dice_three_rounds_entered_on_the_pad(offline: Any, site: str) -> None:
    page = cold_start(offline, site)
    device_table(page, site, [{"name": "Di", "bot": None}], entered=True)
    for dice, box in (("66666", "yahtzee"), ("33356", "threes"), ("12345", "large_straight")):
        page.wait_for_selector("#faces .face-pick:enabled")
        for face in dice:
            page.click(f"#faces [data-face='{face}']")
        page.wait_for_selector(f"#scorecard .propose[data-box='{box}']:not([aria-disabled='true'])")
        filled = page.locator("#scorecard td.filled").count()
        page.click(f"#scorecard .propose[data-box='{box}']")
        page.wait_for_function(
            "(n) => document.querySelectorAll('#scorecard td.filled').length > n", arg=filled
        )
    page.wait_for_function(
        "() => document.getElementById('turn').textContent.startsWith('Round 4')"
    )
    assert page.errors == []


def test_another_rule_sets_table_is_kept_on_the_device_for_offline_games(
    _chromium: Any, site: str
) -> None:
    """Rules whose advisor table the app's release does not keep (Yatzy with a house rule:
    fifteen boxes, no Joker, no extra bonus): their first game online fetches the table
    and keeps it on the device; the next game of those rules, offline, has its hint (the
    advisor over Yatzy's card) and its bot, which plays its rounds."""
    page = open_page(_chromium, site, PHONE, service_workers="allow")
    context = page.context
    ann, robo = {"name": "Ann", "bot": None}, {"name": "Robo", "bot": "level2"}
    try:
        page.wait_for_selector("#create:not([hidden])")
        page.evaluate("async () => { await navigator.serviceWorker.ready; }")
        page.wait_for_function(CONTROLLED)
        device_table(page, site, [ann, robo], rules=YATZY, botDelay=0)
        page.wait_for_function(YOUR_TURN_OR_OVER)
        roll_dice(page)
        page.click("#hint")  # the server builds the table the first time: a while in CI
        page.wait_for_selector("#hint-box:not([hidden]) li.best", timeout=BUILD_MS)
        page.close()
        context.set_offline(True)
        page = cold_start(context, site)
        device_table(page, site, [ann, robo], rules=YATZY, botDelay=0)
        page.wait_for_selector("#scorecard tbody tr.lower-box")
        assert page.locator(BOX_ROWS).count() == len(YatzyBox)
        for round_ in (1, 2):
            page.wait_for_function(YOUR_TURN_OR_OVER)
            roll_dice(page)
            page.click("#hint")
            page.wait_for_selector("#hint-box:not([hidden]) li.best")
            assert page.locator("#hint-box li").count() == 5
            score_best(page)
            page.wait_for_function(
                "(t) => document.getElementById('turn').textContent.includes(t)",
                arg=f"Round {round_ + 1} of {len(YatzyBox)}",
            )
        page.wait_for_function(YOUR_TURN_OR_OVER)  # Robo played rounds 1 and 2 offline
        assert page.locator("#scorecard td.filled").count() == 4  # two boxes each
        assert page.sockets == [] and page.errors == []
    finally:
        context.close()
