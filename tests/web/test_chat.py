"""The table's chat is kept in the records: a restarted server shows it again, only the
last lines stay recorded, and on several nodes a line said on one is in a state taken
from another (one that started later, or missed the news, reads it from the records)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from tests.server_process import ServerProcess
from tests.service.test_cluster_lobby import Bus, FakeCluster
from tests.web.conftest import new_table
from tests.web.helpers import joined, next_of, say_lines, seated
from yahtzee.core import RuleSet
from yahtzee.service import Table
from yahtzee.store import Store
from yahtzee.store.chat import LINES_KEPT, chat_of
from yahtzee.web.hub import CHAT_KEPT, Hub
from yahtzee.web.messages import Outbound

WAIT_S = 10.0


def test_only_the_last_lines_are_recorded_and_the_state_shows_the_last_50(
    client: TestClient, db: str
) -> None:
    host = new_table(client, [])
    table_id = host["table"]["id"]
    with joined(client, table_id, token=host["token"]) as ann:
        next_of(ann, "state")
        say_lines(ann, LINES_KEPT + 10)
    with Store(db) as store:
        recorded = chat_of(store, table_id, limit=LINES_KEPT + 10)
    assert [x.text for x in recorded] == [f"line {n}" for n in range(10, LINES_KEPT + 10)]
    with joined(client, table_id, watch=host["spectate"]) as fan:
        chat = next_of(fan, "state")["chat"]
    shown = range(LINES_KEPT + 10 - CHAT_KEPT, LINES_KEPT + 10)
    assert [line["text"] for line in chat] == [f"line {n}" for n in shown]


def test_a_cancelled_tables_chat_goes_with_it(client: TestClient, db: str) -> None:
    host = new_table(client, [{"kind": "human"}])
    table_id = host["table"]["id"]
    with joined(client, table_id, token=host["token"]) as ann:
        next_of(ann, "state")
        ann.send_json({"type": "chat", "text": "anyone?"})
        next_of(ann, "chat")
    with Store(db) as store:
        assert [x.text for x in chat_of(store, table_id)] == ["anyone?"]
    headers = {"Authorization": f"Bearer {host['token']}"}
    assert client.delete(f"/api/tables/{table_id}", headers=headers).status_code == 200
    with Store(db) as store:
        assert chat_of(store, table_id) == []


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(f"sqlite:///{tmp_path / 'server.db'}")
    try:
        yield process
    finally:
        process.stop()


def test_a_restarted_server_shows_the_chat_again(server: ServerProcess) -> None:
    server.start()
    with httpx.Client(base_url=server.base, timeout=30) as http:
        host = http.post("/api/tables", json={"host": "Ann", "seats": [{"kind": "human"}]})
        made = host.json()
        bob = http.post(f"/api/join/{made['invite']}", json={"name": "Bob"}).json()
    table_id, base = made["table"]["id"], f"127.0.0.1:{server.port}"
    said = [(0, "Ann", "hello"), (1, "Bob", "hi Ann"), (0, "Ann", "ready?")]
    with (
        seated(base, table_id, token=made["token"]) as ann,
        seated(base, table_id, token=bob["token"]) as bob_ws,
    ):
        next_of(ann, "state")
        next_of(bob_ws, "state")
        for seat, _, text in said:
            speaker = ann if seat == 0 else bob_ws
            speaker.send_json({"type": "chat", "text": text, "id": text})
            assert next_of(speaker, "ack")["id"] == text  # recorded, then answered
    server.stop()
    server.start()  # a new process over the same database
    with seated(f"127.0.0.1:{server.port}", table_id, watch=made["spectate"]) as fan:
        chat = next_of(fan, "state")["chat"]
    assert [(line["seat"], line["name"], line["text"]) for line in chat] == said


async def until(predicate: Callable[[], bool], what: str) -> None:
    try:
        async with asyncio.timeout(WAIT_S):
            while not predicate():
                await asyncio.sleep(0.01)
    except TimeoutError:
        raise AssertionError(f"not within {WAIT_S:g} s: {what}") from None


async def node(store: Store, name: str, bus: Bus) -> Hub:
    hub = Hub(store, bot_delay=0, max_tables_per_client=20, cluster=FakeCluster(name, bus))
    await hub.lobby.cluster.start(hub.lobby)
    return hub


@asynccontextmanager
async def site(tmp_path: Path) -> AsyncIterator[tuple[Store, Bus, list[Hub]]]:
    """A database, a cluster bus, and the hubs a test starts on them (all closed after)."""
    store = Store(f"sqlite:///{tmp_path / 'site.db'}")
    hubs: list[Hub] = []
    try:
        yield store, Bus(), hubs
    finally:
        for hub in hubs:
            hub.close()
            hub.lobby.close()
        store.close()


def texts(hub: Hub, table: Table) -> list[str]:
    return [line.text for line in hub.snapshot(table, None).chat]


def recording(hub: Hub) -> list[str]:
    """What the hub shows its connections of the chat from now on (as if one watched)."""
    shown: list[str] = []

    def broadcast(_table_id: str, message: Outbound) -> None:
        shown.append(getattr(message, "text", ""))

    hub.chats.broadcast = broadcast
    hub.chats.watched = lambda _table_id: True
    return shown


def test_a_line_said_on_one_node_is_in_a_state_taken_from_another(tmp_path: Path) -> None:
    async def run() -> None:
        async with site(tmp_path) as (store, bus, hubs):
            a = await node(store, "a", bus)
            hubs.append(a)
            table, _ = await a.lobby.create("x", "Ann", [None], RuleSet.official())
            await a.chat(table, 0, "first")
            b = await node(store, "b", bus)  # starts after the line was said
            hubs.append(b)
            other = await b.lobby.by_invite(table.invite_token)
            assert [line.text for line in (await b.state(other, None)).chat] == ["first"]
            shown = recording(b)
            await a.chat(table, 0, "second")  # relayed
            await until(lambda: shown == ["second"], "b shows the relayed line")
            bus.dropping = True
            await a.chat(table, 0, "third")  # b misses it
            bus.dropping = False
            await a.chat(table, 0, "fourth")  # b finds it missed one: reads the records
            await until(lambda: len(shown) == 3, "b shows the missed line")
            assert shown == ["second", "third", "fourth"]
            assert texts(b, other) == ["first", "second", "third", "fourth"]
            bus.dropping = True
            await a.chat(table, 0, "fifth")  # missed, and no line after it
            bus.dropping = False
            await b.lobby.on_reconnect()  # news may have been lost: b reads the records
            await until(lambda: len(shown) == 4, "b catches up")
            assert texts(b, other)[-1] == "fifth" and shown[-1] == "fifth"

    asyncio.run(run())


def test_a_line_heard_while_the_chat_is_read_is_shown_once_after_it(tmp_path: Path) -> None:
    """A relayed line that arrives while the node still reads the table's chat from the
    records waits for it: shown once, in its place."""

    async def run() -> None:
        async with site(tmp_path) as (store, bus, hubs):
            a, b = await node(store, "a", bus), await node(store, "b", bus)
            hubs.extend((a, b))
            table, _ = await a.lobby.create("x", "Ann", [None], RuleSet.official())
            other = await b.lobby.by_invite(table.invite_token)
            await a.chat(table, 0, "first")
            reading = asyncio.ensure_future(b.chats.ready(other.id))
            await asyncio.sleep(0)  # b reads (in a thread) ...
            message: dict[str, Any] = {"k": "chat", "t": table.id}
            line = {"q": 2, "s": 0, "n": "Ann", "x": "second", "a": 0.0}
            b.chats.heard(other, {**message, "l": line})  # ... as "second" arrives
            b.chats.heard(other, {**message, "l": {**line, "q": 1, "x": "first"}})
            await asyncio.wait_for(reading, WAIT_S)
            await until(lambda: len(texts(b, other)) == 2, "b shows both lines")
            assert texts(b, other) == ["first", "second"]

    asyncio.run(run())
