"""``yahtzee verify`` (issue 29, item 2): a game's rolls checked against the seed it
committed to, from the records and from an export; a changed roll, a forged seed and a
seed not yet revealed each get one clear line and exit 2. A table's game of each seat's own
dice and a game recorded before the start event said how its dice were drawn (duplicate
dice) both verify (issue 49, item 1)."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import text

from tests.cli_helpers import run_cli
from yahtzee.core import RuleSet, SeatDice
from yahtzee.service import GameSession
from yahtzee.service.daily import start_daily
from yahtzee.store import Seat, Store, export_json, import_games
from yahtzee.store.transfer import FORMAT, VERSION


def committed_game(store: Store, finish: bool = True) -> GameSession:
    session = GameSession.new([Seat("Ann"), Seat("Bob")], RuleSet.official(), store=store,
                              dice=SeatDice())  # fmt: skip
    rng = random.Random(3)
    for _ in range(10_000 if finish else 9):
        if session.is_over:
            break
        session.act(rng.choice(list(session.game.legal_actions())), review=False)
    return session


def test_a_finished_game_verifies_from_the_records_and_from_an_export(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'r.db'}"
    with Store(url) as store:
        game_id = committed_game(store).game_id or ""
        exported = export_json(store)
    done = run_cli("verify", game_id[:8], "--database-url", url)
    assert done.returncode == 0, done.stderr
    assert f"Game {game_id[:8]}: all " in done.stdout and "came from the seed" in done.stdout
    assert "(each seat drew its own dice)" in done.stdout
    assert "To check it yourself (each seat drew its own dice):" in done.stdout
    assert '"|seat|s|r|n|i"' in done.stdout and '"|r|n|i"' not in done.stdout
    path = tmp_path / "records.json"
    path.write_text(exported)
    from_file = run_cli("verify", str(path))
    assert from_file.returncode == 0 and "1 game(s) verified." in from_file.stdout


def test_a_changed_roll_fails_everywhere(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'r.db'}"
    with Store(url) as store:
        session = committed_game(store)
        data = json.loads(export_json(store))
        event = next(e for e in data["games"][0]["events"] if e["type"] == "roll")
        event["dice"] = "11111" if event["dice"] != "11111" else "22222"
        seq = data["games"][0]["events"].index(event)
        with store.engine.begin() as c:
            c.execute(text("UPDATE events SET data = :d WHERE game_id = :g AND seq = :s"),
                      {"d": json.dumps(event), "g": session.game_id, "s": seq})  # fmt: skip
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(data))
    for args in (
        ("verify", str(tampered)),
        ("verify", session.game_id or "", "--database-url", url),
    ):
        failed = run_cli(*args)
        assert failed.returncode == 2, failed.stdout
        assert "did not come from this seed" in failed.stderr
        assert "Traceback" not in failed.stderr and len(failed.stderr.strip().splitlines()) == 1
    with Store(f"sqlite:///{tmp_path / 'other.db'}") as other:
        try:
            import_games(other, json.dumps(data))
        except Exception as error:
            assert "did not come from this seed" in str(error)
        else:
            raise AssertionError("a tampered export was imported")


def test_a_seed_is_not_revealed_before_the_end(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'r.db'}"
    with Store(url) as store:
        playing = committed_game(store, finish=False).game_id or ""
        daily = start_daily(store, "Cy", datetime.now(UTC).date())
        rng = random.Random(4)
        while not daily.is_over:
            daily.act(rng.choice(list(daily.game.legal_actions())), review=False)
        exported = json.loads(export_json(store))
    for game_id in (playing, daily.game_id or ""):
        early = run_cli("verify", game_id, "--database-url", url)
        assert early.returncode == 2 and "is not revealed yet" in early.stderr
    assert all(g["dice_seed"] is None for g in exported["games"])  # not in exports either


RECORDED = Path(__file__).parent / "core" / "golden" / "duplicate_dice_before_seat_draw.json"


def test_a_game_recorded_before_the_draw_was_said_verifies_as_before(tmp_path: Path) -> None:
    recorded = json.loads(RECORDED.read_text())
    assert "draw" not in recorded["events"][0]
    stamp = datetime(2026, 1, 5, tzinfo=UTC).isoformat()
    item = {
        "id": "5e1ec7ed-0d1c-4000-8000-000000000001", "events": recorded["events"],
        "seats": [{"seat": 0, "player": "Ann"}, {"seat": 1, "player": "Bob"}],
        "created_at": stamp, "updated_at": stamp, "finished_at": stamp,
        "dice_seed": recorded["seed"],
    }  # fmt: skip
    path = tmp_path / "old.json"
    path.write_text(json.dumps({"format": FORMAT, "version": VERSION, "games": [item]}))
    url = f"sqlite:///{tmp_path / 'r.db'}"
    with Store(url) as store:
        assert import_games(store, path.read_text()) == (1, 0)
        assert store.event_log(item["id"]) == recorded["events"]  # kept as it was
    for args in (("verify", str(path)), ("verify", "5e1ec7ed", "--database-url", url)):
        done = run_cli(*args)
        assert done.returncode == 0, done.stderr
        assert "Game 5e1ec7ed: all 82 rolls came from the seed" in done.stdout
        assert "(duplicate dice: every seat drew the same)" in done.stdout
        assert '"|r|n|i"' in done.stdout and "|seat|" not in done.stdout


def test_an_offline_daily_game_is_not_said_to_have_published_its_hash(tmp_path: Path) -> None:
    """Regression: verify said of an offline daily game (``yahtzee daily``) that its
    SHA-256 was "published" before its first roll: offline nothing was, and its seed comes
    from the date. Both from the records and from an export, it now says so."""
    from yahtzee.service.daily import start_offline_daily

    url = f"sqlite:///{tmp_path / 'r.db'}"
    with Store(url) as store:
        session = start_offline_daily(store, "Ann")
        rng = random.Random(5)
        while not session.is_over:
            session.act(rng.choice(list(session.game.legal_actions())), review=False)
        game_id = session.game_id or ""
        exported = export_json(store)
    path = tmp_path / "records.json"
    path.write_text(exported)
    today = datetime.now(UTC).date().isoformat()
    for done in (
        run_cli("verify", game_id[:8], "--database-url", url),
        run_cli("verify", str(path)),
    ):
        assert done.returncode == 0, done.stderr
        assert f"the offline daily game of {today}" in done.stdout
        assert "never published" in done.stdout and "the game published" not in done.stdout
