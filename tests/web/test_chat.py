"""The table's chat is kept in the records: a restarted server shows it again, only the
last lines stay recorded, and the lines are shown once each, in the order they were
recorded (one said while the chat is read from the records waits for it)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from tests import waiting
from tests.server_process import ServerProcess
from tests.web.conftest import new_table
from tests.web.helpers import joined, next_of, say_lines, seated
from yahtzee.core import RuleSet
from yahtzee.service import Lobby, QuietListener, Table, commands, open_lobby
from yahtzee.service.chat import CHAT_KEPT, Chats
from yahtzee.service.room_events import Said
from yahtzee.store import Store
from yahtzee.store.chat import LINES_KEPT, add_line, chat_of

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
    await waiting.until(predicate, what, WAIT_S)


@asynccontextmanager
async def serving(tmp_path: Path) -> AsyncIterator[Lobby]:
    """A lobby over a fresh database (closed after)."""
    store = Store(f"sqlite:///{tmp_path / 'site.db'}")
    lobby = open_lobby(store, QuietListener(), bot_delay=0, max_tables_per_client=20)
    try:
        yield lobby
    finally:
        lobby.close()
        store.close()


def texts(lobby: Lobby, table: Table) -> list[str]:
    return [line.text for line in lobby.room(table).view(None).chat]


async def say(lobby: Lobby, table: Table, seat: int, text: str) -> None:
    """A player's line, through the table's room."""
    outcome = await lobby.room(table).handle(seat, commands.Chat(text))
    assert isinstance(outcome, commands.Done), outcome


def recording(lobby: Lobby) -> list[str]:
    """What the room shows its listeners of the chat from now on (as if one watched)."""
    shown: list[str] = []

    def broadcast(_table_id: str, said: Said) -> None:
        shown.append(getattr(said, "text", ""))

    lobby.chats.broadcast = broadcast
    lobby.chats.watched = lambda _table_id: True
    return shown


def test_a_line_said_while_the_chat_is_read_is_shown_once_after_it(tmp_path: Path) -> None:
    """A line said while nobody watches is left to the records; one said while the table's
    chat is being read from them waits for it: each is shown once, in its place."""

    async def run() -> None:
        async with serving(tmp_path) as lobby:
            table, _ = await lobby.create("x", "Ann", [None], RuleSet.official())
            await say(lobby, table, 0, "first")  # not cached: only recorded
            reading = asyncio.ensure_future(lobby.chats.ready(table.id))
            await asyncio.sleep(0)  # the room reads (in a thread) ...
            await say(lobby, table, 0, "second")  # ... as "second" is said
            await asyncio.wait_for(reading, WAIT_S)
            await until(lambda: len(texts(lobby, table)) == 2, "both lines are shown")
            assert texts(lobby, table) == ["first", "second"]

    asyncio.run(run())


def test_lines_said_at_once_are_shown_in_the_order_they_were_recorded(
    tmp_path: Path,
) -> None:
    async def run() -> None:
        async with serving(tmp_path) as lobby:
            table, _ = await lobby.create("x", "Ann", [None], RuleSet.official())
            await lobby.chats.ready(table.id)
            shown = recording(lobby)
            said = [f"line {n}" for n in range(12)]
            await asyncio.gather(*(say(lobby, table, 0, text) for text in said))
            await until(lambda: len(shown) == len(said), "every line is shown")
            recorded = [line.text for line in chat_of(lobby.store, table.id)]
            assert sorted(recorded) == sorted(said)
            assert shown == recorded and texts(lobby, table) == recorded

    asyncio.run(run())


def test_the_chats_of_many_tables_asked_at_once_are_read_together(tmp_path: Path) -> None:
    """Regression: each table's chat was read on its own when its first page said hello:
    a dead node's 500 pages reconnecting here cost 500 reads through worker threads."""

    async def run() -> None:
        async with serving(tmp_path) as lobby:
            made = [
                (await lobby.create("x", "Ann", [None], RuleSet.official()))[0] for _ in range(12)
            ]
            for n, table in enumerate(made[:3]):
                await say(lobby, table, 0, f"hello {n}")
            sent: list[str] = []
            event.listen(lobby.store.engine, "before_cursor_execute",
                         lambda *a: sent.append(a[2]))  # fmt: skip
            await asyncio.wait_for(asyncio.gather(*(lobby.chats.ready(t.id) for t in made)), WAIT_S)
            reads = [s for s in sent if s.lstrip().upper().startswith("SELECT")]
            assert len(reads) == 1, reads
            assert [texts(lobby, t) for t in made[:4]] == [
                ["hello 0"],
                ["hello 1"],
                ["hello 2"],
                [],
            ]

    asyncio.run(run())


def test_past_its_size_the_cache_forgets_the_least_recently_used_unwatched_chat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A chat still watched is kept (and not looked at again before the others); the
    least recently used of the others goes."""
    monkeypatch.setattr(Chats, "_read", lambda self, ids: {i: [] for i in ids})
    watched = {"a", "c"}
    chats = Chats(None, lambda table_id, message: None, watched.__contains__)  # type: ignore[arg-type]
    chats.tables_cached = 3

    async def go() -> list[set[str]]:
        for table_id in "abcd":
            await chats.ready(table_id)
        first = set(chats._tables)
        watched.update("bd")
        await chats.ready("e")  # every other one watched: kept, over the size
        second = set(chats._tables)
        watched.discard("c")
        await chats.ready("f")
        return [first, second, set(chats._tables)]

    seen = asyncio.run(asyncio.wait_for(go(), WAIT_S))
    assert seen == [set("acd"), set("acde"), set("adf")]


def test_regression_a_table_back_from_another_node_shows_the_lines_said_there(
    tmp_path: Path,
) -> None:
    """Bug: a node kept a table's chat cached after the table moved to another node, so
    that when the table came back it showed the chat as it was when it left, without the
    lines said on the other node (still recorded)."""

    async def run() -> None:
        async with serving(tmp_path) as lobby:
            table, _ = await lobby.create("x", "Ann", [None], RuleSet.official())
            lobby.chats.watched = lambda _table_id: True
            await say(lobby, table, 0, "here")
            await lobby.chats.ready(table.id)
            lobby.room(table).moved_away()  # the table is served elsewhere now ...
            await asyncio.to_thread(add_line, lobby.chats.store, table.id, 0, "Ann", "there")
            await asyncio.wait_for(lobby.chats.ready(table.id), WAIT_S)  # ... and back
            assert texts(lobby, table) == ["here", "there"]

    asyncio.run(run())
