"""Driving the daily game by keys: open it from the new-game screen, play scripted turns."""

from __future__ import annotations

from textual.pilot import Pilot

from tests.tui.helpers import screen_name
from yahtzee.core import Keep, Score
from yahtzee.tui import YahtzeeApp
from yahtzee.tui.widgets import BOX_KEYS

KEEPS = ("1", "2")
"""The scripted decisions: keep dice 1 and 2 for each of the two rolls again."""


async def open_daily(pilot: Pilot[None], name: str | None = None) -> None:
    """On the new-game screen: the first seat's name (typed over), then ctrl+t."""
    if name is not None:
        await pilot.click(".seat-name")
        await pilot.press("ctrl+a", "ctrl+k", *name)
    await pilot.press("ctrl+t")
    await pilot.pause()


async def turns(pilot: Pilot[None], app: YahtzeeApp, count: int, keeps: tuple[str, ...] = KEEPS,
                seen: list[str] | None = None) -> None:  # fmt: skip
    """``count`` turns: roll, keep ``keeps`` and roll again twice, then fill the first
    box it may fill in card order (its key); each roll's dice noted in ``seen``."""
    session = app.session
    assert session is not None
    for _ in range(count):
        if session.game.is_over:
            return
        for step in range(3):
            if step:
                await pilot.press(*keeps)
            await pilot.press("r")
            await pilot.pause()
            if seen is not None:
                seen.append(str(session.game.dice))
        await pilot.press(BOX_KEYS[min(session.placements())])  # the first legal box
        await pilot.pause()
        if screen_name(app) == "ConfirmZero":
            await pilot.press("y")
            await pilot.pause()


async def plain_turns(pilot: Pilot[None], app: YahtzeeApp) -> None:
    """The whole game as a plain player plays it, by keys: keep the most common face for
    each roll again, then fill the box worth most (for a picture of a likely result)."""
    session = app.session
    assert session is not None
    while not session.game.is_over:
        await pilot.press("r")
        await pilot.pause()
        for _ in range(2):
            dice = session.game.dice
            assert dice is not None
            face = max(set(dice.faces), key=lambda f: (dice.faces.count(f), f))
            pairs = enumerate(zip(dice.faces, session.held, strict=True))
            keys = [str(i + 1) for i, (f, held) in pairs if (f == face) != held]
            await pilot.press(*keys, "r")
            await pilot.pause()
        options = session.placements()
        box = max(options, key=lambda c: (options[c].total, -int(c)))
        await pilot.press(BOX_KEYS[box])
        await pilot.pause()
        if screen_name(app) == "ConfirmZero":
            await pilot.press("y")
            await pilot.pause()


async def advised_turns(pilot: Pilot[None], app: YahtzeeApp, slips: frozenset[int]) -> None:
    """The whole game by keys as the advisor would play it, but for the rounds in
    ``slips``, where each decision is the advisor's second choice (a likely player's
    game: a few points lost)."""
    session = app.session
    assert session is not None
    solver = session.solver()
    while not session.game.is_over:
        situation = session.game.situation()
        if situation is None:
            await pilot.press("r")
            await pilot.pause()
            continue
        options = solver.advise(situation).options
        turn = session.game.turn
        assert turn is not None
        action = options[1 if turn.round in slips and len(options) > 1 else 0].action
        if isinstance(action, Score):
            await pilot.press(BOX_KEYS[action.category])
            await pilot.pause()
            if screen_name(app) == "ConfirmZero":
                await pilot.press("y")
                await pilot.pause()
            continue
        assert isinstance(action, Keep)
        wanted = list(action.faces)
        keys = []
        for i, (face, held) in enumerate(zip(situation.dice.faces, session.held, strict=True)):
            keep = face in wanted
            if keep:
                wanted.remove(face)
            if keep != held:
                keys.append(str(i + 1))
        await pilot.press(*keys, "r")
        await pilot.pause()
