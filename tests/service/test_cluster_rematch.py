"""A rematch on a site of two nodes: the players of a finished table asking at the same
moment through different nodes get one new table (the records' compare-and-set decides),
and a node's watchers of the old table hear of a rematch made through the other."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.service.test_cluster_lobby import Node, a_table_b_sees, until
from yahtzee.core import Keep, Score
from yahtzee.service import Table, rematch
from yahtzee.store import Store
from yahtzee.store import tables as records


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(f"sqlite:///{tmp_path / 'site.db'}") as opened:
        yield opened


async def finished_on_two_nodes(store: Store) -> tuple[Node, Node, Table, Table, str, str]:
    """Ann (through a) and Bob (through b) played a game to its end; both nodes serve it."""
    _, a, b, table, other, ann = await a_table_b_sees(store)
    _, _, bob = await b.lobby.join(table.invite_token, "Bob")
    await a.lobby.start(table, ann)
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
    await until(lambda: table.status == records.FINISHED, "a finished it")
    await until(lambda: other.live is not None and other.live.session.is_over, "b sees it over")
    return a, b, table, other, ann, bob


def test_two_players_asking_through_two_nodes_at_once_get_one_table(store: Store) -> None:
    async def run() -> None:
        a, b, table, other, ann, bob = await finished_on_two_nodes(store)
        first, second = await asyncio.gather(
            rematch(a.lobby, table, ann), rematch(b.lobby, other, bob)
        )
        assert first.table.id == second.table.id
        assert (first.seat, second.seat) == (0, 1)
        made = records.load_table(store, first.table.id)
        assert made is not None and made.sitting == table.id
        assert all(s.token_hash for s in made.seats)  # both seats taken
        assert len(records.sitting_games(store, table.id)) == 1  # (the rematch not started)
        old = records.load_table(store, table.id)
        assert old is not None and old.rematch == first.table.id
        await a.lobby.start(
            await a.lobby.lookup(first.table.id), first.token
        )  # the host starts it, whichever node made it

    asyncio.run(run())


def test_watchers_on_the_other_node_hear_of_the_rematch(store: Store) -> None:
    async def run() -> None:
        a, b, table, other, ann, bob = await finished_on_two_nodes(store)
        told: list[str | None] = []

        async def changed(seen: Table) -> None:
            told.append(seen.rematch)

        b.lobby.changed = changed
        made = await rematch(a.lobby, table, ann)
        await until(lambda: made.table.id in told, "b pushes the old table's lobby")
        assert other.rematch == made.table.id
        bobs = await rematch(b.lobby, other, bob)
        assert (bobs.table.id, bobs.seat) == (made.table.id, 1)
        again = await rematch(a.lobby, table, bob)  # through the other node: the same seat
        assert (again.table.id, again.seat, again.token) == (made.table.id, 1, bobs.token)

    asyncio.run(run())
