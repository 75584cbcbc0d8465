"""Rows derived from a game: what the store writes besides the events."""

from __future__ import annotations

import json
from typing import Any

from ..core import Game


def card_rows(game_id: str, game: Game) -> list[dict[str, Any]]:
    """One ``cards`` row per seat of a finished game, with its place and the winner mark;
    ``yahtzee_box``: the points in the edition's five-of-a-kind box (Yahtzee, Yatzy)."""
    places = {s.player: (s.place, s.winner) for s in game.standings()}
    five_alike = game.rules.edition.five_of_a_kind
    return [
        {
            "game_id": game_id,
            "seat": seat,
            "card": json.dumps(card.to_dict()),
            "total": card.total,
            "upper_subtotal": card.upper_subtotal,
            "yahtzee_box": card[five_alike],
            "yahtzee_bonus": card.yahtzee_bonus,
            "place": places[seat][0],
            "winner": places[seat][1],
            "decisions": None,
            "advisor_loss": None,
        }
        for seat, card in enumerate(game.cards)
    ]
