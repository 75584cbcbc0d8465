"""Yatzy at the service's tables and in its records: a Yatzy table made over the server's
API plays a whole game over WebSockets (fifteen rounds, the Yatzy boxes) and is recorded
as a Yatzy game that reads back, exports and imports; the room refuses a box of another
edition, naming Yatzy, and changes nothing; a finished Yatzy game played offline uploads
(fifteen rounds of events fit), and one not over says which of its fifteen rounds it
stopped in."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.web.helpers import joined, next_of, play_out
from yahtzee import Dice, Game, InvalidInput, RuleSet, YatzyBox
from yahtzee.core import EnterDice
from yahtzee.service import Lobby, commands
from yahtzee.service.accounts import Accounts
from yahtzee.service.offline_games import (
    OfflinePlayer,
    OfflineUpload,
    max_events,
    replayed,
    upload,
)
from yahtzee.service.room_events import QuietListener
from yahtzee.store import Store, export_json, history, import_games, stats
from yahtzee.web.app import create_app

FINISHED_AT = datetime(2026, 5, 1, 12, tzinfo=UTC)


def test_a_yatzy_table_made_over_the_api_plays_a_whole_game_and_is_recorded(
    client: TestClient, db: str, tmp_path: Path
) -> None:
    seats = [{"kind": "human"}]  # Bob's (the host sits at seat 0)
    made = client.post("/api/tables", json={"host": "Ann", "seats": seats, "rules": "yatzy"})
    assert made.status_code == 201, made.text
    host = made.json()
    assert host["table"]["rules"] == "yatzy"
    bob = client.post(f"/api/join/{host['invite']}", json={"name": "Bob"}).json()
    table_id = host["table"]["id"]
    started = client.post(
        f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {host['token']}"}
    )
    assert started.status_code == 200, started.text
    with (
        joined(client, table_id, token=host["token"]) as ann_ws,
        joined(client, table_id, token=bob["token"]) as bob_ws,
    ):
        start = next_of(ann_ws, "state")
        assert list(start["game"]["cards"][0]["boxes"]) == [b.key for b in YatzyBox]
        final = play_out({0: ann_ws, 1: bob_ws}, ann_ws, start["game"])
    assert all(None not in c["boxes"].values() for c in final["cards"])
    with Store(db) as store:
        (summary,) = history(store)
        assert (summary.status, summary.rules, summary.edition) == ("finished", "yatzy", "yatzy")
        log = store.event_log(summary.id)
        assert sum(1 for e in log if e["type"] == "score") == 2 * 15
        game = store.load(summary.id)
        assert [c.total for c in game.cards] == [c["total"] for c in final["cards"]]
        assert {s.player for s in stats(store)} == {"Ann", "Bob"}
        text = export_json(store)
    with Store(f"sqlite:///{tmp_path / 'copy.db'}") as copy:
        assert import_games(copy, text) == (1, 0)
        assert export_json(copy) == text


def test_a_room_refuses_a_box_of_another_edition_naming_its_own(tmp_path: Path) -> None:
    """``one_pair`` at an American table is refused, naming Yahtzee, and changes nothing;
    at a Yatzy table it scores (and so does ``yahtzee``, the Yatzy box's other name)."""

    async def run() -> None:
        with Store(f"sqlite:///{tmp_path / 'r.db'}") as store:
            lobby = Lobby(store, QuietListener(), seed=11)
            try:
                for rules, box, points in (
                    ("official", "one_pair", None),
                    ("yatzy", "one_pair", 12),
                    ("yatzy", "yahtzee", 50),
                ):
                    table, host = await lobby.create(
                        "127.0.0.1", "Ann", [], RuleSet.named(rules), entered=True
                    )
                    await lobby.start(table, host)
                    room = lobby.room(table)
                    live = room.live
                    assert live is not None
                    dice = await room.handle(0, commands.Dice("66666"))
                    assert isinstance(dice, commands.Done)
                    before = (room.seq, live.committed_game().event_log)
                    outcome = await room.handle(0, commands.Score(box))
                    if points is None:
                        assert isinstance(outcome, commands.Refused), outcome
                        assert "One Pair is a box of Yatzy, not of Yahtzee" in outcome.message
                        assert (room.seq, live.committed_game().event_log) == before
                    else:
                        assert isinstance(outcome, commands.Done), outcome
                        assert live.committed_game().cards[0].total == points
            finally:
                lobby.close()

    asyncio.run(run())


def entered_yatzy(turns: int, corrections: int) -> Game:
    """A Yatzy game of real dice played alone for ``turns`` turns: each turn the dice
    entered ``corrections`` times more than once (each entry corrects the one before), then
    the first open box filled."""
    rng = random.Random(5)
    game = Game(["Ann"], "yatzy", entered=True)
    for _ in range(turns):
        for _ in range(corrections + 1):
            game.play(EnterDice(rng.choice(Dice.all())))
        game.score(game.placements()[0].category)
    return game


def test_an_offline_yatzy_game_uploads_and_one_not_over_says_its_round_of_15(
    tmp_path: Path,
) -> None:
    game = entered_yatzy(15, corrections=6)
    assert max_events(1, 13) < len(game.events) <= max_events(1, 15)  # a 13-round budget
    players = (OfflinePlayer("Ann"),)
    sent = OfflineUpload("c-1", "yatzy", players, tuple(game.events), FINISHED_AT)
    with Store(f"sqlite:///{tmp_path / 'o.db'}") as store:
        account = Accounts(store).sign_up("Ann", "a long enough secret").signed_in.account
        kept = upload(store, account, sent)
        summary = store.summary(kept.game_id)
        assert (summary.rules, summary.edition, summary.offline) == ("yatzy", "yatzy", True)
        assert store.load(kept.game_id).is_over
    short = entered_yatzy(13, corrections=0)
    with pytest.raises(InvalidInput, match="round 14 of 15") as refused:
        replayed(OfflineUpload("c-2", "yatzy", players, tuple(short.events), FINISHED_AT))
    assert refused.value.code == "not_over"


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'server.db'}"


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db, bot_delay=0, rate=1e6)) as test_client:
        yield test_client
