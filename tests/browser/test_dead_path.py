"""A connection that dies silently, and a player who is not there: real Chromium pages on
a real server. The page finds a dead path by its pings (the banner within 5 s), the
others see the seat away, nothing tapped meanwhile is lost or applied twice; when a
turn's time runs out the timer plays the whole turn, and the player is told on return."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.support import (
    axe_path,
    axe_violations,
    create_table,
    join,
    open_page,
    start,
    table_id,
    wait_text,
    with_axe,
)
from tests.server_process import ServerProcess
from tests.waiting import wait_until
from tests.web.helpers import next_of, seated
from yahtzee.core import Category

BANNER_WITHIN_S = 5.0
AWAY_WITHIN_S = 6.5  # the server's 5 s of silence, looked for each second (and a margin)
HEAL_WAIT_S = 30.0
TIMER_S = 4
SOLVER_WAIT_S = 120.0


class SilentPath:
    """A TCP proxy (asyncio, in a thread of its own) in front of a server. `swallow` stops
    everything both ways without closing anything, as a network path that dies silently:
    the bytes wait (TCP sends them again once the path is back), connections stay open,
    new ones are accepted and get nowhere; `heal` lets everything through again."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self.links: list[threading.Event] = []
        """Per connection: set once it has ended both ways."""
        self._loop = asyncio.new_event_loop()
        self._open = asyncio.Event()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    def start(self) -> None:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._listen(), self._loop).result(timeout=10)

    async def _listen(self) -> None:
        self._open.set()
        self._server = await asyncio.start_server(self._link, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _link(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        ended = threading.Event()
        self.links.append(ended)
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            ended.set()
            return
        self._writers.update((writer, up_writer))
        try:
            await asyncio.gather(self._pump(reader, up_writer), self._pump(up_reader, writer))
        finally:
            ended.set()

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                await self._open.wait()
                writer.write(data)
                await writer.drain()
            await self._open.wait()  # (the end too: nothing is closed while swallowing)
        except OSError:
            pass
        finally:
            writer.close()

    def swallow(self) -> None:
        self._loop.call_soon_threadsafe(self._open.clear)

    def heal(self) -> None:
        self._loop.call_soon_threadsafe(self._open.set)

    def stop(self) -> None:
        async def close() -> None:
            self._open.set()
            if self._server is not None:
                self._server.close()
            for writer in self._writers:
                writer.close()

        if self._thread.is_alive():
            asyncio.run_coroutine_threadsafe(close(), self._loop).result(timeout=10)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=10)
        self._loop.close()


@pytest.fixture
def path_and_server(tmp_path: Path) -> Iterator[tuple[SilentPath, ServerProcess]]:
    """A server that answers for the proxy's address too, and the proxy in front of it;
    both stopped whatever happens."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'server.db'}")
    path = SilentPath(server.port)
    try:
        path.start()
        server.extra_args = ["--allowed-host", f"127.0.0.1:{path.port}"]
        server.start()
        yield path, server
    finally:
        try:
            server.stop()
        finally:
            path.stop()


def _chip(page: Any, seat: int) -> Any:
    return page.locator("#players .chip").nth(seat)


def test_a_silently_dead_path_shows_the_banner_and_the_seat_away_and_loses_nothing(
    browser: Any, path_and_server: tuple[SilentPath, ServerProcess]
) -> None:
    path, server = path_and_server
    proxied = f"http://127.0.0.1:{path.port}"
    ann = open_page(browser, proxied)  # Ann's phone, behind the path that will die
    invite = create_table(ann, friends=1)
    bob = join(browser, invite.replace(proxied, server.base), "Bob")  # Bob's is fine
    start(ann)
    ann.wait_for_selector("#roll[aria-disabled='false']")
    bob.wait_for_selector("#players .chip >> nth=1")
    assert "away" not in (_chip(bob, 0).get_attribute("class") or "")
    watch = ann.input_value("#watch-link").replace(proxied, server.base)
    before = len(path.links)

    path.swallow()
    cut = time.monotonic()
    ann.click("#roll")  # tapped as the path dies: it goes nowhere for now
    wait_text(ann, "#banner-text", "Connection lost", timeout=int(BANNER_WITHIN_S * 1000) + 2000)
    assert time.monotonic() - cut <= BANNER_WITHIN_S
    bob.wait_for_function(
        "() => document.querySelectorAll('#players .chip')[0].classList.contains('away')",
        timeout=int(AWAY_WITHIN_S * 1000) + 3000,
    )
    assert time.monotonic() - cut <= AWAY_WITHIN_S
    assert "away" in (_chip(bob, 0).text_content() or "")  # her turn, and she is away

    path.heal()  # the held bytes go through, the page connects again and resends the roll
    ann.wait_for_selector("#banner", state="hidden", timeout=int(HEAL_WAIT_S * 1000))
    wait_text(ann, "#rolls-left", "Rolls left: 2")
    bob.wait_for_function(
        "() => !document.querySelectorAll('#players .chip')[0].classList.contains('away')"
    )
    for link in path.links[:before]:  # the old connection's roll, if any, handled too
        assert link.wait(HEAL_WAIT_S), "a connection from before the cut did not end"
    key = watch.split("watch=")[1].split("&")[0]
    with seated(server.base.removeprefix("http://"), table_id(ann), watch=key) as fan:
        state = next_of(fan, "state")
    assert state["seq"] == 2  # the start, and one roll: applied once
    assert state["game"]["current"] == 0 and state["game"]["rolls_left"] == 2


def _post(server: ServerProcess, path: str, body: Any, token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = httpx.post(f"{server.base}{path}", json=body, headers=headers, timeout=30)
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


def _seat_on(page: Any, server: ServerProcess, table: str, seat: int, token: str) -> None:
    page.goto(f"{server.base}/")
    page.evaluate(
        "([t, s, k]) => localStorage.setItem('yahtzee:' + t, JSON.stringify({seat: s, token: k}))",
        [table, seat, token],
    )
    page.goto(f"{server.base}/?table={table}")


def test_the_timer_plays_a_missing_players_whole_turn_and_tells_them_on_return(
    browser: Any, server: ServerProcess
) -> None:
    wait_until(
        lambda: httpx.get(f"{server.base}/api/health", timeout=5).json()["solver"] == "ready",
        timeout=SOLVER_WAIT_S,
        what="the server's solver ready",
    )
    body = {"host": "Ann", "seats": [{"kind": "human"}], "turn_timer": TIMER_S}
    made = _post(server, "/api/tables", body)
    table = made["table"]["id"]
    _post(server, f"/api/join/{made['invite']}", {"name": "Bob"})
    host = server.base.removeprefix("http://")
    with seated(host, table, watch=made["spectate"]) as fan:
        started = time.monotonic()
        _post(server, f"/api/tables/{table}/start", {}, made["token"])  # Ann never came
        ann_turn: list[dict[str, Any]] = []
        while not ann_turn or ann_turn[-1]["event"]["type"] != "score":
            message = next_of(fan, "event", timeout=TIMER_S * 3)
            if message["event"]["player"] == 0:
                ann_turn.append(message)
        placed = time.monotonic() - started
    # one timer period, then the whole turn at the bots' pace (one move a period before)
    assert placed < TIMER_S * 1.5, placed
    assert all(m["by_timer"] for m in ann_turn) and len(ann_turn) >= 2
    score = ann_turn[-1]["event"]
    ann = open_page(browser, None)  # Ann is back
    with_axe(ann, axe_path())
    _seat_on(ann, server, table, 0, made["token"])
    ann.wait_for_selector("#notice:not([hidden])")
    assert axe_violations(ann, "the notice") == []
    told = ann.text_content("#notice-text") or ""
    # (first: a busy machine may let Bob's timer run out too while her page opens)
    first = ann.locator("#notice-text .notice-line").first.text_content() or ""
    assert first.startswith("While you were away, the timer played for you:"), told
    box = Category.parse(score["category"]).display_name
    assert f"scored {score['points'] + score['yahtzee_bonus']} in {box}" in told, told
    ann.click("#notice-close")
    assert ann.locator("#notice").is_hidden()
