"""The win-chance meter: in the state, in a ``meter`` message after each placement, its
table's progress while it is prepared, nothing while there is nothing to show; the bonus
threshold in the state; the review's swing in win chance.

The session's exact meter is replaced here (``GameSession.win_chances``): the suite never
builds the table behind it (``YAHTZEE_NO_TABLE_BUILDS``); without it, the meter is the
estimate from the shipped tables."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import new_table
from tests.web.helpers import RECEIVE_TIMEOUT, intent_for, joined, next_of
from yahtzee.core import UPPER_BONUS_THRESHOLD
from yahtzee.service import GameSession
from yahtzee.solver import review as review_module
from yahtzee.solver.interim import ESTIMATE_MARGIN

CHANCES = [0.625, 0.375]
STATE_KEYS = {
    "v", "type", "seq", "table", "you", "game", "chat", "turn_deadline", "spectators",
    "win_chances", "meter_progress", "meter_estimate", "meter_margin", "upper_bonus_threshold",
}  # fmt: skip
METER_KEYS = {"v", "type", "seq", "win_chances", "meter_progress", "estimate", "margin"}


def with_a_bot(client: TestClient) -> tuple[dict[str, Any], str]:
    """Ann against a level-1 bot, started."""
    host = new_table(client, [{"kind": "bot", "level": 1}])
    table_id = host["table"]["id"]
    headers = {"Authorization": f"Bearer {host['token']}"}
    assert client.post(f"/api/tables/{table_id}/start", headers=headers).status_code == 200
    return host, table_id


def receive(socket: Any) -> dict[str, Any]:
    """The next message but presence updates (who came or went)."""
    return next_of(socket, "event", "meter", "error", "state", "ack", "review")


def fixed_chances(
    monkeypatch: pytest.MonkeyPatch, chances: Callable[[GameSession], list[float] | None]
) -> list[bool]:
    """``GameSession.win_chances`` answers ``chances(session)`` (its table counts as
    loaded); the list returned says, call by call, whether it was called off the event
    loop (as it must be)."""
    off_loop: list[bool] = []

    def win_chances(session: GameSession, cards: Any = None) -> list[float] | None:
        try:
            asyncio.get_running_loop()
            off_loop.append(False)
        except RuntimeError:
            off_loop.append(True)
        return chances(session)

    monkeypatch.setattr(GameSession, "win_chances", win_chances)
    monkeypatch.setattr(GameSession, "win_meter_ready", lambda _: True)
    return off_loop


def test_the_meter_comes_after_each_placement_and_in_the_state(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    off_loop = fixed_chances(monkeypatch, lambda _: list(CHANCES))
    host, table_id = with_a_bot(client)
    with joined(client, table_id, token=host["token"]) as ann:
        state = next_of(ann, "state")
        assert set(state) == STATE_KEYS
        assert state["upper_bonus_threshold"] == UPPER_BONUS_THRESHOLD == 63
        assert state["meter_progress"] is None
        meter = next_of(ann, "meter")  # read for the newcomer (or already in the state)
        assert meter == {
            "v": 1, "type": "meter", "seq": state["seq"], "win_chances": CHANCES,
            "meter_progress": None, "estimate": False, "margin": None,
        }  # fmt: skip
        ann.send_json({"v": 1, "type": "resync"})
        again = next_of(ann, "state")
        assert again["win_chances"] == CHANCES and again["meter_progress"] is None

        # Each placement (Ann's, then the bot's) is followed by the meter as of it, and
        # a roll by none; a meter whose reading a later placement overtook (the bot plays
        # at once here, and no move waits for a reading) is not shown: that placement's is.
        game, last_seq, placements, meters, placed_at = again["game"], again["seq"], 0, 0, 0
        acted = shown_at = -1
        while placements < 4 or meters == 0 or shown_at < placed_at:
            if game["current"] == 0 and placements < 4 and acted != last_seq:
                ann.send_json(intent_for(game))
                acted = last_seq
            message = receive(ann)
            if message["type"] == "event":
                assert message["seq"] == last_seq + 1
                game, last_seq = message["game"], message["seq"]
                if message["event"]["type"] == "score":
                    placements, placed_at = placements + 1, last_seq
            else:
                assert message["type"] == "meter", message
                assert set(message) == METER_KEYS
                assert message["seq"] == last_seq  # as of the last event, after it
                assert message["win_chances"] == CHANCES
                meters, shown_at = meters + 1, last_seq
                assert meters <= placements  # one per placement at most: none for a roll
    assert off_loop and all(off_loop)


def test_an_estimate_and_the_progress_while_the_table_is_prepared_then_the_chances(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = {"done": 5, "ready": False}
    lock = threading.Lock()

    def progress(_: GameSession) -> tuple[int, int] | None:
        with lock:
            return None if built["ready"] else (built["done"], 14)

    def ready(_: GameSession) -> bool:
        with lock:
            return bool(built["ready"])

    fixed_chances(monkeypatch, lambda _: [0.5, 0.5] if built["ready"] else None)
    monkeypatch.setattr(GameSession, "win_meter_ready", ready)
    monkeypatch.setattr(GameSession, "win_meter_progress", progress)
    client.app.state.lobby.meters.interval = 0.02  # type: ignore[attr-defined]
    host, table_id = with_a_bot(client)
    with joined(client, table_id, token=host["token"]) as ann:
        next_of(ann, "state")
        first = next_of(ann, "meter")
        assert first["meter_progress"] == [5, 14]
        assert first["estimate"] is True and first["margin"] == ESTIMATE_MARGIN
        assert first["win_chances"] == pytest.approx([0.5, 0.5])  # two empty cards
        with lock:
            built["done"] = 9
        assert next_of(ann, "meter")["meter_progress"] == [9, 14]  # looked at again
        ann.send_json({"v": 1, "type": "resync"})
        again = next_of(ann, "state")
        assert again["meter_progress"] == [9, 14] and again["meter_estimate"] is True
        assert again["meter_margin"] == ESTIMATE_MARGIN
        with lock:
            built["ready"] = True
        exact = next_of(ann, "meter")
        assert exact["win_chances"] == [0.5, 0.5] and exact["meter_progress"] is None
        assert exact["estimate"] is False and exact["margin"] is None


def test_without_the_table_the_meter_is_an_estimate_after_each_placement(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In the suite the meter's table is never built: the meter is the estimate from the
    shipped tables, marked as one, after each placement (nothing is being prepared),
    worked out at once (`service.meter.quick_meter`), not through a worker thread's
    `GameSession.meter`."""
    slow_reads: list[GameSession] = []
    monkeypatch.setattr(GameSession, "meter", slow_reads.append)
    host, table_id = with_a_bot(client)
    with joined(client, table_id, token=host["token"]) as ann:
        state = next_of(ann, "state")
        assert state["meter_progress"] is None
        game, scored, meters = {**state["game"], "seq": state["seq"]}, 0, []
        acted = -1
        while scored < 2 or len(meters) < scored + 1:
            if game["current"] == 0 and acted != game["seq"] and scored < 2:
                ann.send_json(intent_for(game))
                acted = game["seq"]
            message = receive(ann)
            if message["type"] == "event":
                game = {**message["game"], "seq": message["seq"]}
                scored += message["event"]["type"] == "score"
            else:
                assert message["type"] == "meter", message
                meters.append(message)
    assert slow_reads == []
    for meter in meters:
        assert meter["estimate"] is True and meter["margin"] == ESTIMATE_MARGIN
        assert meter["meter_progress"] is None and len(meter["win_chances"]) == 2
        assert sum(meter["win_chances"]) == pytest.approx(1.0)


def test_the_meter_ends_with_the_game_and_the_review_tells_the_swing(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    fixed_chances(monkeypatch, lambda s: None if s.game.is_over else list(CHANCES))

    def swings(game: Any) -> Callable[..., float]:
        return lambda situation, rivals, action: 0.125

    monkeypatch.setattr(review_module, "_win_swings", swings)
    host, table_id = with_a_bot(client)
    with joined(client, table_id, token=host["token"]) as ann:
        game = next_of(ann, "state")["game"]
        last: dict[str, Any] | None = None
        fresh = True
        for _ in range(3000):
            if game["phase"] == "over" and last is not None and last["win_chances"] is None:
                break
            if game["current"] == 0 and game["phase"] != "over" and fresh:
                ann.send_json(intent_for(game))
            message = receive(ann)
            fresh = message["type"] == "event"
            if fresh:
                game = message["game"]
            elif message["type"] == "meter":
                last = message
        assert game["phase"] == "over"
        assert last is not None and last["win_chances"] is None  # the standings tell now
        ann.send_json({"v": 1, "type": "resync"})
        over = next_of(ann, "state")
        assert over["win_chances"] is None and over["meter_progress"] is None
        ann.send_json({"v": 1, "type": "review"})
        (mine,) = next_of(ann, "review")["players"]
        assert mine["costliest"] and all(d["win_swing"] == 0.125 for d in mine["costliest"])
        assert set(mine["costliest"][0]) == {"round", "dice", "chosen", "best", "loss", "win_swing"}


def test_a_game_alone_has_one_chance(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Alone, the meter is one number: the chance to beat one's best score."""
    fixed_chances(monkeypatch, lambda _: [0.25])
    host = new_table(client, [])
    table_id = host["table"]["id"]
    headers = {"Authorization": f"Bearer {host['token']}"}
    assert client.post(f"/api/tables/{table_id}/start", headers=headers).status_code == 200
    with joined(client, table_id, token=host["token"]) as ann:
        state = next_of(ann, "state")
        assert next_of(ann, "meter")["win_chances"] == [0.25]
        ann.send_json(intent_for(state["game"]))
        game = next_of(ann, "event")["game"]
        ann.send_json(intent_for(game))
        event = next_of(ann, "event")
        assert event["event"]["type"] == "score"
        meter = next_of(ann, "meter")
        assert meter["seq"] == event["seq"] and meter["win_chances"] == [0.25]


def test_a_slow_reading_keeps_no_move_waiting_and_an_out_of_date_one_is_not_shown(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reading that takes a worker thread (an exact late card's distribution: tens of
    ms) is made without the table's lock: the player's next moves go on meanwhile. Come
    back after a placement since, it is out of date and not shown; the placement's own
    reading is, as of the placement."""
    gate, started, done = threading.Event(), threading.Event(), threading.Event()
    slow = [False]

    def chances(session: GameSession) -> list[float]:
        if not slow[0]:
            return [0.25]
        slow[0] = False
        started.set()
        gate.wait(RECEIVE_TIMEOUT)
        done.set()
        return [0.75]  # of the cards as they were: out of date once it is back

    fixed_chances(monkeypatch, chances)
    host = new_table(client, [])
    table_id = host["table"]["id"]
    headers = {"Authorization": f"Bearer {host['token']}"}
    assert client.post(f"/api/tables/{table_id}/start", headers=headers).status_code == 200
    shown: list[dict[str, Any]] = []
    try:
        with joined(client, table_id, token=host["token"]) as ann:
            game = next_of(ann, "state")["game"]
            shown.append(next_of(ann, "meter"))
            ann.send_json(intent_for(game))  # roll
            game = next_of(ann, "event")["game"]
            slow[0] = True
            ann.send_json(intent_for(game))  # score: its reading is slow
            scored = next_of(ann, "event")
            assert scored["event"]["type"] == "score"
            game = scored["game"]
            assert started.wait(RECEIVE_TIMEOUT)
            seq = 0
            for _ in range(2):  # roll and score again while that reading is under way
                ann.send_json(intent_for(game))
                while True:
                    message = receive(ann)
                    assert message["type"] != "error", message
                    if message["type"] == "meter":
                        shown.append(message)
                        continue
                    if message["type"] == "event":
                        break
                assert not done.is_set()  # the move did not wait for the reading
                game, seq = message["game"], message["seq"]
            gate.set()
            while shown[-1]["seq"] < seq:
                shown.append(next_of(ann, "meter"))
    finally:
        gate.set()
    assert all(m["win_chances"] == [0.25] for m in shown)  # never the out-of-date 0.75
    assert shown[-1]["seq"] == seq  # the last placement's own reading
