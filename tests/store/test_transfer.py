"""Export then import into an empty database reproduces games, cards and statistics."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tests.store.conftest import new_database
from yahtzee import BotSpec, Category, Dice, Game, InvalidInput, RandomDice, RuleSet
from yahtzee.core import possible_points
from yahtzee.service import GameSession
from yahtzee.store import (
    Seat,
    Store,
    export_csv,
    export_json,
    high_scores,
    history,
    import_games,
    stats,
    tables,
)


def fill(store: Store) -> None:
    rng = random.Random(1)
    for seed in range(4):
        names = ["Ann", "Bob"][: 1 + seed % 2]
        game = Game(names, "official+playoff" if seed == 3 else "official", RandomDice(seed))
        seats = [Seat(n, BotSpec("greedy") if n == "Bob" else None) for n in names]
        game_id = store.start(game, seats, seed=seed)
        steps = 10_000 if seed < 3 else 17  # the last game stays unfinished, mid-turn
        for _ in range(steps):
            if game.is_over:
                break
            game.play(rng.choice(list(game.legal_actions())))
            store.save(game_id, game)
        if game.is_over:
            store.set_review(game_id, 0, 39, 12.25)
    fill_sitting(store)


def fill_sitting(store: Store) -> None:
    """A sitting of two games of entered dice, the second unfinished: entered dice, a
    correction, written scores, an entry taken back."""
    first = GameSession.new([Seat("Cy"), Seat("Di")], RuleSet.official(), store=store,
                            entered=True)  # fmt: skip
    rng = random.Random(7)
    while not first.is_over:
        if rng.random() < 0.5:
            first.enter_dice(rng.choice(Dice.all()), rng.choice([None, 1, 2, 3]))
            first.enter_dice(rng.choice(Dice.all()))
            first.score(rng.choice(first.game.placements()).category)
        else:
            card = first.game.cards[first.current or 0]
            box = rng.choice(card.open_boxes)
            first.write(box, max(possible_points(box, first.rules)))
            if rng.random() < 0.2:
                first.undo()
                first.write(box, 0 if box is not Category.CHANCE else 5)
    second = first.rematch()
    second.enter_dice("66666", 1)
    second.score("yahtzee")
    second.write("chance", 21)
    assert second.sitting == first.sitting == first.game_id


def snapshot(store: Store) -> object:
    return (
        [(g.id, g.rules, g.status, g.players, g.totals, g.winners, g.seed, g.event_count,
          g.created_at, g.finished_at, g.sitting, g.dice)
         for g in sorted(history(store), key=lambda g: g.id)],
        [s.to_dict() for s in stats(store)],
        high_scores(store),
        {g.id: store.event_log(g.id) for g in history(store)},
    )  # fmt: skip


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_round_trip(db_url: str, fmt: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    with Store(db_url) as source:
        fill(source)
        text = export_json(source) if fmt == "json" else export_csv(source)
        before = snapshot(source)
    if db_url.startswith("sqlite"):
        target_url = f"sqlite:///{tmp_path / 'target.db'}"
    else:
        target_url = new_database(request.getfixturevalue("postgres_admin_url"))
    with Store(target_url) as target:
        assert import_games(target, text) == (6, 0)
        assert snapshot(target) == before
        sittings = {g.sitting for g in history(target) if g.dice == "entered"}
        assert len(sittings) == 1 and len(tables.sitting_games(target, sittings.pop())) == 2
        assert import_games(target, text) == (0, 6)  # importing again changes nothing
        assert snapshot(target) == before
        again = export_json(target) if fmt == "json" else export_csv(target)
        assert again == text


def test_damaged_exports_are_refused(tmp_path: Path) -> None:
    with Store(f"sqlite:///{tmp_path / 'a.db'}") as store:
        fill(store)
        good = json.loads(export_json(store))
    bad_events = json.loads(json.dumps(good))
    bad_events["games"][0]["events"][3]["dice"] = "66666"
    bad_seats = json.loads(json.dumps(good))
    bad_seats["games"][0]["seats"][0]["player"] = "Mallory"
    cases = [
        "{", "[]", '{"format": "other"}', json.dumps({**good, "version": 99}),
        json.dumps(bad_events), json.dumps(bad_seats), "a,b\n1,2\n",
    ]  # fmt: skip
    with Store(f"sqlite:///{tmp_path / 'b.db'}") as target:
        for text in cases:
            with pytest.raises(InvalidInput):
                import_games(target, text)
        assert history(target) == []
