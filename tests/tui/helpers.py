"""Driving the terminal game headless, as a player would."""

from __future__ import annotations

import asyncio

from textual.app import App
from textual.pilot import Pilot

from yahtzee.tui import YahtzeeApp
from yahtzee.tui.widgets import ScoreCard, row_of

_KEYS = {"add": "ctrl+a", "add-bot": "ctrl+b", "start": "ctrl+s"}


async def start_game(pilot: Pilot[None], *, mouse: bool, add: tuple[str, ...] = ()) -> None:
    """On the new-game screen, add seats (``"add"`` a player, ``"add-bot"`` a bot) and
    start, by clicking the buttons or pressing their keys."""
    await pilot.pause()
    for button in (*add, "start"):
        if mouse:
            await pilot.click(f"#{button}")
        else:
            await pilot.press(_KEYS[button])
        await pilot.pause(0.3)  # a button ignores a second press while it flashes


WORKERS_S = 120.0  # a cold solver (tables built on first use) is the slowest worker


async def workers_done(app: App[None], timeout: float = WORKERS_S) -> None:
    """Wait for the app's background work (hints, bots, the review); fail after
    ``timeout`` seconds rather than hang."""
    await asyncio.wait_for(app.workers.wait_for_complete(), timeout)


async def settle(pilot: Pilot[None]) -> None:
    """Wait for the background work (hints, bots, the review) and its redraw."""
    await workers_done(pilot.app)
    await pilot.pause()


def screen_name(app: YahtzeeApp) -> str:
    return type(app.screen).__name__


async def human_turn_by_keys(pilot: Pilot[None], app: YahtzeeApp, keep: bool = True) -> None:
    """Roll, keep the first two dice and roll again, then score the highlighted box."""
    await pilot.press("r")
    await pilot.pause()
    if keep:
        await pilot.press("1", "2", "r")
        await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()
    if screen_name(app) == "ConfirmZero":
        await pilot.press("y")
        await pilot.pause()


async def human_turn_by_mouse(pilot: Pilot[None], app: YahtzeeApp) -> None:
    """Click Roll, click a die to keep it, click Roll, click the first legal box."""
    await pilot.click("#roll")
    await pilot.pause()
    await pilot.click("#die-5")
    await pilot.click("#roll")
    await pilot.pause()
    session = app.session
    assert session is not None
    target = min(session.placements())
    row = row_of(target)
    table = app.screen.query_one(ScoreCard)
    table.scroll_to(y=0, animate=False)
    await pilot.click(ScoreCard, offset=(3, 1 + row))  # one click fills the box
    await pilot.pause()
    if screen_name(app) == "ConfirmZero":
        await pilot.click("#yes")
        await pilot.pause()


async def play_to_the_end(pilot: Pilot[None], app: YahtzeeApp, mouse: bool = False) -> None:
    session = app.session
    assert session is not None
    for _ in range(400):
        if session.game.is_over:
            break
        seat = session.game.current_player
        if session.is_bot(seat):
            await settle(pilot)
            continue
        if mouse:
            await human_turn_by_mouse(pilot, app)
        else:
            await human_turn_by_keys(pilot, app)
    await settle(pilot)


def drive(steps: object, store: object, size: tuple[int, int], timeout: float) -> None:
    """Run the terminal game on ``store`` under the pilot and play ``steps(pilot, app)``,
    within ``timeout`` seconds (every wait inside has its own limit too)."""
    import asyncio

    from yahtzee.tui import YahtzeeApp

    async def go() -> None:
        app = YahtzeeApp(store, bot_pause=0, offer_resume=False)  # type: ignore[arg-type]
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await asyncio.wait_for(steps(pilot, app), timeout)  # type: ignore[operator]

    asyncio.run(go())
