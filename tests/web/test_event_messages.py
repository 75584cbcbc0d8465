"""The event messages of one move are built with the state serialized once: each is the
same JSON, byte for byte, as the typed message of that event."""

from __future__ import annotations

import json
import random

import pytest

from yahtzee.core import Game
from yahtzee.web.messages import EventMessage
from yahtzee.web.models import GameView


@pytest.mark.parametrize("deadline", [None, 1764672000.25])
def test_a_moves_event_texts_are_its_messages(deadline: float | None) -> None:
    game = Game(["Ann", "Bo"], dice=random.Random(7))
    dice = game.roll()
    game.roll(str(dice)[:2])
    game.score("chance")
    game.roll()
    events = game.event_log
    view = GameView.of(game)
    texts = EventMessage.texts(1, events, view, deadline)
    assert len(texts) == len(events) >= 5
    for seq, (event, text) in enumerate(zip(events, texts, strict=True), start=1):
        assert text == EventMessage.of(seq, event, view, deadline).model_dump_json()
        assert json.loads(text)["seq"] == seq
