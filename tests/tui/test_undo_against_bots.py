"""Taking a placement back in a game against bots (issue 50, item 3): with undo on, the
bot waits until the player goes on (``s``) or its countdown ends, and ``u`` meanwhile
takes the placement back; with undo off, or too late, ``u`` says why instead of nothing.
During a bot's turn the screen says that the bot plays, and shows no Roll button."""

from __future__ import annotations

import asyncio
from typing import Any

from textual.pilot import Pilot

from tests.tui.helpers import settle
from tests.tui.screens_helpers import run_app, screen_text
from yahtzee.core import BotSpec, Category, Rolled, Scored, Undone
from yahtzee.store import Seat
from yahtzee.tui import YahtzeeApp

BOT = Seat("Bot 2 (level 3)", BotSpec.at_level(3))
SEATS = [Seat("You"), BOT]
WAIT_S = 600.0
"""A countdown that does not end during a test (the player goes on, or takes back)."""
TIMEOUT_S = 60.0


def notes(app: YahtzeeApp) -> list[str]:
    return [n.message for n in app._notifications]


async def until(pilot: Pilot[None], done: Any, timeout: float = TIMEOUT_S) -> None:
    """Let the app run until ``done()`` holds (failing after ``timeout`` seconds)."""

    async def wait() -> None:
        while not done():
            await pilot.pause(0.05)

    await asyncio.wait_for(wait(), timeout)


def test_with_undo_on_the_bot_waits_and_u_takes_the_placement_back() -> None:
    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        session = app.session
        assert session is not None and session.undo_on
        await pilot.press("r", "n")  # Chance
        await pilot.pause()
        log = session.game.event_log
        assert isinstance(log[-1], Scored) and session.current == 1
        assert session.bot_waits
        info = screen_text(app, "#turn-info")
        assert "Bot 2 (level 3) plays in 600 s (s: now)." in info
        assert "(u takes it back)" in info
        assert "s Go on" in screen_text(app, "Footer")
        assert not app.screen.query_one("#roll").display  # the bot's turn: no Roll
        await pilot.pause(0.3)
        assert isinstance(session.game.event_log[-1], Scored)  # it waits
        await pilot.press("u")
        await pilot.pause()
        assert isinstance(session.game.event_log[-1], Undone)
        assert session.current == 0 and session.game.cards[0][Category.CHANCE] is None
        assert "Took back Chance" in screen_text(app, "#turn-info")
        await pilot.press("n")  # Chance again, and this time go on
        await pilot.pause()
        assert session.bot_waits
        await pilot.press("s")
        await until(pilot, lambda: session.current == 0)  # the bot played its turn
        await settle(pilot)
        assert any(isinstance(e, Rolled) and e.player == 1 for e in session.game.event_log)
        assert session.game.cards[1].total is not None
        assert "s Go on" not in screen_text(app, "Footer")

    run_app(steps, seats=SEATS, undo=True, undo_wait=WAIT_S)


def test_the_bot_plays_when_its_countdown_ends_and_then_u_says_why_not() -> None:
    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        session = app.session
        assert session is not None
        await pilot.press("r", "n")
        await until(pilot, lambda: session.current == 0 and session.game.turn is not None
                    and session.game.turn.round == 2)  # fmt: skip
        await settle(pilot)
        await pilot.press("u")
        await pilot.pause()
        assert session.game.cards[0][Category.CHANCE] is not None  # too late: it stays
        assert notes(app)[-1] == "A computer player's placement stays."  # the last one: why

    run_app(steps, seats=SEATS, undo=True, undo_wait=0.2)


def test_with_undo_off_u_against_a_bot_says_it_is_off_and_how_to_allow_it() -> None:
    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        session = app.session
        assert session is not None and not session.undo_on
        assert "Undo" not in screen_text(app, "Footer")
        await pilot.press("r", "n", "u")
        await pilot.pause()
        said = notes(app)[-1]
        assert "Taking back a placement is off in this game." in said
        assert "Tick Undo on the new-game screen (or play with --undo)" in said
        await settle(pilot)
        assert session.game.cards[0][Category.CHANCE] is not None

    run_app(steps, seats=SEATS)


def test_a_bots_turn_says_the_bot_plays_and_has_no_roll_button() -> None:
    """Issue 50.9: during a bot's turn the screen still said "Keep: 1-5 ..." and showed
    Roll."""

    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        session = app.session
        assert session is not None and session.is_bot(session.current)
        info = screen_text(app, "#turn-info")
        assert info.startswith("Bot 2 (level 3) is playing.")
        assert "Keep" not in info and "Press r" not in info
        assert not app.screen.query_one("#roll").display
        await settle(pilot)

    run_app(steps, seats=[BOT, Seat("You")], bot_pause=WAIT_S)
