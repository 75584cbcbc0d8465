"""A complete seeded two-player game, checked in: events and final cards.

Regenerate (only after a deliberate change of the dice or the rules) with
``python tests/core/test_golden.py --write``.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from yahtzee import Game, Keep, RandomDice, Scorecard

GOLDEN = Path(__file__).parent / "golden" / "two_player_seed_2026.json"
SEED = 2026


def keep_most_common(game: Game) -> Keep:
    """Keep every die of the face shown most often (the higher face on a tie)."""
    assert game.dice is not None
    counts = Counter(game.dice.faces)
    face = max(counts, key=lambda f: (counts[f], f))
    return Keep((face,) * counts[face])


def play_golden_game() -> Game:
    game = Game(["Ann", "Bob"], "official", RandomDice(SEED))
    while not game.is_over:
        game.roll()
        game.roll(keep_most_common(game))
        game.roll(keep_most_common(game))
        best = max(game.placements(), key=lambda p: (p.total, -p.category))
        game.score(best.category)
    return game


def record(game: Game) -> dict[str, Any]:
    return {
        "seed": SEED,
        "rules": game.rules.name,
        "players": list(game.players),
        "events": game.events,
        "cards": [card.to_dict() for card in game.cards],
        "winners": list(game.winners),
    }


def test_seeded_game_matches_the_golden_file() -> None:
    golden = json.loads(GOLDEN.read_text())
    assert record(play_golden_game()) == golden


def test_golden_events_replay_to_the_golden_cards() -> None:
    golden = json.loads(GOLDEN.read_text())
    game = Game.replay(golden["events"])
    assert [Scorecard.from_dict(c) for c in golden["cards"]] == list(game.cards)
    assert list(game.winners) == golden["winners"]
    assert len(golden["events"]) == 1 + 2 * 13 * 4


if __name__ == "__main__" and "--write" in sys.argv:
    GOLDEN.write_text(json.dumps(record(play_golden_game()), indent=1) + "\n")
    print(f"wrote {GOLDEN}")
