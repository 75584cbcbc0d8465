"""Two lobbies of one site (two nodes) over one store, their ownership leases kept by an
in-process stand-in for Redis: one node alone serves a table and the other keeps
nothing of it, a dead node's tables are taken over with their games, a lost lease is let
go at once, a table nobody needs is let go after a few beats, and two nodes that both
think they own a table still cannot both write one event."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import event, text

from yahtzee.core import (
    BotSpec,
    IllegalMove,
    InvalidInput,
    Keep,
    RuleSet,
    Score,
    SeatDice,
    check_rolls,
)
from yahtzee.service import Cluster, Elsewhere, Moved, Repeated, Table
from yahtzee.service.cluster.lobby import EVICT_AFTER, ClusterLobby
from yahtzee.service.cluster.wire import Incarnation
from yahtzee.service.room_events import MovedAway, Played, RoomEvent
from yahtzee.service.timeout import TimeoutRule
from yahtzee.store import Store
from yahtzee.store import tables as records

WAIT_S = 30.0  # a hang detector: a busy CI worker (numba compiling beside it) is slow
HOURS = 3600.0
"""A bot's pace that no test outlasts: the bot of a node that dies never plays."""


class Leases:
    """The site's ownership leases, as Redis would hold them."""

    def __init__(self) -> None:
        self.held: dict[str, str] = {}
        self.alive: set[str] = set()


class FakeCluster(Cluster):
    clustered = True

    def __init__(self, node_id: str, leases: Leases) -> None:
        super().__init__(node_id)
        self.leases = leases
        leases.alive.add(node_id)
        self.me = Incarnation(node_id, "run")
        self.owned: set[str] = set()

    def owns(self, table_id: str) -> bool:
        return table_id in self.owned and self.node_id in self.leases.alive

    async def claim(self, table_id: str, previous: Incarnation | None = None) -> Elsewhere | None:
        holder = self.leases.held.setdefault(table_id, self.node_id)
        if holder != self.node_id:
            address = f"{holder}:8000" if holder in self.leases.alive else None
            return Elsewhere(table_id, holder, address)
        self.owned.add(table_id)
        return None

    async def release(self, table_id: str) -> None:
        self.owned.discard(table_id)
        if self.leases.held.get(table_id) == self.node_id:
            del self.leases.held[table_id]

    def die(self) -> None:
        """Its heartbeat stops: its leases lapse."""
        self.leases.alive.discard(self.node_id)
        for table_id in [t for t, n in self.leases.held.items() if n == self.node_id]:
            del self.leases.held[table_id]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(f"sqlite:///{tmp_path / 'site.db'}") as opened:
        yield opened


@dataclass(eq=False)
class Watcher:
    """A spectator at a table (as a connection of the server would be)."""

    seat: int | None = None
    heard: float = 0.0
    away: bool = False


class Node:
    """A node's lobby, and what its rooms told their listener (as the hub would hear)."""

    def __init__(
        self,
        name: str,
        store: Store,
        leases: Leases,
        seed: int | None = 1,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """``seed=None``: the dice of a served site, from a secret seed committed to."""
        self.seen: dict[str, list[int]] = {}
        self.gone: list[str] = []
        self.cluster = FakeCluster(name, leases)
        self.lobby = ClusterLobby(store, self, seed=seed, cluster=self.cluster, clock=clock)

    def heard(self, table_id: str, event: RoomEvent) -> None:
        if isinstance(event, Played):
            seq, events = event.seq, event.events
            self.seen.setdefault(table_id, []).extend(range(seq - len(events) + 1, seq + 1))
        elif isinstance(event, MovedAway):
            self.gone.append(table_id)


async def until(predicate: object, what: str) -> None:
    async with asyncio.timeout(WAIT_S):
        while not predicate():  # type: ignore[operator]
            await asyncio.sleep(0.01)


def site(store: Store, seed: int | None = 1) -> tuple[Leases, Node, Node]:
    leases = Leases()
    return leases, Node("a", store, leases, seed), Node("b", store, leases, seed)


async def started_on(node: Node, store: Store, seats: list[BotSpec | None]) -> tuple[Table, str]:
    """A table made through a node (recorded only), then claimed by ``node``, which seats
    Bob in each open seat and starts it."""
    made, token = await node.lobby.create("x", "Ann", seats, RuleSet.official())
    assert made.id not in node.lobby.tables  # only recorded: the first node asked claims it
    table = await node.lobby.find(made.id)
    assert table is not None
    for index, seat in enumerate(seats, 1):
        if seat is None:
            await node.lobby.join(table.invite_token, f"Bob{index}")
    await node.lobby.start(table, token)
    return table, token


def test_one_node_serves_a_table_and_the_other_keeps_nothing_of_it(store: Store) -> None:
    async def run() -> None:
        _, a, b = site(store)
        made, token = await a.lobby.create("x", "Ann", [None], RuleSet.official())
        assert a.lobby.tables == {}  # recorded, not served
        table = await b.lobby.find(made.id)  # b is asked first: b claims it
        assert table is not None and b.cluster.owns(made.id)
        elsewhere = await a.lobby.locate(made.id)  # served by b: where, not an error
        assert isinstance(elsewhere, Elsewhere)
        assert (elsewhere.node, elsewhere.address) == ("b", "b:8000")
        with pytest.raises(Moved):  # (an invite names no table: the request goes to b)
            await a.lobby.by_invite(made.invite_token)
        await b.lobby.join(made.invite_token, "Bob")
        await b.lobby.start(table, token)
        assert table.live is not None
        await table.live.act(Keep.NONE, 0)
        assert b.seen[made.id] == [2]
        assert a.lobby.tables == {} and a.seen == {} and not a.cluster.owned

    asyncio.run(run())


def test_a_dead_nodes_tables_are_taken_over_with_their_games(store: Store) -> None:
    async def run() -> None:
        _, a, b = site(store)
        table, _ = await started_on(a, store, [BotSpec.at_level(1)])
        assert table.live is not None
        table.live.bot_delay = HOURS  # a dies before its bot plays: the turn is b's to play
        await table.live.act(Keep.NONE, 0, "0:r")
        game = table.live.session.game
        box = next(x for x in game.legal_actions() if isinstance(x, Score))
        scored = await table.live.act(box, 0, "0:s")
        a.cluster.die()
        a.lobby.close()  # (its process is gone)
        await b.lobby.on_adopt([(table.id, a.cluster.me)])
        await until(lambda: table.id in b.lobby.tables, "b takes the table over")
        taken = b.lobby.tables[table.id]
        assert taken.live is not None and b.cluster.owns(table.id)
        await until(lambda: b.seen.get(table.id), "the bot plays on, on b")
        assert taken.live.session.game.event_log[: scored.seq] == game.event_log[: scored.seq]
        with pytest.raises(Repeated) as resent:  # her score, sent again through b
            await taken.live.act(box, 0, "0:s")
        assert resent.value.seq == scored.seq

    asyncio.run(run())


def test_a_game_taken_over_goes_on_with_each_seats_own_dice(store: Store) -> None:
    async def run() -> None:
        _, a, b = site(store, seed=None)
        table, _ = await started_on(a, store, [BotSpec.at_level(1)])
        assert table.live is not None
        table.live.bot_delay = HOURS  # a dies before its bot plays: the turn is b's to play
        game = table.live.session.game
        source = game.dice_source
        assert isinstance(source, SeatDice) and game.events[0]["draw"] == "seat"
        await table.live.act(Keep.NONE, 0, "0:r")
        box = next(x for x in game.legal_actions() if isinstance(x, Score))
        await table.live.act(box, 0, "0:s")
        a.cluster.die()
        a.lobby.close()
        await b.lobby.on_adopt([(table.id, a.cluster.me)])
        await until(lambda: table.id in b.lobby.tables, "b takes the table over")
        taken = b.lobby.tables[table.id].live
        assert taken is not None
        await until(lambda: b.seen.get(table.id), "the bot rolls on, on b")
        again = taken.session.game
        assert isinstance(again.dice_source, SeatDice) and again.dice_source.seed == source.seed
        assert [e["type"] for e in again.events].count("roll") >= 2  # the bot's, on b
        check_rolls(source.seed, again.events)  # on its seat's own dice

    asyncio.run(run())


def test_a_lost_lease_is_let_go_at_once_and_its_connections_told(store: Store) -> None:
    async def run() -> None:
        _, _, b = site(store)
        table, _ = await started_on(b, store, [None])
        await b.lobby.on_lost([table.id])
        assert table.id not in b.lobby.tables and b.gone == [table.id]

    asyncio.run(run())


def test_a_table_nobody_needs_here_is_let_go_after_a_few_beats(store: Store) -> None:
    async def run() -> None:
        leases, a, b = site(store)
        made, _ = await b.lobby.create("x", "Ann", [None], RuleSet.official())
        assert await b.lobby.find(made.id) is not None
        playing, _ = await started_on(b, store, [BotSpec.at_level(1)])  # driven: kept
        room, watcher = b.lobby.room(b.lobby.tables[made.id]), Watcher()
        room.arrive(watcher)
        for _ in range(EVICT_AFTER):
            await b.lobby.on_tick()
        assert made.id in b.lobby.tables  # watched
        room.depart(watcher)
        for _ in range(EVICT_AFTER):
            await b.lobby.on_tick()
        await until(lambda: made.id not in leases.held, "its lease let go")
        assert made.id not in b.lobby.tables and playing.id in b.lobby.tables
        assert await a.lobby.find(made.id) is not None  # claimed again, elsewhere
        assert a.cluster.owns(made.id)

    asyncio.run(run())


def test_two_owners_by_mistake_cannot_both_write_one_event(store: Store) -> None:
    """A handover gone wrong (both nodes think they own the table): the records'
    compare-and-set lets one write, and the other catches up and answers late."""

    async def run() -> None:
        leases, a, b = site(store)
        table, _ = await started_on(a, store, [None])
        leases.held[table.id] = "b"
        other = await b.lobby.find(table.id)
        assert other is not None and table.live is not None and other.live is not None
        await table.live.act(Keep.NONE, 0)
        game = table.live.session.game
        box = next(x for x in game.legal_actions() if isinstance(x, Score))
        await table.live.act(box, 0)  # Ann's turn is over on node a
        with pytest.raises(IllegalMove) as late:
            await other.live.act(Keep.NONE, 0)  # node b still thinks it is her first roll
        assert late.value.code == "not_your_turn"
        assert other.live.session.game == table.live.session.game  # caught up meanwhile
        assert store.count_events() == len(table.live.session.game.event_log)

    asyncio.run(run())


def test_a_rematch_is_made_once_by_the_owner_and_served_by_one_node(store: Store) -> None:
    async def run() -> None:
        from yahtzee.service import rematch

        _, a, b = site(store)
        made, ann = await b.lobby.create("x", "Ann", [None], RuleSet.official())
        table = await b.lobby.find(made.id)
        assert table is not None
        _, _, bob = await b.lobby.join(made.invite_token, "Bob")
        await b.lobby.start(table, ann)
        live = table.live
        assert live is not None
        async with asyncio.timeout(60):
            while not live.session.is_over:
                game, seat = live.session.game, live.session.current
                assert seat is not None
                if game.turn is None or game.turn.dice is None:
                    await live.act(Keep.NONE, seat)
                else:
                    await live.act(Score(game.placements()[0].category), seat)
        first, second = await asyncio.gather(
            rematch(b.lobby, table, ann), rematch(b.lobby, table, bob)
        )
        assert first.table.id == second.table.id and (first.seat, second.seat) == (0, 1)
        old = records.load_table(store, table.id)
        assert old is not None and old.rematch == first.table.id
        # served by the node that made it, relayed from a
        assert isinstance(await a.lobby.locate(first.table.id), Elsewhere)

    asyncio.run(run())


def statements(store: Store) -> list[str]:
    """Every SQL statement the store sends from now on."""
    sent: list[str] = []

    def heard(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        sent.append(statement)

    event.listen(store.engine, "before_cursor_execute", heard)
    return sent


def test_a_crowd_of_tables_taken_over_is_read_in_a_few_statements(store: Store) -> None:
    """Regression: a dead node's 500 tables were read one by one, about ten statements
    each through a thread of their own, and the last moved again 15 s after the kill
    (benchmarks/cluster.py at 1,000 tables). Tables asked for together are read together."""

    async def run() -> None:
        _, a, b = site(store)
        tables = [(await started_on(a, store, [BotSpec.at_level(1)]))[0] for _ in range(12)]
        for table in tables:
            assert table.live is not None
            await table.live.act(Keep.NONE, 0)
        games = {t.id: t.live.session.game for t in tables if t.live is not None}
        a.cluster.die()
        a.lobby.close()
        sent = statements(store)
        taken = await asyncio.gather(*(b.lobby.find(t.id) for t in tables))
        reads = [s for s in sent if s.lstrip().upper().startswith("SELECT")]
        assert len(reads) <= 8, reads  # one by one: 12 tables x 9
        for table in taken:
            assert table is not None and table.live is not None and b.cluster.owns(table.id)
            assert table.live.session.game.event_log == games[table.id].event_log

    asyncio.run(run())


def test_a_table_that_cannot_be_read_holds_up_no_other(store: Store) -> None:
    async def run() -> None:
        leases, a, b = site(store)
        good, _ = await started_on(a, store, [None])
        bad, _ = await started_on(a, store, [None])
        assert bad.live is not None and bad.live.session.game_id is not None
        with store.engine.begin() as connection:  # its records damaged
            connection.execute(
                text('UPDATE events SET data = \'{"type": "nonsense"}\' WHERE game_id = :g'),
                {"g": bad.live.session.game_id},
            )
        a.cluster.die()
        a.lobby.close()
        found, failed = await asyncio.gather(
            b.lobby.find(good.id), b.lobby.find(bad.id), return_exceptions=True
        )
        assert isinstance(found, Table) and found.live is not None
        assert isinstance(failed, InvalidInput), failed
        assert bad.id not in b.lobby.tables and bad.id not in leases.held  # let go

    asyncio.run(run())


def test_a_resting_turn_by_turn_table_is_let_go_and_its_deadline_swept_by_any_node(
    store: Store,
) -> None:
    """A turn-by-turn table nobody watches is let go by its node (it needs no driving
    there); once its deadline passes by the site's clock, another node's sweep claims it,
    applies the timeout rule and records the next deadline; the first node's sweep then
    finds nothing due."""

    async def run() -> None:
        leases = Leases()
        now = [1_900_000_000.0]
        a, b = (Node(name, store, leases, clock=lambda: now[0]) for name in "ab")
        made, token = await a.lobby.create(
            "x", "Ann", [None], RuleSet.official(), turn_timer=86400,
            timeout=TimeoutRule("bot", level=1),
        )  # fmt: skip
        table = await a.lobby.find(made.id)
        assert table is not None
        await a.lobby.join(table.invite_token, "Bob")
        await a.lobby.start(table, token)
        for _ in range(EVICT_AFTER):
            await a.lobby.on_tick()
        await until(lambda: made.id not in a.lobby.tables and made.id not in leases.held, "let go")

        now[0] += 86400
        [swept] = await b.lobby.sweep_deadlines()
        assert swept.id == made.id and b.cluster.owns(made.id)
        assert swept.live is not None and swept.live.committed_game().current_player == 1
        row = records.load_table(store, made.id)
        assert row is not None and row.deadline == now[0] + 86400
        assert row.seats[0].missed == 1
        assert await a.lobby.sweep_deadlines() == []
        b.lobby.close()
        a.lobby.close()

    asyncio.run(run())
