"""Each game's edition is recorded with it (migration 0021): Yatzy games export and import
back (JSON and CSV) as they were, statistics read each card by its own edition's boxes and
bonus, and an export naming an edition no game is played on is refused, nothing imported.
An export of American games only is the file it always was."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import inspect, text

from tests.store.test_transfer import fill, snapshot
from yahtzee import Game, InvalidInput, RandomDice, RuleSet
from yahtzee.core import Write, possible_points
from yahtzee.store import (
    Seat,
    Store,
    export_csv,
    export_json,
    history,
    import_games,
    migrate,
    progress_of,
    stats,
)
from yahtzee.store.engine import make_engine
from yahtzee.store.transfer import CSV_FIELDS

AMERICAN_HEADER = (
    "game_id,rules,seed,status,created_at,updated_at,finished_at,hints_used,seat,player,bot,"
    "total,ones,twos,threes,fours,fives,sixes,three_of_a_kind,four_of_a_kind,full_house,"
    "small_straight,large_straight,yahtzee,chance,yahtzee_bonus,place,winner,decisions,"
    "advisor_loss,seat_hints_used,sitting,dice_seed,daily,offline,events"
)
"""The CSV header of every export before editions (an American-only export keeps it)."""


def play(store: Store, rules: str, seed: int, steps: int = 10_000) -> str:
    """A game of two under ``rules``, played at random for ``steps`` moves (to its end)."""
    rng = random.Random(seed)
    game = Game(["Ann", "Bob"], rules, RandomDice(seed))
    game_id = store.start(game, [Seat("Ann"), Seat("Bob")], seed=seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.play(rng.choice(list(game.legal_actions())))
        store.save(game_id, game)
    return game_id


def yatzy_card_written(store: Store) -> str:
    """A Yatzy game of one, real dice, every box written: the upper boxes 63 (the bonus),
    a Yatzy, and each other box its most."""
    rules = RuleSet.named("yatzy")
    game = Game(["Cy"], rules, entered=True)
    game_id = store.start(game, [Seat("Cy")])
    for box in rules.boxes:
        points = 3 * box.face if box.is_upper else max(possible_points(box, rules))
        game.play(Write(box, points))
        store.save(game_id, game)
    assert game.is_over
    return game_id


def fill_mixed(store: Store) -> dict[str, str]:
    """American games (`test_transfer.fill`), a whole Yatzy game, a Yatzy game left mid-turn
    and a Yatzy card written from real dice."""
    fill(store)
    return {
        "whole": play(store, "yatzy+fh5+tp4", 11),
        "unfinished": play(store, "yatzy", 12, steps=40),
        "written": yatzy_card_written(store),
    }


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_yatzy_games_export_and_import_back_as_they_were(fmt: str, tmp_path: Path) -> None:
    with Store(f"sqlite:///{tmp_path / 'a.db'}") as source:
        ids = fill_mixed(source)
        text = export_json(source) if fmt == "json" else export_csv(source)
        before = snapshot(source)
    with Store(f"sqlite:///{tmp_path / 'b.db'}") as target:
        assert import_games(target, text) == (9, 0)
        assert snapshot(target) == before
        editions = {g.id: g.edition for g in history(target)}
        assert {editions[i] for i in ids.values()} == {"yatzy"}
        assert list(editions.values()).count("american") == 6
        loaded = target.load(ids["whole"])
        assert loaded.is_over and loaded.rules.name == "yatzy+fh5+tp4"
        assert [len(c.filled_boxes) for c in loaded.cards] == [15, 15]
        again = export_json(target) if fmt == "json" else export_csv(target)
        assert again == text


def test_exports_name_the_edition_of_a_yatzy_game_and_its_boxes(tmp_path: Path) -> None:
    with Store(f"sqlite:///{tmp_path / 'a.db'}") as store:
        ids = fill_mixed(store)
        data = json.loads(export_json(store))
        rows = export_csv(store).splitlines()
    by_id = {g["id"]: g for g in data["games"]}
    assert by_id[ids["whole"]]["edition"] == "yatzy"
    assert set(by_id[ids["whole"]]["seats"][0]["card"]["boxes"]) >= {"one_pair", "yatzy"}
    assert sum("edition" in g for g in data["games"]) == 3  # an American game names none
    header = rows[0].split(",")
    assert header[:3] == ["game_id", "rules", "edition"]
    yatzy_only = ["one_pair", "two_pairs", "yatzy"]
    assert header[header.index("chance") + 1 : header.index("yahtzee_bonus")] == yatzy_only


def test_an_american_export_is_the_file_it_always_was(tmp_path: Path) -> None:
    with Store(f"sqlite:///{tmp_path / 'a.db'}") as store:
        fill(store)
        csv_text = export_csv(store)
        data = json.loads(export_json(store))
    assert csv_text.splitlines()[0] == AMERICAN_HEADER == ",".join(CSV_FIELDS)
    assert all("edition" not in g for g in data["games"])
    assert all("edition" not in s["card"] for g in data["games"] for s in g["seats"])


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_an_export_naming_an_unknown_edition_is_refused_and_nothing_imported(
    fmt: str, tmp_path: Path
) -> None:
    with Store(f"sqlite:///{tmp_path / 'a.db'}") as source:
        fill_mixed(source)
        text = export_json(source) if fmt == "json" else export_csv(source)
    if fmt == "json":
        data = json.loads(text)
        data["games"][-1]["edition"] = "maxi"  # the last game: every one before it is good
        text = json.dumps(data)
    else:
        lines = text.splitlines(keepends=True)
        lines[-1] = lines[-1].replace(",yatzy,yatzy,", ",yatzy,maxi,", 1)  # rules, edition
        text = "".join(lines)
    with Store(f"sqlite:///{tmp_path / 'b.db'}") as target:
        with pytest.raises(InvalidInput) as refused:
            import_games(target, text)
        assert "Unknown edition 'maxi'" in str(refused.value)
        assert "Editions: american, yatzy" in str(refused.value)
        assert history(target) == []


def test_an_export_whose_edition_is_not_its_rules_is_refused(tmp_path: Path) -> None:
    with Store(f"sqlite:///{tmp_path / 'a.db'}") as source:
        play(source, "official", 1)
        data = json.loads(export_json(source))
    data["games"][0]["edition"] = "yatzy"
    with Store(f"sqlite:///{tmp_path / 'b.db'}") as target:
        with pytest.raises(InvalidInput, match=r"game of Yatzy .* rules 'official' are Yahtzee"):
            import_games(target, json.dumps(data))
        assert history(target) == []


def test_statistics_read_a_yatzy_card_by_its_own_bonus_and_yatzy_box(tmp_path: Path) -> None:
    with Store(f"sqlite:///{tmp_path / 'a.db'}") as store:
        game_id = yatzy_card_written(store)
        (cy,) = stats(store, player="Cy")
        assert (cy.games, cy.upper_bonus_rate, cy.yahtzee_rate, cy.yahtzee_bonuses) == (
            1, 1.0, 1.0, 0,
        )  # fmt: skip
        assert store.load(game_id).cards[0].upper_bonus == 50
        unfinished = play(store, "yatzy", 3, steps=1)
        progress = progress_of(store, unfinished)
        assert progress is not None and progress.stage == "round 1 of 15"


def test_games_recorded_before_editions_are_american(db_url: str) -> None:
    """Migration 0021 on records of 0020: the game there is American; a downgrade takes the
    column away (and, on PostgreSQL, gives the table start its arguments of before), an
    upgrade brings both back."""
    engine = make_engine(db_url)
    migrate.upgrade(engine, "0020")
    stamp = datetime(2026, 4, 1, tzinfo=UTC)
    with engine.begin() as c:
        c.execute(
            text("INSERT INTO games (id, rules, seed, status, created_at, updated_at, "
                 "finished_at, event_count, hints_used) VALUES ('g-1', 'official', NULL, "
                 "'finished', :t, :t, :t, 0, false)"),
            {"t": stamp},
        )  # fmt: skip
    engine.dispose()
    with Store(db_url) as store:
        assert store.summary("g-1").edition == "american"
        with store.engine.begin() as c:
            command.downgrade(migrate.alembic_config(c), "0020")
        with store.engine.connect() as c:
            assert "edition" not in {col["name"] for col in inspect(c).get_columns("games")}
        migrate.upgrade(store.engine)
        assert store.summary("g-1").edition == "american"
        play(store, "yatzy", 5, steps=3)
        assert sorted(g.edition for g in history(store)) == ["american", "yatzy"]
