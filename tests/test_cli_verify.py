"""``yahtzee verify`` (issue 29, item 2): a game's rolls checked against the seed it
committed to, from the records and from an export; a changed roll, a forged seed and a
seed not yet revealed each get one clear line and exit 2."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import text

from tests.cli_helpers import run_cli
from yahtzee.core import DuplicateDice, RuleSet
from yahtzee.service import GameSession
from yahtzee.service.daily import start_daily
from yahtzee.store import Seat, Store, export_json, import_games


def committed_game(store: Store, finish: bool = True) -> GameSession:
    session = GameSession.new([Seat("Ann"), Seat("Bob")], RuleSet.official(), store=store,
                              dice=DuplicateDice())  # fmt: skip
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
    assert "To check it yourself" in done.stdout
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
