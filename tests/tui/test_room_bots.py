"""The terminal game's bots are driven by its table's room (issue 51): the play screen
hosts the same `TableRoom` the server serves tables by, and every move of a bot is one
the room's game (`LiveGame`) made and published; the screen has no bot loop of its own."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.tui.screens_helpers import run_app
from yahtzee.core import BotSpec, Event, Rolled, Scored
from yahtzee.service.live import LiveGame
from yahtzee.store import Seat
from yahtzee.tui import YahtzeeApp

BOT = Seat("Bot 1 (level 3)", BotSpec.at_level(3))
TIMEOUT_S = 60.0


def test_the_terminal_games_bots_are_driven_by_the_room(monkeypatch: pytest.MonkeyPatch) -> None:
    published: list[Event] = []
    games: list[LiveGame] = []
    serve = LiveGame.__init__

    def spied(self: LiveGame, session: Any, committer: Any, publish: Any, **options: Any) -> None:
        def told(seq: int, events: tuple[Event, ...]) -> None:
            published.extend(events)
            publish(seq, events)

        games.append(self)
        serve(self, session, committer, told, **options)

    monkeypatch.setattr(LiveGame, "__init__", spied)

    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        session = app.session
        assert session is not None and session.is_bot(0)

        async def bot_played() -> None:
            while session.current != 1:
                await pilot.pause(0.05)

        await asyncio.wait_for(bot_played(), TIMEOUT_S)  # the bot's first turn, alone
        await pilot.pause()
        assert len(games) == 1 and games[0].session is session  # the screen's room's game
        bot_moves = [e for e in session.game.event_log if isinstance(e, Rolled | Scored)]
        assert bot_moves and all(e.player == 0 for e in bot_moves)
        assert any(isinstance(e, Scored) for e in bot_moves)
        assert published == bot_moves  # each one made and told by the room, in order
        screen: Any = app.screen
        assert not hasattr(screen, "bot_timer") and not hasattr(screen, "bot_step")
        await pilot.press("r")  # the player's roll goes through the same room
        await pilot.pause()
        assert isinstance(published[-1], Rolled) and published[-1].player == 1

    run_app(steps, seats=[BOT, Seat("You")])
