"""Two lobbies of one site (two nodes) over one store, joined by an in-process news bus
instead of Redis: moves reach the other node in order, missed news is read back from the
records, two writers of one event leave one written, a node takes over the tables of a
node that left, and lets go of what it neither shows nor drives."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from yahtzee.core import BotSpec, Event, IllegalMove, Keep, RuleSet, Score
from yahtzee.service import Cluster, ClusterLobby, Repeated, Table, owner
from yahtzee.store import Store, history

WAIT_S = 10.0


class Bus:
    """Every node's news, delivered to the others (unless ``dropping``)."""

    def __init__(self) -> None:
        self.nodes: dict[str, FakeCluster] = {}
        self.dropping = False

    async def tick(self, *, nodes_changed: bool = False) -> None:
        """A heartbeat on every node, and what it started done."""
        for node in list(self.nodes.values()):
            lobby = node.listener
            await lobby.on_tick(nodes_changed=nodes_changed)
            if lobby._ticking is not None:
                await lobby._ticking


class FakeCluster(Cluster):
    clustered = True

    def __init__(self, node_id: str, bus: Bus) -> None:
        super().__init__(node_id)
        self.bus = bus
        bus.nodes[node_id] = self
        self.listener: Any = None

    def alive(self, node: str) -> bool:
        return node in self.bus.nodes

    def owns(self, table_id: str) -> bool:
        return owner(table_id, sorted(self.bus.nodes)) == self.node_id

    def publish(self, message: dict[str, Any]) -> None:
        if self.bus.dropping:
            return
        for node in list(self.bus.nodes.values()):
            if node is not self and node.listener is not None:
                asyncio.get_running_loop().call_soon(
                    asyncio.ensure_future, node.listener.on_message({**message, "n": self.node_id})
                )

    async def start(self, listener: Any) -> None:
        self.listener = listener


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(f"sqlite:///{tmp_path / 'site.db'}") as opened:
        yield opened


class Node:
    def __init__(self, name: str, store: Store, bus: Bus) -> None:
        self.seen: dict[str, list[int]] = {}
        self.cluster = FakeCluster(name, bus)
        self.lobby = ClusterLobby(store, self._publish, seed=1, cluster=self.cluster)
        self.watching: set[str] = set()
        self.lobby.watched = lambda table_id: table_id in self.watching

    def _publish(self, table: Table, seq: int, events: tuple[Event, ...]) -> None:
        self.seen.setdefault(table.id, []).extend(range(seq - len(events) + 1, seq + 1))

    async def start(self) -> None:
        await self.cluster.start(self.lobby)


async def until(predicate: Any, what: str) -> None:
    async with asyncio.timeout(WAIT_S):
        while not predicate():
            await asyncio.sleep(0.01)


async def a_table_b_sees(store: Store) -> tuple[Bus, Node, Node, Table, Table, str]:
    """A table made on a (one seat open), which b has loaded."""
    bus = Bus()
    a, b = Node("a", store, bus), Node("b", store, bus)
    await a.start()
    await b.start()
    table, token = await a.lobby.create("x", "Ann", [None], RuleSet.official())
    other = await b.lobby.by_invite(table.invite_token)
    return bus, a, b, table, other, token


async def two_nodes_one_table(store: Store) -> tuple[Bus, Node, Node, Table, Table]:
    bus, a, b, table, other, token = await a_table_b_sees(store)
    _, _, _ = await b.lobby.join(table.invite_token, "Bob")
    await a.lobby.start(table, token)
    await until(lambda: other.live is not None, "b serves the game")
    assert table.live is not None and other.live is not None
    return bus, a, b, table, other


def test_a_move_on_one_node_reaches_the_other_in_order(store: Store) -> None:
    async def run() -> None:
        _, a, b, table, other = await two_nodes_one_table(store)
        assert table.live is not None and other.live is not None
        await table.live.act(Keep.NONE, 0)
        await until(lambda: other.live is not None and other.live.committed_seq == 2, "synced")
        assert other.live.session.game == table.live.session.game
        assert b.seen[table.id] == [2]
        await other.live.act(Keep.NONE, 0)  # and back the other way
        await until(lambda: table.live is not None and table.live.committed_seq == 3, "back")
        assert table.live.session.game == other.live.session.game
        assert a.seen[table.id] == [2, 3] and b.seen[table.id] == [2, 3]

    asyncio.run(run())


async def a_move_b_does_not_hear(store: Store) -> tuple[Bus, Node, Table, Table]:
    """Two nodes at one table; news is dropped, and a makes a move."""
    bus, _, b, table, other = await two_nodes_one_table(store)
    assert table.live is not None and other.live is not None
    bus.dropping = True
    await table.live.act(Keep.NONE, 0)
    return bus, b, table, other


def test_news_missed_is_read_back_from_the_records(store: Store) -> None:
    async def run() -> None:
        bus, b, table, other = await a_move_b_does_not_hear(store)
        assert table.live is not None and other.live is not None
        await asyncio.sleep(0.05)
        assert other.live.committed_seq == 1  # nothing heard
        await bus.tick()  # news gets a beat to arrive: the records are not read yet
        await asyncio.sleep(0.05)
        assert other.live.committed_seq == 1
        await bus.tick()  # still behind what the records held a beat ago: read them
        await until(lambda: other.live is not None and other.live.committed_seq == 2, "caught up")
        assert other.live.session.game == table.live.session.game
        assert b.seen[table.id] == [2]

    asyncio.run(run())


def test_news_lost_while_redis_was_away_is_read_back_at_once(store: Store) -> None:
    async def run() -> None:
        _, b, _, other = await a_move_b_does_not_hear(store)
        await b.lobby.on_reconnect()  # the news channel came back: news was lost
        await until(lambda: other.live is not None and other.live.committed_seq == 2, "caught up")

    asyncio.run(run())


def test_two_writers_of_one_event_leave_one_written_and_the_loser_goes_on_late(
    store: Store,
) -> None:
    async def run() -> None:
        bus, _, _, table, other = await two_nodes_one_table(store)
        assert table.live is not None and other.live is not None
        bus.dropping = True  # neither hears the other: only the records decide
        await table.live.act(Keep.NONE, 0)
        game = table.live.session.game
        box = next(a for a in game.legal_actions() if isinstance(a, Score))
        await table.live.act(box, 0)  # Ann's turn is over on node a
        with pytest.raises(IllegalMove) as late:
            await other.live.act(Keep.NONE, 0)  # node b still thinks it is her first roll
        assert late.value.code == "not_your_turn"
        assert other.live.session.game == table.live.session.game  # caught up meanwhile
        assert store.count_events() == len(table.live.session.game.event_log)

    asyncio.run(run())


def test_a_node_takes_over_the_tables_of_one_that_left_and_lets_go_of_the_rest(
    store: Store,
) -> None:
    async def run() -> None:
        bus, a, b, table, _ = await two_nodes_one_table(store)
        driver = a if a.cluster.owns(table.id) else b
        other = b if driver is a else a
        del bus.nodes[driver.cluster.node_id]  # it died
        await bus.tick(nodes_changed=True)
        await until(lambda: table.id in other.lobby.tables, "taken over")
        assert other.cluster.owns(table.id)
        bus.nodes[driver.cluster.node_id] = driver.cluster  # back: the table moves again
        for _ in range(3):
            await bus.tick(nodes_changed=True)
        assert table.id not in other.lobby.tables  # neither watched nor driven there
        other.watching.add(table.id)
        assert await other.lobby.find(table.id) is not None  # loaded again when asked

    asyncio.run(run())


def test_regression_a_resent_score_made_through_another_node_is_answered_not_refused(
    store: Store,
) -> None:
    """A client that scored through one node, lost it, and sends the same intent again
    through another: the box is filled now, yet the answer is the move's ack."""

    async def run() -> None:
        _, _, _, table, other = await two_nodes_one_table(store)
        assert table.live is not None and other.live is not None
        await table.live.act(Keep.NONE, 0, "0:r")
        game = table.live.session.game
        box = next(a for a in game.legal_actions() if isinstance(a, Score))
        move = await table.live.act(box, 0, "0:s")
        await until(lambda: other.live is not None and other.live.committed_seq == move.seq, "b")
        with pytest.raises(Repeated) as repeat:
            await other.live.act(box, 0, "0:s")
        assert repeat.value.seq == move.seq
        with pytest.raises(IllegalMove):  # a new id for the same box is refused as ever
            await other.live.act(box, 0, "0:t")

    asyncio.run(run())


def test_a_start_through_a_node_that_missed_the_start_elsewhere_is_refused_once(
    store: Store,
) -> None:
    """b seated Bob and started the game, and a heard nothing: a's start is refused as
    started, and a serves the one game the records hold."""

    async def run() -> None:
        bus, a, b, table, other, token = await a_table_b_sees(store)
        bus.dropping = True  # a hears nothing from here on
        await b.lobby.join(table.invite_token, "Bob")
        await b.lobby.start(other, token)
        with pytest.raises(IllegalMove) as refused:
            await a.lobby.start(table, token)
        assert refused.value.code == "started"
        assert table.live is not None and other.live is not None
        assert table.live.session.game_id == other.live.session.game_id
        assert len(history(store)) == 1

    asyncio.run(run())


def test_a_start_through_a_node_with_a_stale_seat_plays_the_seat_as_recorded(
    store: Store,
) -> None:
    """Bob sat down through a; the host then handed his seat to a bot through b, which a
    did not hear: a's start plays the seat as the records have it (the bot)."""

    async def run() -> None:
        bus, a, b, table, other, token = await a_table_b_sees(store)
        await a.lobby.join(table.invite_token, "Bob")
        await until(lambda: other.seats[1].name == "Bob", "b hears of Bob")
        bus.dropping = True  # a hears nothing from here on
        await b.lobby.hand_to_bot(other, token, 1, BotSpec.at_level(2))
        assert table.seats[1].bot is None  # a's copy: Bob
        await a.lobby.start(table, token)
        assert table.live is not None and table.live.session.is_bot(1)
        recorded = store.seats_of(table.live.session.game_id or "")
        assert recorded[1].bot == BotSpec.at_level(2)
        assert len(history(store)) == 1

    asyncio.run(run())
